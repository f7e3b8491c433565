"""rulesc runtime for the generated engine: dice pools, tables and integer arithmetic (standard library only)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence, Union

__all__ = ["Dice", "RulesError", "Table", "Value", "category", "category_index", "ceil_div", "clamp",
           "dice", "dice_add", "dice_scale", "floor_div", "lookup", "parse_dice", "step", "MAX_INT"]

MAX_INT = 2**53 - 1
"""Integers stay within +/- MAX_INT so that JavaScript computes the same numbers exactly."""

CATEGORY_SIDES = (4, 6, 8, 10)
EMPTY_MARKS = ("", "0", "-", "\u2013", "\u2014")
_TERM = re.compile(r"\s*([+-]?)\s*(?:(\d*)d(\d+)|(\d+))\s*")


class RulesError(ValueError):
    """A rule computation that has no answer (division by zero, a value off its table, ...)."""


@dataclass(frozen=True)
class Dice:
    """A pool of dice plus a constant, e.g. 2d10+1d4+3; dice are kept by sides, largest first."""

    counts: tuple[tuple[int, int], ...] = ()
    const: int = 0

    def __str__(self) -> str:
        parts = [f"{count}d{sides}" for sides, count in self.counts]
        if self.const or not parts:
            parts.append(str(self.const))
        return "+".join(parts).replace("+-", "-")


Value = Union[int, bool, Dice]


def _pool(counts: Mapping[int, int], const: int = 0) -> Dice:
    kept = tuple(sorted(((s, c) for s, c in counts.items() if c), reverse=True))
    return Dice(kept, const)


def dice(count: int, sides: int) -> Dice:
    if count < 0 or sides < 1:
        raise RulesError(f"cannot roll {count}d{sides}")
    return _pool({sides: count})


def dice_add(a: Dice | int, b: Dice | int, sign: int = 1) -> Dice:
    a, b = _as_dice(a), _as_dice(b)
    counts = dict(a.counts)
    for sides, count in b.counts:
        counts[sides] = counts.get(sides, 0) + sign * count
    if any(c < 0 for c in counts.values()):
        raise RulesError(f"cannot take {b} away from {a}")
    return _pool(counts, a.const + sign * b.const)


def dice_scale(a: Dice, k: int) -> Dice:
    """A pool multiplied, as (T) multiplies by the tier: 1d10+1d4 times 2 is 2d10+2d4."""
    if k < 0:
        raise RulesError(f"cannot multiply {a} by {k}")
    return _pool({s: c * k for s, c in a.counts}, a.const * k)


def _as_dice(x: Dice | int) -> Dice:
    return x if isinstance(x, Dice) else Dice((), x)


def parse_dice(text: str) -> Dice:
    """Read a pool written like '1d10+1d4', '+1d6', '2d10+3' or a dash for no dice."""
    if text.strip() in EMPTY_MARKS:
        return Dice()
    pos, total = 0, Dice()
    while pos < len(text):
        match = _TERM.match(text, pos)
        if not match or match.end() == pos:
            raise RulesError(f"{text!r} is not a dice pool")
        sign, count, sides, number = match.groups()
        term: Dice | int = int(number) if number else dice(int(count or 1), int(sides))
        total = dice_add(total, term, -1 if sign == "-" else 1)
        pos = match.end()
    return total


def category(index: int) -> Dice:
    """The pool at a step of the dice category progression: 1 is 1d4, 4 is 1d10, 5 is 1d10+1d4 ..."""
    if index <= 0:
        return Dice()
    tens, rest = divmod(index, len(CATEGORY_SIDES))
    counts = {10: tens}
    if rest:
        counts[CATEGORY_SIDES[rest - 1]] = counts.get(CATEGORY_SIDES[rest - 1], 0) + 1
    return _pool(counts)


def category_index(pool: Dice) -> int:
    """The step of the category progression a pool stands at; an error for pools off the progression."""
    counts = dict(pool.counts)
    tens = counts.pop(10, 0)
    small = [(s, c) for s, c in counts.items()]
    if pool.const or len(small) > 1 or (small and (small[0][1] != 1 or small[0][0] not in CATEGORY_SIDES)):
        raise RulesError(f"{pool} is not on the dice category progression")
    return tens * len(CATEGORY_SIDES) + (CATEGORY_SIDES.index(small[0][0]) + 1 if small else 0)


def step(pool: Dice, steps: int) -> Dice:
    """A pool moved `steps` dice categories up (or down, never below no dice)."""
    return category(max(0, category_index(pool) + steps))


def floor_div(a: int, b: int) -> int:
    if b == 0:
        raise RulesError("division by zero")
    return a // b


def ceil_div(a: int, b: int) -> int:
    if b == 0:
        raise RulesError("division by zero")
    return -((-a) // b)


def clamp(x: int, low: int, high: int) -> int:
    return max(low, min(high, x))


@dataclass(frozen=True)
class Table:
    """Rows keyed by a whole-number range (low, high) in the first column."""

    keys: tuple[tuple[int, int], ...]
    columns: Mapping[str, Sequence[Value]]


def lookup(table: Table, column: str, key: int) -> Value:
    for row, (low, high) in enumerate(table.keys):
        if low <= key <= high:
            return table.columns[column][row]
    raise RulesError(f"{key} is not in the table")
