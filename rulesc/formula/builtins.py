"""The formula language's built-in functions, once: name, types, and what the runtimes call for each.

names, check, evaluate and both backends read this table; a new built-in is one row here plus its runtime
functions (named as Python spells them; rulesc/runtime/contract.py spells them for JavaScript).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from rulesc.formula.types import Type

Form = Literal["call", "keep", "extreme", "lookup", "upgrades", "length"]
Bounds = Literal["", "clamp", "magnitude", "shrunk"]
"""How a call is checked and written: `call` is the runtime function on the arguments; `keep` the same with the
row's flags after them, on a pool whose number of dice is known before the roll; `extreme` min/max of numbers or
of a roll and a number; `lookup` a table's column by a key; `upgrades` the runtime function on the system's
upgrades and the argument; `length` the argument's length (Python's host function, JavaScript's .length).

Bounds, for a whole-number result: `clamp` within its second and third arguments, `magnitude` from 0 to the
first argument's largest size, `shrunk` no further from 0 than the first argument (bounds.py)."""


@dataclass(frozen=True)
class Builtin:
    """One built-in function: its parameters' types and result type, and the runtime function it calls."""

    name: str
    params: tuple[Type, ...]
    result: Type
    runtime: str = ""  # the runtime function, as Python spells it ("" for a host function or the host's length)
    form: Form = "call"
    host: tuple[str, str] = ("", "")  # a host function instead of the runtime's: (Python, JavaScript)
    flags: tuple[bool, ...] = ()  # constant arguments written after the author's (keep)
    arities: tuple[int, ...] = ()  # the numbers of arguments it takes, when not one per parameter
    usage: str = ""  # the hint for a call with the wrong number of arguments
    asks_pool: bool = False  # whether it may ask a rolled pool a question (`let p = 5d6 in highest(p, 2)`)
    bounds: Bounds = ""  # how its result's range follows from its arguments' (bounds.py); "": any whole number
    engine: str = ""  # the generated engine exports it by its name: this line of the package's docstring
    words: str = ""  # how the site writes a call for players: {0}, {1}... its arguments, {all} all of them listed

    @property
    def counts(self) -> tuple[int, ...]:
        """How many arguments it takes."""
        return self.arities or (len(self.params),)


BOOL, COLUMN, DICE, DIST, EVENT = Type.BOOL, Type.COLUMN, Type.DICE, Type.DIST, Type.EVENT
INT, LIST, NUM, TABLE, UPGRADES = Type.INT, Type.LIST, Type.NUM, Type.TABLE, Type.UPGRADES

ROWS: tuple[Builtin, ...] = (
    Builtin("abs", (INT,), INT, host=("abs", "Math.abs"), bounds="magnitude", words="{0} without its sign"),
    Builtin("clamp", (INT, INT, INT), INT, "clamp", bounds="clamp", words="{0}, at least {1} and at most {2}"),
    Builtin("ceil_div", (INT, INT), INT, "ceil_div", bounds="shrunk", words="{0} \u00f7 {1} (rounded up)"),
    Builtin("floor_div", (INT, INT), INT, "floor_div", bounds="shrunk", words="{0} \u00f7 {1} (rounded down)"),
    Builtin("category", (INT,), DICE, "category"),
    Builtin("category_index", (DICE,), INT, "category_index"),
    Builtin("dice_part", (DICE,), DICE, "dice_part"),
    Builtin("modifier", (DICE,), INT, "modifier"),
    Builtin("step", (DICE, INT), DICE, "step"),
    Builtin("repeat", (DICE, INT), DICE, "dice_scale", words="{0} repeated {1} times"),
    Builtin("roll", (DIST,), DIST, "as_dist", words="{0}"),
    Builtin("successes", (DICE, INT), DIST, "successes", asks_pool=True),
    Builtin("highest", (DICE, INT), DIST, "keep_pool", "keep", flags=(True,), asks_pool=True),
    Builtin("lowest", (DICE, INT), DIST, "keep_pool", "keep", flags=(False,), asks_pool=True),
    Builtin("mean", (DIST,), NUM, "mean",
            engine="mean(roll): the roll's exact mean (a Fraction); a roll is a Dist, a Dice or a number",
            words="the average of {0}"),
    Builtin("sd", (DIST,), NUM, "sd", engine="sd(roll): the roll's standard deviation (a float)"),
    Builtin("p_at_least", (DIST, INT), NUM, "at_least",
            engine="p_at_least(roll, k): the exact chance (a Fraction) that the roll is k or more",
            words="the chance that {0} is at least {1}"),
    Builtin("p_at_most", (DIST, INT), NUM, "at_most",
            engine="p_at_most(roll, k): the exact chance that the roll is k or less",
            words="the chance that {0} is at most {1}"),
    Builtin("p_equal", (DIST, INT), NUM, "prob_eq",
            engine="p_equal(roll, k): the exact chance that the roll is k",
            words="the chance that {0} is exactly {1}"),
    Builtin("p_greater", (DIST, DIST), NUM, "greater"),
    Builtin("p_tie", (DIST, DIST), NUM, "tie"),
    Builtin("p_win", (DIST, DIST, BOOL), NUM, "win"),
    Builtin("count", (DICE, INT, INT), DIST, "count_faces", arities=(2, 3),
            usage="count(pool, face) or count(pool, low, high)", asks_pool=True),
    Builtin("p", (EVENT,), NUM, "p"),
    Builtin("upgrade_problems", (UPGRADES,), LIST, "upgrade_problems", "upgrades"),
    Builtin("upgrade_count", (UPGRADES,), INT, form="length", host=("len", "")),
    Builtin("min", (INT,), INT, "dmin", "extreme", host=("min", "Math.min"), words="the lowest of {all}"),
    Builtin("max", (INT,), INT, "dmax", "extreme", host=("max", "Math.max"), words="the highest of {all}"),
    Builtin("lookup", (TABLE, COLUMN, INT), INT, "lookup", "lookup"),
)
"""Every built-in function. min and max take two or more arguments (params gives each one's type): whole numbers
by the host's function, a roll and a number by the runtime's; lookup's result is its column's type."""

BUILTINS: Mapping[str, Builtin] = {row.name: row for row in ROWS}
