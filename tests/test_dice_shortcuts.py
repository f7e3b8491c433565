"""The dice engine's shortcuts give what the long way gives, in the interpreter, the engine and the JavaScript:
independent rolls bound at once (bind_each), a pool asked only the questions a plain condition leaves readable
(guards), a pool of few distinct rolls answered roll by roll, the higher or lower of two rolls from their running
totals, keeping every die of a pool as its total, let-bound dice bounded for the overflow checks, and a table read
by halving. Each is written by an outside author with awkward names and edge values (0 dice, 1 die, k above the
dice, listed faces with 0 and repeats, exploding and rerolled kinds where a shortcut must decline), and the
generated code is read to see that the path is taken."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from rulesc.runtime import rulesc_runtime as R
from tests.backends import Built, built_engine
from tests.scripts import formulas_text
from tests.test_dice_speed_paths import brute, chances
from tests.test_exact_runtimes import three_ways

SYSTEM = """\
id: quirk
title: Quirky Dice
summary: Odd dice for testing the engine's shortcuts.
sources:
  - {id: notes, file: notes.txt, title: Notes}
dice:
  summary: Any dice.
terms:
  - id: odd-die
    name: Odd die
    definition: A die with faces of its own.
"""

FORMULAS: dict[str, tuple[str, str]] = {
    # name: (parameters as YAML, expression)
    "three_at_once": ("[{name: n, type: int, min: 0, max: 3}]",
                      "let a_ = 1d{0,0,3} in let b_ = (n)d4 in let c_ = 1dF in if a_ + b_ + c_ >= n then a_ else c_"),
    "doubles": ("[]", 'let x = 1d6 in let y = 1d6 in if x == y then "doubles" else "plain"'),
    "leans_on_first": ("[]", "let a_ = 1d4 in let b_ = (a_)d4 in b_"),
    "asked_by_mode": ("[{name: n, type: int, min: 0, max: 4}, {name: mode, type: int, min: -1, max: 1}]",
                      "let p = (n)d{0,2,2,5} in if mode > 0 then highest(p, 1) else if mode == 0 then lowest(p, 2) "
                      "else count(p, 2)"),
    "mode_bound_inside": ("[{name: mode, type: int, min: -1, max: 1}]",
                          "let p = (mode + 2)d6 in let m = mode in if m > 0 then highest(p, 1) else lowest(p, 1)"),
    "only_if_flag": ("[{name: n, type: int, min: 0, max: 4}, {name: flag, type: bool}]",
                     "let p = (n)d6 in if flag and count(p, 6) >= 2 then 100 else highest(p, 1)"),
    "unless_flag": ("[{name: n, type: int, min: 1, max: 4}, {name: flag, type: bool}]",
                    "let p = (n)d6 in if not flag or count(p, 1) == 0 then highest(p, 2) else -1"),
    "better_of_bursts": ("[{name: die, type: int, min: 2, max: 12}]", "max(1d(die)!!, 1d6!!)"),
    "worse_of_odd": ("[]", "min(1d{0,0,3}, 2d4)"),
    "better_of_odd": ("[]", "max(3dF, 1d{-2,7,7})"),
    "keep_them_all": ("[{name: n, type: int, min: 0, max: 3}, {name: k, type: int, min: -1, max: 9}]",
                      "highest((n)d{0,2} + 1d6, k)"),
    "lowest_of_all": ("[]", "lowest(1d6 + 2d{0,0,1}, 3)"),
    "keep_rerolled": ("[]", "highest(1d6r1 + 1d4, 2)"),
    "bounded_lets": ("[]", "let a_ = 1d6 in let b_ = 1d{-3,0} in a_ * b_ + a_"),
    "unbounded_burst": ("[]", "let a_ = 1d6! in a_ * a_"),
}


def chapter(formulas: dict[str, tuple[str, str]], extra: str = "") -> str:
    """A chapter of one rule holding the formulas (name -> (params, expr)), with extra rule fields before them."""
    lines = ["id: rolls", "title: Rolls", "order: 1", "summary: Rolls.", "rules:", "  - id: odd-rolls",
             "    name: Odd rolls", "    kind: general", "    text: Rolls with odd dice.",
             "    provenance: {source: notes, section: Odd rolls}", *([extra.rstrip("\n")] if extra else []),
             "    formulas:"]
    for name, (params, expr) in formulas.items():
        lines += [f"      - id: {name}", f"        summary: {name}.", f"        params: {params}",
                  f"        expr: '{expr}'"]
    return "\n".join(lines) + "\n"


def formula_book(tmp_path_factory: pytest.TempPathFactory, folder: str, rolls: str) -> Iterator[Built]:
    """A one-system project of the chapter `rolls`, built without its site, its engine imported meanwhile."""
    root = tmp_path_factory.mktemp(folder)
    (root / "content/quirk").mkdir(parents=True)
    (root / "content/quirk/system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "content/quirk/rolls.yaml").write_text(rolls, encoding="utf-8")
    try:
        with built_engine(root) as built:
            yield built
    finally:
        shutil.rmtree(root / "build", ignore_errors=True)


@pytest.fixture(scope="module")
def quirk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    yield from formula_book(tmp_path_factory, "quirk", chapter(FORMULAS))


def python_of(quirk: Built, name: str) -> str:
    """The generated Python of one formula (its body without argument checks)."""
    text = (quirk[0] / "build/engine/rules_engine" / f"{quirk[1].system.module}.py").read_text(encoding="utf-8")
    found = re.search(rf"^def _{name}\(.*?(?=^def |\Z)", text, re.S | re.M) or \
        re.search(rf"^def {name}\(.*?(?=^def |\Z)", text, re.S | re.M)
    assert found, name
    return found.group(0)


def made(quirk: Built, call: str) -> str:
    """How a generated function writes a pool: the module-level name the module makes it once under (a pool
    written with whole numbers), else the call itself."""
    text = (quirk[0] / "build/engine/rules_engine" / f"{quirk[1].system.module}.py").read_text(encoding="utf-8")
    found = re.search(rf"^(_Pool\d+): Final = {re.escape(call)}$", text, re.M)
    return found.group(1) if found else call


def javascript_of(quirk: Built, name: str) -> str:
    text = formulas_text(quirk[0] / "build/docs")
    found = re.search(rf"F\.{name} = function.*?\n  }};", text, re.S)
    assert found, name
    return found.group(0)


def dist(found: dict[str, Any]) -> dict[int, Fraction]:
    return {x: Fraction(p) for x, p in found["value"]["dist"]}


def test_independent_rolls_are_bound_at_once(quirk: Built) -> None:
    for name in ("three_at_once", "doubles"):
        assert "R.bind_each" in python_of(quirk, name) and "R.bindEach" in javascript_of(quirk, name)
    found = three_ways(quirk, [("three_at_once", {"n": n}) for n in range(4)] + [("doubles", {})])
    assert found[-1] == {"value": {"outcomes": [["doubles", "1/6"], ["plain", "5/6"]]}}
    # no d4 (n = 0): a_ is 0 or 3 (0 listed twice), and only a_ = 0 with c_ = -1 falls short, giving c_
    assert dist(found[0]) == {-1: Fraction(2, 9), 0: Fraction(4, 9), 3: Fraction(1, 3)}


def test_a_roll_that_reads_an_earlier_one_is_bound_inside_it(quirk: Built) -> None:
    assert "bind_each" not in python_of(quirk, "leans_on_first")
    found = three_ways(quirk, [("leans_on_first", {})])
    assert dist(found[0])[16] == Fraction(1, 4) * Fraction(1, 4**4)


def test_a_question_a_plain_condition_rules_out_is_not_asked(quirk: Built) -> None:
    code = python_of(quirk, "asked_by_mode")
    assert "((mode > 0), (not (mode > 0) and (mode == 0)), (not (mode > 0) and not (mode == 0)))" in code
    assert "[(mode > 0), (!(mode > 0) && (mode === 0)), (!(mode > 0) && !(mode === 0))]" in javascript_of(
        quirk, "asked_by_mode")
    calls = [("asked_by_mode", {"n": n, "mode": mode}) for n in range(5) for mode in (-1, 0, 1)]
    found = three_ways(quirk, calls)
    assert dist(found[3 * 1 + 2]) == {0: Fraction(1, 4), 2: Fraction(1, 2), 5: Fraction(1, 4)}  # one die, highest
    assert dist(found[3 * 0 + 1]) == {0: Fraction(1)}  # no dice: lowest(p, 2) is 0


def test_a_condition_on_a_name_bound_inside_the_body_guards_nothing(quirk: Built) -> None:
    assert python_of(quirk, "mode_bound_inside").count("m > 0") == 1  # in the body, not as a guard too
    assert javascript_of(quirk, "mode_bound_inside").count("m > 0") == 1
    three_ways(quirk, [("mode_bound_inside", {"mode": mode}) for mode in (-1, 0, 1)])


def test_and_and_or_guard_their_right_side(quirk: Built) -> None:
    assert re.search(r"\(True, flag\)|\(flag, True\)", python_of(quirk, "only_if_flag"))
    assert re.search(r"\(True, not \(not flag\)\)|\(not \(not flag\), True\)", python_of(quirk, "unless_flag"))
    calls = [("only_if_flag", {"n": n, "flag": flag}) for n in range(5) for flag in (False, True)]
    calls += [("unless_flag", {"n": n, "flag": flag}) for n in range(1, 5) for flag in (False, True)]
    found = three_ways(quirk, calls)
    assert dist(found[2 * 2 + 1])[100] == Fraction(1, 36)  # two dice, both 6


def test_the_higher_or_lower_of_two_rolls_is_every_pair_counted(quirk: Built) -> None:
    found = three_ways(quirk, [("better_of_bursts", {"die": die}) for die in (2, 4, 12)]
                       + [("worse_of_odd", {}), ("better_of_odd", {})])
    assert dist(found[3]) == {0: Fraction(2, 3), 2: Fraction(1, 48), 3: Fraction(15, 48)}
    pairs = [(a, b) for a in (-2, 7, 7) for b in (-3, -2, -1, 0, 1, 2, 3) for _ in range({-3: 1, -2: 3, -1: 6, 0: 7,
             1: 6, 2: 3, 3: 1}[b])]
    assert dist(found[4]) == {x: Fraction(sum(1 for a, b in pairs if max(a, b) == x), len(pairs))
                              for x in sorted({max(a, b) for a, b in pairs})}


def test_the_runtime_max_and_min_are_the_clamped_mixture() -> None:
    for a, b in [("1d{0,0,3}", "2d4"), ("3dF", "1d{-2,7,7}"), ("1d4!!", "1d6!!"), ("0d6", "1d6r1"), ("1d1", "1d1")]:
        x, y = R.as_dist(R.parse_dice(a)), R.as_dist(R.parse_dice(b))
        assert R.dmax(x, y) == R.mix(x, lambda v: R._clamp(y, low=v))  # noqa: B023
        assert R.dmin(x, y) == R.mix(x, lambda v: R._clamp(y, high=v))  # noqa: B023


def test_the_higher_or_lower_of_two_rolls_may_span_max_outcomes_and_no_more() -> None:
    """max() and min() of two rolls make every outcome from the lowest either can give to the highest: MAX_OUTCOMES
    of them are made, one more is refused before any work."""
    d6, edge, past = R.as_dist(R.dice(1, 6)), R.constant(R.MAX_OUTCOMES), R.constant(R.MAX_OUTCOMES + 1)
    assert R.dmax(d6, edge) == edge and R.dmin(edge, d6) == d6
    for extreme in (R.dmax, R.dmin):
        with pytest.raises(R.RulesError, match=f"^a roll with more than {R.MAX_OUTCOMES} outcomes is refused$"):
            extreme(d6, past)


def test_keeping_every_die_is_the_total_and_exploding_dice_still_refuse(quirk: Built) -> None:
    calls = [("keep_them_all", {"n": n, "k": k}) for n in range(4) for k in (-1, 0, 1, n + 1, 9)]
    found = three_ways(quirk, calls + [("lowest_of_all", {}), ("keep_rerolled", {})])
    assert dist(found[3]) == {x: Fraction(1, 6) for x in range(1, 7)}  # no d{0,2}: the d6 alone, k = 1
    assert dist(found[-2]) == dict(R.as_dist(R.parse_dice("1d6+2d{0,0,1}")).items())
    with pytest.raises(R.RulesError, match=r"highest\(\) cannot be asked"):  # dice exploding into more: no total
        R.keep_pool(R.parse_dice("1d6!+1d4"), 5, True)
    pool = R.parse_dice("1d6r1+1d4")
    assert R.keep_pool(pool, 2, True) == R.as_dist(pool)
    assert R.keep_pool(pool, 1, True) == R.pool_bind(pool, [("highest", 1)], lambda a: a[0])


def test_let_bound_dice_need_no_overflow_check_unless_they_explode(quirk: Built) -> None:
    assert "R.whole" not in python_of(quirk, "bounded_lets")
    assert "R.whole(a_ * a_)" in python_of(quirk, "unbounded_burst")
    found = three_ways(quirk, [("bounded_lets", {})])
    assert min(dist(found[0])) == 6 * -3 + 6 and max(dist(found[0])) == 6


@pytest.mark.parametrize("rows", [[((1, 2), "a"), ((3, 3), "b"), ((5, 9), "c")],  # rising: by halving
                                  [((5, 9), "c"), ((1, 2), "a")],  # out of order: one by one
                                  [((1, 4), "a"), ((3, 6), "b")],  # overlapping: the first row holding it
                                  [((4, 2), "x"), ((3, 3), "b")]])  # a row holding nothing
def test_a_table_read_by_halving_reads_as_row_by_row(rows: list[tuple[tuple[int, int], str]]) -> None:
    table = R.table(["word"], *[(keys, word) for keys, word in rows])
    for key in range(0, 11):
        held = [word for (low, high), word in rows if low <= key <= high]
        if held:
            assert R.lookup(table, "word", key) == held[0]
        else:
            with pytest.raises(R.RulesError, match=f"{key} is not in the table"):
                R.lookup(table, "word", key)


@pytest.mark.parametrize("text", ["0d6", "1d{0,0,3}", "4d{0,0,3,5}", "3d{0,1,2,3,4,5,6,7,8,9}", "2d6r2", "3dF-1"])
@pytest.mark.parametrize("asked", [[("count", 0), ("lowest", 1), ("lowest", 2), ("lowest", 9)],
                                   [("highest", 2), ("total",), ("successes", 3)], [("count", 0, 3), ("highest", 0)]],
                         ids=str)
def test_a_pool_of_few_rolls_answered_roll_by_roll_is_every_roll_counted(text: str, asked: list[Any]) -> None:
    pool = R.parse_dice(text)
    assert R._few_rolls(R.die_of(pool.counts[0][0]), pool.counts[0][1]) if pool.counts else True
    assert chances(pool, asked) == brute(pool, asked)


def test_few_rolls_is_at_most_256_multisets() -> None:
    ten = R.die_of("{0,1,2,3,4,5,6,7,8,9}")
    assert [R._few_rolls(ten, n) for n in (0, 1, 3, 4)] == [True, True, True, False]  # 1, 10, 220, 715 rolls
    assert [R._few_rolls(R.die_of(6), n) for n in (5, 6)] == [True, False]  # 252, 462
    assert R._few_rolls(R.die_of("{0,0,3}"), 255) and not R._few_rolls(R.die_of("{0,0,3}"), 256)  # n + 1 rolls
