// Runs calls against the generated JavaScript, one Node process for a whole test run: node js_harness.js, then
// one request a line on stdin, {docs, calls}, and one answer a line on stdout, the list of the calls' results.
// Each request's runtime.js and systems' scripts (DOCS/assets/rulesc/formulas/<id>.js) run in a fresh global (a vm
// context), so nothing one build defines reaches the next, as if each had a process of its own.
// Each call: {system, formula | calculator, args, types}; dice arguments arrive as text.
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const vm = require("vm");

function encoder(R) {
  return function encode(value) {  // as tests/backends.py encode() does for Python values
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
  };
}

function run(context, encode, call) {
  const R = context.RulesRuntime, system = context.RulesSystems[call.system];
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

function load(docs) {  // a fresh global holding one build's runtime and formulas
  const context = vm.createContext({crypto: globalThis.crypto});
  const assets = path.resolve(docs, "assets/rulesc"), systems = path.join(assets, "formulas");
  const files = [path.join(assets, "runtime.js"), ...fs.readdirSync(systems).sort().map((n) => path.join(systems, n))];
  for (const file of files) vm.runInContext(fs.readFileSync(file, "utf8"), context, {filename: file});
  return context;
}

function answer(request) {  // the calls read in the build's global, so their lists are its own arrays
  const context = load(request.docs), encode = encoder(context.RulesRuntime);
  const calls = vm.runInContext("JSON", context).parse(JSON.stringify(request.calls));
  return calls.map((call) => run(context, encode, call));
}

readline.createInterface({input: process.stdin, crlfDelay: Infinity}).on("line", (line) => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
});
