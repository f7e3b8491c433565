"""Table rolls, read as notation for the model: the roll a table declares read as the outcomes it gives, and row
keys read against them.

A table roll is notation for a set of outcomes, not a formula: `2d6` is the sum of two dice, `1d20+2` that plus
two, and `d66` or `d666` is two or three d6 read as tens, units (and hundreds): 11 to 66 with no 17 or 20.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from fractions import Fraction

from rulesc.runtime.rulesc_runtime import MAX_INT, RulesError, as_dist, dice

ROLL = re.compile(r"\s*([0-9]*)d([0-9]+)\s*(?:([-+])\s*([0-9]+))?\s*")
MAX_TABLE_DICE = 100
MAX_TABLE_OUTCOMES = 10_000
ROLL_HINT = "write the dice the book rolls on it: 1d100, 2d6, d66, d666 or 1d20+2"
Outcomes = tuple[tuple[int, int], ...]
"""Each outcome of a roll and its weight (the number of ways it comes up), lowest outcome first."""


def read_roll(written: str) -> Outcomes:
    """The outcomes of a table roll, or RulesError saying why it is not one."""
    match = ROLL.fullmatch(written)
    if match is None:
        raise RulesError(f"'{written}' is not a roll of dice")
    count, sides, sign, shift = match.groups()
    if not count and len(sides) in (2, 3) and len(set(sides)) == 1 and sides[0] in "23456789":
        return _place_value(int(sides[0]), len(sides))
    number, faces = int(count or "1"), int(sides)
    if not 1 <= number <= MAX_TABLE_DICE or faces < 1:
        raise RulesError(f"'{written}' needs 1 to {MAX_TABLE_DICE} dice of at least one side")
    if sign and int(shift) > MAX_INT // 2:
        raise RulesError(f"'{written}' adds more than {MAX_INT // 2}")
    outcomes = number * (faces - 1) + 1  # known before the roll is worked out
    if outcomes > MAX_TABLE_OUTCOMES:
        raise RulesError(f"'{written}' has {outcomes} outcomes; a table has at most {MAX_TABLE_OUTCOMES}")
    rolled = as_dist(dice(number, faces))
    offset = rolled.offset + (int(shift) if sign == "+" else -int(shift) if sign else 0)
    return tuple((offset + i, w) for i, w in enumerate(rolled.weights) if w)


def _place_value(sides: int, places: int) -> Outcomes:
    """d66-style dice: `places` dice of `sides` sides, the first read as the highest digit."""
    outcomes = [0]
    for _ in range(places):
        outcomes = [10 * before + face for before in outcomes for face in range(1, sides + 1)]
    return tuple((outcome, 1) for outcome in outcomes)


ZEROS = re.compile(r"0+")


def book_key(raw: str | int, outcomes: Outcomes) -> str | int:
    """A row key with the book's zeros read: on a roll whose highest outcome is 10, 100 or 1000, a number written
    as that many zeros less one ("0", "00", "000") is the highest outcome, as d100 tables write 100 as 00."""
    if not isinstance(raw, str):
        return raw
    highest = str(outcomes[-1][0])
    if not re.fullmatch(r"10+", highest):
        return raw
    zeros = "0" * (len(highest) - 1)
    parts = re.split(r"(\s*[-\u2013]\s*)", raw.strip())
    return "".join(highest if part == zeros else part for part in parts)


def covered(outcomes: Outcomes, key: tuple[int, int]) -> Outcomes:
    """The outcomes a row's key covers, with their weights (found by halving: a table of 10,000 rows on 10,000
    outcomes is checked at once)."""
    low, high = key
    first = bisect.bisect_left(outcomes, (low, 0))
    last = bisect.bisect_right(outcomes, (high, MAX_INT))
    return outcomes[first:last]


def runs(numbers: Sequence[int], outcomes: Outcomes) -> str:
    """Outcomes as the book lists them: runs of outcomes next to each other in the roll joined by a dash."""
    place = {outcome: i for i, (outcome, _) in enumerate(outcomes)}
    groups: list[list[int]] = []
    for number in sorted(numbers):
        if groups and place[number] == place[groups[-1][-1]] + 1:
            groups[-1].append(number)
        else:
            groups.append([number])
    return ", ".join(str(g[0]) if len(g) == 1 else f"{g[0]}-{g[-1]}" for g in groups)


def percent(chance: Fraction) -> str:
    """A row's chance as the key cell shows it: a whole percent when it is one, else to one decimal place (to
    two below 1%), never rounded to 0% or 100%."""
    value = chance * 100
    if value.denominator == 1:
        return f"{value}%"
    places = 1 if value >= 1 else 2
    shown = f"{float(value):.{places}f}"
    floor, ceiling = "0." + "0" * (places - 1) + "1", "99." + "9" * places
    if float(shown) == 0:
        return f"<{floor}%"
    return f">{ceiling}%" if float(shown) >= 100 else f"{shown}%"
