"""The backends' regrouping (rulesc/formula/regroup.py) and the runtime paths it and the dice benchmark led to
give what the long way gives, in the interpreter, the engine and the JavaScript, errors included: a plain let
moved out of a roll it does not read (only past a roll that cannot fail), a body run once per value a roll is read
through (R.bind_through), independent rolls counted when equally likely, and one question to dice that explode
answered by raising polynomials to powers. Written by an outside author with awkward names and edge values; the
generated code is read to see that each path is taken, or declined where it must be."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from rulesc.diagnostics.core import Span
from rulesc.formula import nodes as n
from rulesc.formula.parser import parse_formula
from rulesc.formula.regroup import quiet_roll
from rulesc.runtime import rulesc_runtime as R
from tests.backends import Built
from tests.test_dice_shortcuts import chapter, formula_book, javascript_of, made, python_of
from tests.test_exact_runtimes import three_ways

TABLE = """\
    table:
      name: odd_table
      caption: Odd table
      columns:
        - {key: roll, label: Roll, type: range}
        - {key: word, label: Word, type: text}
      rows:
        - {roll: 10-10, word: ten}
        - {roll: 20-29, word: twenties}
"""

FORMULAS: dict[str, tuple[str, str]] = {
    # name: (parameters as YAML, expression)
    "read_through": ("[{name: k, type: int, min: -9, max: 9}]",
                     'let a_ = 1d6 in let c_ = 2d10 in let s_ = min(a_ + k, 7) in '
                     'if s_ > highest(c_, 1) then "high" else if s_ > lowest(c_, 1) then "mid" else "low"'),
    "through_names": ("[]", 'let o_ = (if 1d6 >= 5 then "hit" else "miss") in let big = o_ == "hit" in '
                            'if big then 1d4 else 0'),
    "through_fudge": ("[{name: k, type: int, min: -3, max: 3}]",
                      "let f_ = 3dF in let s_ = abs(f_ + k) in s_ * s_ - roll(1d{0,0,2})"),
    "reads_both": ("[]", "let a_ = 1d4 in let s_ = a_ * 2 in s_ + a_"),
    "value_rolls": ("[]", "let a_ = 1d3 in let s_ = (a_)d2 in s_"),
    "rolled_through": ("[{name: k, type: int, min: 0, max: 9}]",
                       'let u_ = 1d{0,1,2,3} in let r_ = (if u_ > 0 then highest(2d4, 1) * 10 + u_ else 100) in '
                       'if r_ == 100 then "top" else if r_ <= k * 5 then "low" else "high"'),
    "rolled_first_error": ("[{name: m, type: int, min: 0, max: 99}, {name: k, type: int, min: 0, max: 2}]",
                           "let x_ = 1d{0,1,2} in let y_ = 1d{0,10} + m // (2 - x_ + k) in "
                           "lookup(odd_table, word, y_)"),
    "pool_asked": ("[]", "let a_ = 1d2 in let p_ = (a_)d4 in highest(p_, 1)"),
    "first_error_in_order": ("[{name: m, type: int, min: 0, max: 99}, {name: k, type: int, min: 0, max: 2}]",
                             "let x_ = 1d{0,1,2} in let y_ = m // (2 - x_ + k) in lookup(odd_table, word, y_)"),
    "hoist_past_quiet": ("[{name: k, type: int, min: -1, max: 3}]",
                         "let c_ = 2d{0,0,5} in let s_ = 10 // k in c_ + s_"),
    "no_hoist_unsure_count": ("[{name: n, type: int, min: -1, max: 2}, {name: k, type: int, min: 0, max: 2}]",
                              "let c_ = (n)d6 in let s_ = 10 // k in c_ + s_"),
    "no_hoist_exploding": ("[{name: k, type: int, min: 0, max: 2}]", "let c_ = 1d6! in let s_ = k * 3 in c_ - s_"),
    "or_guard": ("[{name: n, type: int, min: 0, max: 3}, {name: k, type: int, min: -1, max: 1}]",
                 "let p_ = (n)d6 in if k > 0 or count(p_, 6) >= 1 then highest(p_, 1) else lowest(p_, 2)"),
    "and_guard": ("[{name: n, type: int, min: 0, max: 3}, {name: k, type: int, min: -1, max: 1}]",
                  "let p_ = (n)d6 in if k > 0 and highest(p_, 1) == 6 then lowest(p_, 1) else 0"),
    "nested_guard": ("[{name: n, type: int, min: 0, max: 3}, {name: k, type: int, min: -1, max: 1}]",
                     "let p_ = (n)d6 in if (k > 0 and n > 1) or count(p_, 6) >= 1 then highest(p_, 1) "
                     "else lowest(p_, 2)"),
    "equal_dists": ("[]", "let a_ = 1d2 in let b_ = 1d2 in if a_ == b_ then 1d4 else 1d{1,1,9}"),
    "uneven_pair": ("[]", "let a_ = 1d{0,0,3} in let b_ = 1d{1,2,2} in a_ * 10 + b_"),
    "burst_successes": ("[{name: n, type: int, min: 0, max: 12}]",
                        "let p_ = (n)d10! + 1d6!{5,6} in let s_ = successes(p_, 6) in if s_ >= 4 then 2 else s_"),
    "mean_of_parts": ("[{name: w_, type: dice}, {name: k, type: int, min: 0, max: 7}]",
                      "mean(let p_ = 2d6 in let t_ = highest(p_, 1) in if t_ == 6 then repeat(dice_part(w_), 2) + "
                      "modifier(w_) else if t_ > k then w_ else 0)"),
    "mean_of_rolls": ("[]", "mean(let p_ = 3d4 in if lowest(p_, 1) == 1 then (highest(p_, 1))d6 else lowest(p_, 2))"),
    "mean_of_a_function": ("[]", "mean(max(let p_ = 2d6 in highest(p_, 1) - lowest(p_, 1), 2))"),
    "mean_too_wide": ("[]", "mean(let p_ = 2d6 in if highest(p_, 1) == 6 then 3000000 else 0)"),
}


@pytest.fixture(scope="module")
def quirk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    yield from formula_book(tmp_path_factory, "regroup", chapter(FORMULAS, TABLE))


def chances(found: dict[str, Any]) -> dict[Any, Fraction]:
    value = found["value"]
    pairs = value["dist"] if "dist" in value else value["outcomes"]
    return {x: Fraction(p) for x, p in pairs}


def test_a_body_reading_a_roll_through_a_plain_value_runs_once_per_value(quirk: Built) -> None:
    code = python_of(quirk, "read_through")
    assert "R.bind_through_named(" in code and "R.bindThrough(" in javascript_of(quirk, "read_through")
    assert code.index("lambda s_") < code.index(made(quirk, "R.dice(2, 10)"))  # s_ moved out of c_: unread there
    found = three_ways(quirk, [("read_through", {"k": k}) for k in range(-9, 10)])
    for k, answer in zip(range(-9, 10), found, strict=True):
        ways: dict[str, int] = {}
        for a, c1, c2 in itertools.product(range(1, 7), range(1, 11), range(1, 11)):
            s = min(a + k, 7)
            word = "high" if s > max(c1, c2) else "mid" if s > min(c1, c2) else "low"
            ways[word] = ways.get(word, 0) + 1
        assert chances(answer) == {word: Fraction(w, 600) for word, w in ways.items()}, k


def test_a_roll_of_names_and_fudge_dice_read_through(quirk: Built) -> None:
    assert "R.bind_through_named(" not in python_of(quirk, "through_names")  # the result is a roll of numbers
    assert "R.bind_through(" in python_of(quirk, "through_names")
    assert "R.bind_through(" in python_of(quirk, "through_fudge")
    found = three_ways(quirk, [("through_names", {})] + [("through_fudge", {"k": k}) for k in range(-3, 4)])
    assert chances(found[0]) == {0: Fraction(2, 3), **{x: Fraction(1, 12) for x in range(1, 5)}}
    fudge = [sum(f) for f in itertools.product((-1, 0, 1), repeat=3)]
    expect: dict[int, Fraction] = {}
    for total, minus in itertools.product(fudge, (0, 0, 2)):
        x = (total - 3) ** 2 - minus  # k = -3, the first fudge call
        expect[x] = expect.get(x, Fraction(0)) + Fraction(1, 81)
    assert chances(found[1]) == expect


def test_a_body_that_reads_the_roll_itself_or_a_pool_by_more_than_its_total_is_not_read_through(
        quirk: Built) -> None:
    for name in ("reads_both", "pool_asked"):
        assert "bind_through" not in python_of(quirk, name) and "bindThrough" not in javascript_of(quirk, name)
    found = three_ways(quirk, [("reads_both", {}), ("pool_asked", {})])
    assert chances(found[0]) == {x: Fraction(1, 4) for x in (3, 6, 9, 12)}
    assert chances(found[1]) == {1: Fraction(1, 8) + Fraction(1, 32), 2: Fraction(1, 8) + Fraction(3, 32),
                                 3: Fraction(1, 8) + Fraction(5, 32), 4: Fraction(1, 8) + Fraction(7, 32)}


def test_a_roll_that_reads_a_roll_is_read_through_once_per_result(quirk: Built) -> None:
    """r_ is a roll for each u_: the body runs once per result of any of them, each weighed by the ways of u_
    times its own, which is every pair of dice and u_ counted one by one."""
    for name in ("value_rolls", "rolled_through", "rolled_first_error"):
        assert "R.bind_through" in python_of(quirk, name) and "R.bindThrough(" in javascript_of(quirk, name)
    found = three_ways(quirk, [("value_rolls", {})] + [("rolled_through", {"k": k}) for k in range(10)])
    assert chances(found[0]) == {1: Fraction(1, 6), 2: Fraction(1, 4), 3: Fraction(5, 24), 4: Fraction(5, 24),
                                 5: Fraction(1, 8), 6: Fraction(1, 24)}
    for k, answer in zip(range(10), found[1:], strict=True):
        ways: dict[str, int] = {}
        for u, d1, d2 in itertools.product(range(4), range(1, 5), range(1, 5)):
            r = max(d1, d2) * 10 + u if u > 0 else 100
            word = "top" if r == 100 else "low" if r <= k * 5 else "high"
            ways[word] = ways.get(word, 0) + 1
        assert chances(answer) == {word: Fraction(w, 64) for word, w in ways.items()}, k


def test_errors_of_a_roll_read_through_come_in_the_order_the_nested_lets_meet_them(quirk: Built) -> None:
    """y_ is m // (2 - x_ + k) plus 0 or 10, for x_ = 0, 1, 2, each looked up as it is first met. m = 20, k = 0:
    10, 20 and 30 first (30 is not in the table), before x_ = 2 divides by zero. m = 0, k = 0: 0 is not in the
    table. m = 10, k = 1: 3 is met first, before 5, 10 and 20."""
    found = three_ways(quirk, [("rolled_first_error", {"m": m, "k": k}) for m, k in ((20, 0), (0, 0), (10, 1))])
    assert found[0] == {"error": "RulesError: 30 is not in the table"}
    assert found[1] == {"error": "RulesError: 0 is not in the table"}
    assert found[2] == {"error": "RulesError: 3 is not in the table"}


def test_errors_come_in_the_order_the_nested_lets_meet_them(quirk: Built) -> None:
    """y_ = m // (2 - x_ + k) for x_ = 0, 1, 2, each looked up. m = 20, k = 0: 10 and 20 are found, then x_ = 2
    divides by zero. m = 30, k = 0: 15 is not in the table, met before the division by zero (working out every
    y_ first would meet the division first). m = 20, k = 1: 6 is not in the table."""
    assert "R.bind_through_named(" in python_of(quirk, "first_error_in_order")
    found = three_ways(quirk, [("first_error_in_order", {"m": m, "k": k}) for m, k in ((20, 0), (30, 0), (20, 1))])
    assert found[0] == {"error": "RulesError: division by zero"}
    assert found[1] == {"error": "RulesError: 15 is not in the table"}
    assert found[2] == {"error": "RulesError: 6 is not in the table"}


def test_a_plain_let_moves_only_past_a_roll_that_cannot_fail(quirk: Built) -> None:
    moved = python_of(quirk, "hoist_past_quiet")
    assert moved.index("lambda s_") < moved.index(made(quirk, 'R.dice(2, 0, "{0,0,5}")'))
    for name, pool in (("no_hoist_unsure_count", "R.dice(n, 6)"), ("no_hoist_exploding", 'R.dice(1, 6, "!")')):
        code = python_of(quirk, name)
        assert code.index(made(quirk, pool)) < code.index("lambda s_"), name
    calls = [("hoist_past_quiet", {"k": k}) for k in (-1, 0, 3)]
    calls += [("no_hoist_unsure_count", {"n": n, "k": k}) for n in (-1, 0, 2) for k in (0, 2)]
    calls += [("no_hoist_exploding", {"k": k}) for k in (0, 2)]
    found = three_ways(quirk, calls)
    assert found[1] == {"error": "RulesError: division by zero"}
    assert found[3] == {"error": "RulesError: cannot roll -1d6"}  # the roll fails first, as written
    assert chances(found[2]) == {3: Fraction(4, 9), 8: Fraction(4, 9), 13: Fraction(1, 9)}


@pytest.mark.parametrize(("text", "body", "quiet"), [
    ("2d10", "highest(c, 1) + lowest(c, 1)", True),
    ("0d6", "c", True),
    ("3dF", "c", True),
    ("2d{0,0,5}", "count(c, 0)", True),
    ("9d6", "c", False),  # more dice than are tried at build time
    ("2d6r1", "c", False),
    ("2d6!", "c", False),
    ("(n)d6", "c", False),
    ("2d6", "highest(c, n)", False),  # a question with an argument the build cannot know
])
def test_a_quiet_roll_is_literal_dice_with_literal_questions(text: str, body: str, quiet: bool) -> None:
    node = parse_formula(f"let c = {text} in {body}", lambda offset: Span("<test>", 1, offset + 1))
    assert isinstance(node, n.Let)
    assert quiet_roll(node.value, node.body, "c") is quiet


def test_the_left_of_an_or_guards_the_other_branch_and_of_an_and_its_own(quirk: Built) -> None:
    """`if k > 0 or ...` goes the other way only where k > 0 is false, so what only that branch (and the right of
    the or) reads is asked only then; `if k > 0 and ...` goes its way only where k > 0 holds."""
    assert "(not (k > 0), True, not (k > 0))" in python_of(quirk, "or_guard")
    assert "[!(k > 0), true, !(k > 0)]" in javascript_of(quirk, "or_guard")
    assert "((k > 0), (k > 0))" in python_of(quirk, "and_guard")
    calls = [(name, {"n": n, "k": k}) for name in ("or_guard", "and_guard", "nested_guard") for n in range(4)
             for k in (-1, 1)]
    found = three_ways(quirk, calls)
    for (name, args), answer in zip(calls, found, strict=True):
        n, k = args["n"], args["k"]
        expect: dict[int, Fraction] = {}
        for roll in itertools.product(range(1, 7), repeat=n):
            ordered = sorted(roll)
            if name == "or_guard":
                x = max(roll, default=0) if k > 0 or 6 in roll else sum(ordered[:2])
            elif name == "nested_guard":  # a plain left side that is itself an and: its own names are plain too
                x = max(roll, default=0) if (k > 0 and n > 1) or 6 in roll else sum(ordered[:2])
            else:
                x = min(roll, default=0) if k > 0 and max(roll, default=0) == 6 else 0
            expect[x] = expect.get(x, Fraction(0)) + Fraction(1, 6**n)
        assert chances(answer) == expect, (name, args)


def test_equally_likely_rolls_bound_at_once_count_equal_answers(quirk: Built) -> None:
    found = three_ways(quirk, [("equal_dists", {}), ("uneven_pair", {})])
    assert chances(found[0]) == {1: Fraction(1, 8) + Fraction(1, 3), 2: Fraction(1, 8), 3: Fraction(1, 8),
                                 4: Fraction(1, 8), 9: Fraction(1, 6)}
    assert chances(found[1]) == {1: Fraction(2, 9), 2: Fraction(4, 9), 31: Fraction(1, 9), 32: Fraction(2, 9)}
    same = R.bind_each_any([R.dice(1, 2), R.dice(1, 2)], lambda a, b: R.as_dist(R.dice(1, 4)) if a == b else 7)
    assert same == R.bind(R.dice(1, 2), lambda a: R.bind(R.dice(1, 2), lambda b: R.as_dist(R.dice(1, 4))
                                                          if a == b else 7))


def test_equally_likely_results_are_weighed_when_their_weights_are_not_in_lowest_terms() -> None:
    """A roll an engine caller makes itself need not have its weights in lowest terms (a d2 as 2/4 and 2/4, two
    names as 3/6 each): the answers to rolls bound at once, counted when each roll's results are equally likely, are
    still weighed by those results' weight, names and yes/no as much as numbers."""
    loose_d2, loose_names = R.Dist(1, (2, 2), 4), R.Outcomes(("x", "y"), (3, 3), 6)
    assert R.bind_each_any([loose_d2, R.dice(1, 2)], lambda a, b: "high" if a + b > 3 else "low") == \
        R.outcomes({"high": 1, "low": 3}, 4)
    assert R.bind_each_any([loose_names, loose_d2], lambda name, b: name == "x" and b == 2) == \
        R.outcomes({False: 3, True: 1}, 4)
    assert R.bind_each_any([loose_d2, loose_d2], lambda a, b: a * b) == R.Dist(1, (1, 2, 0, 1), 4)


def test_rolls_bound_at_once_none_equally_likely_are_weighed() -> None:
    """Answers are counted only when every roll's results are equally likely; when no roll's are (2d2's 1:2:1, names
    at 2:1), alone or together, each combination is weighed by its results' weights."""
    two, skew = R.as_dist(R.parse_dice("2d2")), R.outcomes({"a": 2, "b": 1}, 3)
    assert R.bind_each_any([two], lambda x: x * 2) == R.Dist(4, (1, 0, 2, 0, 1), 4)
    assert R.bind_each_any([skew], lambda a: a + "!") == R.outcomes({"a!": 2, "b!": 1}, 3)
    assert R.bind_each_any([two, skew], lambda x, a: a * x) == \
        R.outcomes({"aa": 2, "aaa": 4, "aaaa": 2, "bb": 1, "bbb": 2, "bbbb": 1}, 12)


def test_an_outcome_of_no_chance_is_never_bound() -> None:
    """A roll's outcome of no chance (the 2 of 1d{1,1,3,3,3}, whose weights 2/5, 0, 3/5 hold no 1) is never given to
    what is bound to it, with other rolls or read through: a body that errs there must not err."""
    gappy = R.parse_dice("1d{1,1,3,3,3}")
    assert R.bind_each_any([gappy], lambda x: R.floor_div(6, x - 2)) == R.Dist(-6, (2,) + (0,) * 11 + (3,), 5)
    assert R.bind_each_any([R.dice(1, 2), gappy], lambda y, x: R.floor_div(6, x - 2) > y) == \
        R.outcomes({False: 2, True: 3}, 5)
    assert R.bind_through_any(gappy, lambda x: R.floor_div(6, x - 2), lambda y: y * 2) == \
        R.Dist(-12, (2,) + (0,) * 23 + (3,), 5)


def test_one_question_to_exploding_dice_is_the_die_by_die_sum(quirk: Built) -> None:
    found = three_ways(quirk, [("burst_successes", {"n": n}) for n in (0, 1, 12)])
    assert set(chances(found[2])) == {0, 1, 2, 3}  # four successes or more read as 2
    for text, question in [("3d6!+2d4!{3,4}", ("successes", 5)), ("2d10!", ("count", 1)), ("0d6!", ("total",)),
                           ("1d6!-4", ("total",)), ("4d8!!+1d6!", ("count", 2, 7))]:
        pool = R.parse_dice(text)
        one, total = R.pool_answers(pool, [question])
        two, total_two = R.pool_answers(pool, [question, ("total",)])
        projected: dict[tuple[int, ...], int] = {}
        for answers, ways in two.items():
            projected[answers[:1]] = projected.get(answers[:1], 0) + ways
        assert (one, total) == (projected, total_two), text


def pool_mean(counts: list[tuple[int, int]], const: int) -> Fraction:
    """The mean of a pool of plain dice (count, sides), every roll counted die by die."""
    dice = [range(1, sides + 1) for count, sides in counts for _ in range(count)]
    rolls = list(itertools.product(*dice))
    return Fraction(sum(map(sum, rolls)), len(rolls)) + const


def two_d6_mean(part: Any) -> Fraction:
    """The mean over every roll of 2d6 of part(highest, lowest), itself a mean."""
    found = [part(max(a, b), min(a, b)) for a, b in itertools.product(range(1, 7), repeat=2)]
    return sum(found, Fraction(0)) / 36


def test_the_mean_of_a_pool_let_is_the_mean_of_its_parts(quirk: Built) -> None:
    """mean(let p = pool in ...) is each result's mean weighed by its chance (R.pool_bind_mean), the pools and
    numbers it gives taken as they are, with no roll made of them; a mean of anything else of the let is not."""
    for name in ("mean_of_parts", "mean_of_rolls", "mean_too_wide"):
        assert "R.pool_bind_mean(" in python_of(quirk, name) and "R.poolBindMean(" in javascript_of(quirk, name)
    assert "R.as_dist(" not in python_of(quirk, "mean_of_parts") + python_of(quirk, "mean_of_rolls")
    assert "R.asDist(" not in javascript_of(quirk, "mean_of_parts") + javascript_of(quirk, "mean_of_rolls")
    assert "pool_bind_mean" not in python_of(quirk, "mean_of_a_function")
    assert "poolBindMean" not in javascript_of(quirk, "mean_of_a_function")
    weapons = {"1d8+3": ([(1, 8)], 3), "2d6-1": ([(2, 6)], -1), "3": ([], 3)}
    calls = [("mean_of_parts", {"w_": R.parse_dice(text), "k": k}) for text in weapons for k in (0, 4, 7)]
    found = three_ways(quirk, [*calls, ("mean_of_rolls", {}), ("mean_of_a_function", {}), ("mean_too_wide", {})])
    for (_, args), answer in zip(calls, found, strict=False):
        counts, plus = weapons[str(args["w_"])]
        critical, hit = pool_mean([(2 * count, sides) for count, sides in counts], plus), pool_mean(counts, plus)
        expect = two_d6_mean(lambda high, _: critical if high == 6 else hit if high > args["k"]  # noqa: B023
                             else Fraction(0))
        assert answer == {"value": {"exact": str(expect)}}, args
    rolls = list(itertools.product(range(1, 5), repeat=3))
    expect = sum((pool_mean([(max(r), 6)], 0) if min(r) == 1 else Fraction(sum(sorted(r)[:2])) for r in rolls),
                 Fraction(0)) / 64
    assert found[-3] == {"value": {"exact": str(expect)}}
    assert found[-2] == {"value": {"exact": str(two_d6_mean(lambda high, low: Fraction(max(high - low, 2))))}}
    assert found[-1] == {"error": "RulesError: a roll with more than 1000000 outcomes is refused"}


def test_bind_through_is_the_nested_binds() -> None:
    roll = R.dice(2, 4)
    for value in (lambda x: x // 3, lambda x: x % 2 == 0, lambda x: "odd" if x % 2 else "even"):
        nested = R.bind_any(roll, lambda x: (lambda y: R.as_dist(R.dice(1, 2)) if y in (0, True, "odd")  # noqa: B023
                                             else 5)(value(x)))  # noqa: B023
        assert R.bind_through_any(roll, value, lambda y: R.as_dist(R.dice(1, 2)) if y in (0, True, "odd")
                                  else 5) == nested
    seen: list[int] = []
    R.bind_through_any(R.dice(1, 6), lambda x: x // 2, lambda y: seen.append(y) or y)  # type: ignore[func-returns-value]
    assert seen == [0, 1, 2, 3]  # each value once, first seen first


@pytest.mark.parametrize("rows", [[((1, 2), "a"), ((3, 3), "b"), ((5, 9), "c")],  # rising
                                  [((5, 9), "c"), ((1, 2), "a")],  # out of order
                                  [((1, 4), "a"), ((3, 6), "b")],  # overlapping: the first row holding it
                                  [((4, 2), "x"), ((3, 3), "b")]])  # a row holding nothing
@pytest.mark.parametrize("scale", [1, 2000])  # keys spanning at most ROW_INDEX are found in a dict, more by halving
def test_a_table_reads_the_same_by_dict_by_halving_and_row_by_row(rows: list[tuple[tuple[int, int], str]],
                                                                   scale: int) -> None:
    scaled = [((low * scale, high * scale), word) for (low, high), word in rows]
    table = R.table(["word"], *scaled)
    assert (table.rows is None) == (sum(max(0, high - low + 1) for (low, high), _ in scaled) > R.ROW_INDEX)
    for key in sorted({k for (low, high), _ in scaled for k in (low - 1, low, high, high + 1)} | {0, 10 * scale}):
        held = [word for (low, high), word in scaled if low <= key <= high]
        if held:
            assert R.lookup(table, "word", key) == held[0]
        else:
            with pytest.raises(R.RulesError, match=f"^{key} is not in the table$"):
                R.lookup(table, "word", key)
