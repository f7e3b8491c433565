import assert from "node:assert/strict";
import {test} from "node:test";
import {below, bitLength, cryptoBits, pick} from "../src/shared/sample.js";
import {LOG_SIZE, parseLog, withEntry} from "../src/shared/roll_log.js";

/** A bit source that hands out the listed numbers in turn and records how many bits each draw asked for. */
function listed(numbers) {
  const asked = [];
  const bits = (k) => { asked.push(k); return numbers.shift(); };
  return {bits, asked};
}

test("bit lengths are Python's int.bit_length()", () => {
  assert.deepEqual([0n, 1n, 2n, 3n, 35n, 36n, 64n, 2n ** 70n].map(bitLength), [0, 1, 2, 2, 6, 6, 7, 71]);
});

test("a draw that reaches the total is drawn again, with as many bits as the total takes", () => {
  const source = listed([40n, 36n, 35n]);
  assert.equal(below(36n, source.bits), 35n);
  assert.deepEqual(source.asked, [6, 6, 6]);
});

test("the cumulative weights find the outcome: 0-4 the first, 5 the second, 6-9 the third", () => {
  const weights = [5n, 1n, 4n];
  const picked = [0n, 4n, 5n, 6n, 9n].map((r) => pick(weights, 10n, () => r));
  assert.deepEqual(picked, [0, 0, 1, 2, 2]);
});

test("an outcome of weight 0 is never picked", () => {
  assert.deepEqual([0n, 1n, 2n].map((r) => pick([1n, 0n, 2n], 3n, () => r)), [0, 2, 2]);
});

test("weights short of their total are an error, never a silent last outcome", () => {
  assert.throws(() => pick([1n, 1n], 3n, () => 2n), /less than their total/);
  assert.throws(() => below(0n, () => 0n), /nothing to pick/);
});

test("the device's bits come from crypto.getRandomValues, never Math.random", (t) => {
  t.mock.method(Math, "random", () => { throw new Error("Math.random was called"); });
  const calls = t.mock.method(globalThis.crypto, "getRandomValues");
  for (const k of [1, 6, 32, 33, 100]) {
    const bits = cryptoBits(k);
    assert.ok(bits >= 0n && bits < 2n ** BigInt(k), `${k} bits: ${bits}`);
  }
  assert.equal(calls.mock.callCount(), 5);
  assert.deepEqual(calls.mock.calls.map((call) => call.arguments[0].length), [1, 1, 1, 2, 4]);
  const counts = [0, 0, 0];
  for (let i = 0; i < 3000; i++) counts[pick([1n, 1n, 1n], 3n)]++;
  assert.ok(counts.every((c) => c > 850 && c < 1150), String(counts));  // each about 1000 (sd 26): fails about once in 10^7 runs
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
