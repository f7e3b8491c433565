"""A failed worked example's message: as show() writes a short result, bounded for a huge one (its ends, the count of
the rest, the first outcome that differs), while the comparison stays exact; brief() and briefs() bound any value so,
for rulesc diff."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulesc.analyze.mismatch import brief, briefs, mismatch
from rulesc.analyze.program import matches, show
from rulesc.formula.expression import roll_expression
from rulesc.runtime import rulesc_runtime as R

SIXTH = Fraction(1, 6)


@pytest.mark.parametrize(("got", "expected"), [
    (6, 7), (True, False), (Fraction(1, 2), Fraction(1, 3)), (Fraction(4), Fraction(7, 16)), ("hit", "miss"),
    ({1: SIXTH, 2: 5 * SIXTH}, {1: SIXTH, 2: SIXTH}), (R.parse_dice("2d6"), R.parse_dice("1d6")),
])
def test_a_short_result_reads_as_show_writes_it(got: Any, expected: Any) -> None:
    assert mismatch(got, expected) == f"gives {show(got)}, expected {show(expected)}"


def test_short_rolls_and_named_outcomes_read_as_show_writes_them() -> None:
    roll, named = roll_expression("1d6"), roll_expression('if 1d6 >= 5 then "hit" else "miss"')
    assert mismatch(roll, R.parse_dice("1d6+1")) == (
        "gives {1: 1/6, 2: 1/6, 3: 1/6, 4: 1/6, 5: 1/6, 6: 1/6}, expected 1d6+1")
    assert mismatch(named, {"hit": Fraction(1, 2), "miss": Fraction(1, 2)}) == (
        "gives hit 1/3, miss 2/3, expected {hit: 1/2, miss: 1/2}")


def test_a_long_distribution_shows_its_ends_the_count_between_and_the_first_difference() -> None:
    wanted = {face: Fraction(1, 20) for face in range(1, 21)}
    wanted[9], wanted[12] = Fraction(1, 10), Fraction(0)
    assert mismatch(roll_expression("1d20"), wanted) == (
        "gives {1: 1/20, 2: 1/20, 3: 1/20, ... 14 more ..., 18: 1/20, 19: 1/20, 20: 1/20}, expected {1: 1/20, 2: 1/20, "
        "3: 1/20, ... 14 more ..., 18: 1/20, 19: 1/20, 20: 1/20}; first difference at 9: gives 1/20, expected 1/10")


def test_a_huge_roll_s_message_is_bounded_and_names_a_difference_deep_in_one_chance() -> None:
    got = roll_expression("1000d6")
    assert len(show(got)) > 6_000_000  # what the message held before: every chance of 5001 outcomes, in full
    wanted = dict(got.items())
    wanted[3500] += Fraction(1, 10 ** 800)  # differs in a digit past the 700th of the likeliest outcome's chance
    assert not matches(got, wanted)
    message = mismatch(got, wanted)
    assert len(message) < 800
    assert message.startswith("gives {1000: ~7.0591e-779 (n/d of 1 and 779 digits), 1001: ~7.0591e-776 (n/d of 3 "
                              "and 778 digits), 1002: ~3.53308e-773 (n/d of 6 and 778 digits), ... 4995 more ..., ")
    assert message.endswith("; first difference at 3500: gives ~0.0073858 (n/d of 774 and 777 digits), expected "
                            "~0.0073858 (n/d of 1334 and 1336 digits)")


def test_a_long_fraction_alone_is_shown_by_its_size() -> None:
    chance = Fraction(3 ** 500, 2 ** 800)
    assert mismatch(chance, Fraction(1, 2)) == (
        "gives ~0.00545294 (n/d of 239 and 241 digits), expected 1/2 (~0.5)")


@pytest.mark.parametrize("value", [6, True, Fraction(7, 16), "hit", None, R.parse_dice("2d6+1"),
                                   {1: SIXTH, 2: 5 * SIXTH}, roll_expression("1d6"),
                                   roll_expression('if 1d6 >= 5 then "hit" else "miss"')])
def test_a_short_value_is_brief_as_show_writes_it(value: Any) -> None:
    assert brief(value) == show(value)


def test_a_huge_value_is_brief_by_its_ends_and_two_alike_at_their_ends_name_where_they_differ() -> None:
    got = roll_expression("1000d6")
    assert brief(got).startswith("{1000: ~7.0591e-779 (n/d of 1 and 779 digits), ")
    assert len(brief(got)) < 400 and "... 4995 more ..." in brief(got)
    middle = {face: Fraction(1, 20) for face in range(1, 21)}
    moved = {**middle, 9: Fraction(1, 10), 12: Fraction(0)}
    assert briefs(middle, moved) == ("{1: 1/20, 2: 1/20, 3: 1/20, ... 14 more ..., 18: 1/20, 19: 1/20, 20: 1/20}",
                                     "{1: 1/20, 2: 1/20, 3: 1/20, ... 14 more ..., 18: 1/20, 19: 1/20, 20: 1/20} "
                                     "(first difference at 9: 1/20 -> 1/10)")
    assert briefs(6, 7) == ("6", "7")
    assert briefs(roll_expression("1d4"), roll_expression("1d4+1")) == (
        "{1: 1/4, 2: 1/4, 3: 1/4, 4: 1/4}", "{2: 1/4, 3: 1/4, 4: 1/4, 5: 1/4}")
