import assert from "node:assert/strict";
import {test} from "node:test";
import {sliced} from "../src/calculators/slices.js";
import {nextTask} from "../src/shared/tasks.js";

/** A clock that a test moves by hand, and tasks that run only when the test says: nextTask() settles on run(). */
function browser() {
  const seen = {now: 0, waiting: []};
  Object.defineProperty(globalThis, "performance", {configurable: true, writable: true, value: {now: () => seen.now}});
  globalThis.scheduler = {yield: () => new Promise((resolve) => { seen.waiting.push(resolve); })};
  seen.run = async () => {
    seen.waiting.shift()();
    await new Promise((resolve) => { setImmediate(resolve); });  /* the slice's microtasks */
  };
  return seen;
}

test("work runs in slices of its budget, each slice after the first in a later task", async () => {
  const seen = browser(), done = [];
  const add = sliced((item) => { done.push(item); seen.now += 3; }, 4);
  add(["a", "b", "c", "d", "e"]);
  assert.deepEqual(done, ["a", "b"]);  /* 0 and 3 ms in: under 4, so a second item; at 6 ms the slice ends */
  assert.equal(seen.waiting.length, 1);
  await seen.run();
  assert.deepEqual(done, ["a", "b", "c", "d"]);
  await seen.run();
  assert.deepEqual(done, ["a", "b", "c", "d", "e"]);
  assert.equal(seen.waiting.length, 0);
});

test("items queued while slices are under way join them, once each; a later call starts again", async () => {
  const seen = browser(), done = [];
  const add = sliced((item) => { done.push(item); seen.now += 5; }, 4);
  add(["a", "b", "c"]);
  add(["b", "c", "d"]);  /* b and c are still queued: they stay where they are */
  assert.deepEqual(done, ["a"]);
  while (seen.waiting.length) await seen.run();
  assert.deepEqual(done, ["a", "b", "c", "d"]);
  add(["e"]);
  assert.deepEqual(done, ["a", "b", "c", "d", "e"]);
});

test("a later task is scheduler.yield() where the browser has it, else a MessageChannel message", async () => {
  const seen = browser();
  let settled = false;
  nextTask().then(() => { settled = true; });
  await new Promise((resolve) => { setImmediate(resolve); });
  assert.equal(settled, false);
  await seen.run();
  assert.equal(settled, true);
  delete globalThis.scheduler;
  await nextTask();  /* node's MessageChannel: settles once its message is delivered */
});
