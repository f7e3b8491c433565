import assert from "node:assert/strict";
import {test} from "node:test";
import {R} from "./runtime.js";

const {parsePool} = await import("../src/calculators/fields.js");

test("a typed d66 is tens and units and d(66) a die of 66 sides, as in formulas", () => {
  const d66 = parsePool("d66").value, sides = parsePool("1d( 66 )").value;
  assert.equal(String(d66), "1d66");
  assert.equal(String(sides), "1d(66)");
  assert.equal(String(R.mean(d66)), "77/2");
  assert.equal(String(R.mean(sides)), "67/2");
  assert.equal(String(R.probEq(d66, 17)), "0");
  assert.equal(String(R.parseDice(String(R.parseDice("2d666+1d(66)!")))), "1d(66)!+2d666");
});

test("a dice field says why a d66 cannot explode, and asks for dice where the text is none", () => {
  assert.deepEqual(parsePool("d66!"), {error: "D66 is a roll read as tens and units, which cannot explode or be "
    + "rerolled: write 1d(66)! for a die of 66 sides."});
  assert.deepEqual(parsePool("2x6"), {error: "Enter dice like 1d10+1d4."});
});
