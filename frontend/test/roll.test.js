import assert from "node:assert/strict";
import {test} from "node:test";
import {R} from "./runtime.js";

const {rollOnce} = await import("../src/calculators/roll.js");

test("a roll of named outcomes, yes or no, a distribution or a pool gives one of its results", (t) => {
  t.mock.method(Math, "random", () => { throw new Error("Math.random was called"); });
  const named = new R.Outcomes(["hit", "miss"], [1n, 3n], 4n);
  const event = new R.Outcomes([false, true], [0n, 1n], 1n);
  const dist = new R.Dist(3, [0n, 1n, 0n], 1n);  // always 4
  for (let i = 0; i < 20; i++) assert.ok(["hit", "miss"].includes(rollOnce(named)));
  assert.equal(rollOnce(event), "yes");
  assert.equal(rollOnce(dist), "4");
  assert.match(rollOnce(R.parseDice("1d6+10")), /^1[1-6]$/);
});

test("a value that is not a roll, or a pool with no dice, has nothing to roll", () => {
  assert.equal(rollOnce(7), null);
  assert.equal(rollOnce("critical"), null);
  assert.equal(rollOnce(R.parseDice("0")), null);
  assert.equal(rollOnce(R.ratio(1n, 2n)), null);
});

test("the device's rolls draw their bits from crypto.getRandomValues, never Math.random", (t) => {
  t.mock.method(Math, "random", () => { throw new Error("Math.random was called"); });
  const calls = t.mock.method(globalThis.crypto, "getRandomValues");
  const counts = [0, 0, 0, 0];
  for (let i = 0; i < 4000; i++) counts[Number(rollOnce(R.parseDice("1d4"))) - 1]++;
  assert.ok(calls.mock.callCount() >= 4000, String(calls.mock.callCount()));
  assert.ok(counts.every((c) => c > 850 && c < 1150), String(counts));  // each about 1000 (sd 27): fails once in 10^7
});
