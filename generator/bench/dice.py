"""`rulesc bench --dice`: the dice runtime timed against icepool in this process and the JavaScript runtime in Node."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from generator.diagnostics.core import Span
from generator.formula.evaluate import evaluate
from generator.formula.expression import DiceUsageError, _no_formulas
from generator.formula.parser import parse_formula
from generator.runtime import rulesc_runtime as R

BENCH_CASES: tuple[tuple[str, str], ...] = (
    ("DBU tier-7 clash (crit 7, botch 6)", "dbu-clash"),
    ("30d6 successes on 5+, minus defense 3, floor 0", "max(0, successes(30d6, 5) - 3)"),
    ("P(trigger) at escalation 0..30, threshold 10", "trigger"),
    ("60d6 vs 60d6 successes on 5+", "p_greater(successes(60d6, 5), successes(60d6, 5))"),
)


def _timed(work: Callable[[], Any], repeat: int = 5) -> tuple[float, Any]:
    best, result = math.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - start)
    return best, result


def _engine_cases(call: Callable[..., Any]) -> list[Callable[[], Any]]:
    def clash() -> Any:
        return call("clash_attacker_wins", [7, 0, 7, 6, 7, 0, 7, 6])

    def trigger() -> Any:
        return [R.at_least(R.keep_pool(R.dice(1 + e // 3, 12), 1, True), 10) for e in range(31)]

    def expression(source: str) -> Callable[[], Any]:
        node = parse_formula(source, lambda o: Span("<bench>", 1, o + 1))
        return lambda: evaluate(node, {}, {}, _no_formulas)

    return [clash, expression(BENCH_CASES[1][1]), trigger, expression(BENCH_CASES[3][1])]


def _icepool_cases() -> list[Callable[[], Any]]:
    import icepool

    def category(n: int) -> Any:
        tens, rest = divmod(n, 4)
        die = icepool.Die([0])
        for _ in range(tens):
            die = die + icepool.d10
        return die + icepool.d((4, 6, 8)[rest - 1]) if rest else die

    def clash() -> Any:
        extra, crit = category(6), category(8)
        roll = icepool.d10.map(lambda n: (n + extra + (crit if n >= 7 else 0) - (14 if n <= 6 else 0)).clip(0, None))
        return (roll > roll).probability(True)

    def successes() -> Any:
        return (30 @ (icepool.d6 >= 5) - 3).clip(0, None)

    def trigger() -> Any:
        return [(icepool.d12.highest(1 + e // 3) >= 10).probability(True) for e in range(31)]

    def duel() -> Any:
        side = 60 @ (icepool.d6 >= 5)
        return (side > side).probability(True)

    return [clash, successes, trigger, duel]


def _same(ours: Any, theirs: Any) -> bool:
    if isinstance(ours, list):
        return all(_same(a, b) for a, b in zip(ours, theirs)) and len(ours) == len(theirs)
    if isinstance(ours, R.Dist):
        return {x: p for x, p in ours.items()} == {o: Fraction(q, theirs.denominator()) for o, q in theirs.items() if q}
    return Fraction(ours) == Fraction(theirs.numerator, theirs.denominator) if hasattr(theirs, "denominator") \
        else Fraction(ours) == Fraction(theirs)


def bench_dice(call: Callable[..., Any], js_runtime: Path) -> tuple[list[dict[str, Any]], str | None]:
    """Time each case on the engine runtime and on icepool in this process, and the JavaScript runtime in Node."""
    try:
        icepool_cases = _icepool_cases()
    except ImportError:
        raise DiceUsageError("the dice benchmark compares against icepool: pip install -e '.[test]'") from None
    rows = []
    js = _bench_js(js_runtime)
    for (label, _), ours, theirs, js_ms in zip(BENCH_CASES, _engine_cases(call), icepool_cases, js or [None] * 4):
        ours_cold, _ = _timed(ours, repeat=1)
        theirs_cold, _ = _timed(theirs, repeat=1)
        ours_s, ours_value = _timed(ours)
        theirs_s, theirs_value = _timed(theirs)
        rows.append({"case": label, "engine_ms": ours_s * 1000, "icepool_ms": theirs_s * 1000,
                     "speedup": theirs_s / ours_s, "engine_first_ms": ours_cold * 1000,
                     "icepool_first_ms": theirs_cold * 1000, "identical": _same(ours_value, theirs_value),
                     "js_ms": js_ms})
    return rows, None if js else "node not found: the JavaScript timings were skipped"


JS_BENCH = r"""
require(process.argv[1]);
const R = globalThis.RulesRuntime;
function cat(n) { return R.category(n); }
function clash() {
  const roll = R.mix(R.asDist(R.dice(1, 10)), (n) => R.dmax(R.dsub(R.dadd(R.dadd(n, cat(6)), n >= 7 ? cat(8) : 0), n <= 6 ? 14 : 0), 0));
  return R.win(roll, roll, false);
}
const cases = [
  clash,
  () => R.dmax(R.dsub(R.successes(R.dice(30, 6), 5), 3), 0),
  () => { const out = []; for (let e = 0; e <= 30; e++) out.push(R.atLeast(R.keep(R.dice(1 + Math.floor(e / 3), 12), 1, true), 10)); return out; },
  () => R.greater(R.successes(R.dice(60, 6), 5), R.successes(R.dice(60, 6), 5)),
];
const result = cases.map((work) => {
  let best = Infinity;
  for (let i = 0; i < 20; i++) { const t = process.hrtime.bigint(); work(); best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6); }
  return best;
});
process.stdout.write(JSON.stringify(result));
"""


def _bench_js(js_runtime: Path) -> list[float] | None:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        return None
    done = subprocess.run([node, "-e", JS_BENCH, str(js_runtime)], capture_output=True, text=True, timeout=120)
    return list(json.loads(done.stdout)) if done.returncode == 0 else None


def bench_table(rows: list[dict[str, Any]]) -> str:
    lines = ["best of 5 runs (caches warm); the first run of each, cold, in brackets",
             f"{'case':<48} {'engine':>21} {'icepool':>21} {'speedup':>8} {'same':>5} {'node js':>9}"]
    for row in rows:
        js = f"{row['js_ms']:.3f} ms" if row["js_ms"] is not None else "-"
        lines.append(f"{row['case']:<48} {row['engine_ms']:7.3f} ms ({row['engine_first_ms']:7.2f}) "
                     f"{row['icepool_ms']:7.3f} ms ({row['icepool_first_ms']:7.2f}) "
                     f"{row['speedup']:7.1f}x {'yes' if row['identical'] else 'NO':>5} {js:>9}")
    return "\n".join(lines)
