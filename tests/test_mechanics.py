"""Mechanics of well-known games as an outside author writes them, exact and equal to icepool.

tests/cases/good/mechanics: attacks with advantage and critical damage (dice_part, modifier), percentile rolls with
bonus dice, hitches and best two, stunt points on doubles. The other mechanics of the language's cases:
pool-questions (action roll, hits and glitches, challenge dice), named-outcomes (moves, attacks, a ladder),
dice-kinds (Fudge ladder, exploding trait dice, rerolled damage, d66).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import icepool
import pytest

from generator.analyze.program import Program
from generator.runtime import rulesc_runtime as R
from tests.backends import Built, built_case, icepool_chances
from tests.test_exact_runtimes import three_ways

TENS = icepool.Die(range(10))


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "mechanics") as found:
        yield found



def test_the_mechanics_agree_in_three_runtimes(book: tuple[Path, Program, ModuleType]) -> None:
    calls = ([("strike_hits", {"bonus": b, "armour": a, "edge": e}) for b, a in ((0, 5), (5, 15), (12, 25))
              for e in (-1, 0, 1)]
             + [("strike_damage", {"weapon": R.parse_dice(w), "bonus": 5, "armour": 15}) for w in ("1d8+3", "2d6",
                                                                                                  "1d12-1", "0")]
             + [("skill_roll", {"skill": s, "bonus": b}) for s in (1, 50, 99) for b in (0, 2)]
             + [("best_two", {"n": n}) for n in (1, 3, 8)] + [("hitch_count", {"n": n}) for n in (0, 4)]
             + [("stunt_points", {})])
    assert all("value" in found for found in three_ways(book, calls))


def test_attacks_match_icepool(book: tuple[Path, Program, ModuleType]) -> None:
    _, program, _ = book
    d20 = icepool.d20
    for edge, natural in ((0, d20), (1, icepool.highest(d20, d20)), (-1, icepool.lowest(d20, d20))):
        hits = natural.map(lambda n: n >= 19 or n + 5 >= 15)
        assert dict(program.call("strike_hits", [5, 15, edge]).items()) == icepool_chances(hits)
    damage = d20.map(lambda n: 2 @ icepool.d8 + 3 if n >= 19 else icepool.d8 + 3 if n + 5 >= 15 else 0)
    assert dict(program.call("strike_damage", [R.parse_dice("1d8+3"), 5, 15]).items()) == icepool_chances(damage)


def test_percentile_rolls_match_icepool(book: tuple[Path, Program, ModuleType]) -> None:
    _, program, _ = book
    for skill, bonus in ((50, 0), (65, 1), (30, 2)):
        tens = TENS.pool(1 + bonus).lowest(1).sum() if bonus else TENS

        def level(t: int, u: int, skill: int = skill) -> str:
            roll = 100 if t * 10 + u == 0 else t * 10 + u
            return "extreme" if roll <= skill // 5 else "hard" if roll <= skill // 2 else \
                "regular" if roll <= skill else "fail"
        expected = icepool.map(level, tens, TENS)
        assert dict(program.call("skill_roll", [skill, bonus]).items()) == icepool_chances(expected), (skill, bonus)


def test_hitches_and_stunts_match_icepool(book: tuple[Path, Program, ModuleType]) -> None:
    _, program, _ = book
    hitch_die = icepool.Die([0, 2, 3, 4, 5, 6, 7, 8])
    for n in (2, 3, 5):
        assert dict(program.call("best_two", [n]).items()) == icepool_chances(hitch_die.pool(n).highest(2).sum())
        assert dict(program.call("hitch_count", [n]).items()) == icepool_chances(hitch_die.pool(n).count_subset([0]))
    d6 = icepool.d6
    stunts = icepool.map(lambda a, b, s: s if a in (b, s) or b == s else 0, d6, d6, d6)
    assert dict(program.call("stunt_points", []).items()) == icepool_chances(stunts)
