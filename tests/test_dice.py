"""Dice mathematics: the exact runtime against icepool, brute force and properties; JavaScript against Python."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.analyze.program import Program
from rulesc.pipeline import Project, compile_project
from rulesc.runtime import rulesc_runtime as R
from tests.backends import agree, encode, run_js

GRID_TIERS = range(1, 8)
GRID_CRITICAL = (7, 8, 9, 10)
GRID_BOTCH = (1, 3, 6)
GRID_BASE_DIE = (0, 1, 2)


def exact(die: Any) -> dict[int, Fraction]:
    return {o: Fraction(q, die.denominator()) for o, q in die.items() if q}


def ours(dist: R.Dist) -> dict[int, Fraction]:
    return dict(dist.items())


def icepool_category(n: int) -> Any:
    tens, rest = divmod(n, 4)
    die = icepool.Die([0])
    for _ in range(tens):
        die = die + icepool.d10
    return die + icepool.d((4, 6, 8)[rest - 1]) if rest else die


def icepool_combat(tier: int, bonus: int, critical: int, botch: int, base_tier: int, base_die: int) -> Any:
    """The DBU combat roll as the core rules state it, modelled independently in icepool."""
    natural = (icepool.d10, icepool.d10.highest(2), icepool.d10.lowest(2))[base_die]
    extra, crit = icepool_category(tier - 1), icepool_category(tier + 1)

    def score(n: int) -> Any:
        total = n + extra + bonus + (crit if n >= critical else 0) - (2 * base_tier if n <= botch else 0)
        return total.clip(0, None)

    return natural.map(score)


@pytest.fixture(scope="module")
def dbu() -> Program:
    root = Path(__file__).resolve().parent.parent
    return next(p for p in compile_project(Project(root)).programs if p.system.id == "dbu")


def combat_grid() -> list[tuple[int, int, int, int]]:
    return list(itertools.product(GRID_TIERS, GRID_CRITICAL, GRID_BOTCH, GRID_BASE_DIE))


@pytest.mark.slow  # each point of the grid here and in icepool
def test_dbu_combat_roll_matches_icepool_on_the_whole_grid(dbu: Program) -> None:
    mismatches = []
    for tier, critical, botch, base_die in combat_grid():
        got = ours(dbu.call("combat_roll", [tier, tier, 3, critical, botch, base_die]))
        if got != exact(icepool_combat(tier, 3, critical, botch, tier, base_die)):
            mismatches.append((tier, critical, botch, base_die))
    assert mismatches == []
    assert len(combat_grid()) == 252


def test_dbu_clash_matches_icepool_with_defender_winning_ties(dbu: Program) -> None:
    for tier, critical, botch in itertools.product((1, 4, 7), (7, 10), (1, 6)):
        side = icepool_combat(tier, 0, critical, botch, tier, 0)
        expected = (side > side).probability(True)
        got = dbu.call("clash_attacker_wins", [tier, 0, critical, botch, tier, 0, critical, botch])
        assert got == Fraction(expected.numerator, expected.denominator), (tier, critical, botch)


@pytest.mark.parametrize("pool", (0, 1, 5, 17, 30, 60))
def test_success_pools_minus_defense_floor_zero_match_icepool(pool: int) -> None:
    for threshold, defense in itertools.product((4, 5, 6), (0, 3, 10)):
        got = R.dmax(R.dsub(R.successes(R.dice(pool, 6), threshold), defense), 0)
        expected = (pool @ (icepool.d6 >= threshold) - defense).clip(0, None)
        assert ours(got) == exact(expected), (pool, threshold, defense)


def test_trigger_die_keep_highest_matches_icepool_for_every_escalation() -> None:
    for escalation in range(31):
        dice = 1 + escalation // 3
        highest = R.keep_pool(R.dice(dice, 12), 1, True)
        assert ours(highest) == exact(icepool.d12.highest(dice)), escalation


@pytest.mark.parametrize("n,sides,k", [(4, 6, 3), (5, 6, 2), (3, 10, 2), (6, 4, 4), (2, 20, 1)])
def test_keep_highest_and_lowest_k_match_icepool(n: int, sides: int, k: int) -> None:
    assert ours(R.keep(n, sides, k, True)) == exact(icepool.d(sides).highest(n, k))
    assert ours(R.keep(n, sides, k, False)) == exact(icepool.d(sides).lowest(n, k))


def brute(dice: list[int], combine: Any) -> dict[int, Fraction]:
    """Every face combination enumerated, equally likely."""
    counts: dict[int, int] = {}
    outcomes = list(itertools.product(*(range(1, s + 1) for s in dice)))
    for faces in outcomes:
        value = combine(faces)
        counts[value] = counts.get(value, 0) + 1
    return {v: Fraction(c, len(outcomes)) for v, c in counts.items()}


def test_small_cases_match_brute_force_enumeration() -> None:
    assert ours(R.as_dist(R.parse_dice("3d6"))) == brute([6, 6, 6], sum)
    assert ours(R.as_dist(R.parse_dice("1d10+1d4+2"))) == brute([10, 4], lambda f: sum(f) + 2)
    assert ours(R.keep(3, 6, 2, True)) == brute([6, 6, 6], lambda f: sum(sorted(f)[-2:]))
    assert ours(R.keep(3, 6, 2, False)) == brute([6, 6, 6], lambda f: sum(sorted(f)[:2]))
    assert ours(R.successes(R.parse_dice("2d6+1d8"), 5)) == brute([6, 6, 8], lambda f: sum(x >= 5 for x in f))
    margin = R.dsub(R.successes(R.dice(3, 6), 5), R.successes(R.dice(2, 6), 5))
    assert ours(margin) == brute([6] * 5, lambda f: sum(x >= 5 for x in f[:3]) - sum(x >= 5 for x in f[3:]))
    crit = R.bind(R.dice(1, 10), lambda n: R.dice_add(n, R.dice(1, 6)) if n >= 9 else n - 2 if n <= 2 else n)
    assert ours(crit) == brute([10, 6], lambda f: f[0] + f[1] if f[0] >= 9 else f[0] - 2 if f[0] <= 2 else f[0])


pools = st.lists(st.tuples(st.sampled_from([4, 6, 8, 10, 12]), st.integers(0, 6)), min_size=1, max_size=3)


def pool_of(spec: list[tuple[int, int]]) -> R.Dice:
    total = R.Dice()
    for sides, count in spec:
        total = R.dice_add(total, R.dice(count, sides))
    return total


@settings(max_examples=60, deadline=None)
@given(pools, st.integers(-5, 5))
def test_probabilities_sum_to_one(spec: list[tuple[int, int]], shift: int) -> None:
    dist = R.dadd(pool_of(spec), shift)
    assert sum(p for _, p in dist.items()) == 1


@settings(max_examples=60, deadline=None)
@given(pools, pools)
def test_win_loss_and_tie_cover_every_case(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> None:
    first, second = R.as_dist(pool_of(a)), R.as_dist(pool_of(b))
    assert R.greater(first, second) + R.greater(second, first) + R.tie(first, second) == 1
    assert R.win(first, second, True) == R.greater(first, second) + R.tie(first, second)


@settings(max_examples=60, deadline=None)
@given(pools)
def test_identical_opponents_are_symmetric(spec: list[tuple[int, int]]) -> None:
    side = R.as_dist(pool_of(spec))
    odds = list(side.items())
    less = sum(p * q for x, p in odds for y, q in odds if x < y)  # P(first < second), summed outcome by outcome
    ties = sum(p * p for _, p in odds)
    assert R.tie(side, side) == ties
    assert R.greater(side, side) == less == (1 - ties) / 2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.integers(1, 6))
def test_more_dice_never_lower_the_mean_success_count(n: int, threshold: int) -> None:
    assert R.mean(R.successes(R.dice(n + 1, 6), threshold)) >= R.mean(R.successes(R.dice(n, 6), threshold))


def test_rolls_beyond_the_documented_bounds_are_refused() -> None:
    with pytest.raises(R.RulesError, match="more than 1000 dice"):
        R.as_dist(R.dice(1001, 6))
    with pytest.raises(R.RulesError, match="more than 1000000 outcomes"):
        R.as_dist(R.parse_dice("1000d1000000"))
    largest = R.as_dist(R.dice(1000, 2))  # the most dice a roll may have, on two-sided dice to keep it quick
    assert list(largest.items()) == [(k + 1000, Fraction(math.comb(1000, k), 2**1000)) for k in range(1001)]


def js_grid_calls() -> list[dict[str, Any]]:
    calls = []
    for tier, critical, botch, base_die in combat_grid()[::3]:
        args = {"tier": tier, "base_tier": tier, "bonus": 3, "critical_target": critical, "botch_range": botch,
                "base_die": base_die}
        calls.append({"system": "dbu", "formula": "combat_roll", "args": args, "types": {k: "int" for k in args},
                      "order": list(args)})
    return calls


def test_javascript_runtime_agrees_with_python_to_1e_12(built: Path, dbu: Program) -> None:
    calls = js_grid_calls()
    results = run_js(built / "build/docs", calls)
    failures = [c["args"] for c, r in zip(calls, results, strict=True)
                if not agree(r.get("value"), encode(dbu.call("combat_roll", [c["args"][k] for k in c["order"]])))]
    assert failures == []
    assert len(calls) == 84
