// Rolls each job of tests/test_roll_statistics.py with the JavaScript runtime and counts what came up:
//   node roll_counts.js RUNTIME < jobs.json > counts.json
// A job is {"weights": [...], "seed": S, "times": N} (a roll: outcome i by weight) or {"tables": [...], "table":
// NAME, "seed": S, "times": N} (a roll table, chains followed). Each answer has "counts" (outcome index, or a
// result: the kept steps as "table:row" joined by spaces, sorted) and "digest", the SHA-256 of every step drawn, in
// order, each a 32-bit integer in the machine's byte order, which the Python side computes the same way: the two
// runtimes drew the same sequence.
"use strict";
const crypto = require("crypto");
const path = require("path");
require(path.resolve(process.argv[2]));
const R = globalThis.RulesRuntime;

function digest(numbers) {
  return crypto.createHash("sha256").update(new Uint8Array(Int32Array.from(numbers).buffer)).digest("hex");
}

function rollDist(job) {
  const weights = job.weights.map(BigInt), total = weights.reduce((a, b) => a + b, 0n);
  const drawn = R.samples(new R.Dist(0, weights, total), R.seeded(job.seed), job.times);
  const counts = {};
  for (const i of drawn) counts[i] = (counts[i] || 0) + 1;
  return {counts, digest: digest(drawn)};
}

function rollTable(job) {
  const table = R.rollTables(job.tables)[job.table], rng = R.seeded(job.seed), counts = {}, rows = [];
  for (let n = 0; n < job.times; n++) {
    const steps = R.rollOn(table, rng);
    const key = job.first ? String(steps[0][1]) :
      steps.filter((s) => s[5]).map((s) => s[0] + ":" + s[1]).sort().join(" ");
    counts[key] = (counts[key] || 0) + 1;
    for (const s of steps) rows.push(s[1]);
  }
  return {counts, digest: digest(rows)};
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map((job) => ("tables" in job ? rollTable(job) : rollDist(job)))));
});
