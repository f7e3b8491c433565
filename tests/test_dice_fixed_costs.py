"""The dice engine's cheaper fixed costs per call give what the long way gives, in the interpreter, the engine and
the JavaScript, errors included: one plain die bound with no distribution made (and every other kind declined),
plain dice() made without parsing a kind, pools a formula writes with whole numbers made once in the engine module
(never one the runtime refuses, so no error moves to import; the roll still worked out on each call), outcomes()
put in order, a typed lookup reading a table of few keys itself, and pool questions placed among Nones. Written by
an outside author with awkward names and edge values (0 dice, a d1, constants, listed faces with 0 and repeats,
exploding and rerolled kinds, a constant at the edge of the whole numbers)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import pytest

from rulesc.runtime import rulesc_runtime as R
from tests.backends import Built
from tests.scripts import formulas_text
from tests.test_dice_shortcuts import chapter, formula_book, made, python_of
from tests.test_dice_speed_paths import brute, chances
from tests.test_exact_runtimes import three_ways

EDGE = R.MAX_INT - 6  # 1d6 + EDGE still reaches MAX_INT; one more and the lowest face is beyond it

FORMULAS: dict[str, tuple[str, str]] = {
    # name: (parameters as YAML, expression)
    "pair_of_d1s": ("[{name: k_, type: int, min: -5, max: 5}]", "let a_ = 1d1 + k_ in let b_ = 1d1 in a_ * 10 + b_"),
    "shifted_pair": ("[{name: k_, type: int, min: -9, max: 9}]",
                     'let a_ = 1d6 + k_ in let b_ = 1d4 in if a_ > b_ then "over" else if a_ == b_ then "level" '
                     'else "under"'),
    "odd_mates": ("[{name: n_, type: int, min: 0, max: 2}]",
                  "let a_ = 1d6 in let b_ = 1d{0,0,2} in let c_ = (n_)d3 in let d_ = 1d6r2 in a_ + b_ * c_ - d_"),
    "burst_mate": ("[]", "let a_ = 1d4 in let b_ = 1d4! in a_ * 100 + b_"),
    "through_one": ("[{name: k_, type: int, min: -3, max: 3}]",
                    "let a_ = 1d8 in let s_ = min(a_ + k_, 4) in if s_ > 2 then 1d4 else s_"),
    "at_the_edge": (f"[{{name: k_, type: int, min: 0, max: {R.MAX_INT}}}]",
                    "let a_ = 1d6 + k_ in let b_ = 1d2 in if b_ == 1 then a_ - k_ else 0"),
    "same_pool_twice": ("[]", "let a_ = 2d6 in let b_ = 2d6 in a_ - b_"),
    "many_dice": ("[]", "mean(1001d2)"),
}


@pytest.fixture(scope="module")
def quirk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    yield from formula_book(tmp_path_factory, "fixed_costs", chapter(FORMULAS))


def joint(rolls: list[R.Dist], combine: Callable[..., int]) -> dict[int, Fraction]:
    """Every combination of the rolls' results, by their chances: the long way."""
    found: dict[int, Fraction] = {}
    for picks in itertools.product(*(roll.items() for roll in rolls)):
        chance = Fraction(1)
        for _, p in picks:
            chance *= p
        x = combine(*(value for value, _ in picks))
        found[x] = found.get(x, Fraction(0)) + chance
    return found


def counting_as_dist(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The runtime's as_dist, each roll it is asked for recorded."""
    seen: list[Any] = []
    real = R.as_dist

    def spy(x: Any) -> R.Dist:
        seen.append(x)
        return real(x)

    monkeypatch.setattr(R, "as_dist", spy)
    return seen


@pytest.mark.parametrize("sides", [1, 2, 6, 20])
@pytest.mark.parametrize("const", [-4, 0, 7])
def test_one_plain_die_is_bound_with_no_distribution_made(monkeypatch: pytest.MonkeyPatch, sides: int,
                                                          const: int) -> None:
    pool, other = R.dice_add(R.dice(1, sides), const), R.dice(1, 3)
    expected = joint([R.as_dist(pool), R.as_dist(other)], lambda a, b: a * 7 - b)
    seen = counting_as_dist(monkeypatch)
    found = R.bind_each_any([pool, other], lambda a, b: a * 7 - b)
    assert dict(found.items()) == expected
    ways: list[int] = []
    R.bind_through_any(pool, lambda x: x % 3, lambda y: ways.append(y) or y)  # type: ignore[func-returns-value]
    assert seen == []  # each roll is one plain die: no distribution asked for
    assert ways == list(dict.fromkeys((const + face) % 3 for face in range(1, sides + 1)))


@pytest.mark.parametrize("text", ["0d6", "2d6", "1d{0,0,2}", "1d6!", "1d6r2", "1dF", "1d4+1d6", "3"])
def test_every_other_roll_declines_the_one_die_path(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    pool = R.parse_dice(text)
    expected = joint([R.as_dist(pool), R.as_dist(R.dice(1, 2))], lambda a, b: a * 3 + b)
    seen = counting_as_dist(monkeypatch)
    found = R.bind_each_any([pool, R.dice(1, 2)], lambda a, b: a * 3 + b)
    assert dict(found.items()) == expected
    assert seen == [pool]  # the pool's distribution is worked out; the d2 beside it needs none


def test_one_die_beyond_the_whole_numbers_is_refused_as_its_distribution_is() -> None:
    pool = R.dice_add(R.dice(1, 6), R.MAX_INT)
    with pytest.raises(R.RulesError, match="beyond"):
        R.as_dist(pool)
    with pytest.raises(R.RulesError, match="beyond"):
        R.bind_each([pool], lambda a: 0)
    top = R.dice_add(R.dice(1, 6), R.MAX_INT - 1)  # the lowest face is MAX_INT: the faces above are not checked
    assert R.bind_each([top], lambda a: a - R.MAX_INT).items() == [(0, Fraction(1, 6)), *(
        (x, Fraction(1, 6)) for x in range(1, 6))]


def test_plain_dice_are_the_pools_the_parser_makes() -> None:
    assert R.dice(3, 6) == R.parse_dice("3d6") and R.dice(1, 1) == R.parse_dice("1d1")
    assert R.dice(0, 6) == R.Dice() == R.parse_dice("0")
    for count, sides, why in ((-1, 6, "cannot roll"), (2, 0, "cannot roll"), (1, R.MAX_OUTCOMES + 1, "outcomes")):
        with pytest.raises(R.RulesError, match=why):
            R.dice(count, sides)


def test_independent_one_die_rolls_agree_in_every_runtime(quirk: Built) -> None:
    calls = [("pair_of_d1s", {"k_": k}) for k in (-5, 0, 5)] + [("shifted_pair", {"k_": k}) for k in (-9, -2, 0, 9)]
    calls += [("odd_mates", {"n_": n}) for n in range(3)] + [("burst_mate", {})]
    calls += [("through_one", {"k_": k}) for k in (-3, 0, 3)] + [("same_pool_twice", {})]
    found = three_ways(quirk, calls)
    assert found[0] == {"value": {"dist": [[-39, "1"]]}}  # (1 - 5) * 10 + 1
    shifted = {word: Fraction(p) for word, p in found[5]["value"]["outcomes"]}  # k_ = 0: 1d6 against 1d4
    assert shifted == {"level": Fraction(4, 24), "over": Fraction(14, 24), "under": Fraction(6, 24)}
    through = {x: Fraction(p) for x, p in found[12]["value"]["dist"]}  # k_ = 0: s_ is 1 or 2, else 1d4
    assert through == {1: Fraction(1, 8) + Fraction(6, 8 * 4), 2: Fraction(1, 8) + Fraction(6, 8 * 4),
                       3: Fraction(6, 8 * 4), 4: Fraction(6, 8 * 4)}
    assert "R.bind_each(" in python_of(quirk, "odd_mates") and "R.bind_through(" in python_of(quirk, "through_one")


def test_a_die_at_the_edge_of_the_whole_numbers_is_refused_alike(quirk: Built) -> None:
    found = three_ways(quirk, [("at_the_edge", {"k_": k}) for k in (EDGE, R.MAX_INT)])
    assert {x: Fraction(p) for x, p in found[0]["value"]["dist"]} == {0: Fraction(1, 2), **{
        x: Fraction(1, 12) for x in range(1, 7)}}
    assert found[1] == {"error": "RulesError: a whole number went beyond 9007199254740991, the largest rulesc "
                                 "computes with"}


def test_pools_written_with_whole_numbers_are_made_once_in_the_module(quirk: Built) -> None:
    text = (quirk[0] / "build/engine/rules_engine" / f"{quirk[1].system.module}.py").read_text(encoding="utf-8")
    made_once = re.findall(r"^(_Pool\d+): Final = (.*)$", text, re.M)
    assert ("_Pool1", "R.dice(1, 1)") in made_once  # pair_of_d1s's, the first written
    assert [call for _, call in made_once].count("R.dice(2, 6)") == 1  # same_pool_twice reads one pool twice
    assert python_of(quirk, "same_pool_twice").count(made(quirk, "R.dice(2, 6)")) == 2
    assert "R.dice(n_, 3)" in python_of(quirk, "odd_mates")  # a count read from an argument: made on each call
    assert made(quirk, 'R.dice(1, 6, "r2")') != 'R.dice(1, 6, "r2")'
    assert made(quirk, "R.dice(1001, 2)") != "R.dice(1001, 2)"  # a pool of too many dice is only refused rolled


def test_the_javascript_makes_the_same_pools_once_in_its_script(quirk: Built) -> None:
    """As the module does: a pool written with whole numbers is made as the script loads, not on each call
    (in the bench, reroll/damage's 2d6r2 made on each call took Node 2.4 times the engine's time)."""
    text = formulas_text(quirk[0] / "build/docs")
    made_once = {call: name for name, call in re.findall(r"^  var (Pool\d+) = (.*);$", text, re.M)}

    def script_of(name: str) -> str:  # a formula's lines, up to the next formula's
        found = re.search(rf"^  F\.{name} = .*?(?=^  F\.)", text, re.S | re.M)
        assert found, name
        return found.group(0)
    assert made_once["R.dice(1, 1)"] == "Pool1"  # pair_of_d1s's, the first written
    assert script_of("same_pool_twice").count(made_once["R.dice(2, 6)"]) == 2
    assert "R.dice(n_, 3)" in script_of("odd_mates")  # a count read from an argument: made on each call
    assert 'R.dice(1, 6, "r2")' in made_once
    assert made_once["R.dice(1001, 2)"] in script_of("many_dice")  # refused only when rolled (below)


def test_a_pool_too_large_to_roll_is_made_at_import_and_refused_when_rolled(quirk: Built) -> None:
    """A die that cannot be rolled at all (1d1!, 1d6r6) is refused by `rulesc check` (tests/cases/bad/formula-die-
    cannot-be-rolled); a pool of too many dice is a description the runtime accepts, refused only when rolled."""
    assert made(quirk, "R.dice(1001, 2)") in python_of(quirk, "many_dice")  # the engine imported anyway
    found = three_ways(quirk, [("many_dice", {})])
    assert found[0] == {"error": "RulesError: a roll of more than 1000 dice is refused (1001 asked)"}


def test_a_pool_made_once_is_still_rolled_on_each_call(quirk: Built) -> None:
    module = quirk[2]
    runtime = module.R
    for _ in range(2):
        runtime._dice_dist.cache_clear()
        runtime._pool_dist.cache_clear()
        runtime.die_of.cache_clear()
        assert module.same_pool_twice().items()[0] == (-10, Fraction(1, 1296))
        assert runtime._pool_dist.cache_info().misses == 1  # 2d6 worked out again, once for both reads


@pytest.mark.parametrize("weights, total, expected", [
    ({"zeta": 2, "Alpha": 4, "éclair": 6, "beta": 0}, 12, (("Alpha", "zeta", "éclair"), (2, 1, 3), 6)),
    ({True: 3, False: 9}, 12, ((False, True), (3, 1), 4)),
    ({"maybe": 1, True: 2, False: 3}, 7, ((False, True, "maybe"), (3, 2, 1), 7)),
    ({"only": 5}, 5, (("only",), (1,), 1)),
])
def test_outcomes_are_put_in_one_order_and_reduced(weights: dict[Any, int], total: int,
                                                   expected: tuple[Any, ...]) -> None:
    found = R.outcomes(weights, total)
    assert (found.labels, found.weights, found.total) == expected


def test_a_typed_lookup_reads_a_table_of_few_keys_itself_and_refuses_alike() -> None:
    few = R.table(("word", "n"), ((1, 2), "low", 5), ((3, 3), "mid", -1), ((5, 9), "high", 0))
    wide = R.table(("word", "n"), ((1, 2), "low", 5), ((3, 9000), "mid", -1))
    assert few.rows is not None and wide.rows is None
    for table in (few, wide):
        assert [R.lookup_text(table, "word", k) for k in (1, 3)] == ["low", "mid"]
        assert [R.lookup_int(table, "n", k) for k in (2, 3)] == [5, -1]
        with pytest.raises(R.RulesError, match="0 is not in the table"):
            R.lookup_text(table, "word", 0)
    with pytest.raises(R.RulesError, match="4 is not in the table"):
        R.lookup_int(few, "n", 4)
    with pytest.raises(R.RulesError, match="not a word"):
        R.lookup_text(few, "n", 5)
    with pytest.raises(R.RulesError, match="not a whole number"):
        R.lookup_int(few, "word", 9)


@pytest.mark.parametrize("needed", [(True, False, True), (False, True, False), (False, False, True),
                                    (True, True, False), (False, False, False), (True, True, True)])
def test_pool_questions_are_placed_among_nones(needed: tuple[bool, bool, bool]) -> None:
    pool, asked = R.parse_dice("2d4+1d{0,0,3}"), [("highest", 1), ("lowest", 1), ("total",)]
    full: dict[tuple[Any, ...], int] = {}
    R.pool_bind_any(pool, asked, lambda answers: full.setdefault(tuple(answers), 0))
    seen: list[tuple[Any, ...]] = []
    R.pool_bind_any(pool, asked, lambda answers: seen.append(tuple(answers)) or 0,  # type: ignore[func-returns-value]
                    list(needed))
    places = [i for i, yes in enumerate(needed) if yes] or [0]
    expected = {tuple(a if i in places else None for i, a in enumerate(answers)) for answers in full}
    assert set(seen) == expected and len(seen) == len(expected)


@pytest.mark.parametrize("text", ["3d6", "3d6+2", "4d{0,0,3}-1", "3dF", "2d{-2,7,7}", "1d6"])
@pytest.mark.parametrize("asked", [[("lowest", 2), ("count", 5, 3)], [("lowest", 2), ("count", 2, 4), ("total",)],
                                   [("highest", 2), ("successes", 3)], [("total",), ("lowest", 3), ("count", 0)]],
                         ids=str)
def test_a_pool_of_few_rolls_answers_counts_from_its_sorted_faces(text: str, asked: list[tuple[Any, ...]]) -> None:
    """Counts and successes read by halving the sorted faces (a range from 5 down to 3 holding no face), and a
    pool's constant added to its totals only."""
    pool = R.parse_dice(text)
    assert chances(pool, asked) == brute(pool, asked)


@pytest.mark.parametrize("key", [6, "{0,0,3}", "F", "{-2,7,7}", 1])
def test_a_die_padded_over_any_range_is_its_ways_face_by_face(key: R.DieKey) -> None:
    kind = R.die_of(key)
    for low in range(-4, 10):
        for high in range(low - 1, 12):
            assert R._padded(kind, low, high) == [R._weight(kind, x) for x in range(low, high + 1)], (low, high)


# 1d6+1d{1,6}: two kinds that share their highest face, so the lowest die can show it
@pytest.mark.parametrize("text", ["2d20", "1d20", "3d6+1d4", "2d{0,0,3}+1dF", "1d{-2,7,7}+2d8-3", "1d6+1d{1,6}"])
@pytest.mark.parametrize("asked", [[("highest", 1)], [("lowest", 1)], [("lowest", 1), ("highest", 1)],
                                   [("highest", 1), ("lowest", 1), ("highest", 1)]], ids=str)
def test_the_highest_and_lowest_die_are_every_roll_counted(text: str, asked: list[tuple[Any, ...]]) -> None:
    pool = R.parse_dice(text)
    assert chances(pool, asked) == brute(pool, asked)


@pytest.mark.parametrize("sides", [0, -2, R.MAX_OUTCOMES + 1])
def test_a_die_made_by_hand_with_sides_no_die_has_is_refused_as_its_distribution_is(sides: int) -> None:
    """A pool made with Dice() directly skips dice()'s checks: the one-die path declines it, and the
    distribution refuses it as before."""
    pool = R.Dice(((sides, 1),))
    with pytest.raises(R.RulesError):
        R.bind_each_any([pool], lambda a: a)
