// Runs calls against the generated JavaScript: node js_harness.js DOCS_DIR < calls.json > results.json
// Each call: {system, formula | calculator, args, types}; dice arguments arrive as text.
"use strict";
const path = require("path");
const docs = process.argv[2];
require(path.resolve(docs, "assets/rulesc/runtime.js"));
require(path.resolve(docs, "assets/rulesc/formulas.js"));
const R = globalThis.RulesRuntime;

function encode(value) {
  if (value instanceof R.Dice) return {dice: String(value)};
  if (value instanceof R.Dist) {
    const out = [];
    value.p.forEach((p, i) => { if (p !== 0) out.push([value.offset + i, p]); });
    return {dist: out};
  }
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
