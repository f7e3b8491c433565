import assert from "node:assert/strict";
import {test} from "node:test";
import {afterFirstPaint} from "../src/site/first_paint.js";

/** A browser's globals as afterFirstPaint reads them: its paint entries so far, its tab's visibility, and a
    PerformanceObserver (or none) whose callbacks the test fires; returns them to change and fire. */
function browser({entries = [], visibility = "visible", observer = true} = {}) {
  const seen = {entries, observers: [], disconnected: 0};
  class FakeObserver {
    static supportedEntryTypes = ["paint", "longtask"];
    constructor(callback) { this.callback = callback; }
    observe(options) { assert.deepEqual(options, {type: "paint"}); seen.observers.push(this); }
    disconnect() { seen.disconnected++; }
  }
  Object.defineProperty(globalThis, "performance", {configurable: true, writable: true,
    value: {getEntriesByName: (name) => seen.entries.filter((e) => e.name === name)}});
  globalThis.window = {PerformanceObserver: observer ? FakeObserver : undefined};
  globalThis.document = {visibilityState: visibility};
  return seen;
}

test("work after the first paint waits for the first contentful paint, not the first paint", () => {
  const seen = browser();
  let runs = 0;
  afterFirstPaint(() => { runs++; });
  assert.equal(runs, 0);
  assert.equal(seen.observers.length, 1);
  seen.entries.push({name: "first-paint"});
  seen.observers[0].callback();
  assert.equal(runs, 0);
  seen.entries.push({name: "first-contentful-paint"});
  seen.observers[0].callback();
  assert.deepEqual([runs, seen.disconnected], [1, 1]);
});

test("work after the first paint runs at once once painted, in a hidden tab or without paint timing", () => {
  for (const setting of [{entries: [{name: "first-contentful-paint"}]}, {visibility: "hidden"}, {observer: false}]) {
    const seen = browser(setting);
    let runs = 0;
    afterFirstPaint(() => { runs++; });
    assert.deepEqual([runs, seen.observers.length], [1, 0], JSON.stringify(setting));
  }
});
