import assert from "node:assert/strict";
import {test} from "node:test";
import {clearance} from "../src/calculators/clear.js";

test("a field under the answers scrolls up past their top, with room; one above them stays", () => {
  assert.equal(clearance(700, 650, 650), 58);  /* held at the screen's bottom */
  assert.equal(clearance(641.2, 650, 650), 0);
  assert.equal(clearance(642.5, 650, 650), 1);
  assert.equal(clearance(300, 650, 650), 0);
  assert.equal(clearance(844, 764, 657), 195);  /* held at its calculator's top: they move up with the page first */
  assert.equal(clearance(300, 764, 657), 0);
});
