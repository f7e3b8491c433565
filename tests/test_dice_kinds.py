"""Fudge dice, listed faces, exploding dice and rerolls: exact, equal to icepool, the same in three runtimes."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import icepool
import pytest

from generator.analyze.program import Program
from generator.diagnostics.core import Span
from generator.formula.lexer import FormulaSyntaxError
from generator.formula.parser import parse_formula
from generator.runtime import rulesc_runtime as R
from tests.backends import Built, built_case, icepool_chances
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
    calls = ([("ladder", {"skill": s, "difficulty": d}) for s in (0, 2, 5, 8) for d in (0, 3, 8)]
             + [("trait", {"modifier": m}) for m in range(-4, 5)]
             + [(f, {}) for f in ("blade_damage", "odd_die", "tens_and_units", "best_fudge")])
    assert all("value" in found for found in three_ways(kinds, calls))


def test_the_games_match_icepool(kinds: tuple[Path, Program, ModuleType]) -> None:
    _, program, _ = kinds
    for skill, difficulty in ((0, 0), (2, 4), (5, 1)):
        shifts = 4 @ FUDGE + skill - difficulty
        ladder = shifts.map(lambda r: "fail" if r < 0 else "tie" if r == 0 else "success with style" if r >= 3
                            else "success")
        assert dict(program.call("ladder", [skill, difficulty]).items()) == icepool_chances(ladder)
    trait_die = icepool.d6.explode(depth=19)
    for modifier in (-2, 0, 3):
        best = icepool.highest(trait_die, trait_die) + modifier
        outcome = best.map(lambda b: "raise" if b >= 8 else "success" if b >= 4 else "failure")
        assert dict(program.call("trait", [modifier]).items()) == icepool_chances(outcome)
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


def test_a_bang_outside_dice_points_to_not() -> None:
    with pytest.raises(FormulaSyntaxError) as found:
        parse_formula("!flag", lambda offset: Span("<test>", 1, offset + 1))
    assert found.value.hint == "write 'not' for not and '!=' for not equal; '!' after dice explodes them (2d6!)"
