"""`rulesc calc --json`: every result type as JSON a script can read, exact fractions beside floats.

int and bool stay JSON numbers and booleans; num is {"exact": "3/8", "float": 0.375} ("exact" is null for a
value that is not rational, a standard deviation); dist is a list of {"outcome": n, "exact": "p", "float": f};
dice is its text ("1d10+1d4"); text is a string, or a list of strings; a set of upgrades is a list of ids.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulesc.runtime.rulesc_runtime import Dice, Dist, Outcomes


def encode(value: Any, type_name: str | None = None) -> Any:
    """The JSON form of one value of `type_name` (the formula checker's type; None: known from the value)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and type_name != "num":
        return value
    if isinstance(value, int | Fraction | float):
        return number(value)
    if isinstance(value, (Dist, Outcomes)):
        return [{"outcome": outcome, **number(p)} for outcome, p in value.items()]
    if isinstance(value, Dice):
        return str(value)
    if isinstance(value, list | tuple):
        return [encode(item) for item in value]
    return value


def number(value: int | Fraction | float) -> dict[str, Any]:
    """An exact rational as its fraction text beside its nearest float; a float alone has no exact form."""
    exact = None if isinstance(value, float) else str(Fraction(value))
    return {"exact": exact, "float": float(value)}
