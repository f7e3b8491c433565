// Runs one system's generated formulas for the differential test: node differential.js DOCS_DIR SYSTEM < calls.json
// Each call: {formula, args, types}, arguments in order, dice pools as text, or {calculator, names, args, types}
// for a calculator's inputs (its answer: every output by name). Each answer: {value}, {error} for the
// runtime's RulesError, or {crash} for anything else. A value is R.exact(value) when the runtime has R.exact (as
// {exact: ...}), else a pool's text ({dice}), a roll's outcomes ({dist: [[outcome, p], ...]}) or the plain value.
"use strict";
const path = require("path");
require(path.resolve(process.argv[2], "assets/rulesc/runtime.js"));
require(path.resolve(process.argv[2], "assets/rulesc/formulas", process.argv[3] + ".js"));
const R = globalThis.RulesRuntime;
const system = globalThis.RulesSystems[process.argv[3]];

function plain(x) {
  if (typeof x === "bigint") return {bigint: x.toString()};
  if (typeof x === "number") return Number.isFinite(x) ? x : {nonfinite: String(x)};
  if (Array.isArray(x)) return x.map(plain);
  if (x !== null && typeof x === "object") {
    const out = {};
    for (const key of Object.keys(x)) out[key] = plain(x[key]);
    return out;
  }
  return x;
}

function encode(value) {
  if (typeof R.exact === "function") return {exact: plain(R.exact(value))};
  if (value instanceof R.Dice) return {dice: String(value)};
  if (value instanceof R.Dist) {
    const out = [];
    value.p.forEach((p, i) => { if (p !== 0) out.push([value.offset + i, p]); });
    return {dist: out};
  }
  if (value !== null && typeof value === "object") return {object: String(value)};
  return plain(value);
}

function calculate(calculator, names, args) {
  const env = Object.create(null), out = Object.create(null);  // no prototype: a name may be __proto__
  names.forEach((name, i) => { env[name] = args[i]; });
  for (const o of system.calculators[calculator].outputs) {
    env[o.name] = o.run(env);
    out[o.name] = encode(env[o.name]);
  }
  return out;
}

function run(call) {
  try {
    const args = call.args.map((a, i) => (call.types[i] === "dice" ? R.parseDice(a) : a));
    if (call.calculator) return {value: calculate(call.calculator, call.names, args)};
    return {value: encode(system.formulas[call.formula](...args))};
  } catch (e) {
    if (e instanceof R.RulesError) return {error: e.message};
    return {crash: (e && e.name) + ": " + (e && e.message)};
  }
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => { process.stdout.write(JSON.stringify(JSON.parse(input).map(run))); });
