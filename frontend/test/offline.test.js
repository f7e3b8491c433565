import assert from "node:assert/strict";
import {test} from "node:test";
import {megabytes} from "../src/offline/choice.js";

test("a size reads as a download's: megabytes with one decimal, else whole kilobytes", () => {
  assert.equal(megabytes(7_949_312), "7.9\u00a0MB");
  assert.equal(megabytes(1_000_000), "1.0\u00a0MB");
  assert.equal(megabytes(999_499), "999\u00a0kB");
  assert.equal(megabytes(120), "1\u00a0kB");
});
