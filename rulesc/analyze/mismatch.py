"""Analyze stage: what a failed worked example gives and expects, in a message of bounded length however large the
result (a long distribution by its first and last entries and the first entry that differs, a long fraction by its
size)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from rulesc.runtime import rulesc_runtime as R

ENDS = 3
"""Entries of a long distribution shown at each end; one of at most 2 * ENDS + 1 entries is shown whole."""
LONG = 40
"""Characters of a fraction's text (n/d) shown whole; a longer one is shown by its float and its digits."""


def mismatch(got: Any, expected: Any) -> str:
    """`gives X, expected Y`, each as people read it (true, 7/16, {1: 1/6, ...}); where a distribution is too long to
    show whole, what it leaves out is counted and the first outcome at which the two differ is named."""
    found, wanted = _entries(got, False), _entries(expected, isinstance(got, R.Dist))
    text = f"gives {_brief(got, found)}, expected {_brief(expected, wanted)}"
    if found is None or wanted is None or max(len(found), len(wanted)) <= 2 * ENDS + 1:
        return text
    return text + _first_difference(found, wanted)


def brief(value: Any) -> str:
    """A value as show() writes it, as long as that is short; else bounded as a failing example's message bounds it:
    a long distribution by its ends and the count of the rest, a long fraction by its size."""
    return _brief(value, _entries(value, False))


def briefs(old: Any, new: Any) -> tuple[str, str]:
    """Two different values, each bounded as brief() bounds it; where that leaves them alike (two long
    distributions that differ only in their middle), the new one also names the first outcome at which they do."""
    before, after = brief(old), brief(new)
    found, wanted = _entries(old, False), _entries(new, False)
    if before != after or found is None or wanted is None:
        return before, after
    return before, after + "".join(f" (first difference at {key}: {_at(found, key)} -> {_at(wanted, key)})"
                                   for key in _differing(found, wanted)[:1])


def _entries(value: Any, pool_as_roll: bool) -> dict[Any, Any] | None:
    """A distribution's outcomes and chances, or None for a single value; a pool is one, unless it is expected of a
    roll (`pool_as_roll`), as the roll it makes (which the comparison has worked out already)."""
    if isinstance(value, (R.Dist, R.Outcomes)):
        return dict(value.items())
    if isinstance(value, R.Dice):
        return dict(R.as_dist(value).items()) if pool_as_roll else None
    return dict(value) if isinstance(value, Mapping) else None


def _brief(value: Any, entries: dict[Any, Any] | None) -> str:
    """A value as show() writes it when that is short; else a distribution by its first and last entries and the
    count of the rest, and each long chance by its size. An expected pool stays as it was written (1000d100)."""
    if entries is None or isinstance(value, R.Dice):
        return _one(value)
    items = sorted(entries.items(), key=lambda item: _order(item[0]))
    if len(items) <= 2 * ENDS + 1 and all(len(str(chance)) <= LONG for _, chance in items):
        return str(value) if isinstance(value, R.Outcomes) else "{" + ", ".join(f"{k}: {v}" for k, v in items) + "}"
    shown = [f"{k}: {_chance(v)}" for k, v in items]
    if len(shown) > 2 * ENDS + 1:
        shown[ENDS:-ENDS] = [f"... {len(shown) - 2 * ENDS} more ..."]
    return "{" + ", ".join(shown) + "}"


def _one(value: Any) -> str:
    """As show() writes a single value: true/false, a number, a fraction with its float (7/16 (~0.4375)); a long
    fraction by its size instead."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction) and value.denominator != 1 and len(str(value)) <= LONG:
        return f"{value} (~{float(value):.6g})"
    return _chance(value)


def _chance(value: Any) -> str:
    """A chance as its fraction (n/d), or when that is long, its float and the digits of n and d."""
    if not isinstance(value, Fraction) or len(str(value)) <= LONG:
        return str(value)
    with localcontext(prec=6):  # a float would be 0 below 1e-308, as many chances of a large pool are
        near = (Decimal(value.numerator) / Decimal(value.denominator)).normalize()
    return f"~{near:g} (n/d of {_digits(value.numerator)} and {_digits(value.denominator)} digits)"


def _digits(number: int) -> int:
    return len(str(abs(number)))


def _order(outcome: Any) -> tuple[bool, Any]:
    """Outcomes in order, names after numbers (a result and its expectation may hold either)."""
    return isinstance(outcome, str), outcome


def _first_difference(found: dict[Any, Any], wanted: dict[Any, Any]) -> str:
    """The first outcome (in order) whose chance the result and the expectation do not share."""
    return "".join(f"; first difference at {key}: gives {_at(found, key)}, expected {_at(wanted, key)}"
                   for key in _differing(found, wanted)[:1])


def _differing(found: dict[Any, Any], wanted: dict[Any, Any]) -> list[Any]:
    """The outcomes, in order, whose chances two distributions do not share."""
    return [key for key in sorted(found.keys() | wanted.keys(), key=_order) if found.get(key) != wanted.get(key)]


def _at(entries: dict[Any, Any], key: Any) -> str:
    return _chance(entries[key]) if key in entries else "nothing"
