"""Both runtimes compute exactly: the same branch, the same number and the same refusal on every input.

The case tests/cases/good/exact-branches decides on chances that are exactly 1 or 1/2, compares a float (sd)
with fractions, and takes whole numbers to the edge of +/- MAX_INT; each call runs through the interpreter, the
generated Python engine and the generated JavaScript.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.analyze.program import Program
from rulesc.emit.engine import python_names
from rulesc.runtime import rulesc_runtime as R
from tests.backends import Built, built_case, encode, js_harness, node, run_js
from tests.test_names import js_calls

BIG = R.MAX_INT


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "exact-branches") as found:
        yield found


def cpu_seconds() -> float:
    """CPU time of this process, the children it has waited for and the Node process that runs the JavaScript
    (alive between tests, so not yet among those children): a bound on work that the rest of a busy machine
    cannot push over, as it can wall time."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system + _harness_seconds()


def _harness_seconds() -> float:
    """The Node harness's CPU time so far, from /proc (its user and system clock ticks), 0 before it starts."""
    process = js_harness().process
    if process is None:
        return 0.0
    fields = Path(f"/proc/{process.pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime: fields 14, 15


def outcome(run: Any) -> Any:
    """A call's answer encoded exactly, or the runtime's refusal with its message."""
    try:
        return {"value": encode(run())}
    except Exception as exc:  # the engine's RulesError is its own class: compare by name and message
        return {"error": f"{type(exc).__name__}: {exc}"}


def three_ways(edge: tuple[Path, Program, ModuleType], calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Each call's outcome, asserted the same in the interpreter, the engine and the JavaScript."""
    root, program, module = edge
    js = run_js(root / "build/docs", js_calls(program, calls))
    spelled, found = python_names(program).formulas, []
    for (formula_id, args), from_js in zip(calls, js, strict=True):
        order = [args[p.name] for p in program.formulas[formula_id].params]
        interpreted = outcome(lambda: program.call(formula_id, order))  # noqa: B023 (called at once)
        given = [str(v) if isinstance(v, R.Dice) else v for v in order]  # the engine has its own Dice: as text
        engine = outcome(lambda: getattr(module, spelled[formula_id])(*given))  # noqa: B023
        assert engine == interpreted, (formula_id, args)
        assert from_js == interpreted, (formula_id, args)
        found.append(interpreted)
    return found


def test_a_branch_on_a_certain_chance_goes_the_same_way(edge: tuple[Path, Program, ModuleType]) -> None:
    """p_at_least(5d6, 5) is exactly 1; summed in float64 it was 0.9999999999999998 and JavaScript said 0."""
    found = three_ways(edge, [("cannot_miss", {"n": n}) for n in range(0, 41)])
    assert [f["value"] for f in found] == [1] + [0] * 40
    chances = three_ways(edge, [("all_of_them", {"n": n}) for n in (1, 5, 17, 37, 40)])
    assert chances == [{"value": {"exact": "1"}}] * 5  # never 1.0000000000000002


def test_fractions_and_a_float_meeting_them_compare_exactly(edge: tuple[Path, Program, ModuleType]) -> None:
    assert three_ways(edge, [("thirds", {"k": k}) for k in range(1, 10)]) == [{"value": 1}] * 9
    # the mean is exactly 7n/2, and with ties to the first roller, a win is more likely than not
    assert three_ways(edge, [("mean_is_exact", {"n": n}) for n in (1, 2, 9, 30)]) == [{"value": True}] * 4
    spread = three_ways(edge, [("spread_squared", {"bonus": b}) for b in range(4)])
    variance = Fraction(35, 6)
    squared = R.sd(R.parse_dice("2d6")) ** 2  # what both runtimes make of it: a float above the exact variance
    assert squared > variance and [s["value"] for s in spread] == [2, 2, 2, 2]


def test_whole_numbers_at_the_edge_agree_or_are_refused_alike(edge: tuple[Path, Program, ModuleType]) -> None:
    edge_of_square = 67108864  # 2**26: its square doubled is 2**53, one past MAX_INT
    found = three_ways(edge, [("twice_square", {"n": n}) for n in (edge_of_square - 1, edge_of_square,
                                                                    -edge_of_square, 94906265, 3037000499)])
    assert found[0] == {"value": 2 * (edge_of_square - 1) ** 2}
    refusal = {"error": "RulesError: a whole number went beyond 9007199254740991, the largest rulesc computes with"}
    assert found[1:] == [refusal] * 4
    splits = three_ways(edge, [("split_far", {"n": n, "parts": p}) for n, p in (
        (-BIG, BIG - 1), (BIG, BIG - 1), (BIG, 1), (-BIG, 3), (BIG - 2, 2), (-7, 2), (7, 9007199254740))])
    # -MAX // (MAX - 1) is -2 (float division would say -1): exact floor division in both runtimes
    assert [s.get("value") for s in splits] == [-2 * 10 - 1, 1 * 10 + 2, None, None,
                                                 None, -4 * 10 - 3, 0 * 10 + 1]


def test_float_results_are_the_same_float(edge: tuple[Path, Program, ModuleType]) -> None:
    """sd is the one float: the square root of the exact variance made the nearest float, in both runtimes."""
    root = edge[0]
    pools = ["2d6", "3d6+1d4", "10d10", "1d20", "5d6+3"]
    script = ("require('./assets/rulesc/runtime.js'); const R = globalThis.RulesRuntime;"
              f"console.log(JSON.stringify({pools!r}.map((p) => R.sd(R.parseDice(p)).v)))")
    done = subprocess.run([node(), "-e", script], cwd=root / "build/docs", capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str([R.sd(R.parse_dice(p)) for p in pools]).replace(" ", "")


@pytest.mark.parametrize(("source", "checked"), [
    ("n * 2", 1),  # a parameter may be any whole number
    ("floor_face * 10", 0),  # a value is known
    ("clamp(n, 0, 10) * 1000 + floor_face", 0),
    ("min(n, 40) * max(n, -40)", 1),  # min bounds above only, max below only
    ("(if n > 0 then 3 else -3) * 1000 - 7", 0),
    ("abs(clamp(n, -5, 5)) * n", 1),
    ("let k = clamp(n, 1, 6) in k * k * k", 0),
    ("n // 2 * 2", 1),
    ("9007199254740991 + 0", 0),
    ("9007199254740991 + 1", 1),
])
def test_only_operations_that_could_leave_the_range_are_checked(source: str, checked: int) -> None:
    from rulesc.diagnostics.core import Diagnostics, Span
    from rulesc.formula.bounds import overflow_checks
    from rulesc.formula.check import Scope, check_types
    from rulesc.formula.parser import parse_formula

    node = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    scope = Scope({"n": "int"}, {"floor_face": "int"}, {}, lambda name, span: None)
    typed = check_types(node, scope, Diagnostics())
    assert typed is not None and typed.type == "int"
    found = overflow_checks(typed, {"n"}, lambda name: (4, 4) if name == "floor_face" else None,
                            lambda table, column: None)
    assert len(found) == checked, source


def test_rolls_and_powers_past_their_budgets_are_refused_alike_and_at_once(
        edge: tuple[Path, Program, ModuleType]) -> None:
    """mean(roll(1000d1000)) ran for ever in every runtime and ((1/7)^10000)^10000 did too: each is now refused
    before the work, naming the budget it would pass, with the same message everywhere."""
    started = cpu_seconds()
    found = three_ways(edge, [("many_big_dice", {"n": 10}), ("many_big_dice", {"n": 1000}), ("steep", {"k": 50}),
                              ("steep", {"k": 10000})])
    assert cpu_seconds() - started < 5  # three runtimes, Node's start included: 0.2 s here
    assert found[0] == {"value": {"exact": "5005"}}
    assert found[1] == {"error": "RulesError: a roll too large to work out exactly is refused: its answer would pass "
                                 "the roll budget of 1073741824 bits (999001 outcomes of 9966 bits)"}
    assert found[2]["value"]["exact"] == f"1/{7 ** 2500}"
    assert found[3] == {"error": "RulesError: a power too large to work out exactly is refused: its answer would pass "
                                 "the power budget of 1048576 bits (280740000 bits)"}


@pytest.mark.parametrize(("source", "python"), [
    ("n // 5", "(n // 5)"),  # a number written out, not 0: Python's floor division, as floor_div() divides
    ("n // -5", "R.floor_div(n, (-5))"),
    ("n // 0", "R.floor_div(n, 0)"),  # refused when it runs, as division by zero
    ("n // n", "R.floor_div(n, n)"),
])
def test_floor_division_by_a_number_written_out_is_python_s_own(source: str, python: str) -> None:
    """Python's // floors as floor_div() does; only a divisor that may be 0 needs the call and its check."""
    from rulesc.diagnostics.core import Diagnostics, Span
    from rulesc.formula.check import Scope, check_types
    from rulesc.formula.layout import flat
    from rulesc.formula.parser import parse_formula
    from rulesc.formula.to_python import expr_to_python

    node = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    typed = check_types(node, Scope({"n": "int"}, {}, {}, lambda name, span: None), Diagnostics())
    assert typed is not None
    assert flat(expr_to_python(typed, str)) == python
    if python == "(n // 5)":
        assert [eval(python, {"n": n}) for n in (-11, -10, -1, 0, 4, 7, 10)] == [
            R.floor_div(n, 5) for n in (-11, -10, -1, 0, 4, 7, 10)] == [-3, -2, -1, 0, 0, 1, 2]
