"""Fudge dice, listed faces, exploding dice and rerolls: exact, equal to icepool, the same in three runtimes."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import icepool
import pytest

from rulesc.analyze.program import Program
from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula.check import Scope, check_types
from rulesc.formula.expression import roll_expression
from rulesc.formula.lexer import FormulaSyntaxError
from rulesc.formula.parser import parse_formula
from rulesc.runtime import rulesc_runtime as R
from tests.backends import Built, built_case, icepool_chances, node
from tests.test_exact_runtimes import three_ways

FUDGE = icepool.Die([-1, 0, 1])


@pytest.fixture(scope="module")
def kinds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "dice-kinds") as found:
        yield found



@pytest.mark.parametrize(("written", "expected"), [
    ("4dF", 4 @ FUDGE),
    ("dF", FUDGE),
    ("2d6!", 2 @ icepool.d6.explode(depth=19)),
    ("1d10!", icepool.d10.explode(depth=15)),  # 10^-16 is the first chance below 1e-15
    ("3d6r2", 3 @ icepool.d6.reroll([1, 2], depth=1)),
    ("2d{0,0,1,1,2,3}", 2 @ icepool.Die([0, 0, 1, 1, 2, 3])),
    ("1d{-2, 5, 5}+1d4+1", icepool.Die([-2, 5, 5]) + icepool.d4 + 1),
])
def test_each_kind_is_icepools_die_exactly(written: str, expected: icepool.Die) -> None:
    assert dict(R.as_dist(R.parse_dice(written)).items()) == icepool_chances(expected)


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 20, 100])
def test_an_exploding_die_cuts_off_less_than_1e_15(sides: int) -> None:
    """The die explodes until one more explosion is less likely than 1e-15; that chance is what is cut off."""
    roll = R.die_of(f"{sides}!")
    last = max(roll.outcomes)
    cut = roll.probability(last)  # the final roll showing its top face: where another explosion would be
    assert cut < Fraction(1, 10**15) <= cut * sides
    deeper = icepool_chances(icepool.Die(range(1, sides + 1)).explode(depth=60))
    assert sum(abs(p - deeper.get(x, 0)) for x, p in roll.items()) < 1e-12 * 3


def test_the_kinds_agree_in_three_runtimes(kinds: tuple[Path, Program, ModuleType]) -> None:
    calls = ([("fudge_total", {"bonus": b}) for b in (-3, 0, 3)] + [("extra_dice", {"n": n}) for n in (1, 3)]
             + [("best_compounded", {"n": n}) for n in (1, 4)] + [("middle_rerolled", {"n": n}) for n in (0, 8)]
             + [("high_explosions", {"target": t}) for t in (1, 11, 40)]
             + [(f, {}) for f in ("blade_damage", "never_low", "odd_die", "best_fudge")])
    assert all("value" in found for found in three_ways(kinds, calls))


def test_the_kinds_match_icepool(kinds: tuple[Path, Program, ModuleType]) -> None:
    _, program, _ = kinds
    six = icepool.d6.map(lambda x: 1001 if x == 6 else 1 if x == 5 else 0).explode([1001], depth=19)
    for n in (1, 2, 4):  # a six is 1001: one die of 5+ and 1000 marking a six; the extra dice explode on it
        both = (n @ six).map(lambda v: "both" if v >= 1000 and v % 1000 >= 2 else "not both")
        assert dict(program.call("extra_dice", [n]).items()) == icepool_chances(both), n
        best = icepool.Pool([icepool.d4.explode(depth=24)] * n).highest(1).sum()
        assert dict(program.call("best_compounded", [n]).items()) == \
            icepool_chances(best.map(lambda b: "exploded" if b >= 5 else "plain"))
        assert dict(program.call("middle_rerolled", [n]).items()) == \
            icepool_chances(icepool.d6.reroll([2, 3, 4, 5], depth=1).pool(n).count_subset([6]))
    high = icepool.d10.explode([9, 10], depth=21)
    for target in (1, 11, 20, 40):
        assert program.call("high_explosions", [target]) == high.probability(">=", target)
    pool = icepool.Pool([FUDGE] * 3)
    joint = pool.expand().map(lambda faces: max(faces) * 10 + faces.count(1), star=False)
    assert dict(program.call("best_fudge", []).items()) == icepool_chances(joint)


@pytest.mark.parametrize(("written", "message"), [
    ("1d1!", "a d1 cannot explode: it would roll its highest face forever"),
    ("2d6r6", "d6r6 would reroll faces 1 to 6: it needs a face kept, and one rerolled"),
    ("2d6r0", "d6r0 would reroll faces 1 to 0: it needs a face kept, and one rerolled"),
])
def test_a_kind_that_cannot_be_rolled_is_refused(written: str, message: str) -> None:
    with pytest.raises(R.RulesError, match=message):
        R.parse_dice(written)


@pytest.mark.parametrize(("written", "message", "column"), [
    ("1d1! + 2", "a d1 cannot explode: it would roll its highest face forever", 2),
    ("n + 2d6r6", "d6r6 would reroll faces 1 to 6: it needs a face kept, and one rerolled", 6),
    ("(n)d6!{1,2,3,4,5,6}", r"a d6 that explodes on \{1,2,3,4,5,6\} would roll forever", 4),
    ("d6r{7}", r"d6r\{7\} names a face a d6 does not have", 1),
    ("3d0", "cannot roll 3d0", 2),
])
def test_a_die_written_in_a_formula_that_cannot_be_rolled_is_refused_at_its_d(written: str, message: str,
                                                                              column: int) -> None:
    """The same kinds written with their sides in a formula: `rulesc check` refuses them, at the 'd'."""
    with pytest.raises(FormulaSyntaxError, match="this die cannot be rolled: " + message) as found:
        parse_formula(written, lambda offset: Span("<test>", 1, offset + 1))
    assert found.value.offset + 1 == column


def test_dice_whose_sides_come_from_a_name_are_left_to_the_runtime() -> None:
    assert parse_formula("2d(sides)! + 1d1", lambda offset: Span("<test>", 1, offset + 1)) is not None


def test_a_bang_outside_dice_points_to_not() -> None:
    with pytest.raises(FormulaSyntaxError) as found:
        parse_formula("!flag", lambda offset: Span("<test>", 1, offset + 1))
    assert (found.value.offset, found.value.message, found.value.hint) == (
        0, "unexpected '!'", "write 'not' for not and '!=' for not equal; '!' after dice explodes them (2d6!)")


# ---- chosen faces, extra dice against compounding, rerolls once and while -----------------------------------------

TEN_AGAIN = icepool.d10.map(lambda x: 101 if x == 10 else int(x >= 8)).explode([101], depth=15)
"""One d10 of a pool that counts 8+ and rolls an extra die on each 10: a 10 is 101 (one success, and 100 to mark
it), so the exploded chain's value mod 100 is its successes, its extra dice included."""


@pytest.mark.parametrize(("written", "expected"), [
    ("1d10!{9,10}", icepool.d10.explode([9, 10], depth=21)),  # (1/5)^22 is the first chance below 1e-15
    ("2d10!!{9, 10}", 2 @ icepool.d10.explode([9, 10], depth=21)),
    ("2d6!!", 2 @ icepool.d6.explode(depth=19)),
    ("1d8!{1}", icepool.d8.explode([1], depth=16)),
    ("3d6r{2,3,4,5}", 3 @ icepool.d6.reroll([2, 3, 4, 5], depth=1)),
    ("2d6r{6}", 2 @ icepool.d6.reroll([6], depth=1)),
    ("2d6rr2", 2 @ icepool.d6.reroll([1, 2], depth="inf")),
    ("1d8rr{1,8}+2", icepool.d8.reroll([1, 8], depth="inf") + 2),
])
def test_the_new_kinds_are_icepools_dice_exactly(written: str, expected: icepool.Die) -> None:
    assert dict(R.as_dist(R.parse_dice(written)).items()) == icepool_chances(expected)


@pytest.mark.parametrize(("written", "shown"), [
    ("1d6r{1,2}", "1d6r2"), ("1d6r{2,1,2}", "1d6r2"), ("1d10!{10}", "1d10!"), ("1d10!!{10}", "1d10!!"),
    ("1d10!{10, 9}", "1d10!{9,10}"), ("2d6rr{1}", "2d6rr1"), ("1d6r{2,3,4,5}", "1d6r{2,3,4,5}"),
    ("1d6!+1d6!{6}+1d6!!", "2d6!+1d6!!"),
])
def test_a_kind_has_one_written_form(written: str, shown: str) -> None:
    """Two spellings of one kind are the same dice: they add up, and the pool reads back as it prints."""
    assert str(R.parse_dice(written)) == shown
    assert R.parse_dice(shown) == R.parse_dice(written)


@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_extra_dice_count_in_successes_and_counts(n: int) -> None:
    """d10! adds a die for each 10, and every die counts: the extra ones toward successes and counts too."""
    pool = R.parse_dice(f"{n}d10!")
    assert dict(R.successes(pool, 8).items()) == icepool_chances((n @ TEN_AGAIN).map(lambda v: v % 100))
    tens = icepool.d10.map(lambda x: 101 if x == 10 else 0).explode([101], depth=15)
    assert dict(R.count_faces(pool, 10).items()) == icepool_chances((n @ tens).map(lambda v: v % 100))


def test_extra_and_compounding_dice_differ_only_in_pool_questions() -> None:
    separate, compounding = R.parse_dice("3d6!"), R.parse_dice("3d6!!")
    assert R.as_dist(separate) == R.as_dist(compounding)
    # a compounding die that exploded shows 7 or more, so never a 6: only its exploded sum counts
    assert R.count_faces(compounding, 6).items() == [(0, 1)]
    assert R.at_least(R.count_faces(separate, 6), 1) == 1 - Fraction(5, 6) ** 3


def test_a_total_and_counts_of_extra_dice_are_asked_jointly() -> None:
    """let p = 2d6!+1 in ... reads the total and the sixes of one roll: equal to icepool over every chain."""
    chain = icepool.d6.map(lambda x: 1006 if x == 6 else x).explode([1006], depth=19)
    expected = (2 @ chain).map(lambda v: (v % 1000 + 1, v // 1000))
    joint, total = R.pool_answers(R.parse_dice("2d6!+1"), [("total",), ("count", 6, 6)])
    assert {answers: Fraction(ways, total) for answers, ways in joint.items()} == icepool_chances(expected)


@pytest.mark.parametrize(("written", "message"), [
    ("1d6!{1,2,3,4,5,6}", r"a d6 that explodes on \{1,2,3,4,5,6\} would roll forever"),
    ("1d6!!{0}", r"d6!!\{0\} names a face a d6 does not have"),
    ("1d6r{7}", r"d6r\{7\} names a face a d6 does not have"),
    ("1d6rr{1,2,3,4,5,6}", "d6rr6 would reroll faces 1 to 6: it needs a face kept"),
    ("1d6r{2,3,4,5,6,1}", "d6r6 would reroll faces 1 to 6: it needs a face kept"),
    ("1d4rr{2,3,4,1}", "d4rr4 would reroll faces 1 to 4"),
])
def test_a_new_kind_that_cannot_be_rolled_is_refused(written: str, message: str) -> None:
    with pytest.raises(R.RulesError, match=message):
        R.parse_dice(written)


def test_highest_of_extra_dice_is_refused_not_guessed() -> None:
    """A pool that comes from a table or an input is only known when it is rolled: the runtime refuses it there."""
    with pytest.raises(R.RulesError, match=r"highest\(\) cannot be asked of dice that explode into extra dice"):
        R.keep_pool(R.parse_dice("3d6!"), 1, True)
    with pytest.raises(R.RulesError, match=r"lowest\(\) cannot be asked"):
        R.pool_answers(R.parse_dice("1d8+1d6!"), [("total",), ("lowest", 1)])
    assert R.keep_pool(R.parse_dice("3d6!!"), 1, True) == R.keep_pool(R.parse_dice("3d6!!"), 1, True)


JS_KINDS = """
const R = require(process.argv[1]).RulesRuntime || globalThis.RulesRuntime;
const out = {};
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
for (const [text, asked] of cases) {
  const pool = R.parseDice(text), d = R.asDist(pool);
  const found = R.poolAnswers(pool, asked);
  out[text + " " + JSON.stringify(asked)] = {shown: String(pool), offset: d.offset, weights: d.weights.map(String),
    total: String(d.total), joint: [...found.joint].map(([k, w]) => [k, String(w)]).sort(), all: String(found.total)};
}
console.log(JSON.stringify(out));
"""
JS_CASES = [("3d10!", [["successes", 8]]), ("2d6!+1d4-1", [["total"], ["count", 6, 6]]),
            ("2d10!!{9,10}", [["highest", 1]]), ("4d6r{2,3,4,5}", [["successes", 6], ["count", 1, 1]]),
            ("3d6rr2+2", [["lowest", 2], ["total"]]), ("2d8!{1,8}", [["count", 1, 1], ["successes", 5]])]


def test_the_javascript_runtime_computes_the_new_kinds_the_same() -> None:
    runtime = Path(R.__file__).with_suffix(".js")
    done = subprocess.run([node(), "-e", JS_KINDS, str(runtime)], input=json.dumps(JS_CASES),
                          capture_output=True, text=True, check=True, timeout=120)
    found = json.loads(done.stdout)
    for text, asked in JS_CASES:
        js = found[text + " " + json.dumps(asked, separators=(",", ":"))]
        pool = R.parse_dice(text)
        dist = R.as_dist(pool)
        assert js["shown"] == str(pool)
        assert [Fraction(int(w), int(js["total"])) for w in js["weights"]] == \
            [Fraction(w, dist.total) for w in dist.weights]
        joint, total = R.pool_answers(pool, [tuple(q) for q in asked])
        assert {tuple(int(x) for x in k.split(",")): Fraction(int(w), int(js["all"])) for k, w in js["joint"]} == \
            {k: Fraction(w, total) for k, w in joint.items()}


def check_error(source: str) -> tuple[str, str, int]:
    """The code, message and column of the first error the checker reports on a formula with a parameter n."""
    diags = Diagnostics()
    node = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    assert check_types(node, Scope({"n": "int"}, {}, {}, lambda name, span: None), diags) is None
    return diags.items[0].code, diags.items[0].message, diags.items[0].span.col


@pytest.mark.parametrize(("source", "column"), [
    ("highest(3d6!, 1)", 10), ("3d6!kh2", 2), ("let p = 2d8 + n d6! in lowest(p, 1) + count(p, 6)", 17),
    ("let p = 4d10!{9,10} in if successes(p, 8) > 1 then highest(p, 2) else 0", 10),
])
def test_the_checker_refuses_highest_of_extra_dice_where_it_sees_them(source: str, column: int) -> None:
    code, message, col = check_error(source)
    assert (code, col) == ("E0409", column)
    assert "cannot be asked of dice that explode into extra dice" in message


@pytest.mark.parametrize("source", ["let p = 3d6!! in highest(p, 1)", "let p = 5d10! in successes(p, 8) + count(p, 10)",
                                    "highest(3d6r{1,2}, 2)", "let p = 2d6rr1 in lowest(p, 1)"])
def test_the_checker_accepts_what_it_can_answer(source: str) -> None:
    diags = Diagnostics()
    node = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    typed = check_types(node, Scope({"n": "int"}, {}, {}, lambda name, span: None), diags)
    assert typed is not None and typed.type == "dist"
    assert not diags.items


@pytest.mark.parametrize(("source", "column", "message", "hint"), [
    ("2d6r", 4, "expected the highest face to reroll, or {faces}, after 'r'",
     "d6r2 rerolls 1s and 2s, d6r{2,3,4,5} those faces"),
    ("2d6rr + 1", 6, "expected the highest face to reroll, or {faces}, after 'rr'",
     "d6rr2 rerolls 1s and 2s, d6rr{2,3,4,5} those faces"),
])
def test_a_reroll_needs_its_faces(source: str, column: int, message: str, hint: str) -> None:
    """The caret goes where the faces were expected: the end of the formula, or the '+' that came instead."""
    with pytest.raises(FormulaSyntaxError) as found:
        parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    assert (found.value.offset, found.value.message, found.value.hint) == (column, message, hint)


@pytest.mark.parametrize(("written", "same"), [
    ("2d6!!kh1", "highest(2d6!!, 1)"),
    ("2d6!!{5,6}kh1", "highest(2d6!!{5,6}, 1)"),
    ("2d{0,1,1}kl1", "lowest(2d{0,1,1}, 1)"),
    ("3d6r1 kh2", "highest(3d6r1, 2)"),
    ("3d6rr{1,2}kh2", "highest(3d6rr{1,2}, 2)"),
    ("4dF kl", "lowest(4dF, 1)"),
])
def test_a_keep_may_follow_every_kind_of_die(written: str, same: str) -> None:
    """The lexer reads 'kh'/'kl' as a keep only after dice notation; behind the faces, the '!' marks, the reroll
    or the F it must still see the dice, or the keep would be a name and the formula refused."""
    assert roll_expression(written) == roll_expression(same)


@pytest.mark.parametrize(("source", "column", "sides"), [("d66r1", 3, "66"), ("2d666rr{1,2}", 5, "666"),
                                                         ("1 + d66!", 7, "66")])
def test_a_d66_in_a_formula_cannot_be_rerolled_or_explode(source: str, column: int, sides: str) -> None:
    """d66 reads two d6 as tens and units: the author is told so at the reroll or '!', and how to write a die of
    66 sides instead, rather than that an 'r' is unexpected."""
    with pytest.raises(FormulaSyntaxError) as found:
        parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    assert (found.value.offset, found.value.message, found.value.hint) == (
        column, f"d{sides} is a roll read as tens and units, which cannot explode or be rerolled",
        f"write 1d({sides}) for a die of {sides} sides")


def test_a_d_after_a_bracket_is_dice() -> None:
    """'d' is dice after a number or a ')': a count worked out in brackets rolls like one written out."""
    assert roll_expression("(1 + 1)d(6)") == roll_expression("2d6")
