import assert from "node:assert/strict";
import {test} from "node:test";
import {atTiers, chosenTiers, compareCells, matchesAll, midSentence, scaledPattern} from "../src/site/filters.js";
import {chipText} from "../src/site/upgrade_picker.js";
import {regionName} from "../src/site/scroll_regions.js";

test("a filter keeps the rows holding every word, case aside", () => {
  assert.equal(matchesAll("Dash — Movement action", "dash ACTION"), true);
  assert.equal(matchesAll("Dash — Movement action", "dash attack"), false);
  assert.equal(matchesAll("anything", "   "), true);
});

test("columns sort numbers by value and empty cells last, either way", () => {
  const cells = ["10", "", "9", "b", "A"];
  assert.deepEqual([...cells].sort((x, y) => compareCells(x, y, true)), ["9", "10", "A", "b", ""]);
  assert.deepEqual([...cells].sort((x, y) => compareCells(x, y, false)), ["b", "A", "10", "9", ""]);
});

test("scaled amounts read at the chosen tiers, the others as written", () => {
  const text = "8(bT) KP, 2d6(T) damage, 3(T) rounds, 4(L) feet";
  const pattern = scaledPattern(["T", "bT"]);
  assert.equal(atTiers(text, {bT: 3}, pattern), "24 (8(bT)) KP, 2d6(T) damage, 3(T) rounds, 4(L) feet");
  assert.equal(atTiers(text, {T: 2, bT: 1}, pattern), "8 (8(bT)) KP, 4d6 (2d6(T)) damage, 6 (3(T)) rounds, 4(L) feet");
  assert.equal(atTiers(text, {}, pattern), text);
});

test("a scaling's notation is read as written, its regex characters too, and zero counts", () => {
  const pattern = scaledPattern(["R+", "L"]);
  assert.equal(atTiers("2(R+) and 2(RR) and 3(L)", {"R+": 0, L: 2}, pattern), "0 (2(R+)) and 2(RR) and 6 (3(L))");
  assert.equal(atTiers("2(R) and 1d4(R+)", {"R+": 3}, pattern), "2(R) and 3d4 (1d4(R+))");
  assert.equal("5(.)".search(scaledPattern(["x."])), -1);
  assert.equal("5(x.)".search(scaledPattern(["x."])), 0);
});

test("a kind's plural reads mid-sentence as Python's mid_sentence() writes it", () => {
  assert.deepEqual(["Moves", "GM moves", "型", "X", "Élan", "General rules"].map(midSentence),
    ["moves", "GM moves", "型", "X", "élan", "general rules"]);
});

test("only whole numbers within a field's range count", () => {
  const fields = [{kind: "T", value: "4", min: 1, max: 9}, {kind: "bT", value: "10", min: 1, max: 9},
    {kind: "R+", value: "0", min: 0, max: 5}];
  assert.deepEqual(chosenTiers(fields), {T: 4, "R+": 0});
  assert.deepEqual(chosenTiers([{kind: "T", value: "", min: 1, max: 9}, {kind: "bT", value: "0", min: 1, max: 9},
    {kind: "L", value: "2.5", min: 1, max: 20}, {kind: "M", value: " ", min: 0, max: 20}]), {});
});

test("a chip names its upgrade and the times taken; a scrolling box is named by its heading", () => {
  assert.deepEqual([chipText("Power", 1), chipText("Power", 3)], ["Power \u2715", "Power \u00d73 \u2715"]);
  assert.deepEqual([regionName(true, "Dash"), regionName(false, "Dash \u00b6 "), regionName(false, null)],
    ["Example", "Dash (table)", "Table"]);
});
