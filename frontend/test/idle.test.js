import assert from "node:assert/strict";
import {test} from "node:test";
import {IDLE_WAIT_MS, afterLoadWhenIdle} from "../src/offline/idle.js";

/** A browser's globals as afterLoadWhenIdle reads them: the document's state, the window's load listeners and idle
    callbacks (or none), and timers; returns them to fire. */
function browser({readyState = "interactive", idle = true} = {}) {
  const seen = {load: [], idle: [], timers: []};
  globalThis.document = {readyState};
  globalThis.window = {
    addEventListener(type, listener) { assert.equal(type, "load"); seen.load.push(listener); },
    requestIdleCallback: idle ? (callback, options) => { seen.idle.push([callback, options]); } : undefined,
  };
  globalThis.setTimeout = (callback, ms) => { seen.timers.push([callback, ms]); };
  return seen;
}

test("the work waits for the load event, then for an idle period, in a task of its own", () => {
  const seen = browser();
  let runs = 0;
  afterLoadWhenIdle(() => { runs++; });
  assert.deepEqual([seen.load.length, seen.idle.length, runs], [1, 0, 0]);
  seen.load[0]();
  assert.deepEqual([seen.idle.length, runs], [1, 0]);
  assert.deepEqual(seen.idle[0][1], {timeout: IDLE_WAIT_MS});
  seen.idle[0][0]();
  assert.equal(runs, 1);
});

test("after the load event it waits for an idle period only; without idle callbacks, for a task of its own", () => {
  const loaded = browser({readyState: "complete"});
  let runs = 0;
  afterLoadWhenIdle(() => { runs++; });
  assert.deepEqual([loaded.load.length, loaded.idle.length, runs], [0, 1, 0]);
  const noIdle = browser({idle: false});
  afterLoadWhenIdle(() => { runs++; });
  noIdle.load[0]();
  assert.deepEqual([noIdle.timers.length, noIdle.timers[0][1], runs], [1, 0, 0]);
  noIdle.timers[0][0]();
  assert.equal(runs, 1);
});
