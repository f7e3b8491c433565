import assert from "node:assert/strict";
import {test} from "node:test";
import {cryptoBits, deviceRng} from "../src/shared/sample.js";
import {LOG_SIZE, parseLog, withEntry} from "../src/shared/roll_log.js";

test("the device's bits come from crypto.getRandomValues, never Math.random", (t) => {
  t.mock.method(Math, "random", () => { throw new Error("Math.random was called"); });
  const calls = t.mock.method(globalThis.crypto, "getRandomValues");
  for (const k of [1, 6, 32, 33, 100]) {
    const bits = cryptoBits(k);
    assert.ok(bits >= 0n && bits < 2n ** BigInt(k), `${k} bits: ${bits}`);
  }
  assert.equal(calls.mock.callCount(), 5);
  assert.deepEqual(calls.mock.calls.map((call) => call.arguments[0].length), [1, 1, 1, 2, 4]);
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < 4000; i++) counts[Number(deviceRng.getrandbits(2))]++;
  assert.ok(counts.every((c) => c > 850 && c < 1150), String(counts));  // each about 1000 (sd 27): fails once in 10^7
});

test("the log keeps the newest first and the last 20 only", () => {
  let log = [];
  for (let i = 0; i < LOG_SIZE + 3; i++) log = withEntry(log, {title: "T", href: "h", result: String(i)});
  assert.equal(log.length, 20);
  assert.deepEqual([log[0].result, log[19].result], ["22", "3"]);
});

test("stored text that is not a log reads as an empty log; stray entries are dropped", () => {
  assert.deepEqual(parseLog(null), []);
  assert.deepEqual(parseLog("{not json"), []);
  assert.deepEqual(parseLog('{"title": "x"}'), []);
  assert.deepEqual(parseLog('[{"title": "A", "href": "h", "result": "4"}, {"title": 3}, null]'),
    [{title: "A", href: "h", result: "4"}]);
});
