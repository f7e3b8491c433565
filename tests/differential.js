// Runs the generated formulas of many rulebooks for the differential test, one Node process for all of them:
// node differential.js, then one request a line on stdin, {docs, system, calls}, and one answer a line on stdout,
// the list of the calls' answers. Each rulebook's runtime.js and its systems' scripts (formulas/<id>.js) run in a
// fresh global (a vm context), so nothing one rulebook defines reaches the next, as if each had its own process.
// Each call: {formula, args, types}, arguments in order, dice pools as text, or {calculator, names, args, types}
// for a calculator's inputs (its answer: every output by name). Each answer: {value}, {error} for the
// runtime's RulesError, or {crash} for anything else. A value is R.exact(value) when the runtime has R.exact (as
// {exact: ...}), else a pool's text ({dice}), a roll's outcomes ({dist: [[outcome, p], ...]}) or the plain value.
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const vm = require("vm");

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

function encode(R, value) {
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

function calculate(R, system, calculator, names, args) {
  const env = Object.create(null), out = Object.create(null);  // no prototype: a name may be __proto__
  names.forEach((name, i) => { env[name] = args[i]; });
  for (const o of system.calculators[calculator].outputs) {
    env[o.name] = o.run(env);
    out[o.name] = encode(R, env[o.name]);
  }
  return out;
}

function run(R, system, call) {
  try {
    const args = call.args.map((a, i) => (call.types[i] === "dice" ? R.parseDice(a) : a));
    if (call.calculator) return {value: calculate(R, system, call.calculator, call.names, args)};
    return {value: encode(R, system.formulas[call.formula](...args))};
  } catch (e) {
    if (e instanceof R.RulesError) return {error: e.message};
    return {crash: (e && e.name) + ": " + (e && e.message)};
  }
}

function load(docs) {  // a fresh global holding one rulebook's runtime and formulas
  const context = vm.createContext({crypto: globalThis.crypto});
  const assets = path.resolve(docs, "assets/rulesc"), systems = path.join(assets, "formulas");
  const files = [path.join(assets, "runtime.js"), ...fs.readdirSync(systems).sort().map((n) => path.join(systems, n))];
  for (const file of files) vm.runInContext(fs.readFileSync(file, "utf8"), context, {filename: file});
  return context;
}

function answer(request) {  // the calls read in the rulebook's global, so their lists are its own arrays
  const context = load(request.docs);
  const R = context.RulesRuntime, system = context.RulesSystems[request.system];
  const calls = vm.runInContext("JSON", context).parse(JSON.stringify(request.calls));
  return calls.map((call) => run(R, system, call));
}

readline.createInterface({input: process.stdin, crlfDelay: Infinity}).on("line", (line) => {
  process.stdout.write(JSON.stringify(answer(JSON.parse(line))) + "\n");
});
