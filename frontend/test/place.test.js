import assert from "node:assert/strict";
import {test} from "node:test";
import {otherParts} from "../src/site/place.js";

test("the drawer lists every part but the page being read", () => {
  const parts = [["../layout/", "Layout"], ["./", "Formulas"], ["../warnings/", "Warnings"]];
  assert.deepEqual(otherParts(parts, "https://x.invalid/rules/errors/formulas/#e0401"),
                   [["../layout/", "Layout"], ["../warnings/", "Warnings"]]);
});
