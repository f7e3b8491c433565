import assert from "node:assert/strict";
import {test} from "node:test";
import {R} from "./runtime.js";

const {display, inOrder, percent} = await import("../src/calculators/display.js");

test("a number shows whole, with decimals or as a percent, as its output asks", () => {
  assert.equal(display(7, null, "int"), "7");
  assert.equal(display(7, null, "int", null, " ft"), "7 ft");
  assert.equal(display(R.ratio(2n, 3n), "decimal", "num"), "0.67");
  assert.equal(display(R.ratio(2n, 3n), "decimal", "int"), "0.67");  // a fraction is never shown whole
  assert.equal(display(R.ratio(1n, 32n), "percent", "num"), "3.13%");
  assert.equal(display(3, null, "num"), "3.00");
  assert.equal(percent(R.ratio(39n, 40n)), "97.50%");
});

test("yes or no, lists, and an empty pool", () => {
  assert.equal(display(true, null, "bool"), "yes");
  assert.equal(display(false, null, "bool"), "no");
  assert.equal(display(["a", "b"], null, "text"), "a; b");
  assert.equal(display([], null, "text"), "none");
  assert.equal(display(R.parseDice("1d10+1d4"), null, "dice"), "1d10+1d4");
  assert.equal(display(R.parseDice("0"), null, "dice"), "\u2014");
});

test("a roll reads as its average and spread, with the unit after each", () => {
  const twoD6 = new R.Dist(2, [1n, 2n, 3n, 4n, 5n, 6n, 5n, 4n, 3n, 2n, 1n], 36n);
  assert.equal(display(twoD6, null, "dist", null, " hp"), "Average 7.00 hp, typically within \u00b12.42 hp");
});

test("named outcomes read as a sentence in the formula's order; an event as its chance of yes", () => {
  const outcomes = new R.Outcomes(["miss", "hit", "critical"], [1n, 2n, 1n], 4n);
  assert.equal(display(outcomes, null, "outcome", ["critical", "hit"]), "Critical 25.00%, hit 50.00%, miss 25.00%");
  assert.deepEqual(inOrder(outcomes, null).map((item) => item[0]), ["miss", "hit", "critical"]);
  const event = new R.Outcomes([false, true], [3n, 1n], 4n);
  assert.equal(display(event, null, "event"), "25.00%");
});
