// Runs the runtime conformance cases (rulesc/runtime/spec/*.json) against the JavaScript runtime:
//   node runtime_spec.js RUNTIME [DISPLAY] < cases.json > outcomes.json
// tests/test_runtime_contract.py sends the cases with every name already spelled for JavaScript (contract.py) and
// compares each outcome with the case's result or error; values are encoded as the spec's README says. With the
// widget's display module (DISPLAY, frontend/src/calculators/display.js, an ES module required after the runtime),
// a case {"display": value, format, type, labels, suffix} gives the widget's text (rulesc/runtime/spec/display/,
// read by tests/test_display.py).
"use strict";
const path = require("path");
globalThis.document = {readyState: "complete", querySelectorAll: () => []};  // the widget binds nothing here
const loaded = process.argv.slice(2).map((file) => require(path.resolve(file)));
const R = globalThis.RulesRuntime;
const widget = loaded.find((module) => typeof module.display === "function");

const CALLBACKS = {  // the spec's {"fn": name} arguments; tests/test_runtime_contract.py has the same ones
  double: (x) => 2 * x,
  plus_one: (x) => x + 1,
  halve: (x) => R.floorDiv(x, 2),
  at_least_4: (x) => x >= 4,
  high_low: (x) => (x >= 4 ? "high" : "low"),
  roll_die: (r) => R.asDist(R.dice(1, r)),
  one: () => 1,
  zero: () => 0,
  hit: () => "hit",
  miss: () => "miss",
  sum: (...xs) => xs.reduce((a, b) => a + b, 0),
  sum_high_low: (...xs) => (xs.reduce((a, b) => a + b, 0) >= 5 ? "high" : "low"),
  first_two: (answers) => answers[0] + answers[1],
  answers_sum: (answers) => answers.reduce((a, b) => a + b, 0),
  first_at_least_4: (answers) => answers[0] >= 4,
  first_high_low: (answers) => (answers[0] >= 4 ? "high" : "low"),
  damage_by_first: (answers) => (answers[0] === 6 ? R.diceAdd(R.dice(2, 8), 3)
    : answers[0] >= 3 ? R.diceAdd(R.dice(1, 8), 3) : 0),
  roll_by_first: (answers) => R.asDist(R.dice(answers[0], 4)),
  far_by_first: (answers) => (answers[0] === 1 ? 0 : 2000000),
};

function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== "object") return v;
  if ("call" in v) return R[v.call](...v.args.map(decode));
  if ("dice" in v) return R.parseDice(v.dice);
  if ("roll" in v) return R.asDist(R.parseDice(v.roll));
  if ("exact" in v) { const [n, d] = v.exact.split("/"); return R.ratio(BigInt(n), BigInt(d || "1")); }
  if ("float" in v) return new R.Real(v.float);
  if ("big" in v) return BigInt(v.big);
  if ("map" in v) return new Map(v.map.map(([key, x]) => [key, decode(x)]));
  if ("fn" in v) return CALLBACKS[v.fn];
  if ("roll_table" in v) return R.rollTables(v.tables)[v.roll_table];
  if ("upgrades" in v) {
    return Object.fromEntries(Object.entries(v.upgrades).map(([id, u]) => [id, Object.assign(
      {requires: [], excludes: [], max_times: 1, requires_any: []}, u)]));
  }
  throw new Error("unknown value " + JSON.stringify(v));
}

const chance = (w, total) => String(R.ratio(w, total));

function encode(v, as) {
  if (as === "joint") {
    return {joint: [...v.joint].map(([k, w]) => [k, String(w)]).sort(), total: String(v.total)};
  }
  if (v instanceof R.Dice) return {dice: String(v)};
  if (v instanceof R.Dist) {
    return {dist: v.weights.flatMap((w, i) => (w ? [[v.offset + i, chance(w, v.total)]] : []))};
  }
  if (v instanceof R.Outcomes) return {outcomes: v.labels.map((l, i) => [l, chance(v.weights[i], v.total)])};
  if (v instanceof R.Q) return {exact: String(v)};
  if (v instanceof R.Real) return {float: v.v};
  if (typeof v === "bigint") return {exact: String(v)};
  if (typeof v === "number" && !Number.isInteger(v)) return {float: v};
  if (Array.isArray(v)) return v.map((x) => encode(x));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]));
  return v === undefined ? null : v;
}

function run(c) {
  try {
    if ("display" in c) return {text: widget.display(decode(c.display), c.format, c.type, c.labels || [], c.suffix || "", c.texts || null)};
    if ("is" in c) return {result: decode(c.value) instanceof R[c.is]};
    const found = R[c.call];
    if (found === undefined) return {missing: c.call};
    return {result: encode("args" in c ? found(...c.args.map(decode)) : found, c.as)};
  } catch (e) {
    if (!(e instanceof R.RulesError)) return {crash: String(e && e.stack)};
    return {error: e.message, type: e.name};
  }
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => { process.stdout.write(JSON.stringify(JSON.parse(input).map(run))); });
