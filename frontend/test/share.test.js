import assert from "node:assert/strict";
import {test} from "node:test";
import {addressInputs, shareUrl} from "../src/calculators/share.js";

const SPECS = [
  {name: "tier", type: "int", label: "Tier", default: 3},
  {name: "focused", type: "bool", label: "Focused", default: false},
  {name: "upgrades", type: "upgrades", label: "Upgrades", default: []},
  {name: "pool", type: "dice", label: "Pool", default: "1d10+1d4"},
];

test("a share link holds only the inputs that differ from their defaults", () => {
  const url = shareUrl("https://example.org/dbu/attacks/?x=1#top", "attack", SPECS,
    {tier: "5", focused: "0", upgrades: "a,a,b", pool: "1d10+1d4"});
  assert.equal(url.toString(), "https://example.org/dbu/attacks/?x=1&attack.tier=5&attack.upgrades=a%2Ca%2Cb#top");
});

test("inputs back at their defaults leave the address", () => {
  const url = shareUrl("https://example.org/p/?attack.tier=5&attack.focused=1", "attack", SPECS,
    {tier: "3", focused: "1", upgrades: "", pool: "2d6"});
  assert.equal(url.search, "?attack.focused=1&attack.pool=2d6");
});

test("an address restores this calculator's inputs only, in the calculator's order", () => {
  const found = addressInputs("?other.tier=9&attack.pool=2d6&attack.tier=7&attack.upgrades=", "attack", SPECS);
  assert.deepEqual([...found], [["tier", "7"], ["upgrades", ""], ["pool", "2d6"]]);
});
