"""rulesc runtime for the generated engine: dice pools, exact rolls, tables (stdlib only)."""

from __future__ import annotations

import bisect
import decimal
import itertools
import math
import operator
import pprint
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple, Protocol, Union

__all__ = [
    "ArgumentError",
    "as_dist",
    "as_outcomes",
    "at_least",
    "at_most",
    "bind",
    "bind_any",
    "bind_each",
    "bind_each_any",
    "bind_each_named",
    "bind_named",
    "bind_through",
    "bind_through_any",
    "bind_through_named",
    "both",
    "category",
    "category_index",
    "ceil_div",
    "chance",
    "choice_arg",
    "clamp",
    "count_faces",
    "dadd",
    "decide",
    "decide_any",
    "decide_named",
    "dfloor_div",
    "Dice",
    "dice",
    "dice_add",
    "dice_part",
    "dice_scale",
    "die_of",
    "Dist",
    "divide",
    "dmax",
    "dmin",
    "dneg",
    "dscale",
    "dsub",
    "either",
    "exact",
    "exact_text",
    "flag_arg",
    "floor_div",
    "greater",
    "keep_pool",
    "lookup",
    "lookup_dice",
    "lookup_int",
    "lookup_text",
    "map_outcomes",
    "MAX_INT",
    "mean",
    "mix",
    "modifier",
    "named_chance",
    "negated",
    "Number",
    "Outcomes",
    "outcomes",
    "p",
    "parse_dice",
    "pool_answers",
    "pool_arg",
    "pool_bind",
    "pool_bind_any",
    "pool_bind_mean",
    "pool_bind_named",
    "power",
    "prob_eq",
    "randbelow",
    "repeat",
    "roll",
    "roll_on",
    "roll_tables",
    "rollable",
    "RulesError",
    "sample",
    "samples",
    "sd",
    "seeded",
    "show",
    "step",
    "successes",
    "Table",
    "table",
    "tie",
    "Upgrade",
    "upgrade_problems",
    "upgrades_arg",
    "whole",
    "whole_arg",
    "win",
]

MAX_INT = 2**53 - 1
"""Integers stay within +/- MAX_INT so that JavaScript computes the same numbers exactly."""


def whole(x: int) -> int:
    """A whole number, refused beyond +/- MAX_INT: generated code checks each int +, - and *
    that could leave the range, so JavaScript (float64) never holds an inexact integer."""
    if abs(x) > MAX_INT:
        raise RulesError(f"a whole number went beyond {MAX_INT}, the largest rulesc computes with")
    return x

CATEGORY_SIDES = (4, 6, 8, 10)
EMPTY_MARKS = ("", "0", "-", "\u2013", "\u2014")
_FACES = r"\{\s*-?\d+(?:\s*,\s*-?\d+)*\s*\}"
_KIND = r"(?:\d+|\(\s*\d+\s*\))(?:!!?(?:" + _FACES + r")?|rr?(?:\d+|" + _FACES + r"))?|F|" + _FACES
_TERM = re.compile(r"\s*([+-]?)\s*(?:(\d*)d(" + _KIND + r")|(\d+))\s*")
_SPECIAL = re.compile(r"(\d+)(!!?|rr?)(\d+)?(\{-?\d+(?:,-?\d+)*\})?")


TENS_AND_UNITS = {
    written: "{" + ",".join(map("".join, itertools.product("123456", repeat=len(written)))) + "}"
    for written in ("66", "666")}
"""d66 and d666 are rolls read as tens and units (and hundreds), dice of these listed faces; a die
of 66 sides is written d(66), as in the formula language."""
_WRITTEN_DIGITS = {faces: written for written, faces in TENS_AND_UNITS.items()}
_MANY_SIDES = re.compile(r"^(666?)(?=\D|$)")
_LONG_NUMBER = re.compile(r"\d{101}")
"""A number of more than 100 digits, which no dice text writes."""


class RulesError(ValueError):
    """A rule computation that has no answer (division by zero, a value off its table, ...)."""


@dataclass(frozen=True)
class Dice:
    """A pool of dice plus a constant, e.g. 2d10+1d4+3; dice are kept by kind (their sides, largest
    first, then special dice: "F" Fudge, "{0,1,1,2}" listed faces, "6!" exploding, "6r2" rerolling
    1-2 once)."""

    counts: tuple[tuple[DieKey, int], ...] = ()
    const: int = 0

    def __str__(self) -> str:
        parts = [f"{count}d{_written_kind(sides)}" for sides, count in self.counts]
        if self.const or not parts:
            parts.append(str(self.const))
        return "+".join(parts).replace("+-", "-")


def _written_kind(key: DieKey) -> str:
    """A kind of die as dice text writes it: tens and units as d66 (d666), 66 sides as d(66)."""
    written = str(key)
    if written in _WRITTEN_DIGITS:
        return _WRITTEN_DIGITS[written]
    return _MANY_SIDES.sub(r"(\1)", written, count=1) if written.startswith("66") else written


Value = Union[int, bool, str, Dice, Fraction, float, "Dist", "Outcomes"]
Number = Fraction | float | int
Cell = int | bool | Dice | Fraction | float | str  # a table cell: text columns hold words


def _pool(counts: Mapping[DieKey, int], const: int = 0) -> Dice:
    kept = tuple(sorted(((s, c) for s, c in counts.items() if c), key=_kind_order))
    return Dice(kept, const)


def _kind_order(item: tuple[DieKey, int]) -> tuple[int, int, str]:
    """Standard dice by sides, largest first, then special dice by how they are written."""
    key = item[0]
    return (0, -key, "") if isinstance(key, int) else (1, 0, key)


@lru_cache(maxsize=1024)
def dice(count: int, sides: int, special: str = "") -> Dice:
    """`count` dice of `sides` sides, or of a special kind: "F" (Fudge), "{...}" (listed faces), "!"
    (exploding into extra dice), "!!" (compounding: one die shows the sum), either with "{faces}"
    to explode on those faces, "r<k>" or "r{faces}" (rerolled once), "rr<k>" or "rr{faces}"
    (rerolled while they show). Made once per count and kind: a roll's branches build the same pool
    for each of its results."""
    if count < 0 or (sides < 1 and special != "F" and not special.startswith("{")):
        raise RulesError(f"cannot roll {count}d{sides}{special}")
    if not special:  # plain dice: a die of 1 side or more, within bounds, is all there is to check
        _within_bounds(sides)
        return Dice(((sides, count),) if count else ())
    key: DieKey = sides
    if special:
        key = special if special == "F" or special.startswith("{") else _kind_key(sides, special)
    _refuse_kind(key)  # a kind that cannot be rolled (d1!, d6r6), before anything uses it
    return _pool({key: count})


def _refuse_kind(key: DieKey) -> None:
    """Refuse a kind of die that cannot be rolled; an exploding kind without working out its roll,
    which successes() and count() do not need."""
    found = _SPECIAL.fullmatch(key) if isinstance(key, str) else None
    if found is None or not found.group(2).startswith("!"):
        die_of(key)
        return
    sides, _, faces = _kind_parts(found.group())
    if sides < 2:
        raise RulesError(f"a d{sides} cannot explode: it would roll its highest face forever")
    _explode_depth(sides, faces)


def _kind_key(sides: int, special: str) -> str:
    """The one way a special die is written: faces sorted once each, a shorthand where there is one
    (d10!{10} is d10!, d6r{1,2} is d6r2)."""
    found = _SPECIAL.fullmatch(f"{sides}{special.replace(' ', '')}")
    if found is None:
        raise RulesError(f"d{sides}{special} is not a kind of die")
    mode, faces = found.group(2), _special_faces(sides, found)
    if mode.startswith("!"):
        return f"{sides}{mode}" if faces == (sides,) else f"{sides}{mode}{_braced(faces)}"
    if faces == tuple(range(1, len(faces) + 1)):
        return f"{sides}{mode}{len(faces)}"
    return f"{sides}{mode}{_braced(faces)}"


def _special_faces(sides: int, found: re.Match[str]) -> tuple[int, ...]:
    """The faces a special die explodes or rerolls on, sorted, each once."""
    if found.group(4):
        return tuple(sorted({int(x) for x in found.group(4)[1:-1].split(",")}))
    if found.group(3):
        return tuple(range(1, int(found.group(3)) + 1))
    return (sides,) if found.group(2).startswith("!") else ()


def _braced(faces: Sequence[int]) -> str:
    return "{" + ",".join(str(face) for face in faces) + "}"


def dice_add(a: Dice | int, b: Dice | int, sign: int = 1) -> Dice:
    """a + b (or a - b with sign -1); a number added to a pool moves its constant alone."""
    if type(b) is int and type(a) is Dice:
        return Dice(a.counts, whole(a.const + sign * b))
    return _dice_sum(a, b, sign)


@lru_cache(maxsize=256)
def _dice_sum(a: Dice | int, b: Dice | int, sign: int) -> Dice:
    """dice_add() of two pools; worked out once per pools, as a roll's branches build the same
    pool for each of its results."""
    a, b = _as_dice(a), _as_dice(b)
    counts = dict(a.counts)
    for sides, count in b.counts:
        counts[sides] = whole(counts.get(sides, 0) + sign * count)
    if any(c < 0 for c in counts.values()):
        raise RulesError(f"cannot take {b} away from {a}")
    return _pool(counts, whole(a.const + sign * b.const))


@lru_cache(maxsize=256)
def dice_scale(a: Dice, k: int) -> Dice:
    """A pool repeated k times, as (T) repeats it once per tier: repeat(1d10+1d4, 2) is 2d10+2d4
    (the formula language's repeat(), and `pool * k` in content format 1)."""
    if k < 0:
        raise RulesError(f"cannot repeat {a} {k} times")
    return _pool({s: whole(c * k) for s, c in a.counts}, whole(a.const * k))


def dice_part(pool: Dice) -> Dice:
    """A pool's dice without its constant: 2d6+3 gives 2d6 (a critical hit rolls them twice)."""
    return Dice(pool.counts, 0)


def modifier(pool: Dice) -> int:
    """The constant of a pool: 2d6+3 gives 3."""
    return pool.const


def _as_dice(x: Dice | int) -> Dice:
    return x if isinstance(x, Dice) else Dice((), x)


def parse_dice(text: str) -> Dice:
    """Read a pool written like '1d10+1d4', '+1d6', '2d10+3' or a dash for no dice; 'd66' and
    'd666' are tens and units as in the formula language (content format 2), and 'd(66)' a die of
    66 sides."""
    if text.strip() in EMPTY_MARKS:
        return Dice()
    if _LONG_NUMBER.search(text):  # no pool is written so (Python reads 4300 digits at most)
        raise RulesError(f"{text!r} is not a dice pool")
    pos, total = 0, Dice()
    while pos < len(text):
        match = _TERM.match(text, pos)
        if not match or match.end() == pos:
            raise RulesError(f"{text!r} is not a dice pool")
        sign, count, sides, number = match.groups()
        term: Dice | int = int(number) if number else _parsed_dice(int(count or 1), sides)
        total = dice_add(total, term, -1 if sign == "-" else 1)
        pos = match.end()
    return total


def category(index: int) -> Dice:
    """The pool at a step of the dice category progression: 1 is 1d4, 4 is 1d10, 5 is 1d10+1d4."""
    if index <= 0:
        return Dice()
    tens, rest = divmod(index, len(CATEGORY_SIDES))
    counts: dict[DieKey, int] = {10: tens}
    if rest:
        counts[CATEGORY_SIDES[rest - 1]] = counts.get(CATEGORY_SIDES[rest - 1], 0) + 1
    return _pool(counts)


def category_index(pool: Dice) -> int:
    """The step of the category progression a pool stands at; an error for a pool off it."""
    counts = dict(pool.counts)
    tens = counts.pop(10, 0)
    small = [(s, c) for s, c in counts.items()]
    off = small and (small[0][1] != 1 or small[0][0] not in CATEGORY_SIDES)
    if pool.const or len(small) > 1 or off:
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
    columns: Mapping[str, Sequence[Cell]]
    lows: tuple[int, ...] | None = None  # each row's low key, if rows go up and never overlap
    rows: Mapping[int, int] | None = None  # each key's first row, if the keys span <= ROW_INDEX


ROW_INDEX = 4096
"""A table whose keys span at most this many numbers finds a key's row in a dict."""


def table(columns: Sequence[str], *rows: Sequence[Any]) -> Table:
    """A table as a book prints it: each row the keys it covers, (low, high), then its values."""
    keys = tuple((int(row[0][0]), int(row[0][1])) for row in rows)
    rising = all(low <= high for low, high in keys) and \
        all(a[1] < b[0] for a, b in zip(keys[:-1], keys[1:], strict=True))
    span = sum(max(0, high - low + 1) for low, high in keys)
    index: dict[int, int] = {}
    for row, (low, high) in enumerate(keys if span <= ROW_INDEX else ()):
        for key in range(low, high + 1):
            index.setdefault(key, row)
    cells = {name: tuple(row[i + 1] for row in rows) for i, name in enumerate(columns)}
    return Table(keys, cells, tuple(low for low, _ in keys) if rising else None,
                 index if span <= ROW_INDEX else None)


def lookup(table: Table, column: str, key: int) -> Cell:
    """The cell of the first row whose keys hold `key` (found in a dict for a table of few keys,
    by halving when the rows go up)."""
    if table.rows is not None:
        row = table.rows.get(key)
        if row is None:
            raise RulesError(f"{key} is not in the table")
        return table.columns[column][row]
    if table.lows is not None:
        row = bisect.bisect_right(table.lows, key) - 1
        if row >= 0 and key <= table.keys[row][1]:
            return table.columns[column][row]
        raise RulesError(f"{key} is not in the table")
    for row, (low, high) in enumerate(table.keys):
        if low <= key <= high:
            return table.columns[column][row]
    raise RulesError(f"{key} is not in the table")


def lookup_int(table: Table, column: str, key: int) -> int:
    """lookup() in a column the checker typed as whole numbers."""
    row = table.rows.get(key) if table.rows is not None else None  # lookup()'s first way, read here
    value = lookup(table, column, key) if row is None else table.columns[column][row]
    if not isinstance(value, int):
        raise RulesError(f"column {column!r} holds {value!r}, not a whole number")
    return value


def lookup_text(table: Table, column: str, key: int) -> str:
    """lookup() in a column of words."""
    row = table.rows.get(key) if table.rows is not None else None  # lookup()'s first way, read here
    value = lookup(table, column, key) if row is None else table.columns[column][row]
    if not isinstance(value, str):
        raise RulesError(f"column {column!r} holds {value!r}, not a word")
    return value


def lookup_dice(table: Table, column: str, key: int) -> Dice:
    """lookup() in a column the checker typed as dice pools."""
    value = lookup(table, column, key)
    if not isinstance(value, Dice):
        raise RulesError(f"column {column!r} holds {value!r}, not a dice pool")
    return value


# ---- exact distributions ------------------------------------------------------------------------

MAX_DICE = 1000
MAX_OUTCOMES = 1_000_000
# The roll budget, checked before a sum is worked out: its outcomes times the bits of its weights.
# Sums of equal dice are one polynomial power, so 1000d100 (6.6e8 bits) answers in about 0.2 s here
# and 1 s in Node, while 1000d1000 (1.0e10 bits, an answer of 1.2 GB) is refused at once.
MAX_ROLL_BITS = 2**30
# The product budget, checked before two large rolls are multiplied out (by packing each into one
# big number: anything but a sum of equal plain dice, or a few dice): the smaller factor's outcomes
# times the bits of the product's weights (a power by repeated squaring counts as its last product,
# of two halves). Multiplying numbers that large is not linear: a product past 2**23 bits takes
# more than a second here (the sum of 100d10!, 15,901 outcomes of 5,300 bits, took 3.5 s, and
# count(200d10!, 10) 1.7 s), while sums of equal plain dice answer in linear steps up to the roll
# budget (1000d100 in 0.2 s).
MAX_PRODUCT_BITS = 2**23
# The keep budget: the k highest (or lowest) of many equal dice are added up face by face, about
# k * k * sides * sides / 4 additions of numbers as long as a weight (_keep_work()).
MAX_KEEP_WORK = 2**33
# The extreme budget: the best (or worst) one of many dice is a difference of powers, face by face
# (F(x)**n - F(x - 1)**n), so its work is its faces times the bits of a weight: highest(1000d10000,
# 1) (1.3e8) takes 0.3 s here, highest(1000d100000, 1) (1.7e9) took 8.5 s.
MAX_EXTREME_BITS = 2**27




@dataclass(frozen=True)
class Dist:
    """An exact distribution: outcome offset+i has probability weights[i] / total."""

    offset: int
    weights: tuple[int, ...]
    total: int

    @property
    def outcomes(self) -> range:
        return range(self.offset, self.offset + len(self.weights))

    def probability(self, outcome: int) -> Fraction:
        index = outcome - self.offset
        if not 0 <= index < len(self.weights):
            return Fraction(0)
        return Fraction(self.weights[index], self.total)

    def items(self) -> list[tuple[int, Fraction]]:
        return [(self.offset + i, Fraction(w, self.total)) for i, w in enumerate(self.weights) if w]

    def __str__(self) -> str:
        return f"mean {float(mean(self)):.2f}, sd {sd(self):.2f}"


def _make(offset: int, weights: Sequence[int], total: int) -> Dist:
    first, last = 0, len(weights) - 1
    while first <= last and not weights[first]:
        first += 1
    if first > last:
        raise RulesError("a distribution needs at least one outcome")
    while not weights[last]:
        last -= 1
    trimmed = tuple(weights[first:last + 1])
    if len(trimmed) > MAX_OUTCOMES:
        raise RulesError(f"a roll with more than {MAX_OUTCOMES} outcomes is refused")
    divisor = math.gcd(total, *trimmed)
    if divisor != 1:
        trimmed, total = tuple([w // divisor for w in trimmed]), total // divisor
    return Dist(whole(offset + first), trimmed, total)


@lru_cache(maxsize=1024)
def constant(value: int) -> Dist:
    """The roll that is always `value`; one per value, as a roll's branches give the same number
    often."""
    return Dist(whole(value), (1,), 1)


def die(sides: int) -> Dist:
    if sides < 1:
        raise RulesError(f"a die needs at least one side, not {sides}")
    _within_bounds(sides)
    return Dist(1, (1,) * sides, sides)


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """Polynomial product by Kronecker substitution: each list packed into one big number, a slot
    per coefficient wide enough for any coefficient of the product, the two multiplied, the product
    cut back into slots. Slots of whole bytes in a Python int (packed and cut through bytes, in
    linear time); above DECIMAL_BITS, slots of decimal digits in a Decimal, which multiplies large
    numbers by a number-theoretic transform (a 7-million-bit product: 0.35 s against 2.2 s)."""
    if len(a) == 1 or len(b) == 1:  # one term: a scaling
        one, other = (a[0], b) if len(a) == 1 else (b[0], a)
        return [one * w for w in other]
    if len(a) * len(b) <= 64:
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return out
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()
    if bits * (len(a) + len(b)) >= DECIMAL_BITS and bits <= DECIMAL_SLOT_BITS:
        return _decimal_convolve(a, b, bits * 30103 // 100000 + 2)  # log10(2) < 0.30103
    width = bits // 8 + 1
    packed = _pack(a, width)
    product = packed * packed if a is b else packed * _pack(b, width)
    return _unpack(product, width, len(a) + len(b) - 1)


DECIMAL_BITS = 1 << 18
"""Products of packed numbers this large (in bits) are multiplied as Decimals."""
DECIMAL_SLOT_BITS = 12_000
"""A slot of at most this many bits has fewer digits than Python's int-to-text limit (4300)."""
_EXACT = decimal.Context(prec=decimal.MAX_PREC, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN)


def _decimal_convolve(a: Sequence[int], b: Sequence[int], digits: int) -> list[int]:
    """_convolve() through decimal slots of `digits` digits each."""
    slot = "%0" + str(digits) + "d"
    packed = decimal.Decimal("".join([slot % value for value in reversed(a)]))
    other = packed if a is b else decimal.Decimal("".join([slot % value for value in reversed(b)]))
    count = len(a) + len(b) - 1
    text = format(_EXACT.multiply(packed, other), "f").rjust(digits * count, "0")
    ends = range(len(text), len(text) - digits * count, -digits)
    return [int(text[end - digits:end]) for end in ends]


def _pack(values: Sequence[int], width: int) -> int:
    return int.from_bytes(b"".join([value.to_bytes(width, "little") for value in values]), "little")


def _unpack(number: int, width: int, count: int) -> list[int]:
    raw = number.to_bytes(width * count, "little")
    read = int.from_bytes
    return [read(raw[i:i + width], "little") for i in range(0, width * count, width)]


def _within_budget(outcomes: int, bits: int) -> None:
    """The roll budget: an exact answer of more than MAX_ROLL_BITS (outcomes times the bits of a
    weight) is refused before it is worked out, the same in both runtimes."""
    if outcomes * bits > MAX_ROLL_BITS:
        raise RulesError("a roll too large to work out exactly is refused: its answer would pass "
                         f"the roll budget of {MAX_ROLL_BITS} bits "
                         f"({outcomes} outcomes of {bits} bits)")


def _within_products(outcomes: int, bits: int) -> None:
    """The product budget: two rolls multiplied out, the smaller of `outcomes`, into a product
    whose weights hold `bits` bits, are refused past MAX_PRODUCT_BITS before any work."""
    if outcomes * bits > MAX_PRODUCT_BITS:
        raise RulesError("a roll too large to work out exactly in time is refused: multiplying its "
                         f"dice out would pass the product budget of {MAX_PRODUCT_BITS} bits "
                         f"({outcomes} outcomes of {bits} bits)")


def _within_bounds(outcomes: int) -> None:
    if outcomes > MAX_OUTCOMES:
        raise RulesError(f"a roll with more than {MAX_OUTCOMES} outcomes is refused")


def add(a: Dist, b: Dist) -> Dist:
    """The sum of two independent rolls; the size is checked before any work is done."""
    _within_bounds(len(a.weights) + len(b.weights) - 1)
    bits = a.total.bit_length() + b.total.bit_length()
    _within_budget(len(a.weights) + len(b.weights) - 1, bits)
    _within_products(min(len(a.weights), len(b.weights)), bits)
    return _make(a.offset + b.offset, _convolve(a.weights, b.weights), a.total * b.total)


def negate(a: Dist) -> Dist:
    return Dist(-(a.offset + len(a.weights) - 1), tuple(reversed(a.weights)), a.total)


def sub(a: Dist, b: Dist) -> Dist:
    """The difference of two independent rolls (a margin)."""
    return add(a, negate(b))


def repeat(a: Dist, times: int) -> Dist:
    """The sum of `times` independent copies of a roll: its weights raised to that power
    (_power)."""
    if times < 0:
        raise RulesError(f"cannot roll {times} dice")
    if times > MAX_DICE:
        raise RulesError(f"a roll of more than {MAX_DICE} dice is refused ({times} asked)")
    _within_bounds((len(a.weights) - 1) * times + 1)
    total = a.total**times
    _within_budget((len(a.weights) - 1) * times + 1, total.bit_length())
    if times == 1:  # one copy: the roll itself (one die of a kind in a pool, as 1d8+3 has)
        return a
    return _make(a.offset * times, _power(a.weights, times), total)


def map_outcomes(a: Dist, f: Callable[[int], int]) -> Dist:
    """Each outcome x becomes f(x); weights of outcomes that meet are added."""
    mapped: dict[int, int] = {}
    for i, w in enumerate(a.weights):
        if w:
            key = whole(f(a.offset + i))
            mapped[key] = mapped.get(key, 0) + w
    low, high = min(mapped), max(mapped)
    if high - low + 1 > MAX_OUTCOMES:
        raise RulesError(f"a roll with more than {MAX_OUTCOMES} outcomes is refused")
    return _make(low, [mapped.get(x, 0) for x in range(low, high + 1)], a.total)


def mix(a: Dist, f: Callable[[int], Dist]) -> Dist:
    """A roll that depends on another: for each outcome r of `a`, roll f(r); the mixture of all."""
    return _mixture([(w, f(a.offset + i)) for i, w in enumerate(a.weights) if w], a.total)


def _mixture(parts: Sequence[tuple[int, Dist]], total: int) -> Dist:
    """Rolls mixed by weight: each part's roll happens with chance weight / total (parts that
    are the same roll, as a pool's roll is each time it is read, are joined first)."""
    joined: dict[tuple[int, int, int], tuple[int, Dist]] = {}
    for w, part in parts:
        key = (part.offset, id(part.weights), part.total)
        joined[key] = (joined[key][0] + w, part) if key in joined else (w, part)
    parts = list(joined.values())
    common = math.lcm(*[part.total for _, part in parts])
    low = min(part.offset for _, part in parts)
    high = max(part.offset + len(part.weights) - 1 for _, part in parts)
    if high - low + 1 > MAX_OUTCOMES:
        raise RulesError(f"a roll with more than {MAX_OUTCOMES} outcomes is refused")
    weights = [0] * (high - low + 1)
    for w, part in parts:
        scale = w * (common // part.total)
        for j, pw in enumerate(part.weights):
            if pw:
                weights[part.offset - low + j] += scale * pw
    return _make(low, weights, total * common)


def binomial(n: int, hits: int, sides: int) -> Dist:
    """How many of n dice of `sides` sides succeed, when `hits` faces of each succeed."""
    if n > MAX_DICE:
        raise RulesError(f"a roll of more than {MAX_DICE} dice is refused ({n} asked)")
    hits = max(0, min(sides, hits))
    misses = sides - hits
    weights = [math.comb(n, k) * hits**k * misses ** (n - k) for k in range(n + 1)]
    return _make(0, weights, sides**n)


def keep(n: int, sides: int, k: int, highest: bool = True) -> Dist:
    """The sum of the k highest (or lowest) of n dice of `sides` sides."""
    if n > MAX_DICE:
        raise RulesError(f"a roll of more than {MAX_DICE} dice is refused ({n} asked)")
    k = max(0, min(k, n))
    if k == 0:
        return constant(0)
    if k == 1:
        return _keep_one(n, sides, highest)
    if k == n:  # every die kept: their sum
        return repeat(die(sides), n)
    _within_keep(n, sides, k)
    dist = _make(0, _keep_table(n, sides, k), sides**n)
    return dist if highest else map_outcomes(dist, lambda s: (sides + 1) * k - s)


def _keep_one(n: int, sides: int, highest: bool) -> Dist:
    """The highest (lowest) of n dice: every die at most x, less every die at most x - 1, each power
    made once; the lowest is the highest of the faces read from the top."""
    total = sides**n
    _within_extremes(sides, total.bit_length())
    weights, before = [], 0
    for x in range(1, sides + 1):
        every = x**n
        weights.append(every - before)
        before = every
    return _make(1, weights if highest else weights[::-1], total)


def _within_extremes(faces: int, bits: int) -> None:
    """The extreme budget: the best or worst one of many dice, faces times the bits of a weight,
    refused past MAX_EXTREME_BITS before any work."""
    if faces * bits > MAX_EXTREME_BITS:
        raise RulesError("a roll too large to work out exactly in time is refused: its best or "
                         f"worst die would pass the extreme budget of {MAX_EXTREME_BITS} bits "
                         f"({faces} faces of {bits} bits)")


def _keep_work(n: int, sides: int, k: int) -> int:
    """What _keep_table() adds up: its polynomial steps (k - 1 of them per face, of up to k - 1
    dice of up to sides - 1 faces) times the bits of a weight, each step costing as much again
    as adding 1,024 more bits (the interpreter's work per number)."""
    steps = (k - 1) * k // 2 * ((sides - 1) * sides // 2)
    return steps * (n * sides.bit_length() + 1024)


def _within_keep(n: int, sides: int, k: int) -> None:
    """The keep budget: the k highest of n dice are refused past MAX_KEEP_WORK before any work."""
    work = _keep_work(n, sides, k)
    if work > MAX_KEEP_WORK:
        raise RulesError("a roll too large to work out exactly in time is refused: keeping "
                         f"{k} of {n}d{sides} would pass the keep budget of {MAX_KEEP_WORK} "
                         f"bits added ({work})")


def _keep_table(n: int, sides: int, k: int) -> list[int]:
    """Ways for the k highest of n dice (1 < k <= n) to sum to each total from 0.

    Split by the face t of the k-th highest die: a < k dice show more than t, and the other n - a
    show t or less, at least k - a of them t. The kept sum is k * t plus what the a dice show
    above t, a sum of a dice of sides - t faces; so the rolls of each t are one polynomial in a
    die of sides - t faces, weighted by _settled(), added up by Horner's rule (a die at a time).
    """
    weights = [0] * (k * sides + 1)
    for face in range(1, sides + 1):
        ways = _settled(n, face, k)
        above = sides - face
        poly = [ways[-1]] if above else [ways[0]]
        for count in range(k - 2, -1, -1) if above else ():
            poly = _times_die(poly, above)
            poly[0] += ways[count]
        base = k * face
        weights[base:base + len(poly)] = map(operator.add, weights[base:base + len(poly)], poly)
    return weights


def _settled(n: int, face: int, k: int) -> list[int]:
    """For a = 0..k-1: the ways to pick a of n dice to show more than `face` and for the other
    n - a to show `face` or less, at least k - a of them `face`. Those with fewer, L(n - a, k - a),
    follow L(r, q) = face * L(r - 1, q - 1) + C(r - 1, q - 1) * (face - 1) ** (r - q + 1)."""
    ways = [0] * k
    low, power, fewer, choose = (face - 1) ** (n - k + 1), face ** (n - k + 1), 0, 1
    for a in range(k - 1, -1, -1):
        if a < k - 1:
            choose, power = choose * (n - a - 1) // (k - a - 1), power * face
        fewer = face * fewer + choose * low
        ways[a] = power - fewer
    picks = 1
    for a in range(k):
        ways[a], picks = ways[a] * picks, picks * (n - a) // (a + 1)
    return ways


def _times_die(poly: Sequence[int], sides: int) -> list[int]:
    """poly times x + x**2 + ... + x**sides: each weight the sum of the `sides` below it, as
    differences of running sums."""
    run = list(itertools.accumulate(poly, initial=0))
    return list(map(operator.sub, run + [run[-1]] * (sides - 1), [0] * sides + run[:-1]))


def at_least(a: Dist | Dice | int, k: int) -> Fraction:
    a = as_dist(a)
    start = max(0, k - a.offset)
    return Fraction(sum(a.weights[start:]), a.total)


def at_most(a: Dist | Dice | int, k: int) -> Fraction:
    a = as_dist(a)
    end = k - a.offset + 1
    return Fraction(sum(a.weights[:max(0, end)]), a.total)


def mean(a: Dist | Dice | int) -> Fraction:
    """The mean of a roll; of a pool, the sum of its dice's means (no distribution of the sum is
    made)."""
    if isinstance(a, Dice):
        rollable(a)
        top, bottom = a.const, 1
        for key, count in a.counts:
            kind = die_of(key)
            first = sum(map(operator.mul, kind.outcomes, kind.weights))
            top = top * kind.total + bottom * count * first
            bottom *= kind.total
        return Fraction(top, bottom)
    a = as_dist(a)
    return Fraction(sum(map(operator.mul, a.outcomes, a.weights)), a.total)


def variance(a: Dist | Dice | int) -> Fraction:
    """The variance of a roll, from its whole-number moments; of a pool, the sum of its dice's."""
    if isinstance(a, Dice):
        rollable(a)
        return sum((count * variance(die_of(key)) for key, count in a.counts), Fraction(0))
    a = as_dist(a)
    first = sum(i * w for i, w in enumerate(a.weights))
    second = sum(i * i * w for i, w in enumerate(a.weights))
    return Fraction(a.total * second - first * first, a.total * a.total)


def rollable(pool: Dice) -> Dice:
    """The pool, if as_dist() can work out its roll: refused before any work as as_dist() would
    refuse it, in the same order: for each kind of die, more than MAX_DICE dice or a sum past
    MAX_OUTCOMES, the roll budget or the product budget (repeat), then a running sum past them
    (add)."""
    span, running = 1, 0
    for key, count in pool.counts:
        if count > MAX_DICE:
            raise RulesError(f"a roll of more than {MAX_DICE} dice is refused ({count} asked)")
        kind = die_of(key)
        if len(pool.counts) == 1 and _small(kind, count):
            return pool
        width, total = (len(kind.weights) - 1) * count, kind.total**count
        _within_bounds(width + 1)
        _within_budget(width + 1, total.bit_length())
        if count and kind.weights.count(kind.weights[0]) != len(kind.weights) and \
                _squares(kind.weights, count):  # as _power() would square it
            _within_products(*_last_product(kind.weights, count))
        if running:  # the running sum so far and this kind's, added
            bits = running.bit_length() + total.bit_length()
            _within_budget(span + width, bits)
            _within_products(min(span, width + 1), bits)
        span, running = span + width, max(running, 1) * total
        _within_bounds(span)
    return pool


def _small(kind: Dist, count: int) -> bool:
    """Whether `count` dice of a kind are within every budget without looking: their outcomes
    times the bits of their total, both over-counted, within the smallest (the product budget)."""
    return len(kind.weights) * count * count * kind.total.bit_length() <= MAX_PRODUCT_BITS


def sd(a: Dist | Dice | int) -> float:
    return math.sqrt(variance(a))


def greater(a: Dist | Dice | int, b: Dist | Dice | int) -> Fraction:
    """P(a > b) for independent rolls."""
    return at_least(dsub(a, b), 1)


def tie(a: Dist | Dice | int, b: Dist | Dice | int) -> Fraction:
    return dsub(a, b).probability(0)


def as_dist(x: Any) -> Dist:
    """A distribution from a roll, a dice pool (the sum of its dice and constant) or a number."""
    if isinstance(x, Dist):
        return x
    if isinstance(x, Dice):
        return _dice_dist(x)
    return constant(int(x))


@lru_cache(maxsize=512)
def _dice_dist(pool: Dice) -> Dist:
    """as_dist() of a pool, once per pool: a roll's branches give the same pool for many of its
    results."""
    dice_only = _pool_dist(pool.counts)
    if not pool.const:
        return dice_only
    return Dist(whole(dice_only.offset + pool.const), dice_only.weights, dice_only.total)


@lru_cache(maxsize=512)
def _pool_dist(counts: tuple[tuple[DieKey, int], ...]) -> Dist:
    """The sum of a pool's dice; worked out once per pool, since a constant only shifts it."""
    total: Dist | None = None
    for key, count in counts:
        dice = repeat(die_of(key), count)
        total = dice if total is None else add(total, dice)
    return constant(0) if total is None else total


def successes(pool: Dice, threshold: int) -> Dist:
    """How many dice of a pool show at least `threshold`."""
    return count_faces(pool, threshold, MAX_INT)


def keep_pool(pool: Dice, k: int, highest: bool) -> Dist:
    key, count = pool.counts[0] if pool.counts else (0, 0)
    if len(pool.counts) != 1 or not isinstance(key, int):  # mixed or special dice: one roll, asked
        if _keeps_every_die(pool, k):
            return as_dist(pool)
        asked = [("highest" if highest else "lowest", k)]
        return pool_bind(pool, asked, lambda answers: answers[0] + pool.const)
    kept = keep(count, key, k, highest)
    return add(kept, constant(pool.const)) if pool.const else kept


def _keeps_every_die(pool: Dice, k: int) -> bool:
    """Whether keeping k dice keeps every die of the pool (none explodes into more): its total."""
    dice_count = sum(count for _, count in pool.counts)
    return k >= dice_count and dice_count <= MAX_DICE and \
        not any(separate(key) for key, _ in pool.counts)


DieKey = int | str
EXPLODE_CUT = Fraction(1, 10**15)
"""An exploding die explodes until the chance of one more explosion is below this: the mass cut
off."""


def _parsed_dice(count: int, written: str) -> Dice:
    """A dice term as written after 'd': sides (or (sides)), sides with !, !!, r or rr, F,
    {listed faces}, or 66 and 666, tens and units."""
    if written == "F" or written.startswith("{"):
        faces = ",".join(re.findall(r"-?\d+", written))
        return dice(count, 0, "F" if written == "F" else "{" + faces + "}")
    sides = re.match(r"\d+|\(\s*(\d+)\s*\)", written)
    assert sides is not None  # _TERM read the sides before any special mark
    rest = written[sides.end():]
    if sides.group() in TENS_AND_UNITS:
        if rest:
            n = sides.group()
            raise RulesError(f"d{n} is a roll read as tens and units, which cannot explode or be "
                             f"rerolled: write 1d({n}){rest} for a die of {n} sides")
        return dice(count, 0, TENS_AND_UNITS[sides.group()])
    return dice(count, int(sides.group(1) or sides.group()), rest)


@lru_cache(maxsize=256)
def die_of(key: DieKey) -> Dist:
    """The roll of one die of a kind, exactly; a die exploding into extra dice gives their sum."""
    if isinstance(key, int):
        return die(key)
    if key == "F":
        return Dist(-1, (1, 1, 1), 3)
    if key.startswith("{"):
        listed = [int(x) for x in key[1:-1].split(",")]
        low = min(listed)
        return _make(low, [listed.count(x) for x in range(low, max(listed) + 1)], len(listed))
    sides, mode, faces = _kind_parts(key)
    if mode.startswith("!"):
        return _exploding(sides, faces)
    return _rerolled(sides, faces) if mode == "r" else _rerolled_while(sides, faces)


def _kind_parts(key: str) -> tuple[int, str, tuple[int, ...]]:
    """A special die's sides, its mark (!, !!, r or rr) and the faces the mark acts on."""
    found = _SPECIAL.fullmatch(key)
    if found is None:
        raise RulesError(f"{key!r} is not a kind of die")
    sides, faces = int(found.group(1)), _special_faces(int(found.group(1)), found)
    if any(not 1 <= face <= sides for face in faces):
        raise RulesError(f"d{key} names a face a d{sides} does not have")
    return sides, found.group(2), faces


def separate(key: DieKey) -> bool:
    """Whether a kind explodes into extra dice (d6!), each a die of its own in pool questions."""
    found = _SPECIAL.fullmatch(key) if isinstance(key, str) else None
    return found is not None and found.group(2) == "!"


def _explode_depth(sides: int, faces: Sequence[int]) -> int:
    """How many times a die explodes at most: until one more explosion's chance is below
    EXPLODE_CUT."""
    if sides < 2 or len(faces) >= sides:
        raise RulesError(f"a d{sides} that explodes on {_braced(faces)} would roll forever: "
                         "it needs a face that does not explode")
    depth, cut = 0, EXPLODE_CUT
    while len(faces) ** (depth + 1) * cut.denominator >= sides ** (depth + 1) * cut.numerator:
        depth += 1
    return depth


def _exploding(sides: int, faces: Sequence[int]) -> Dist:
    """A die that rolls again on the faces it explodes on and adds: until one more explosion's
    chance is below EXPLODE_CUT, where the last roll stands. Each level is the die again, a face it
    explodes on followed by the roll so far (its weights shifted by the face), another face ending
    it (as many ways as the roll so far has)."""
    if sides < 2:
        raise RulesError(f"a d{sides} cannot explode: it would roll its highest face forever")
    weights, total = [1] * sides, sides  # weights[i]: the ways to roll i + 1
    for _ in range(_explode_depth(sides, faces)):
        following = [0] * (max(faces) + len(weights))
        for face in range(1, sides + 1):
            if face not in faces:
                following[face - 1] += total
        for face in faces:
            for i, w in enumerate(weights):
                following[face + i] += w
        weights, total = following, total * sides
    return _make(1, weights, total)


def _rerolled(sides: int, faces: Sequence[int]) -> Dist:
    """A die whose listed faces are rolled again once; the second roll stands."""
    _keeps_and_rerolls(sides, "r", faces)
    weights = [(0 if face in faces else sides) + len(faces) for face in range(1, sides + 1)]
    return _make(1, weights, sides * sides)


def _rerolled_while(sides: int, faces: Sequence[int]) -> Dist:
    """A die rolled again while it shows a listed face: each other face equally likely."""
    _keeps_and_rerolls(sides, "rr", faces)
    return _make(1, [0 if face in faces else 1 for face in range(1, sides + 1)], sides - len(faces))


def _keeps_and_rerolls(sides: int, mark: str, faces: Sequence[int]) -> None:
    if faces and len(faces) < sides:
        return
    if faces == tuple(range(1, len(faces) + 1)):
        raise RulesError(f"d{sides}{mark}{len(faces)} would reroll faces 1 to {len(faces)}: it "
                         "needs a face kept, and one rerolled")
    raise RulesError(f"d{sides}{mark}{_braced(faces)} would reroll every face: it needs a face "
                     "kept")


def dadd(a: Dist | Dice | int, b: Dist | Dice | int) -> Dist:
    return add(as_dist(a), as_dist(b))


def dsub(a: Dist | Dice | int, b: Dist | Dice | int) -> Dist:
    return sub(as_dist(a), as_dist(b))


def dneg(a: Dist | Dice) -> Dist:
    return negate(as_dist(a))


def dscale(a: Dist | Dice, k: int) -> Dist:
    return map_outcomes(as_dist(a), lambda x: x * k)


def dfloor_div(a: Dist | Dice, k: int) -> Dist:
    if k == 0:
        raise RulesError("division by zero")
    return map_outcomes(as_dist(a), lambda x: x // k)


def dmax(a: Dist | Dice | int, b: Dist | Dice | int) -> Dist:
    if isinstance(b, int):
        return _clamp(as_dist(a), low=b)
    return _extreme(as_dist(a), as_dist(b), True)


def dmin(a: Dist | Dice | int, b: Dist | Dice | int) -> Dist:
    if isinstance(b, int):
        return _clamp(as_dist(a), high=b)
    return _extreme(as_dist(a), as_dist(b), False)


def _extreme(a: Dist, b: Dist, highest: bool) -> Dist:
    """The higher (or lower) of two independent rolls: the ways both are at most x (at least x)
    are the ways the higher is at most x (the lower at least x), so each outcome's ways are the
    difference of two such products, one pass over the outcomes."""
    low = min(a.offset, b.offset)
    high = max(a.offset + len(a.weights), b.offset + len(b.weights)) - 1
    _within_bounds(high - low + 1)
    weights, upto_a, upto_b, before = [], 0, 0, 0
    for x in range(low, high + 1) if highest else range(high, low - 1, -1):
        upto_a, upto_b = upto_a + _weight(a, x), upto_b + _weight(b, x)
        weights.append(upto_a * upto_b - before)
        before = upto_a * upto_b
    return _make(low, weights if highest else weights[::-1], a.total * b.total)


def _clamp(a: Dist, low: int | None = None, high: int | None = None) -> Dist:
    """Outcomes below `low` become `low`, above `high` become `high`: weights join the edge."""
    weights, offset = list(a.weights), a.offset
    if low is not None and offset < low:
        cut = low - offset
        weights = [sum(weights[:cut + 1])] + weights[cut + 1:] if cut < len(weights) else [a.total]
        offset = low
    if high is not None and offset + len(weights) - 1 > high:
        cut = high - offset
        weights = weights[:cut] + [sum(weights[cut:])] if cut >= 0 else [a.total]
        offset = min(offset, high)
    return _make(offset, weights, a.total)


def bind_any(a: Dist | Dice | Outcomes, f: Callable[[Any], Any]) -> Any:
    """Roll `a`, then whatever f(result) says: the mixture over every result of `a` (a number, or
    a name or yes/no when `a` is a roll of those); a roll of numbers, or of names or yes/no when f
    gives those. bind() and bind_named() are its two typed forms."""
    if isinstance(a, Outcomes):
        pairs = zip(a.labels, a.weights, strict=True)
        return _blend([(w, f(label)) for label, w in pairs], a.total)
    rolled = as_dist(a)
    parts = [(w, f(rolled.offset + i)) for i, w in enumerate(rolled.weights) if w]
    return _blend(parts, rolled.total)


def bind(a: Dist | Dice | Outcomes, f: Callable[[Any], Any]) -> Dist:
    """bind_any() where the result is a roll of numbers."""
    return as_dist(bind_any(a, f))


def bind_named(a: Dist | Dice | Outcomes, f: Callable[[Any], Any]) -> Outcomes:
    """bind_any() where the result is a roll of names, or of yes and no."""
    return as_outcomes(bind_any(a, f))


def bind_each_any(rolls: Sequence[Dist | Dice | Outcomes], f: Callable[..., Any]) -> Any:
    """bind_any() nested, one roll a level, where no roll depends on an earlier one's result:
    f(results...) for every combination of results (in the nested order, the last roll's
    result changing first), weighted by the product of their weights, all mixed at once (no roll
    is made of each inner level). When each roll's results are equally likely, so are the
    combinations: equal answers are counted rather than weighed."""
    found = [_results(roll) for roll in rolls]
    total = math.prod([of for _, _, of in found])
    combos = itertools.product(*[results for results, _, _ in found])
    answers = list(itertools.starmap(f, combos))
    alike = [weights for _, weights, _ in found if type(weights) is int]
    if len(alike) == len(found):
        return _counted(Counter(answers), math.prod(alike), total)
    weights = [1]
    for results, ways, _ in found:
        weights = [w * v for w in weights for v in _listed(ways, results)]
    return _blend(list(zip(weights, answers, strict=True)), total)


def _counted(counted: Counter[Any], weight: int, total: int) -> Any:
    """Answers counted, each count times `weight` their weight: names or yes/no need no mixing."""
    if set(map(type, counted)) <= {str, bool}:
        weighed = counted if weight == 1 else {x: weight * n for x, n in counted.items()}
        return outcomes(weighed, total)
    return _blend([(weight * times, answer) for answer, times in counted.items()], total)


Weights = int | list[int]
"""A roll's results' weights: one number when they are all alike."""


def _listed(weights: Weights, results: Sequence[Any]) -> list[int]:
    """Each result's weight."""
    return weights if isinstance(weights, list) else [weights] * len(results)


def _results(roll: Dist | Dice | Outcomes) -> tuple[Sequence[Any], Weights, int]:
    """A roll's results (those of weight 0 left out), their weights and its total; one plain die
    (faces 1 to its sides, each once) gives its faces with no distribution made."""
    if type(roll) is Dice and len(roll.counts) == 1 and roll.counts[0][1] == 1 and \
            type(roll.counts[0][0]) is int and 1 <= roll.counts[0][0] <= MAX_OUTCOMES:
        sides, low = roll.counts[0][0], whole(roll.const + 1)
        return range(low, low + sides), 1, sides
    if isinstance(roll, Outcomes):
        return roll.labels, _alike(roll.weights), roll.total
    rolled = as_dist(roll)
    if 0 in rolled.weights:
        pairs = [(x, w) for x, w in zip(rolled.outcomes, rolled.weights, strict=True) if w]
        return [x for x, _ in pairs], _alike([w for _, w in pairs]), rolled.total
    return rolled.outcomes, _alike(rolled.weights), rolled.total


def _alike(weights: Sequence[int]) -> Weights:
    first = weights[0]
    return first if weights.count(first) == len(weights) else list(weights)


def bind_each(rolls: Sequence[Dist | Dice | Outcomes], f: Callable[..., Any]) -> Dist:
    """bind_each_any() where the result is a roll of numbers."""
    return as_dist(bind_each_any(rolls, f))


def bind_each_named(rolls: Sequence[Dist | Dice | Outcomes], f: Callable[..., Any]) -> Outcomes:
    """bind_each_any() where the result is a roll of names, or of yes and no."""
    return as_outcomes(bind_each_any(rolls, f))


def bind_through_any(a: Dist | Dice | Outcomes, value: Callable[[Any], Any],
                     f: Callable[[Any], Any]) -> Any:
    """`let x = a in let y = value(x) in f(y)` where f does not read x: f runs once for each y,
    when that y is first seen, which is the order in which the nested lets would first run it; the
    ways of the x giving each y are added up. The same roll as nesting, with f run once per y
    rather than once per x. When value gives a roll, each of its results is a y, its ways those of
    x times its own (over a common denominator of value's rolls)."""
    found, weights, total = _results(a)
    ways: dict[Any, int] = {}
    results: dict[Any, Any] = {}
    rolled: list[tuple[int, int, list[tuple[Any, int]]]] = []
    for x, w in zip(found, _listed(weights, found), strict=True):
        y = value(x)
        if isinstance(y, (Dist, Dice, Outcomes)):
            roll = as_dist(y) if isinstance(y, Dice) else y
            rolled.append((w, roll.total, _through_roll(roll, results, f)))
        elif y in ways:
            ways[y] += w
        else:
            ways[y] = w
            results[y] = f(y)
    if rolled:
        common = math.lcm(*[roll_total for _, roll_total, _ in rolled])
        return _blend(_rolled_ways(rolled, ways, results, common), total * common)
    return _blend([(ways[y], result) for y, result in results.items()], total)


def _through_roll(roll: Dist | Outcomes, results: dict[Any, Any],
                  f: Callable[[Any], Any]) -> list[tuple[Any, int]]:
    """bind_through_any()'s value when it is a roll: f run on each of its results not seen before,
    in the roll's order (as bind_any() would run it); its results with their ways, read once."""
    pairs = list(zip(roll.labels, roll.weights, strict=True)) if isinstance(roll, Outcomes) else \
        _nonzero(roll)
    for y, _ in pairs:
        if y not in results:
            results[y] = f(y)
    return pairs


def _nonzero(roll: Dist) -> list[tuple[int, int]]:
    """A roll's outcomes of weight above 0 with their weights, picked out in C (a sparse roll's
    gaps are many)."""
    weights = roll.weights
    shown = itertools.compress(range(roll.offset, roll.offset + len(weights)), weights)
    return list(zip(shown, filter(None, weights), strict=True))


def _rolled_ways(rolled: Sequence[tuple[int, int, Sequence[tuple[Any, int]]]],
                 ways: Mapping[Any, int], results: Mapping[Any, Any],
                 common: int) -> list[tuple[int, Any]]:
    """Each y's ways: those of the x giving it, times its ways in the roll of that x (its total
    and its results with their ways), over the rolls' common denominator (the plain ys of `ways`,
    if any, times the whole of it)."""
    found = {y: w * common for y, w in ways.items()}
    get = found.get
    for w, roll_total, pairs in rolled:
        scale = w * (common // roll_total)
        for y, rw in pairs:
            found[y] = get(y, 0) + scale * rw
    return [(found[y], result) for y, result in results.items()]


def bind_through(a: Dist | Dice | Outcomes, value: Callable[[Any], Any],
                 f: Callable[[Any], Any]) -> Dist:
    """bind_through_any() where the result is a roll of numbers."""
    return as_dist(bind_through_any(a, value, f))


def bind_through_named(a: Dist | Dice | Outcomes, value: Callable[[Any], Any],
                       f: Callable[[Any], Any]) -> Outcomes:
    """bind_through_any() where the result is a roll of names, or of yes and no."""
    return as_outcomes(bind_through_any(a, value, f))


Branch = Callable[[], Any]


def decide_any(condition: Outcomes | bool, then: Branch, other: Branch) -> Any:
    """`if condition then ... else ...` on a condition on a roll: each branch as often as the
    condition goes its way."""
    event = as_outcomes(condition)
    pairs = zip(event.labels, event.weights, strict=True)
    return _blend([(w, then() if yes else other()) for yes, w in pairs], event.total)


def decide(condition: Outcomes | bool, then: Branch, other: Branch) -> Dist:
    """decide_any() where the branches are numbers or rolls."""
    return as_dist(decide_any(condition, then, other))


def decide_named(condition: Outcomes | bool, then: Branch, other: Branch) -> Outcomes:
    """decide_any() where the branches are names, or yes/no."""
    return as_outcomes(decide_any(condition, then, other))


def _blend(parts: Sequence[tuple[int, Any]], total: int) -> Any:
    """Results mixed by weight: a roll of numbers, or of names or yes/no (never both: the
    checker keeps them apart). Plain results are added up as they come, with no roll made of
    each."""
    plain = _plain_blend(parts, total)
    if plain is not None:
        return plain
    joined = _joined(parts)
    if any(isinstance(part, (str, bool, Outcomes)) for _, part in joined):
        return _mix_outcomes([(w, as_outcomes(part)) for w, part in joined], total)
    return _mixture([(w, as_dist(part)) for w, part in joined], total)


def _joined(parts: Sequence[tuple[int, Any]]) -> list[tuple[int, Any]]:
    """The parts that are one object (the same pool or roll, as a roll's branches often give)
    added up by weight, in first-seen order, so that each is made a roll once."""
    found: dict[int, list[Any]] = {}
    for w, part in parts:
        seen = found.get(id(part))
        if seen is None:
            found[id(part)] = [w, part]
        else:
            seen[0] += w
    return [(w, part) for w, part in found.values()]


def _plain_blend(parts: Sequence[tuple[int, Any]], total: int) -> Dist | Outcomes | None:
    """_blend() when every result is a whole number, or every one a name or yes/no: their
    weights added by result; None for any other mix."""
    if not parts:
        return None
    first = type(parts[0][1])
    if first is not int and first is not str and first is not bool:
        return None
    found: dict[Any, int] = {}
    get = found.get
    for w, part in parts:
        kind = type(part)
        mixes = first is int or kind is int or (kind is not str and kind is not bool)
        if kind is not first and mixes:
            return None
        found[part] = get(part, 0) + w
    return _dist_of(found, total) if first is int else outcomes(found, total)


def _dist_of(found: Mapping[int, int], total: int) -> Dist:
    """The roll whose outcomes are found's keys, each with its ways (found is not empty): as
    _make() makes it, with the common divisor taken of found's ways alone (a sparse roll's gaps
    are many) and no gap to trim where no way is 0."""
    low, high = min(found), max(found)
    _within_bounds(high - low + 1)
    weights = [0] * (high - low + 1)
    for x, w in found.items():
        weights[x - low] = w
    if 0 in found.values():
        return _make(low, weights, total)
    divisor = math.gcd(total, *found.values())
    if divisor != 1:
        weights, total = [w // divisor for w in weights], total // divisor
    return Dist(whole(low), tuple(weights), total)


Label = str | bool


@dataclass(frozen=True)
class Outcomes:
    """An exact distribution over named outcomes (or over yes and no): labels[i] has probability
    weights[i] / total. Labels are in one order in both runtimes: no before yes, names by code
    point."""

    labels: tuple[Label, ...]
    weights: tuple[int, ...]
    total: int

    def items(self) -> list[tuple[Label, Fraction]]:
        pairs = zip(self.labels, self.weights, strict=True)
        return [(label, Fraction(w, self.total)) for label, w in pairs]

    def probability(self, label: Label) -> Fraction:
        found = dict(zip(self.labels, self.weights, strict=True)).get(label, 0)
        return Fraction(found, self.total)

    def __str__(self) -> str:
        return ", ".join(f"{_label_text(label)} {p}" for label, p in self.items())


def _label_text(label: Label) -> str:
    return ("yes" if label else "no") if isinstance(label, bool) else label


def _label_key(label: Label) -> tuple[int, str]:
    return (0, str(int(label))) if isinstance(label, bool) else (1, label)


def outcomes(weights: Mapping[Label, int], total: int) -> Outcomes:
    """Named outcomes from their weights; labels of no weight are left out, the rest put in
    order."""
    labels = [label for label, w in weights.items() if w]
    try:
        labels.sort()  # names by code point, or no before yes (no two alike)
    except TypeError:  # names and yes/no mixed
        labels.sort(key=_label_key)
    kept = [weights[label] for label in labels]
    divisor = math.gcd(total, *kept)
    if divisor != 1:
        kept, total = [w // divisor for w in kept], total // divisor
    return Outcomes(tuple(labels), tuple(kept), total)


def as_outcomes(x: Any) -> Outcomes:
    return x if isinstance(x, Outcomes) else Outcomes((x,), (1,), 1)


def _mix_outcomes(parts: Sequence[tuple[int, Outcomes]], total: int) -> Outcomes:
    common = math.lcm(*(part.total for _, part in parts))
    weights: dict[Label, int] = {}
    for w, part in parts:
        scale = w * (common // part.total)
        for label, pw in zip(part.labels, part.weights, strict=True):
            weights[label] = weights.get(label, 0) + scale * pw
    return outcomes(weights, total * common)


_HOLDS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def chance(a: Dist | Dice | int, op: str, b: Dist | Dice | int) -> Outcomes:
    """`roll op value` (or `roll op roll`, the two rolled apart): yes or no, each with its exact
    chance."""
    margin = dsub(a, b)
    holds = _HOLDS[op]
    yes = sum(w for i, w in enumerate(margin.weights) if holds(margin.offset + i, 0))
    return outcomes({True: yes, False: margin.total - yes}, margin.total)


def named_chance(a: Outcomes | str, op: str, b: Outcomes | str) -> Outcomes:
    """`outcome == "name"` (or !=): whether the roll of names comes out as the name, a yes/no
    roll."""
    equal = op == "=="
    return bind_named(as_outcomes(a),
                      lambda x: bind_named(as_outcomes(b), lambda y: (x == y) == equal))


def p(event: Outcomes | bool) -> Fraction:
    """The chance that an event (a condition on a roll) holds."""
    return as_outcomes(event).probability(True)


def both(a: Outcomes | bool, b: Outcomes | bool) -> Outcomes:
    """a and b, for conditions on rolls that are rolled apart (either may be a plain yes/no)."""
    return bind_named(as_outcomes(a), lambda x: bind_named(as_outcomes(b), lambda y: x and y))


def either(a: Outcomes | bool, b: Outcomes | bool) -> Outcomes:
    return bind_named(as_outcomes(a), lambda x: bind_named(as_outcomes(b), lambda y: x or y))


def negated(a: Outcomes | bool) -> Outcomes:
    return bind_named(as_outcomes(a), lambda x: not x)


Answers = tuple[int, ...]
Question = tuple[Any, ...]
"""("total",), ("highest", k), ("lowest", k), ("successes", t), ("count", low, high)"""
State = tuple[tuple[int, ...], int, Answers]
"""The dice left of each size, how many are placed, the answers so far."""


def pool_bind(pool: Dice, asked: Sequence[Question], f: Callable[[Answers], Any],
              needed: Sequence[bool] | None = None) -> Dist:
    """pool_bind_any() where the result is a roll of numbers."""
    return as_dist(pool_bind_any(pool, asked, f, needed))


def pool_bind_named(pool: Dice, asked: Sequence[Question], f: Callable[[Answers], Any],
                    needed: Sequence[bool] | None = None) -> Outcomes:
    """pool_bind_any() where the result is a roll of names, or of yes and no."""
    return as_outcomes(pool_bind_any(pool, asked, f, needed))


def pool_bind_any(pool: Dice, asked: Sequence[Question], f: Callable[[Answers], Any],
                  needed: Sequence[bool] | None = None) -> Any:
    """Roll a pool once and ask its dice several questions: f gets each joint set of answers
    (in the order asked) and says what to roll then; the mixture over every roll, exactly.
    With `needed`, only the questions f can read are asked (at least the first), the others
    answered None: the answers to fewer questions are fewer joint sets, so f runs less often."""
    places, questions = _asked_places(asked, needed)
    joint, ways, total = _sorted_answers(pool, questions)
    return _tallied(ways, _bound_results(joint, places, len(asked), f), total)


def pool_bind_mean(pool: Dice, asked: Sequence[Question], f: Callable[[Answers], Any],
                   needed: Sequence[bool] | None = None) -> Fraction:
    """mean(pool_bind(pool, asked, f, needed)) with no mixture made: the mean of a mixture is the
    mean of each of its parts weighed by its chance, exactly; a part that is a pool has the mean of
    its dice (no roll of their sum is made). Refused where the mixture would be: a part as
    as_dist() refuses it, in the same order, then the mixture's outcomes past MAX_OUTCOMES."""
    places, questions = _asked_places(asked, needed)
    joint, ways, total = _sorted_answers(pool, questions)
    return _weighed_mean(ways, _bound_results(joint, places, len(asked), f), total)


def _asked_places(asked: Sequence[Question],
                  needed: Sequence[bool] | None) -> tuple[list[int], tuple[Question, ...]]:
    """The places of the questions f can read (at least the first), and those questions."""
    places = [i for i, yes in enumerate(needed or [True] * len(asked)) if yes] or [0]
    return places, tuple([tuple(asked[i]) for i in places])


def _bound_results(joint: Sequence[Answers], places: Sequence[int], size: int,
                   f: Callable[[Answers], Any]) -> list[Any]:
    """f of each joint set of answers to the questions at `places` among `size`, the others
    answered None."""
    first, last = places[0], places[-1]
    if len(places) == size:
        return list(map(f, joint))
    if last - first + 1 == len(places):  # side by side: one join, with the Nones made once
        nothing: tuple[Any, ...] = (None,)
        before, after = nothing * first, nothing * (size - last - 1)
        return [f(before + answers + after) for answers in joint]
    return [f(_placed(answers, places, size)) for answers in joint]


def _weighed_mean(ways: Sequence[int], results: Sequence[Dist | Dice | int],
                  total: int) -> Fraction:
    """The mean of results mixed by their ways: each part (one object, as _joined() joins
    them) by its own mean, over a common denominator."""
    parts = [(w, _part_mean(part)) for w, part in _joined(list(zip(ways, results, strict=True)))]
    low, high = min(lo for _, (_, _, lo, _) in parts), max(hi for _, (_, _, _, hi) in parts)
    _within_bounds(high - low + 1)
    common = math.lcm(*[bottom for _, (_, bottom, _, _) in parts])
    top = sum(w * top * (common // bottom) for w, (top, bottom, _, _) in parts)
    return Fraction(top, total * common)


def _part_mean(part: Dist | Dice | int) -> tuple[int, int, int, int]:
    """A part's mean as a numerator and a denominator, and its lowest and highest outcomes; a pool
    refused as as_dist() would refuse it."""
    if isinstance(part, Dice):
        rollable(part)
        top, bottom, low, high = part.const, 1, part.const, part.const
        for key, count in part.counts:
            kind = die_of(key)
            first = sum(map(operator.mul, kind.outcomes, kind.weights))
            top, bottom = top * kind.total + bottom * count * first, bottom * kind.total
            low += count * kind.offset
            high += count * (kind.offset + len(kind.weights) - 1)
        return top, bottom, whole(low), high
    if isinstance(part, Dist):
        first = sum(map(operator.mul, part.outcomes, part.weights))
        return first, part.total, part.offset, part.offset + len(part.weights) - 1
    return whole(int(part)), 1, int(part), int(part)


def _tallied(ways: Sequence[int], results: list[Any], total: int) -> Any:
    """_blend() of each result with its ways, as pool_bind_any() finds them: when every result is
    a whole number, or every one a name or yes/no (their types told apart at once, in C), their
    ways added up by result in one pass, with no list of pairs made."""
    kinds = set(map(type, results))
    plain = kinds == _INT_ONLY
    if kinds and not plain and kinds <= _ROLLS:  # rolls (and numbers): each made a roll once
        return _mixture(_by_identity(ways, results), total)
    if not kinds or (not plain and not kinds <= _LABELS):
        return _blend(list(zip(ways, results, strict=True)), total)
    if plain:
        return _summed_dist(ways, results, total)
    found: dict[Any, int] = dict(zip(results, ways, strict=True))
    if len(found) != len(results):  # some results alike: their ways added up
        found.clear()
        get = found.get
        for result, w in zip(results, ways, strict=True):
            found[result] = get(result, 0) + w
    return outcomes(found, total)


def _summed_dist(ways: Sequence[int], results: Sequence[int], total: int) -> Dist:
    """_dist_of() of whole-number results (at least one) with their ways, each added into the
    roll's weights where it falls, with no dict of them made."""
    low, high = min(results), max(results)
    _within_bounds(high - low + 1)
    weights = [0] * (high - low + 1)
    for result, w in zip(results, ways, strict=True):
        weights[result - low] += w
    if 0 in ways:
        return _make(low, weights, total)
    divisor = math.gcd(total, *weights)
    if divisor != 1:
        weights, total = [w // divisor for w in weights], total // divisor
    return Dist(whole(low), tuple(weights), total)


def _by_identity(ways: Sequence[int],
                 results: Sequence[Dist | Dice | int]) -> list[tuple[int, Dist]]:
    """_joined() of results and their ways as _tallied() has them apart: each result (one object,
    as a roll's branches often give the same pool) with its ways added up, in first-seen order,
    made a roll."""
    return [(w, as_dist(result)) for w, result in _joined(list(zip(ways, results, strict=True)))]



_INT_ONLY = frozenset([int])
_ROLLS = frozenset([Dist, Dice, int])
_LABELS = frozenset([str, bool])


def _placed(answers: Answers, places: Sequence[int], size: int) -> tuple[Any, ...]:
    """Answers to some of the questions put at their places among all `size`, None elsewhere."""
    found: list[Any] = [None] * size
    for place, answer in zip(places, answers, strict=True):
        found[place] = answer
    return tuple(found)


@lru_cache(maxsize=256)
def _sorted_answers(pool: Dice, asked: tuple[Question, ...]) -> tuple[tuple[Answers, ...],
                                                                    tuple[int, ...], int]:
    """pool_answers() in order of the answers (the answers, and the ways of each), worked out once
    per pool and questions."""
    joint, total = _pool_answers(pool, asked)
    keys = sorted(joint)
    return tuple(keys), tuple(map(joint.__getitem__, keys)), total


def pool_answers(pool: Dice, asked: Sequence[Question]) -> tuple[dict[Answers, int], int]:
    """How many of the pool's equally likely rolls give each joint set of answers, and how many
    rolls there are.

    The faces go from high to low; at each face, how many of each kind's remaining dice show it
    (a die that shows a face in w of its t equally likely ways counts w ways per die). Only what
    the questions need is kept (the dice left of each kind, how many are placed, the answers so
    far), so rolls that agree on it are counted together: the method of icepool's multiset
    evaluators. When every question is a highest(), a roll whose highest dice are placed is
    settled at once: its other dice may show any lower face. Without highest() or lowest(), or
    with dice that explode into extra dice, each die answers on its own: _chain_answers(). Worked
    out once per pool and questions (a roll inside
    another asks them again for each result of the outer one)."""
    joint, total = _pool_answers(pool, tuple(tuple(q) for q in asked))
    return dict(joint), total


@lru_cache(maxsize=256)
def _pool_answers(pool: Dice, asked: tuple[Question, ...]) -> tuple[dict[Answers, int], int]:
    ones = [int(q[1]) == 1 if q[0] in ("highest", "lowest") else None for q in asked]
    if ones.count(None) == len(ones) or any(separate(key) for key, _ in pool.counts):
        return _chain_answers(pool, asked)
    kinds = [die_of(key) for key, _ in pool.counts]
    counts = [count for _, count in pool.counts]
    dice_count = sum(counts)
    _refuse_dice(dice_count)
    if dice_count and ones.count(True) == len(ones):
        return _extremes(kinds, counts, asked)
    if dice_count and False not in ones:
        joint = _extreme_sums(kinds, counts, asked)
        return _shifted(joint, asked, pool.const), math.prod(
            kind.total**count for kind, count in zip(kinds, counts, strict=True))
    if all(q[0] == "lowest" for q in asked):
        return _mirrored_lowest(kinds, counts, asked)
    joint, total = _kept_answers(kinds, counts, asked)
    return _shifted(joint, asked, pool.const), total


def _mirrored_lowest(kinds: Sequence[Dist], counts: Sequence[int],
                     asked: Sequence[Question]) -> tuple[dict[Answers, int], int]:
    """pool_answers() when every question is a lowest(): the highest() of the dice with each face x
    shown as -x, the answers negated back; the sweep then settles a roll as soon as its lowest dice
    are placed, rather than carrying every die to the lowest face."""
    mirrored = [Dist(-(kind.offset + len(kind.weights) - 1), kind.weights[::-1], kind.total)
                for kind in kinds]
    joint, total = _kept_answers(mirrored, counts, [("highest", *q[1:]) for q in asked])
    return {tuple(-answer for answer in answers): ways for answers, ways in joint.items()}, total


def _kept_answers(kinds: Sequence[Dist], counts: Sequence[int],
                  asked: Sequence[Question]) -> tuple[dict[Answers, int], int]:
    """_pool_answers() of a pool asked highest() or lowest() (some k above 1), its constant left
    out."""
    dice_count = sum(counts)
    if dice_count >= 2 and len(asked) == 1 and asked[0][0] == "highest" and int(asked[0][1]) == 2:
        return _best_two(kinds, counts)
    if len(kinds) == 1 and _few_rolls(kinds[0], dice_count):
        return _enumerated(kinds[0], dice_count, asked), kinds[0].total**dice_count
    steps = [_stepper(q, dice_count) for q in asked]
    settled = _settled_at(asked, dice_count)
    if settled is not None:
        _within_sweep(kinds, counts, settled)
    states: dict[State, int] = {(tuple(counts), 0, tuple(0 for _ in asked)): 1}
    done: dict[Answers, int] = {}
    faces = sorted({face for kind in kinds for face, _ in kind.items()}, reverse=True)
    for face in faces:
        weights = [_weight(kind, face) for kind in kinds]
        if settled is None:
            states = _show_face(states, weights, face, steps, done)
        else:
            below = [_below(kind, face) for kind in kinds]
            states = _settle_face(states, (weights, below), face, steps, (settled, done))
    for (left, _, answers), ways in states.items():
        if not any(left):  # else a die was never given a face: not a roll
            done[answers] = done.get(answers, 0) + ways
    return done, math.prod(kind.total**count for kind, count in zip(kinds, counts, strict=True))


def _within_sweep(kinds: Sequence[Dist], counts: Sequence[int], k: int) -> None:
    """The keep budget of the k highest of a pool that is not of equal plain dice: each face's
    states (the dice placed, fewer than k, and the kept sum) times the ways the rest may show the
    face (as many), times the bits of a weight plus 1,024, as _keep_work() counts."""
    if not kinds:
        return
    low = min(kind.offset for kind in kinds)
    span = max(kind.offset + len(kind.weights) - 1 for kind in kinds) - low
    faces = len({kind.offset + i for kind in kinds for i, w in enumerate(kind.weights) if w})
    placed = _placings(counts, k)
    bits = sum(kind.total.bit_length() * n for kind, n in zip(kinds, counts, strict=True))
    work = faces * placed * placed * (k * span + 1) * (bits + 1024)
    if work > MAX_KEEP_WORK:
        raise RulesError("a roll too large to work out exactly in time is refused: keeping "
                         f"{k} of {sum(counts)} dice of {len(counts)} kind(s) would pass the keep "
                         f"budget of {MAX_KEEP_WORK} bits added ({work})")


def _placings(counts: Sequence[int], k: int) -> int:
    """How many ways to have placed fewer than k dice, so many of each kind."""
    ways = [1] + [0] * (k - 1)  # ways[s]: the placings of s dice so far
    for n in counts:
        ways = [sum(ways[max(0, s - n):s + 1]) for s in range(k)]
    return sum(ways)


ENUMERATED = 256
"""A pool of one kind with at most this many distinct rolls (each a multiset of faces) is answered
roll by roll: the sweep's states, one per partial roll and answers, would be more."""


def _few_rolls(kind: Dist, dice_count: int) -> bool:
    """Whether n dice of a kind have at most ENUMERATED distinct rolls: C(faces + n - 1, n)."""
    faces, rolls = sum(1 for w in kind.weights if w), 1
    for i in range(1, dice_count + 1):
        rolls = rolls * (faces - 1 + i) // i
        if rolls > ENUMERATED:
            return False
    return True


def _enumerated(kind: Dist, dice_count: int, asked: Sequence[Question]) -> dict[Answers, int]:
    """pool_answers() roll by roll for a pool of one kind: each sorted roll (its faces from low to
    high, as itertools gives each multiset once), in n!/(c1!...ck!) orders times each face's ways
    to the power of the dice showing it, answered directly, one question at a time over all the
    rolls (_answered())."""
    faces = [(kind.offset + i, w) for i, w in enumerate(kind.weights) if w]
    shown = list(itertools.combinations_with_replacement([face for face, _ in faces], dice_count))
    ways = _orders(shown, dict(faces), dice_count)
    answers = list(zip(*[_answered(q, dice_count, shown) for q in asked], strict=True))
    joint = dict(zip(answers, ways, strict=True))
    if len(joint) == len(answers):  # each roll answered apart (they tell its faces): made in C
        return joint
    joint.clear()
    get = joint.get
    for key, found in zip(answers, ways, strict=True):
        joint[key] = get(key, 0) + found
    return joint


def _orders(rolls: Sequence[Sequence[int]], weight: Mapping[int, int],
            dice_count: int) -> list[int]:
    """The ways of each sorted roll: the orders it comes in, n!/(c1!...ck!), times each die's ways
    to show its face; n! divided by each run's length as it grows (2, then 3, ...) stays whole."""
    start, alike = math.factorial(dice_count), all(w == 1 for w in weight.values())
    found = []
    for roll in rolls:
        ways, run, last = start, 0, None
        for face in roll:
            run = run + 1 if face == last else 1
            last = face
            ways = ways // run if alike else ways * weight[face] // run
        found.append(ways)
    return found


def _answered(question: Question, dice_count: int, rolls: Sequence[Sequence[int]]) -> list[int]:
    """A question's answer to each roll, its faces sorted low to high (as _stepper() builds it die
    by die)."""
    kind, numbers = question[0], [int(x) for x in question[1:]] or [0]
    first, last = numbers[0], numbers[-1]
    k = max(0, min(first, dice_count))
    if kind == "total" or (kind in ("highest", "lowest") and k == dice_count):
        return list(map(sum, rolls))
    if kind in ("highest", "lowest"):  # the kept places' faces added place by place, in C
        places = range(dice_count - k, dice_count) if kind == "highest" else range(k)
        if not places:
            return [0] * len(rolls)
        added: Iterable[int] = map(operator.itemgetter(places[0]), rolls)
        for place in places[1:]:
            added = map(operator.add, added, map(operator.itemgetter(place), rolls))
        return list(added)
    left = map(bisect.bisect_left, rolls, itertools.repeat(first))
    if kind == "successes":  # the faces come sorted: those from `first` up are found by halving
        return list(map(operator.sub, itertools.repeat(dice_count), left))
    if first > last:
        return [0] * len(rolls)
    if first == last:  # one face: counted in C, with no halving
        return list(map(operator.countOf, rolls, itertools.repeat(first)))
    return list(map(operator.sub, map(bisect.bisect_right, rolls, itertools.repeat(last)), left))


def _extremes(kinds: Sequence[Dist], counts: Sequence[int],
              asked: Sequence[Question]) -> tuple[dict[Answers, int], int]:
    """pool_answers() when every question is highest(p, 1) or lowest(p, 1) of a pool of at least
    one die: from the ways every die shows a face from b to a, the ways the highest is a and the
    lowest b, by inclusion and exclusion (a or b alone when only one is asked)."""
    low = min(kind.offset for kind in kinds)
    wanted = {q[0] for q in asked}
    total = math.prod(kind.total**n for kind, n in zip(kinds, counts, strict=True))
    if len(wanted) == 1:
        high = max(kind.offset + len(kind.weights) - 1 for kind in kinds)
        _within_extremes(high - low + 1, total.bit_length())
        return _one_extreme(kinds, counts, low, "highest" in wanted, len(asked)), total
    within = _within_table(kinds, counts, low, wanted)
    top = len(within) - 2
    highs, lows = "highest" in wanted, "lowest" in wanted
    picks = [0 if q[0] == "highest" else 1 for q in asked]
    one = picks[0] if len(picks) == 1 else None  # the common case: one question, one answer
    joint: dict[Answers, int] = {}
    for a, b in _cells(top, highs, lows):
        row, next_row = within[b], within[b + 1 if lows else 0]
        ways = row[a] - next_row[a] - (row[a - 1] - next_row[a - 1] if highs else 0)
        if ways:
            shown = (a + low - 1, b + low - 1)
            joint[(shown[one],) if one is not None else tuple(map(shown.__getitem__, picks))] = ways
    return joint, total


def _one_extreme(kinds: Sequence[Dist], counts: Sequence[int], low: int, highest: bool,
                 questions: int) -> dict[Answers, int]:
    """_extremes() when only highest(p, 1), or only lowest(p, 1), is asked: the ways every die shows
    at most x (at least x), less those for x - 1 (x + 1), face by face from the lowest; no table of
    ranges."""
    if len(kinds) == 1:
        return _one_kind_extreme(kinds[0], counts[0], highest, questions)
    upto = _upto(kinds, low, max(kind.offset + len(kind.weights) - 1 for kind in kinds))
    # edge[i]: every die at most low - 1 + i (highest), at least low + i (lowest)
    edge = [1] * len(upto[0])
    for c, n in zip(upto, counts, strict=True):  # kind by kind, every face at once
        sides = c if highest else [c[-1] - x for x in c]
        edge = [e * x**n for e, x in zip(edge, sides, strict=True)]
    found = [edge[i] - edge[i - 1] for i in range(1, len(edge))] if highest else \
        [edge[i] - edge[i + 1] for i in range(len(edge) - 1)]
    return {(low + i,) * questions: ways for i, ways in enumerate(found) if ways}


def _one_kind_extreme(kind: Dist, dice_count: int, highest: bool,
                      questions: int) -> dict[Answers, int]:
    """_one_extreme() of dice of one kind: face by face from the lowest (the highest), the ways
    every die shows it or a face before it, less those for the face before, in one pass."""
    weights = kind.weights if highest else kind.weights[::-1]
    faces = kind.outcomes if highest else reversed(kind.outcomes)
    joint: dict[Answers, int] = {}
    ways = before = 0
    for face, w in zip(faces, weights, strict=True):
        if w:
            ways += w
            every = ways**dice_count
            joint[(face,) * questions] = every - before
            before = every
    return joint if highest else dict(reversed(joint.items()))


def _extreme_sums(kinds: Sequence[Dist], counts: Sequence[int],
                  asked: Sequence[Question]) -> dict[Answers, int]:
    """pool_answers() when each question is highest(p, 1), lowest(p, 1) or a sum over the dice (a
    total, successes, a count), of a pool of at least one die: the rolls whose every die shows a
    face from b to a answer the sums as _summed_chains() adds them, each die's faces cut to b..a;
    the rolls whose highest is a and lowest b are those, less those within b+1..a and within b..a-1,
    plus those within b+1..a-1 (by inclusion and exclusion; a alone, or b alone, when only one is
    asked)."""
    sums = [q for q in asked if q[0] not in ("highest", "lowest")]
    highs, lows = any(q[0] == "highest" for q in asked), any(q[0] == "lowest" for q in asked)
    if len(kinds) == 1 and len(sums) == 1 and highs != lows:
        return _one_kind_extreme_sum(kinds[0], counts[0], asked, highs)
    faces = sorted({face for kind in kinds
                    for face, w in zip(kind.outcomes, kind.weights, strict=True) if w})
    within = _within_sums(kinds, counts, sums, faces)
    slots = iter(range(2, 2 + len(sums)))
    read = operator.itemgetter(*[0 if q[0] == "highest" else 1 if q[0] == "lowest" else next(slots)
                                 for q in asked])
    one = len(asked) == 1
    joint: dict[Answers, int] = {}
    for a in range(len(faces)) if highs else [len(faces) - 1]:
        for b in range(a + 1) if lows else [0]:
            found = dict(within(b, a))
            for sign, low, high in ((-1, b, a - 1), (-1, b + 1, a), (1, b + 1, a - 1)):
                if (high == a or highs) and (low == b or lows):
                    for answers, ways in within(low, high).items():
                        found[answers] += sign * ways
            for answers, ways in found.items():
                if ways:
                    shown = read((faces[a], faces[b], *answers))
                    joint[(shown,) if one else shown] = ways
    return joint


def _one_kind_extreme_sum(kind: Dist, dice_count: int, asked: Sequence[Question],
                          highest: bool) -> dict[Answers, int]:
    """_extreme_sums() of dice of one kind asked one sum and only highest(p, 1) (or only lowest(p,
    1)): one die's faces in the sum are a polynomial, grown a face at a time from the lowest (the
    highest); its power counts the rolls whose every die is within the faces so far, and those
    whose highest (lowest) is the face just added are that power less the one before it."""
    flags = [q[0] in ("highest", "lowest") for q in asked]
    step = _stepper(asked[flags.index(False)], 1)
    faces = [(face, w, step(0, face, 1, 0))
             for face, w in zip(kind.outcomes, kind.weights, strict=True) if w]
    low = min(answer for _, _, answer in faces)
    poly = [0] * (max(answer for _, _, answer in faces) - low + 1)
    before: list[int] = []
    joint: dict[Answers, int] = {}
    for face, w, answer in faces if highest else faces[::-1]:
        poly[answer - low] += w
        powered = _power(poly[:max(i for i, c in enumerate(poly) if c) + 1], dice_count)
        for i, ways in enumerate(powered):
            fewer = ways - before[i] if i < len(before) else ways
            if fewer:
                total = low * dice_count + i
                joint[tuple([face if flag else total for flag in flags])] = fewer
        before = powered
    return joint


def _within_sums(kinds: Sequence[Dist], counts: Sequence[int], sums: Sequence[Question],
                 faces: Sequence[int]) -> Callable[[int, int], dict[Answers, int]]:
    """The ways every die shows a face from faces[low] to faces[high], by the answers to the sum
    questions; each range worked out once."""
    steps = [_stepper(q, 1) for q in sums]
    shown = [[(face, tuple([step(0, face, 1, 0) for step in steps]), w)
              for face, w in zip(kind.outcomes, kind.weights, strict=True) if w] for kind in kinds]
    found: dict[tuple[int, int], dict[Answers, int]] = {}

    def within(low: int, high: int) -> dict[Answers, int]:
        if low > high:
            return {}
        if (low, high) not in found:
            least, most = faces[low], faces[high]
            cut = [[(answers, w) for face, answers, w in kind if least <= face <= most]
                   for kind in shown]
            empty = any(not chain and count for chain, count in zip(cut, counts, strict=True))
            kept = [(tuple(chain), count)
                    for chain, count in zip(cut, counts, strict=True) if count]
            found[low, high] = {} if empty else _summed_chains(kept, len(sums))
        return found[low, high]
    return within


def _best_two(kinds: Sequence[Dist], counts: Sequence[int]) -> tuple[dict[Answers, int], int]:
    """pool_answers() when the one question is highest(p, 2) of at least two dice: the ways the
    two highest dice show a and b (a >= b) are, for a > b, one die showing a (of each kind in turn)
    with the others' highest b; for a == b, every roll whose highest is a but those with one die
    alone on it."""
    used = [(kind, n) for kind, n in zip(kinds, counts, strict=True) if n]
    low = min(kind.offset for kind, _ in used)
    high = max(kind.offset + len(kind.weights) - 1 for kind, _ in used)
    upto = _upto([kind for kind, _ in used], low, high)
    every = [_ways_at_most(upto, used, i, None) for i in range(len(upto[0]))]
    others = [[_ways_at_most(upto, used, i, g) for i in range(len(upto[0]))]
              for g in range(len(used))]
    joint: dict[Answers, int] = {}
    for a in range(1, len(every)):
        lone = [(n * (upto[g][a] - upto[g][a - 1]), others[g]) for g, (_, n) in enumerate(used)]
        ties = every[a] - every[a - 1] - sum(w * o[a - 1] for w, o in lone)
        for b, ways in [(a, ties)] + [(b, sum(w * (o[b] - o[b - 1]) for w, o in lone))
                                      for b in range(1, a)]:
            if ways:
                key = (a + b + 2 * (low - 1),)
                joint[key] = joint.get(key, 0) + ways
    return joint, math.prod(kind.total**n for kind, n in used)


def _upto(kinds: Sequence[Dist], low: int, high: int) -> list[list[int]]:
    """[g][i]: the ways one die of kind g shows low - 1 + i or less (i from 0 to high - low + 1)."""
    return [list(itertools.accumulate(_padded(kind, low, high), initial=0)) for kind in kinds]


def _padded(kind: Dist, low: int, high: int) -> list[int]:
    """The ways a die shows each face from low to high (as _weight() gives them one by one)."""
    start, end = low - kind.offset, high - kind.offset + 1
    found = [0] * min(-start, end - start) + list(kind.weights[max(0, start):max(0, end)])
    return found + [0] * (end - start - len(found))


def _ways_at_most(upto: Sequence[Sequence[int]], used: Sequence[tuple[Dist, int]], i: int,
                  but: int | None) -> int:
    """The ways every die (but one of kind `but`, if given) shows low - 1 + i or less."""
    return math.prod(c[i]**(n - (g == but))
                     for g, (c, (_, n)) in enumerate(zip(upto, used, strict=True)))


def _within_table(kinds: Sequence[Dist], counts: Sequence[int], low: int,
                  wanted: set[str]) -> list[list[int]]:
    """table[b][a]: the ways every die shows a face from low+b-1 to low+a-1 (none when b > a);
    row 0 and the last row, and column 0, are all none; with only highest() wanted, only row 1
    is filled, with only lowest(), only the last column."""
    high = max(kind.offset + len(kind.weights) - 1 for kind in kinds)
    size = high - low + 1
    upto = _upto(kinds, low, high)
    table = [[0] * (size + 1) for _ in range(size + 2)]
    cells = _cells(size, "highest" in wanted, "lowest" in wanted)
    ways = [1] * len(cells)
    for found, n in zip(upto, counts, strict=True):  # kind by kind, every cell at once
        ways = [w * (found[a] - found[b - 1])**n for w, (a, b) in zip(ways, cells, strict=True)]
    for (a, b), w in zip(cells, ways, strict=True):
        table[b][a] = w
    return table


def _cells(top: int, highs: bool, lows: bool) -> list[tuple[int, int]]:
    """The (a, b) that _extremes() reads, b <= a: every a with b = 1 for the highest alone, a = top
    with every b for the lowest alone, all pairs for both."""
    if not lows:
        return [(a, 1) for a in range(1, top + 1)]
    if not highs:
        return [(top, b) for b in range(1, top + 1)]
    return [(a, b) for a in range(1, top + 1) for b in range(1, a + 1)]


def _shifted(joint: dict[Answers, int], asked: Sequence[Question],
             const: int) -> dict[Answers, int]:
    """The answers with the pool's constant added to each total asked."""
    if not const or all(q[0] != "total" for q in asked):
        return joint
    final: dict[Answers, int] = {}
    for answers, ways in joint.items():
        key = tuple(whole(a + const) if q[0] == "total" else a
                    for q, a in zip(asked, answers, strict=True))
        final[key] = final.get(key, 0) + ways
    return final


def _settled_at(asked: Sequence[Question], dice_count: int) -> int | None:
    """How many dice, placed from the highest face down, settle every answer: when all questions
    are highest(k), the k highest; None when a question reads lower dice too."""
    if any(q[0] != "highest" for q in asked):
        return None
    return max((max(0, min(int(q[1]), dice_count)) for q in asked), default=0)


def _settle_face(states: dict[State, int], ways_of: tuple[Sequence[int], Sequence[int]], face: int,
                 steps: Sequence[Step], until: tuple[int, dict[Answers, int]]) -> dict[State, int]:
    """_show_face() when every question is a highest(): a state that places its last needed dice
    on this face is settled at once, its other dice on this face or lower ones, all such rolls
    counted together (every way, less those that place too few dice here); only rolls placing
    fewer dice go on."""
    (weights, below), (settled, done) = ways_of, until
    following: dict[State, int] = {}
    found: dict[tuple[tuple[int, ...], int], tuple[list[Option], int]] = {}
    for (left, placed, answers), ways in states.items():
        need = settled - placed
        if (left, need) not in found:
            found[left, need] = _fewer_options(left, (weights, below), need)
        options, lump = found[left, need]
        for rest, count, choices in options:
            key = (rest, placed + count, _stepped(steps, answers, (face, count, placed)))
            following[key] = following.get(key, 0) + ways * choices
        if lump:
            final = _stepped(steps, answers, (face, need, placed))
            done[final] = done.get(final, 0) + ways * lump
    return following


Option = tuple[tuple[int, ...], int, int]
"""A way the remaining dice show a face: the dice left after, how many show it, in how many ways."""


def _stepped(steps: Sequence[Step], answers: Answers, shown: tuple[int, int, int]) -> Answers:
    """Each answer after (face, dice showing it, dice placed above)."""
    face, count, placed = shown
    if len(steps) == 1:  # the common cases, without a generator's cost
        return (steps[0](answers[0], face, count, placed),)
    if len(steps) == 2:
        first, second = steps
        return (first(answers[0], face, count, placed), second(answers[1], face, count, placed))
    return tuple([step(a, face, count, placed) for step, a in zip(steps, answers, strict=True)])


def _fewer_options(left: tuple[int, ...], ways_of: tuple[Sequence[int], Sequence[int]],
                   need: int) -> tuple[list[Option], int]:
    """The ways fewer than `need` of the remaining dice show a face (the dice left after, how many
    show it, in how many ways), and the ways of every other roll of them on it or below."""
    weights, below = ways_of
    lump = math.prod((w + b)**n for w, b, n in zip(weights, below, left, strict=True))
    options = []
    for shown, choices in _showing(left, weights, need):
        rest = tuple(r - c for r, c in zip(left, shown, strict=True))
        lump -= choices * math.prod(b**n for b, n in zip(below, rest, strict=True))
        options.append((rest, sum(shown), choices))
    return options, lump


def _below(kind: Dist, face: int) -> int:
    """How many of a die's ways show a face below `face`."""
    return sum(kind.weights[:max(0, face - kind.offset)])


Step = Callable[[int, int, int, int], int]
"""A question's answer after (answer so far, face, dice showing it, dice placed above)."""


def _show_face(states: dict[State, int], weights: Sequence[int], face: int,
               steps: Sequence[Step], done: dict[Answers, int]) -> dict[State, int]:
    """Each state after the remaining dice show `face`: a state with no die left has its answers
    and leaves for `done` (a face no die shows changes no answer)."""
    following: dict[State, int] = {}
    options: dict[tuple[int, ...], list[tuple[tuple[int, ...], int, int]]] = {}
    for state, ways in states.items():
        left, placed, answers = state
        if not any(left):
            done[answers] = done.get(answers, 0) + ways
            continue
        if left not in options:
            options[left] = [(tuple(r - c for r, c in zip(left, shown, strict=True)), sum(shown),
                              choices) for shown, choices in _showing(left, weights)]
        for rest, count, choices in options[left]:
            key = (rest, placed + count, _stepped(steps, answers, (face, count, placed))) \
                if count else state
            following[key] = following.get(key, 0) + ways * choices
    return following


def _weight(kind: Dist, face: int) -> int:
    """How many of a die's ways show `face`."""
    index = face - kind.offset
    return kind.weights[index] if 0 <= index < len(kind.weights) else 0


def _showing(left: Sequence[int], weights: Sequence[int],
             fewer: int = MAX_DICE + 1) -> list[tuple[tuple[int, ...], int]]:
    """Each way the remaining dice can show one face, fewer than `fewer` of them: how many of each
    kind, and in how many ways (which dice, times each die's ways to show the face: `weights`,
    none for a die that cannot)."""
    options: list[tuple[tuple[int, ...], int, int]] = [((), 1, 0)] if fewer > 0 else []
    for remaining, weight in zip(left, weights, strict=True):
        top = remaining if weight else 0
        options = [(shown + (c,), ways * math.comb(remaining, c) * weight**c, n + c)
                   for shown, ways, n in options for c in range(min(top, fewer - 1 - n) + 1)]
    return [(shown, ways) for shown, ways, _ in options]


def _stepper(question: Question, dice_count: int) -> Step:
    """One question's answer so far, after `shown` dice show `face` below `placed` higher ones; the
    question's arguments are read once, here."""
    kind, numbers = question[0], [int(x) for x in question[1:]] or [0]
    first, last = numbers[0], numbers[-1]
    if kind == "total":
        return lambda a, face, shown, placed: a + face * shown
    if kind == "highest":
        return lambda a, face, shown, placed: a + face * max(0, min(shown, first - placed))
    if kind == "lowest":
        start = dice_count - max(0, min(first, dice_count))
        return lambda a, face, shown, placed: \
            a + face * max(0, min(placed + shown, dice_count) - max(placed, start))
    if kind == "successes":
        return lambda a, face, shown, placed: a + (shown if face >= first else 0)
    return lambda a, face, shown, placed: a + (shown if first <= face <= last else 0)


def _chain_answers(pool: Dice, asked: Sequence[Question]) -> tuple[dict[Answers, int], int]:
    """pool_answers() when each die answers on its own: a total, successes and counts are sums over
    the dice, and a die that explodes into extra dice (with them, its chain) answers as one. The
    pool's answers are then the sums of its chains' answers: _summed_chains(). highest() and
    lowest() have no such sum; with dice that explode into extra dice they are refused."""
    refused = next((q[0] for q in asked if q[0] in ("highest", "lowest")), None)
    if refused is not None:
        raise RulesError(f"{refused}() cannot be asked of dice that explode into extra dice "
                         f"({pool}): how many dice there are depends on the roll; write !! for "
                         "dice that each show their exploded sum")
    _refuse_dice(sum(count for _, count in pool.counts))
    chains = [(_chain(key, tuple(tuple(q) for q in asked)), count) for key, count in pool.counts]
    total = math.prod(size**count for (_, size), count in chains)
    joint = _summed_chains([(chain, count) for (chain, _), count in chains], len(asked))
    return _shifted(joint, asked, pool.const), total


SUMMED_SIZE = 1 << 20
"""The joint answers of a pool are one polynomial when their combinations number at most this
many."""


def _summed_chains(chains: Sequence[tuple[Chain, int]], questions: int) -> dict[Answers, int]:
    """The ways of each joint set of answers of `count` chains of each kind, added answer by answer:
    every set is one number in mixed radix (answer i, less its least, times the product of the
    answer ranges before it; the ranges are the pool's, so no digit carries), a kind's chain is then
    a polynomial in one variable, raised to its count (_power) and the kinds multiplied (_convolve):
    the generating function of the sums. Combinations beyond SUMMED_SIZE are added chain by chain
    instead."""
    if questions == 1:
        return _summed_one(chains)
    columns = [list(zip(*[answers for answers, _ in chain], strict=True)) for chain, _ in chains]
    lows = [[min(column) for column in found] for found in columns]
    sizes = [1] * questions
    for found, low, (_, count) in zip(columns, lows, chains, strict=True):
        for i, column in enumerate(found):
            sizes[i] += count * (max(column) - low[i])
    if math.prod(sizes) > SUMMED_SIZE:
        return _added_chains(chains, questions)
    strides = [math.prod(sizes[:i]) for i in range(questions)]
    weights, made = [1], 1
    for (chain, count), low in zip(chains, lows, strict=True):
        places = [(sum([(a - m) * stride
                         for a, m, stride in zip(answers, low, strides, strict=True)]), ways)
                  for answers, ways in chain]
        poly = [0] * (max(place for place, _ in places) + 1)
        for place, ways in places:
            poly[place] += ways
        powered = _power(poly, count)
        made = _product_of(weights, made, powered, sum(poly) ** count)
        weights = _convolve(weights, powered)
    least = [sum(count * low[i] for (_, count), low in zip(chains, lows, strict=True))
             for i in range(questions)]
    if questions == 2:  # the common case: two digits, one divmod
        first, second = least
        return {(first + low, second + high): ways
                for place, ways in enumerate(weights) if ways
                for high, low in [divmod(place, sizes[0])]}
    return {tuple([least[i] + place // strides[i] % sizes[i] for i in range(questions)]): ways
            for place, ways in enumerate(weights) if ways}


def _summed_one(chains: Sequence[tuple[Chain, int]]) -> dict[Answers, int]:
    """_summed_chains() of one question: each kind's answers are a polynomial, raised to its
    count."""
    weights, least, made = [1], 0, 1
    for chain, count in chains:
        low = min([answers[0] for answers, _ in chain])
        poly = [0] * (max([answers[0] for answers, _ in chain]) - low + 1)
        for (answer,), ways in chain:
            poly[answer - low] += ways
        powered = _power(poly, count)
        made = _product_of(weights, made, powered, sum(poly) ** count)
        weights = powered if len(weights) == 1 and weights[0] == 1 else _convolve(weights, powered)
        least += count * low
    return {(least + i,): ways for i, ways in enumerate(weights) if ways}


def _product_of(weights: Sequence[int], total: int, other: Sequence[int], other_total: int) -> int:
    """The total of two kinds' sums multiplied out, refused past the product budget first."""
    _within_products(min(len(weights), len(other)), (total * other_total).bit_length())
    return total * other_total


def _added_chains(chains: Sequence[tuple[Chain, int]], questions: int) -> dict[Answers, int]:
    """_summed_chains() die by die: every pair of the answers so far and one more chain's, added."""
    joint: dict[Answers, int] = {(0,) * questions: 1}
    for chain, count in chains:
        for _ in range(count):
            joint = _vector_add(joint, chain)
    return joint


def _power(poly: Sequence[int], times: int) -> list[int]:
    """A polynomial (its last coefficient not 0) to a power. Equal coefficients (a plain die) by
    _uniform_power(), in steps linear in the result; few terms for the result's size by
    _miller_power(); else by repeated squaring (_convolve)."""
    lead = next(i for i, w in enumerate(poly) if w)
    if lead:
        return [0] * (lead * times) + _power(poly[lead:], times)
    if times == 0 or len(poly) == 1:
        return [poly[0] ** times]
    if poly.count(poly[0]) == len(poly):
        scale = poly[0] ** times
        return [scale * w for w in _uniform_power(len(poly), times)] if scale != 1 else \
            _uniform_power(len(poly), times)
    if not _squares(poly, times):
        return _miller_power(poly, times)
    _within_products(*_last_product(poly, times))
    result: list[int] | None = None
    power = list(poly)
    while times:
        if times & 1:
            result = power if result is None else _convolve(result, power)
        times >>= 1
        if times:
            power = _convolve(power, power)
    assert result is not None
    return result


def _squares(poly: Sequence[int], times: int) -> bool:
    """Whether _power() raises a polynomial of unequal coefficients (its first not 0) to a power by
    repeated squaring, rather than by Miller's recurrence."""
    terms = len(poly) - poly.count(0)
    return terms * (len(poly) - 1) * times > MILLER_WORK


def _last_product(poly: Sequence[int], times: int) -> tuple[int, int]:
    """What the product budget counts of poly ** times by squaring: its last product's, of two
    halves (outcomes of the smaller, bits of the product's weights)."""
    return (len(poly) - 1) * times // 2 + 1, (sum(poly) ** times).bit_length()


MILLER_WORK = 20_000
"""_power() uses the recurrence when terms x result size is at most this: each step of it multiplies
a big number by a small one, where squaring multiplies big numbers."""


def _miller_power(poly: Sequence[int], times: int) -> list[int]:
    """poly ** times by J. C. P. Miller's recurrence: the power's derivative is times * poly' / poly
    times the power, so each coefficient follows from the terms of poly and the coefficients before
    it, with one exact division by k * poly[0]."""
    size = (len(poly) - 1) * times + 1
    out = [poly[0] ** times] + [0] * (size - 1)
    terms = [(j, w) for j, w in enumerate(poly) if j and w]
    for k in range(1, size):
        found = 0
        for j, w in terms:
            if j > k:
                break
            found += ((times + 1) * j - k) * w * out[k - j]
        out[k] = found // (k * poly[0])
    return out


def _uniform_power(sides: int, times: int) -> list[int]:
    """The ways `times` dice of `sides` equal faces sum to each total: the coefficients of (1 + x +
    ... + x^(sides-1)) ** times, from Miller's recurrence for that polynomial, (1 - x^sides) / (1 -
    x), whose three terms per coefficient make it linear in the result; the first half computed, the
    second its mirror."""
    size, n, s = (sides - 1) * times + 1, times, sides
    out = [1] + [0] * (size - 1)
    for m in range(0, (size - 1) // 2):
        found = (m + n) * out[m]
        if m + 1 >= s:
            found += (m + 1 - s - n * s) * out[m + 1 - s]
        if m >= s:
            found += (n * s - n + s - m) * out[m - s]
        out[m + 1] = found // (m + 1)
    for k in range((size + 1) // 2, size):
        out[k] = out[size - 1 - k]
    return out


def _refuse_dice(dice_count: int) -> None:
    if dice_count > MAX_DICE:
        raise RulesError(f"a roll of more than {MAX_DICE} dice is refused ({dice_count} asked)")


Chain = tuple[tuple[Answers, int], ...]
"""Joint answers and how many equally likely ways give each."""


@lru_cache(maxsize=128)
def _chain(key: DieKey, asked: tuple[Question, ...]) -> tuple[Chain, int]:
    """One die's joint answers to the questions, with the dice it explodes into, and its total
    ways. Each explosion rolls a die more, to the depth _exploding() goes, so the sum agrees."""
    steps = [_stepper(q, 1) for q in asked]

    def answers(face: int) -> Answers:
        return tuple(step(0, face, 1, 0) for step in steps)
    if not separate(key):
        kind = die_of(key)
        pairs = zip(kind.outcomes, kind.weights, strict=True)
        return _summed((answers(face), w) for face, w in pairs if w), kind.total
    sides, _, faces = _kind_parts(str(key))
    level, total = _summed((answers(face), 1) for face in range(1, sides + 1)), sides
    for _ in range(_explode_depth(sides, faces)):
        parts: list[tuple[Answers, int]] = []
        for face in range(1, sides + 1):
            shown = answers(face)
            if face in faces:
                parts += [(_plus(shown, rest), ways) for rest, ways in level]
            else:
                parts.append((shown, total))
        level, total = _summed(parts), total * sides
    return level, total


def _plus(a: Answers, b: Answers) -> Answers:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _summed(pairs: Iterable[tuple[Answers, int]]) -> Chain:
    """Pairs of answers and ways, the ways of equal answers added, in first-seen order."""
    found: dict[Answers, int] = {}
    for answers, ways in pairs:
        found[answers] = found.get(answers, 0) + ways
    return tuple(found.items())


def _vector_add(joint: Mapping[Answers, int], chain: Chain) -> dict[Answers, int]:
    """The joint answers of the dice so far and one more chain: every pair, answers added."""
    following: dict[Answers, int] = {}
    for answers, ways in joint.items():
        for more, count in chain:
            key = _plus(answers, more)
            following[key] = following.get(key, 0) + ways * count
    return following


def _separate_count(pool: Dice, low: int, high: int) -> Dist:
    """count_faces() when dice explode into extra dice: each kind's chain count, rolled `count`
    times (a sum, by repeated squaring)."""
    _refuse_dice(sum(count for _, count in pool.counts))
    total = constant(0)
    for key, count in pool.counts:
        chain, size = _chain(key, (("count", low, high),))
        found = dict((answers[0], ways) for answers, ways in chain)
        die_count = _make(0, [found.get(x, 0) for x in range(max(found) + 1)], size)
        total = add(total, repeat(die_count, count))
    return total


def count_faces(pool: Dice, low: int, high: int | None = None) -> Dist:
    """How many dice of a pool show a face from `low` to `high` (just `low` without high); a die
    that explodes into extra dice counts them too."""
    top = low if high is None else high
    if any(separate(key) for key, _ in pool.counts):
        return _separate_count(pool, low, top)
    total = constant(0)
    for key, count in pool.counts:
        kind = die_of(key)
        faces = range(max(low, kind.offset), min(top, kind.offset + len(kind.weights) - 1) + 1)
        hits = sum(_weight(kind, face) for face in faces)
        total = add(total, binomial(count, hits, kind.total))
    return total


def prob_eq(a: Dist | Dice, k: int) -> Fraction:
    return as_dist(a).probability(k)


def divide(a: int | Fraction | float, b: int | Fraction | float) -> Fraction:
    """a / b exactly: a float (from sd) counts as the exact number it holds."""
    if b == 0:
        raise RulesError("division by zero")
    return Fraction(a) / Fraction(b)


def win(a: Dist | Dice | int, b: Dist | Dice | int, ties_to_first: bool) -> Fraction:
    """P(a beats b); a tie goes to a only when ties_to_first (False when the defender wins ties)."""
    margin = dsub(a, b)
    return at_least(margin, 0 if ties_to_first else 1)


MAX_EXPONENT = 10_000
# The power budget: an exact power's numerator or denominator holds at most this many bits.
MAX_POWER_BITS = 2**20


def power(base: int | Fraction | float, exponent: int) -> int | Fraction | float:
    """base ^ exponent for a whole exponent from 0 up; whole results stay within +/- MAX_INT.

    A float base is multiplied out by squaring, lowest bit first: the float both runtimes make."""
    if exponent < 0 or exponent > MAX_EXPONENT:
        raise RulesError(f"the exponent must be from 0 to {MAX_EXPONENT}, not {exponent}")
    if isinstance(base, float):
        return _float_power(base, exponent)
    bits = max(abs(Fraction(base).numerator).bit_length(), Fraction(base).denominator.bit_length())
    if bits * exponent > MAX_POWER_BITS:
        raise RulesError("a power too large to work out exactly is refused: its answer would pass "
                         f"the power budget of {MAX_POWER_BITS} bits ({bits * exponent} bits)")
    result = base**exponent
    if isinstance(result, int) and abs(result) > MAX_INT:
        raise RulesError(
            f"{base}^{exponent} is beyond the largest whole number rulesc computes ({MAX_INT})")
    return result


def _float_power(base: float, exponent: int) -> float:
    result, factor = 1.0, base
    while exponent:
        if exponent & 1:
            result *= factor
        exponent >>= 1
        if exponent:
            factor *= factor
    return result


@dataclass(frozen=True)
class Upgrade:
    """What an upgrade needs: the upgrades it requires and excludes, how often it may be taken."""

    name: str
    requires: tuple[str, ...] = ()
    excludes: tuple[str, ...] = ()
    max_times: int = 1
    requires_any: tuple[tuple[str, ...], ...] = ()  # groups the set must hold one upgrade of


def upgrade_problems(upgrades: Mapping[str, Upgrade], chosen: Sequence[str]) -> list[str]:
    """Everything wrong with a set of upgrades (an id once per time it is taken), stably ordered."""
    counts: dict[str, int] = {}
    for upgrade_id in chosen:
        counts[upgrade_id] = counts.get(upgrade_id, 0) + 1
    problems = [f"unknown upgrade {u!r}" for u in counts if u not in upgrades]
    for upgrade_id in (u for u in counts if u in upgrades):
        rule = upgrades[upgrade_id]
        problems += [f"{rule.name} requires {_upgrade_name(upgrades, r)}"
                     for r in rule.requires if r not in counts]
        problems += [f"{rule.name} cannot be taken with {_upgrade_name(upgrades, x)}"
                     for x in rule.excludes
                     if x in counts and _reported_by(upgrades, upgrade_id, x)]
        if counts[upgrade_id] > rule.max_times:
            problems.append(f"{rule.name} may be taken at most {rule.max_times} time(s), "
                            f"not {counts[upgrade_id]}")
    groups = dict.fromkeys(g for u in counts if u in upgrades for g in upgrades[u].requires_any)
    for group in (g for g in groups if not any(u in counts for u in g)):
        names = [_upgrade_name(upgrades, u) for u in group]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        problems.append(f"the set needs {listed}")
    return problems


def _upgrade_name(upgrades: Mapping[str, Upgrade], upgrade_id: str) -> str:
    return upgrades[upgrade_id].name if upgrade_id in upgrades else upgrade_id


def _reported_by(upgrades: Mapping[str, Upgrade], upgrade_id: str, other: str) -> bool:
    """Whether `upgrade_id` reports that it excludes `other`: a pair that excludes each other is
    reported once, by the id that sorts first."""
    return other not in upgrades or upgrade_id < other or upgrade_id not in upgrades[other].excludes


# ---- rolls drawn from exact distributions -------------------------------------------------------
# Both runtimes draw the same way, so a seed gives the same rolls in Python and JavaScript: a
# generator gives random bits (Python's random.Random, or JavaScript's Twister, the same MT19937
# seeded the same way), randbelow() turns them into a whole number below the sum of the exact
# weights as Python's own randrange() does, and the roll is the first outcome whose running sum of
# weights passes it.


class RandomBits(Protocol):
    """What a roll draws from: random.Random, random.SystemRandom or anything with getrandbits."""

    def getrandbits(self, k: int, /) -> int: ...


def seeded(seed: int) -> random.Random:
    """A generator whose draws JavaScript's seeded(seed) repeats: MT19937 seeded with a whole
    number."""
    if type(seed) is not int:
        raise RulesError(f"a seed is a whole number, not {seed!r}")
    return random.Random(seed)


def randbelow(rng: RandomBits, n: int) -> int:
    """A whole number from 0 to n - 1, each as likely: n's bit length of random bits, drawn again
    while they reach n (random.Random.randrange(n) gives the same number from the same state)."""
    if n < 1:
        raise RulesError(f"a draw needs a range of at least 1, not {n}")
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


def _drawn_from(value: Dist | Dice | Outcomes) -> tuple[Sequence[Any], list[int]]:
    """The outcomes of a roll and the running sums of their weights, the weights lowest in terms."""
    if isinstance(value, Outcomes):
        choices: Sequence[Any] = value.labels
        weights: Sequence[int] = value.weights
    else:
        found = as_dist(value)
        choices, weights = found.outcomes, found.weights
    divisor = math.gcd(*weights)
    return choices, list(itertools.accumulate(w // divisor for w in weights))


def samples(value: Any, rng: RandomBits, times: int) -> list[Any]:
    """`times` rolls of a value: an outcome of a roll, pool or named outcomes each time, by its
    exact chance; a number, flag or word is itself and draws nothing."""
    if not isinstance(value, (Dist, Dice, Outcomes)):
        return [value] * times
    choices, running = _drawn_from(value)
    total, draw, find = running[-1], rng.getrandbits, bisect.bisect_right
    bits, found = total.bit_length(), []
    for _ in range(times):  # randbelow(rng, total), inlined: this loop is the sampler's whole cost
        drawn = draw(bits)
        while drawn >= total:
            drawn = draw(bits)
        found.append(choices[find(running, drawn)])
    return found


def sample(value: Any, rng: RandomBits) -> Any:
    """One roll of a value (see samples())."""
    return samples(value, rng, 1)[0]


# ---- roll tables: a roll on a table and the rolls its rows lead to ---------------------------

MAX_CHAIN_ROLLS = 500
NO_ROWS: frozenset[int] = frozenset()
"""The most rolls one roll on a table may lead to: past it, a chain that can repeat is stopped with
an error."""


@dataclass(frozen=True)
class RowChain:
    """What a row rolls next: `times` rolls on `table`; `keep`: the row is a result too; `reroll`:
    a roll landing on a row already drawn in the group, or on a row of the chain that led here, is
    drawn again."""

    table: str
    times: int
    keep: bool
    reroll: bool


@dataclass(frozen=True)
class RollTable:
    """A roll table: each row's key as the book prints it, its weight (ways out of the roll's
    total), its text and what it rolls next, and each outcome of the roll as (value, weight, row);
    `book` holds the system's roll tables, which chains name."""

    name: str
    roll: str
    keys: tuple[str, ...]
    weights: tuple[int, ...]
    texts: tuple[str, ...]
    chains: tuple[RowChain | None, ...]
    outcomes: tuple[tuple[int, int, int], ...]
    book: Mapping[str, RollTable] = field(repr=False, compare=False)
    running: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        divisor = math.gcd(*(w for _, w, _ in self.outcomes))  # running sums, lowest in terms
        running = tuple(itertools.accumulate(w // divisor for _, w, _ in self.outcomes))
        object.__setattr__(self, "running", running)


class RollStep(NamedTuple):
    """One roll of a chain, in the order rolled: the table, the row (from 0), its key and text, how
    many rolls led to it, whether it is a result (a row that only says to roll again is not), and
    the value the dice showed."""

    table: str
    row: int
    key: str
    text: str
    depth: int
    kept: bool
    value: int


def roll_tables(specs: Sequence[Sequence[Any]]) -> dict[str, RollTable]:
    """A system's roll tables by name, from [name, roll, keys, weights, texts, chains, outcomes]
    each (a chain is [table, times, keep, reroll] or None; an outcome [value, weight, row])."""
    book: dict[str, RollTable] = {}
    for name, roll, keys, weights, texts, chains, outcomes in specs:
        book[name] = RollTable(name, roll, tuple(keys), tuple(weights), tuple(texts),
                               tuple(None if c is None else RowChain(*c) for c in chains),
                               tuple((int(v), int(w), int(r)) for v, w, r in outcomes), book)
    return book


def roll_on(table: RollTable, rng: RandomBits) -> list[RollStep]:
    """One roll on a table, with every roll its rows lead to, depth first."""
    steps: list[RollStep] = []
    _roll_group(table, 1, False, (), rng, steps)
    return steps


def _roll_group(table: RollTable, times: int, reroll: bool, path: tuple[tuple[str, int], ...],
                rng: RandomBits, steps: list[RollStep]) -> None:
    drawn: list[int] = []
    for _ in range(times):
        barred = {r for name, r in path if name == table.name} | set(drawn) if reroll else NO_ROWS
        value, row = _draw_row(table, barred, rng)
        drawn.append(row)
        chain = table.chains[row]
        kept = chain is None or chain.keep
        steps.append(RollStep(table.name, row, table.keys[row], table.texts[row], len(path), kept,
                              value))
        if len(steps) > MAX_CHAIN_ROLLS:
            raise RulesError(f"a roll on '{steps[0].table}' led to more than {MAX_CHAIN_ROLLS} "
                             "rolls")
        if chain is not None:
            after = (*path, (table.name, row))
            _roll_group(table.book[chain.table], chain.times, chain.reroll, after, rng, steps)


def _draw_row(table: RollTable, barred: Set[int], rng: RandomBits) -> tuple[int, int]:
    """An outcome of the table's roll by its weight and the row it falls in, (value, row), drawn
    again while the row is barred."""
    if barred and all(row in barred or not weight for row, weight in enumerate(table.weights)):
        raise RulesError(f"no row of '{table.name}' is left to roll: each was rolled already")
    running = table.running
    while True:
        value, _, row = table.outcomes[bisect.bisect_right(running, randbelow(rng, running[-1]))]
        if row not in barred:
            return value, row


def roll(value: Any, rng: RandomBits | None = None) -> Any:
    """One roll of a value: an outcome of a roll, pool or named outcomes by its exact chance, or
    for a roll table the steps of one roll on it, chains followed. `rng` (a random.Random) makes
    the rolls a seed repeats; without one, the system's source of randomness draws."""
    source = rng if rng is not None else random.SystemRandom()
    return roll_on(value, source) if isinstance(value, RollTable) else sample(value, source)


# ---- values in the book's terms ---------------------------------------------------------------

SHOW_WIDTH = 80


def exact(value: object) -> object:
    """A value as a rules reviewer reads it.

    A pool as written ('1d10+1d4'), an exact fraction as 'n/d', a roll as {outcome: 'probability'},
    a list item by item; numbers, flags and text as they are.
    """
    if isinstance(value, (Dist, Outcomes)):
        return {outcome: str(chance) for outcome, chance in value.items()}
    if isinstance(value, (Dice, Fraction)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [exact(item) for item in value]
    return value


def exact_text(value: object) -> str:
    """What show() prints: exact(value), text bare and anything else as a Python literal.

    A literal longer than SHOW_WIDTH columns is printed one item a line.
    """
    shown = exact(value)
    return shown if isinstance(shown, str) else pprint.pformat(shown, width=SHOW_WIDTH)


def show(value: object) -> None:
    """Print a value in the book's terms, e.g. 2d6 as {2: '1/36', 3: '1/18', ..., 12: '1/36'}."""
    print(exact_text(value))


# ---- arguments of the engine's public functions ----------------------------------------------


class ArgumentError(RulesError):
    """An engine function called with an argument of the wrong type or outside its range."""


def _refuse(function: str, param: str, value: object, takes: str, why: str = "") -> ArgumentError:
    """The error for one argument: `attack(tier=12): tier is a whole number from 1 to 9, got 12`."""
    return ArgumentError(f"{function}({param}={value!r}): {param} is {takes}, got {value!r}{why}")


def _bounds(low: int | None, high: int | None) -> str:
    """A range in words: ' from 1 to 9', ' of at least 1', ' of at most 9' or nothing."""
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None or high is not None:
        return f" of at least {low}" if low is not None else f" of at most {high}"
    return ""


def whole_arg(function: str, param: str, value: object,
              low: int | None = None, high: int | None = None) -> int:
    """`value` if it is a whole number (an int, not a bool) from `low` to `high`; an open end
    stops at +/- MAX_INT, the range every whole number rulesc computes with lies in."""
    if not isinstance(value, int) or isinstance(value, bool) or \
            (low is not None and value < low) or (high is not None and value > high):
        raise _refuse(function, param, value, "a whole number" + _bounds(low, high))
    if abs(value) > MAX_INT:
        raise _refuse(function, param, value, f"a whole number within +/-{MAX_INT}")
    return value


def choice_arg(function: str, param: str, value: object, options: Mapping[int, str]) -> int:
    """`value` if it is one of the parameter's options (their values, each with its label)."""
    if not isinstance(value, int) or isinstance(value, bool) or value not in options:
        listed = ", ".join(f"{option} ({label})" for option, label in options.items())
        raise _refuse(function, param, value, "one of " + listed)
    return value


def flag_arg(function: str, param: str, value: object) -> bool:
    """`value` if it is True or False (a bool, not a number)."""
    if not isinstance(value, bool):
        raise _refuse(function, param, value, "True or False")
    return value


def pool_arg(function: str, param: str, value: object) -> Dice:
    """`value` as a dice pool: a Dice as it is, a text such as '1d10+1d4' read by parse_dice(); one
    whose roll passes the roll budget is refused here, before the function works on it."""
    try:
        pool = _pool_of(value)
    except RulesError as exc:  # dice text that cannot be rolled, such as d66!: why
        raise _refuse(function, param, value, _POOL_TAKES, f": {exc}") from None
    if pool is None:
        raise _refuse(function, param, value, _POOL_TAKES)
    try:
        return rollable(pool)
    except RulesError as exc:
        raise _refuse(function, param, value, "a dice pool whose roll can be worked out exactly",
                      f": {exc}") from None


_POOL_TAKES = "a dice pool (a Dice, or text such as '1d10+1d4')"


def _pool_of(value: object) -> Dice | None:
    """A Dice, or text read as one; None for anything else; RulesError for unrollable dice text."""
    if isinstance(value, Dice):
        return value
    if isinstance(value, str):
        try:
            return parse_dice(value)
        except RulesError as exc:
            if str(exc).endswith("is not a dice pool"):
                return None
            raise
    return None


def upgrades_arg(function: str, param: str, value: object,
                 upgrades: Mapping[str, Upgrade]) -> Sequence[str]:
    """`value` if it is a list (or tuple) of the system's upgrade ids, one for each time taken."""
    takes = "a list of the system's upgrade ids"
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise _refuse(function, param, value, takes)
    unknown = [item for item in value if item not in upgrades]
    if unknown:
        raise _refuse(function, param, value, takes, f": {unknown[0]!r} is not one of them")
    return value
