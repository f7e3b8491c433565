"""`rulesc bench --rolls`: rolls per second of every roll table (chains followed; not one whose rolls may never
end, W0707) and every formula that rolls (at its first worked example) in the Python runtime and the JavaScript
runtime (Node), from the same seed, with the two runtimes' draws compared by a running hash of every row or
outcome drawn."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rulesc.analyze.program import Program
from rulesc.analyze.rolls import endless, roll_spec, roll_tables
from rulesc.compile import Compiled
from rulesc.runtime import JS_RUNTIME
from rulesc.runtime import rulesc_runtime as R

ROLLING = ("dist", "outcome", "event", "dice")
SEED = 1
HASH = 2147483647
NODE_TIMEOUT_S = 600
NODE_BENCH = r"""
"use strict";
require(require("path").resolve(process.argv[1]));
const R = globalThis.RulesRuntime, M = 2147483647;
function timed(job) {
  const rng = R.seeded(job.seed), start = process.cpuUsage();
  let hash = 0;
  if (job.tables) {
    const table = R.rollTables(job.tables)[job.table];
    for (let n = 0; n < job.times; n++) for (const s of R.rollOn(table, rng)) hash = (hash * 1000003 + s[1] + 1) % M;
  } else {
    const weights = job.weights.map(BigInt), total = weights.reduce((a, b) => a + b, 0n);
    for (const i of R.samples(new R.Dist(0, weights, total), rng, job.times)) hash = (hash * 1000003 + i + 1) % M;
  }
  const used = process.cpuUsage(start);
  return {seconds: (used.user + used.system) / 1e6, hash};
}
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => { process.stdout.write(JSON.stringify(JSON.parse(input).map(timed))); });
"""


class RollBenchError(Exception):
    """The benchmark could not run: no Node.js, or the runtime failed in it."""


@dataclass(frozen=True)
class RollJob:
    """One thing to roll: a formula's roll (outcome i by weights[i]) or a roll table of a system's book."""

    name: str
    weights: tuple[int, ...] = ()
    tables: tuple[Any, ...] = ()

    def as_json(self, times: int) -> dict[str, Any]:
        if self.tables:
            return {"tables": list(self.tables), "table": self.name.split(".")[-1], "seed": SEED, "times": times}
        return {"weights": list(self.weights), "seed": SEED, "times": times}


@dataclass(frozen=True)
class RollRow:
    name: str
    outcomes: int  # outcomes of the roll, or rows of the table
    python_per_s: float
    node_per_s: float
    same: bool


def roll_jobs(compiled: Compiled) -> list[RollJob]:
    return [job for program in compiled.programs for job in _program_jobs(program)]


def _program_jobs(program: Program) -> Iterator[RollJob]:
    specs = tuple(roll_spec(table, lambda text: text.source) for table in roll_tables(program.tables))
    for table in roll_tables(program.tables):
        if table.name not in endless(program.tables):  # W0707: a roll of it may not end
            yield RollJob(f"{program.system.id}.{table.name}", tables=specs)
    for formula in program.formulas.values():
        if program.returns[formula.id] not in ROLLING or not (formula.examples or not formula.params):
            continue
        args = dict(formula.examples[0].args) if formula.examples else {}
        answer = program.call(formula.id, [args[p.name] for p in formula.params])
        answer = R.as_dist(answer) if isinstance(answer, R.Dice) else answer
        if isinstance(answer, (R.Dist, R.Outcomes)):
            yield RollJob(f"{program.system.id}.{formula.id}", weights=tuple(answer.weights))


def python_rolls(job: RollJob, times: int) -> tuple[float, int]:
    """CPU seconds for `times` rolls in the Python runtime, and the running hash of what was drawn."""
    rng, found = R.seeded(SEED), 0
    start = time.process_time()
    if job.tables:
        table = R.roll_tables(job.tables)[job.name.split(".")[-1]]
        drawn = [step.row for _ in range(times) for step in R.roll_on(table, rng)]
    else:
        drawn = R.samples(R.Dist(0, job.weights, sum(job.weights)), rng, times)
    seconds = time.process_time() - start
    for number in drawn:
        found = (found * 1000003 + number + 1) % HASH
    return seconds, found


def node_rolls(jobs: Sequence[RollJob], times: int) -> list[tuple[float, int]]:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise RollBenchError("bench --rolls runs the JavaScript runtime in Node.js, and there is no node on PATH")
    done = subprocess.run([node, "-e", NODE_BENCH, str(JS_RUNTIME)], input=json.dumps(
        [job.as_json(times) for job in jobs]), capture_output=True, text=True, timeout=NODE_TIMEOUT_S, check=False)
    if done.returncode:
        raise RollBenchError(f"the JavaScript runtime failed in Node: {done.stderr.strip()[-500:]}")
    return [(found["seconds"], found["hash"]) for found in json.loads(done.stdout)]


def bench_rolls(compiled: Compiled, times: int) -> list[RollRow]:
    jobs = roll_jobs(compiled)
    if not jobs:
        return []
    rows = []
    for job, (node_s, node_hash) in zip(jobs, node_rolls(jobs, times), strict=True):
        python_s, python_hash = python_rolls(job, times)
        size = len(job.tables[[t[0] for t in job.tables].index(job.name.split(".")[-1])][2]) if job.tables \
            else sum(1 for w in job.weights if w)
        rows.append(RollRow(job.name, size, times / max(python_s, 1e-9), times / max(node_s, 1e-9),
                            python_hash == node_hash))
    return rows


def rolls_table(rows: Sequence[RollRow], times: int) -> str:
    lines = [f"{times} seeded rolls each, CPU time; 'same' compares every draw of the two runtimes",
             f"{'roll':<48} {'outcomes':>8} {'Python rolls/s':>15} {'Node rolls/s':>13}  same"]
    lines += [f"{row.name[:48]:<48} {row.outcomes:>8} {row.python_per_s:>15,.0f} {row.node_per_s:>13,.0f}  "
              f"{'yes' if row.same else 'NO'}" for row in rows]
    return "\n".join(lines)


def summary(rows: Sequence[RollRow]) -> dict[str, Any]:
    return {"rolls": len(rows), "all_same": all(row.same for row in rows),
            "slowest_python_per_s": min(row.python_per_s for row in rows),
            "slowest_node_per_s": min(row.node_per_s for row in rows)}
