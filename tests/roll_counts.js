// Rolls each job of tests/test_roll_statistics.py with the JavaScript runtime and counts what came up:
//   node roll_counts.js RUNTIME < jobs.json > counts.json
// A job is {"weights": [...], "seed": S, "times": N} (a roll: outcome i by weight) or {"tables": [...], "table":
// NAME, "seed": S, "times": N} (a roll table, chains followed). Each answer has "counts" (outcome index, or a
// result: the kept steps as "table:row" joined by spaces, sorted) and "hash", a running hash of every step drawn,
// in order, which the Python side computes the same way: the two runtimes drew the same sequence.
"use strict";
const path = require("path");
require(path.resolve(process.argv[2]));
const R = globalThis.RulesRuntime;
const M = 2147483647;

function rollDist(job) {
  const weights = job.weights.map(BigInt), total = weights.reduce((a, b) => a + b, 0n);
  const drawn = R.samples(new R.Dist(0, weights, total), R.seeded(job.seed), job.times);
  const counts = {};
  let hash = 0;
  for (const i of drawn) { counts[i] = (counts[i] || 0) + 1; hash = (hash * 1000003 + i + 1) % M; }
  return {counts, hash};
}

function rollTable(job) {
  const table = R.rollTables(job.tables)[job.table], rng = R.seeded(job.seed), counts = {};
  let hash = 0;
  for (let n = 0; n < job.times; n++) {
    const steps = R.rollOn(table, rng);
    const key = job.first ? String(steps[0][1]) :
      steps.filter((s) => s[5]).map((s) => s[0] + ":" + s[1]).sort().join(" ");
    counts[key] = (counts[key] || 0) + 1;
    for (const s of steps) hash = (hash * 1000003 + s[1] + 1) % M;
  }
  return {counts, hash};
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map((job) => ("tables" in job ? rollTable(job) : rollDist(job)))));
});
