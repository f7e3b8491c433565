// Runs calls against the generated JavaScript: node js_harness.js DOCS_DIR < calls.json > results.json
// Each call: {system, formula | calculator, args, types}; dice arguments arrive as text.
"use strict";
const path = require("path");
const docs = process.argv[2];
require(path.resolve(docs, "assets/rulesc/runtime.js"));
const formulas = path.resolve(docs, "assets/rulesc/formulas");  // each system's script adds it to RulesSystems
for (const name of require("fs").readdirSync(formulas).sort()) require(path.join(formulas, name));
const R = globalThis.RulesRuntime;

function encode(value) {  // as tests/backends.py encode() does for Python values
  if (value instanceof R.Dice) return {dice: String(value)};
  if (value instanceof R.Dist) {
    const out = [];
    value.weights.forEach((w, i) => { if (w) out.push([value.offset + i, String(R.ratio(w, value.total))]); });
    return {dist: out};
  }
  if (value instanceof R.Outcomes) return {outcomes: value.labels.map((l, i) => [l, String(R.ratio(value.weights[i], value.total))])};
  if (value instanceof R.Q) return {exact: String(value)};
  if (value instanceof R.Real) return {float: value.v};
  if (Array.isArray(value)) return value.map(encode);
  return value;
}

function run(call) {
  const system = globalThis.RulesSystems[call.system];
  const args = Object.create(null);  // no prototype: a name may be __proto__
  for (const [name, value] of Object.entries(call.args)) {
    args[name] = call.types[name] === "dice" ? R.parseDice(value) : value;
  }
  try {
    if (call.formula) {
      return {value: encode(system.formulas[call.formula](...call.order.map((n) => args[n])))};
    }
    const calc = system.calculators[call.calculator];
    const env = Object.assign(Object.create(null), args), out = Object.create(null);
    for (const o of calc.outputs) { env[o.name] = out[o.name] = o.run(env); }
    return {value: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, encode(v)]))};
  } catch (e) {
    return {error: e.name + ": " + e.message};
  }
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => { process.stdout.write(JSON.stringify(JSON.parse(input).map(run))); });
