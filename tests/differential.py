"""Differential testing: random well-typed rulebooks, run by the interpreter, the generated Python and Node.

rulebooks() is a hypothesis strategy for a small rulebook (values, a table, formulas that call each other) whose
names come from a pool of every name that means something to Python, JavaScript, the runtimes or the formula
language. run_three() evaluates every call three ways and canon() encodes each runtime's answer the same way, so
the three can be compared exactly.
"""

from __future__ import annotations

import builtins
import json
import keyword
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from rulesc.analyze.program import Program, output_type
from rulesc.emit.engine import MODULE_NAMES, python_names
from rulesc.emit.scripts import RESERVED, js_formula
from rulesc.formula.lexer import KEYWORDS
from rulesc.formula.names import BUILTIN_FUNCTIONS
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime import rulesc_runtime as R
from tests.backends import NodeHarness, drop_engine, import_engine
from tests.run_case import case_transcript

HARNESS = Path(__file__).resolve().parent / "differential.js"
NAME = re.compile(r"[a-z_][a-z0-9_]*")
DICE_LIKE = re.compile(r"d\d+(k[hl]\d*)?")
"""Names the schema accepts but the lexer reads as dice notation (d6, d10kh1)."""

JS_NAMES = {*RESERVED, "let", "static", "yield", "await", "async", "of", "get", "set", "enum", "constructor",
            "prototype", "__proto__", "__definegetter__", "hasownproperty", "length", "name", "caller", "callee",
            "apply", "call", "bind", "console", "require", "module", "exports", "process", "self", "globalthis",
            "systems", "calculators", "c", "t", "f", "u", "r", "v", "nan", "infinity"}
"""JavaScript's keywords and reserved words, the properties every function or object has, Node's globals, and the
runtime aliases of formulas/<id>.js (R, C, T, F, U, v, systems, calculators; the schema allows only lower case)."""
PY_NAMES = {*keyword.kwlist, *keyword.softkwlist, *dir(builtins), *(n.lower() for n in MODULE_NAMES),
            "r", "upgrades", "final", "sequence", "annotations", "check_upgrades", "show", "exact", "parse_dice",
            "dice", "dist", "number", "table", "math", "fraction"}
"""Python's keywords, soft keywords and built-ins, and the engine module's own names (R, UPGRADES, ...)."""
ORDINARY = {"x", "y", "n", "level", "bonus", "pool", "rank", "a1", "_", "__", "d", "k", "kh", "e", "t_1"}
HOST = sorted(name for name in {*JS_NAMES, *PY_NAMES, *BUILTIN_FUNCTIONS, *ORDINARY}
              if NAME.fullmatch(name) and name not in KEYWORDS and not DICE_LIKE.fullmatch(name))
"""Every lower-case name that means something to a host language, a runtime or the formula language."""
REFUSED = sorted(KEYWORDS | {"d6", "d10kh1", "d4kl"})
"""Names the schema accepts that a rulebook cannot use: the language's words, and names that read as dice."""

names = st.sampled_from(HOST).flatmap(lambda name: st.sampled_from([name, name, name + "_", "l_" + name]))
SIDES = (1, 2, 3, 4, 6, 8, 10, 12, 20)
SPECIAL = ("F", "4!", "6!", "4!!", "6!!{5,6}", "4!{1}", "6r2", "8r1", "6r{2,3,4,5}", "6rr2", "4rr{1,4}", "{0,1,1,3}",
           "{-2,5,5}")
"""The special kinds of die, in their forms: exploding into extra dice (!) or compounding (!!), on the highest
face or listed faces; rerolled once (r) or while (rr), faces up to K or listed; Fudge; listed faces."""
EXTRA = re.compile(r"(\d)!(?!!)")
"""A die that explodes into extra dice, as written: 6! or 6!{5,6}, not 6!! (compounding)."""
EDGES = (R.MAX_INT, R.MAX_INT - 1, 2**52 + 1, 94906267)
"""Whole numbers at the edge of what JavaScript counts exactly (94906267 squared is just above 2**53)."""
POOLS = ("0", "1d6", "2d4", "1d10+1d4", "3d6", "1d8+2", "2d6-1", "1d20", "1d4", "2d10", "2d4!", "1d6!!{5,6}+1",
         "2d6r{2,5}", "1d6rr{1, 6}")
"""Dice arguments and cells: small pools, so that rolling one stays quick."""


@dataclass
class Param:
    name: str
    type: str
    low: int = 0
    high: int = 0


@dataclass
class Formula:
    id: str
    params: list[Param]
    expr: str
    type: str
    heavy: bool  # rolls with a let over a roll, itself or through a formula it calls


@dataclass
class Book:
    """A drawn rulebook: values by name (int, bool or a dice pool's text), one text value, one table, formulas."""

    values: dict[str, int | bool | str]
    text_value: str
    table: str
    columns: tuple[str, str, str]  # the range key, an int column, a dice column
    rows: list[tuple[str, int, str]]
    formulas: list[Formula]
    inputs: list[Param] = field(default_factory=list)  # the calculator's
    outputs: list[tuple[str, str, str]] = field(default_factory=list)  # the calculator's: name, expression, type
    refused: str | None = None  # a name the checker must refuse, if one was put in


def value_type(value: int | bool | str) -> str:
    return "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "dice"


class Exprs:
    """Draws an expression of a wanted type: int, bool, num (num or int), dice, or dist (dist, dice or int).

    Each draw returns the expression's text (fully parenthesized) and the type the checker gives it."""

    def __init__(self, draw: Callable[[Any], Any], book: Book, local: dict[str, str]):
        self.draw = draw
        self.book = book
        self.local = dict(local)
        self.in_roll = False  # inside the body of a let over a roll: no second one, no heavy calls
        self.heavy = False
        self.pools: list[str] = []  # the rolled pools in scope, which questions may be asked
        self.extra: set[str] = set()  # those rolled from dice that explode into extra dice: no highest or lowest

    def pick(self, options: list[Any]) -> Any:
        return self.draw(st.sampled_from(options))

    def names_of(self, kind: str) -> list[str]:
        constants = [k for k, v in self.book.values.items() if value_type(v) == kind and k not in self.local]
        return sorted({k for k, t in self.local.items() if t == kind} | set(constants))

    def name(self, kind: str) -> str | None:
        found = self.names_of(kind)
        if not found:
            return None
        chosen: str = self.pick(found)
        return chosen

    def expr(self, want: str, depth: int) -> tuple[str, str]:
        if depth <= 0 or self.draw(st.integers(0, 4)) == 4:
            return getattr(self, "leaf_" + want)()
        maker = self.pick(MAKERS[want])
        result: tuple[str, str] | None = maker(self, depth - 1)
        return result if result is not None else getattr(self, "leaf_" + want)()

    # ---- leaves ----

    def leaf_int(self) -> tuple[str, str]:
        found = self.name("int")
        if found is not None and self.draw(st.booleans()):
            return found, "int"
        value = self.draw(st.integers(-3, 9))
        if self.draw(st.integers(0, 24)) == 24:
            value = self.pick(list(EDGES))
        return (str(value) if value >= 0 else f"(-{-value})"), "int"

    def leaf_bool(self) -> tuple[str, str]:
        found = self.name("bool")
        if found is not None and self.draw(st.booleans()):
            return found, "bool"
        return self.pick(["true", "false"]), "bool"

    def leaf_num(self) -> tuple[str, str]:
        found = self.name("num")
        if found is not None and self.draw(st.booleans()):
            return found, "num"
        if self.draw(st.booleans()):
            return self.leaf_int()
        return f"({self.draw(st.integers(-4, 9))} / {self.draw(st.integers(1, 6))})", "num"

    def leaf_dice(self) -> tuple[str, str]:
        found = self.name("dice")
        if found is not None and self.draw(st.booleans()):
            return found, "dice"
        if self.draw(st.integers(0, 2)) == 0:
            return self.leaf_special_dice(), "dice"
        count, sides = self.draw(st.integers(0, 4)), self.pick(list(SIDES))
        return (f"{count}d{sides}" if count != 1 or self.draw(st.booleans()) else f"d{sides}"), "dice"

    def leaf_dist(self) -> tuple[str, str]:
        found = self.name("dist")
        if found is not None and self.draw(st.booleans()):
            return found, "dist"
        kind = self.pick(["int", "dice", "dice", "keep"])
        if kind != "keep":
            return getattr(self, "leaf_" + kind)()
        count = self.draw(st.integers(1, 4))
        kept = self.draw(st.integers(1, count))
        return f"{count}d{self.pick(list(SIDES[:7]))}{self.pick(['kh', 'kl'])}{kept}", "dist"

    def leaf_text(self) -> tuple[str, str]:
        return f'"{self.pick(LABELS)}"', "text"

    def leaf_event(self) -> tuple[str, str]:
        roll, kind = self.leaf_dist()
        roll = roll if kind == "dist" else f"roll({roll})"
        return f"({roll} {self.pick(['<', '<=', '>', '>=', '==', '!='])} {self.draw(st.integers(-2, 12))})", "event"

    def leaf_outcome(self) -> tuple[str, str]:
        event, _ = self.leaf_event()
        return f"(if {event} then {self.leaf_text()[0]} else {self.leaf_text()[0]})", "outcome"

    def leaf_special_dice(self) -> str:
        """A pool of one of the special kinds of die, small."""
        count = self.draw(st.integers(0, 3))
        return f"{count}d{self.pick(SPECIAL)}"

    def small(self, low: int, high: int, depth: int) -> str:
        """A whole number kept within low..high (a dice count, a factor), computed or written."""
        if self.draw(st.booleans()):
            return str(self.draw(st.integers(max(low, 0), high)))
        inner, _ = self.expr("int", min(depth, 1))
        return f"clamp({inner}, {low}, {high})"

    # ---- compound expressions, by the type they give ----

    def arith(self, depth: int) -> tuple[str, str]:
        op = self.pick(["+", "-", "*", "//"])
        return f"({self.expr('int', depth)[0]} {op} {self.expr('int', depth)[0]})", "int"

    def power(self, want: str, depth: int) -> tuple[str, str]:
        base, kind = self.expr(want if want == "int" else self.pick(["int", "num"]), depth)
        return f"({base} ^ {self.small(-1, 3, depth)})", kind

    def negate(self, want: str, depth: int) -> tuple[str, str]:
        inner, kind = self.expr(want, depth)
        return f"(-{inner})", kind

    def int_function(self, depth: int) -> tuple[str, str]:
        func = self.pick(["abs", "clamp", "ceil_div", "floor_div", "min", "max"])
        count = {"abs": 1, "clamp": 3, "ceil_div": 2, "floor_div": 2}.get(func) or self.draw(st.integers(2, 3))
        return f"{func}({', '.join(self.expr('int', depth)[0] for _ in range(count))})", "int"

    def lookup(self, depth: int, column: int) -> tuple[str, str]:
        key, _ = self.expr("int", depth)
        return f"lookup({self.book.table}, {self.book.columns[column]}, {key})", "int" if column == 1 else "dice"

    def lookup_int(self, depth: int) -> tuple[str, str]:
        return self.lookup(depth, 1)

    def lookup_dice(self, depth: int) -> tuple[str, str]:
        return self.lookup(depth, 2)

    def category_index(self, depth: int) -> tuple[str, str]:
        return f"category_index({self.expr('dice', depth)[0]})", "int"

    def condition(self, want: str, depth: int) -> tuple[str, str]:
        cond, _ = self.expr("bool", depth)
        (then, a), (other, b) = self.expr(want, depth), self.expr(want, depth)
        return f"(if {cond} then {then} else {other})", join(a, b)

    def let(self, want: str, depth: int) -> tuple[str, str] | None:
        name = self.fresh()
        if name is None:
            return None
        value, kind = self.expr(self.pick(["int", "int", "num", "bool"]), depth)
        self.local[name] = kind
        try:
            body, result = self.expr(want, depth)
        finally:
            del self.local[name]
        return f"(let {name} = {value} in {body})", result

    def fresh(self) -> str | None:
        """A let's name: new here (not a local, not a value), or None."""
        name: str = self.draw(names)
        taken = set(self.local) | set(self.book.values) | {self.book.text_value}
        return None if name in taken else name

    def call(self, wanted: set[str], depth: int) -> tuple[str, str] | None:
        callable_ = [f for f in self.book.formulas if f.type in wanted and not (self.in_roll and f.heavy)]
        if not callable_:
            return None
        formula: Formula = self.pick(callable_)
        self.heavy |= formula.heavy
        args = [self.expr(p.type, depth)[0] for p in formula.params]
        return f"{formula.id}({', '.join(args)})", formula.type

    # bool

    def compare(self, depth: int) -> tuple[str, str]:
        if self.draw(st.integers(0, 4)) == 0:
            return f"({self.expr('bool', depth)[0]} {self.pick(['==', '!='])} {self.expr('bool', depth)[0]})", "bool"
        op = self.pick(["<", "<=", ">", ">=", "==", "!="])
        return f"({self.expr('num', depth)[0]} {op} {self.expr('num', depth)[0]})", "bool"

    def logic(self, depth: int) -> tuple[str, str]:
        if self.draw(st.integers(0, 2)) == 0:
            return f"(not {self.expr('bool', depth)[0]})", "bool"
        op = self.pick(["and", "or"])
        return f"({self.expr('bool', depth)[0]} {op} {self.expr('bool', depth)[0]})", "bool"

    # num

    def num_arith(self, depth: int) -> tuple[str, str]:
        (a, x), (b, y) = self.expr("num", depth), self.expr("num", depth)
        op = self.pick(["+", "-", "*", "/"])
        return f"({a} {op} {b})", "num" if op == "/" or "num" in (x, y) else "int"

    def chance(self, depth: int) -> tuple[str, str]:
        func = self.pick(["p_at_least", "p_at_most", "p_equal", "mean", "sd", "p_greater", "p_tie", "p_win"])
        roll = self.expr("dist", depth)[0]
        if func in ("mean", "sd"):
            return f"{func}({roll})", "num"
        if func.startswith("p_") and func not in ("p_greater", "p_tie", "p_win"):
            return f"{func}({roll}, {self.expr('int', depth)[0]})", "num"
        last = f", {self.expr('bool', depth)[0]}" if func == "p_win" else ""
        return f"{func}({roll}, {self.expr('dist', depth)[0]}{last})", "num"

    def num_extreme(self, depth: int) -> tuple[str, str]:
        parts = [self.expr("num", depth) for _ in range(self.draw(st.integers(2, 3)))]
        kind = "num" if any(k == "num" for _, k in parts) else "int"
        return f"{self.pick(['min', 'max'])}({', '.join(text for text, _ in parts)})", kind

    # dice

    def roll(self, depth: int) -> tuple[str, str]:
        if self.draw(st.booleans()):  # written: 1 side or more, as `rulesc check` refuses a written d(0) (E0401)
            sides = str(self.draw(st.sampled_from(SIDES) | st.integers(1, 12)))
        else:  # computed: may come to 0 sides, which both runtimes must refuse alike
            sides = f"clamp({self.expr('int', min(depth, 1))[0]}, 0, 12)"
        return f"({self.small(-1, 4, depth)})d({sides})", "dice"

    def pool_arith(self, depth: int) -> tuple[str, str]:
        shape = self.pick(["dice+dice", "dice+int", "int+dice", "dice-dice", "dice-int", "dice*k", "k*dice"])
        if "k" in shape:
            pool, factor = self.expr("dice", depth)[0], self.small(-1, 3, depth)
            return (f"({pool} * {factor})" if shape == "dice*k" else f"({factor} * {pool})"), "dice"
        left, op, right = re.split(r"([-+])", shape)
        return f"({self.expr(left, depth)[0]} {op} {self.expr(right, depth)[0]})", "dice"

    def category(self, depth: int) -> tuple[str, str]:
        if self.draw(st.booleans()):
            return f"category({self.small(-2, 12, depth)})", "dice"
        return f"step({self.expr('dice', depth)[0]}, {self.small(-5, 5, depth)})", "dice"

    # dist

    def as_roll(self, depth: int) -> str:
        """An expression of type dist (a pool or a number wrapped in roll())."""
        text, kind = self.expr("dist", depth)
        return text if kind == "dist" else f"roll({text})"

    def roll_function(self, depth: int) -> tuple[str, str]:
        func = self.pick(["roll", "successes", "highest", "lowest"])
        if func == "roll":
            return f"roll({self.expr('dist', depth)[0]})", "dist"
        if func == "successes":
            return f"successes({self.expr('dice', depth)[0]}, {self.expr('int', depth)[0]})", "dist"
        pool = self.leaf_dice()[0]  # a pool drawn small: keeping dice of a big pool takes long
        pool = EXTRA.sub(r"\1!!", pool)  # highest() of dice exploding into extra dice is refused (E0409)
        return f"{func}({pool}, {self.expr('int', depth)[0]})", "dist"

    def roll_arith(self, depth: int) -> tuple[str, str]:
        op = self.pick(["+", "-", "*", "//"])
        if op in "+-":
            left, right = self.as_roll(depth), self.expr("dist", depth)[0]
            return (f"({left} {op} {right})" if self.draw(st.booleans()) else f"({right} {op} {left})"), "dist"
        factor = self.small(-1, 3, depth) if op == "*" else self.expr("int", depth)[0]
        return f"({self.as_roll(depth)} {op} {factor})", "dist"

    def roll_negate(self, depth: int) -> tuple[str, str]:
        return f"(-{self.as_roll(depth)})", "dist"

    def roll_extreme(self, depth: int) -> tuple[str, str]:
        args = [self.as_roll(depth), self.expr("dist", depth)[0]]
        if self.draw(st.booleans()):
            args.reverse()
        return f"{self.pick(['min', 'max'])}({args[0]}, {args[1]})", "dist"

    def roll_let(self, depth: int) -> tuple[str, str] | None:
        name = self.fresh()
        if name is None or self.in_roll:
            return None
        value, _ = self.expr(self.pick(["dice", "dist"]), min(depth, 1))
        if _ == "int":
            value = f"roll({value})"
        self.local[name], self.in_roll, self.heavy = "int", True, True
        try:
            body, _ = self.expr("dist", depth)
        finally:
            del self.local[name]
            self.in_roll = False
        return f"(let {name} = {value} in {body})", "dist"


    # the language's newer forms: one roll asked several things, conditions on rolls, named outcomes

    def pool_let(self, want: str, depth: int) -> tuple[str, str] | None:
        """let p = pool in a body that reads p's total and asks p questions (fixed numbers only)."""
        name = self.fresh()
        if name is None or self.in_roll:
            return None
        pool = self.leaf_dice()[0]
        self.local[name], self.in_roll, self.heavy = "int", True, True
        self.pools.append(name)
        if EXTRA.search(pool):  # the checker refuses highest() of these: E0409
            self.extra.add(name)
        try:
            body, kind = self.expr(want, depth)
            asked = self.question(depth)
            assert asked is not None
            if want == "text":  # a question decides between a name and the body
                body = f"(if {asked[0]} >= {self.draw(st.integers(0, 4))} then {self.leaf_text()[0]} else {body})"
            else:
                body, kind = f"({asked[0]} + {body})", "dist"
        finally:
            del self.local[name]
            self.pools.remove(name)
            self.extra.discard(name)
            self.in_roll = False
        return f"(let {name} = {pool} in {body})", ROLLED.get(kind, kind)

    def question(self, depth: int) -> tuple[str, str] | None:
        if not self.pools:
            return None
        pool = self.pick(self.pools)
        func = self.pick(["successes", "count"] if pool in self.extra else
                         ["highest", "lowest", "successes", "count", "count"])
        numbers = [self.draw(st.integers(-2, 7)) for _ in range(2 if func == "count" and self.draw(st.booleans())
                                                             else 1)]
        return f"{func}({pool}, {', '.join(map(str, numbers))})", "int"

    def event_compare(self, depth: int) -> tuple[str, str]:
        op = self.pick(["<", "<=", ">", ">=", "==", "!="])
        left = self.as_roll(min(depth, 1))  # a roll on one side at least: an event
        right = self.expr("int", depth)[0] if self.draw(st.booleans()) else self.leaf_dist()[0]
        return f"({left} {op} {right})", "event"

    def event_logic(self, depth: int) -> tuple[str, str]:
        if self.draw(st.integers(0, 2)) == 0:
            inner, kind = self.expr("event", depth)
            return f"(not {inner})", kind
        (left, a), (right, b) = self.expr("event", depth), self.expr(self.pick(["event", "bool"]), depth)
        return f"({left} {self.pick(['and', 'or'])} {right})", "event" if "event" in (a, b) else "bool"

    def event_named(self, depth: int) -> tuple[str, str]:
        named, kind = self.expr("outcome", depth)
        return f"({named} {self.pick(['==', '!='])} {self.leaf_text()[0]})", "event" if kind == "outcome" else "bool"

    def decide(self, want: str, depth: int) -> tuple[str, str]:
        cond, kind = self.expr("event", min(depth, 1))
        (then, a), (other, b) = self.expr(want, depth), self.expr(want, depth)
        joined = join(a, b)
        return f"(if {cond} then {then} else {other})", ROLLED.get(joined, joined) if kind == "event" else joined

    def chance_of(self, depth: int) -> tuple[str, str]:
        return f"p({self.expr('event', depth)[0]})", "num"

    def named_roll(self, depth: int) -> tuple[str, str] | None:
        """let r = roll in a body that ends in names."""
        name = self.fresh()
        if name is None or self.in_roll:
            return None
        value, kind = self.leaf_dist()
        value = value if kind in ("dist", "dice") else f"roll({value})"  # a roll, so the names are a roll's
        self.local[name], self.in_roll, self.heavy = "int", True, True
        try:
            body, _ = self.expr("text", depth)
        finally:
            del self.local[name]
            self.in_roll = False
        return f"(let {name} = {value} in {body})", "outcome"


LABELS = ("alpha", "strong hit", "miss", "Great", "a-b", "o'clock")
"""Names a roll may end in: spaces, dashes and apostrophes included."""
ROLLED = {"int": "dist", "dice": "dist", "dist": "dist", "text": "outcome", "outcome": "outcome", "bool": "event",
          "event": "event"}
"""What a result that depends on a roll becomes (the checker's ROLL_RESULTS)."""


def join(a: str, b: str) -> str:
    if a == b:
        return a
    for group, joined in (({"int", "num"}, "num"), ({"text", "outcome"}, "outcome"), ({"bool", "event"}, "event")):
        if {a, b} <= group:
            return joined
    return "dist"


MAKERS: dict[str, list[Callable[[Exprs, int], tuple[str, str] | None]]] = {
    "int": [Exprs.arith, Exprs.arith, lambda e, d: e.power("int", d), lambda e, d: e.negate("int", d),
            Exprs.int_function, Exprs.lookup_int, Exprs.category_index, lambda e, d: e.condition("int", d),
            lambda e, d: e.let("int", d), lambda e, d: e.call({"int"}, d), Exprs.question, Exprs.question],
    "bool": [Exprs.compare, Exprs.compare, Exprs.logic, lambda e, d: e.condition("bool", d),
             lambda e, d: e.let("bool", d), lambda e, d: e.call({"bool"}, d)],
    "num": [Exprs.num_arith, Exprs.num_arith, Exprs.chance, Exprs.chance, Exprs.chance, lambda e, d: e.power("num", d),
            lambda e, d: e.negate("num", d), Exprs.num_extreme, lambda e, d: e.condition("num", d),
            lambda e, d: e.let("num", d), lambda e, d: e.call({"int", "num"}, d), Exprs.chance_of],
    "dice": [Exprs.roll, Exprs.roll, Exprs.pool_arith, Exprs.pool_arith, Exprs.category, Exprs.lookup_dice,
             lambda e, d: e.condition("dice", d), lambda e, d: e.let("dice", d), lambda e, d: e.call({"dice"}, d)],
    "dist": [Exprs.roll_function, Exprs.roll_function, Exprs.roll_arith, Exprs.roll_arith, Exprs.roll_negate,
             Exprs.roll_extreme, Exprs.roll_let, Exprs.roll_let, lambda e, d: e.condition("dist", d),
             lambda e, d: e.call({"dist", "dice", "int"}, d), lambda e, d: e.pool_let("dist", d),
             lambda e, d: e.decide("dist", d)],
    "event": [Exprs.event_compare, Exprs.event_compare, Exprs.event_logic, Exprs.event_named,
              lambda e, d: e.condition("event", d), lambda e, d: e.call({"event", "bool"}, d)],
    "outcome": [Exprs.named_roll, Exprs.named_roll, lambda e, d: e.decide("text", d),
                lambda e, d: e.pool_let("text", d), lambda e, d: e.condition("outcome", d),
                lambda e, d: e.call({"outcome", "text"}, d)],
    "text": [lambda e, d: e.condition("text", d), lambda e, d: e.call({"text"}, d)],
}


# ---- the rulebook ----------------------------------------------------------------------------------------------

RETURNS = ("int", "bool", "num", "num", "dice", "dist", "dist", "event", "outcome", "text")
"""What a formula gives, exact numbers and rolls twice as often: they have the most to compare."""


@st.composite
def rulebooks(draw: Callable[[Any], Any]) -> Book:
    """A small rulebook: up to four values, a text value, a table, three to five formulas that may call the
    ones before them and maybe a calculator; about one in eight has a name put in that the checker must refuse."""
    values: dict[str, int | bool | str] = {}
    for name in draw(st.lists(names, min_size=1, max_size=4, unique=True)):
        values[name] = draw(st.one_of(st.integers(-3, 9), st.booleans(), st.sampled_from(POOLS)))
    text_value = draw(names.filter(lambda name: name not in values))
    columns = tuple(draw(st.lists(names, min_size=3, max_size=3, unique=True)))
    book = Book(values, text_value, draw(names), columns, draw(table_rows()), [])  # type: ignore[arg-type]
    taken: set[str] = set()
    for _ in range(draw(st.integers(3, 5))):
        book.formulas.append(draw_formula(draw, book, taken))
    book.formulas = draw(st.permutations(book.formulas))  # a formula may call one written after it
    if draw(st.booleans()):
        draw_calculator(draw, book)
    if draw(st.integers(0, 7)) == 7:
        poison(draw, book)
    return book


@st.composite
def table_rows(draw: Callable[[Any], Any]) -> list[tuple[str, int, str]]:
    """Rows keyed by ranges that do not overlap, with gaps between some, the last maybe open-ended (20+)."""
    rows, low = [], draw(st.integers(-4, 1))
    for index in range(draw(st.integers(1, 4))):
        high = low + draw(st.integers(0, 3))
        key = str(low) if low == high else f"{low}-{high}"
        if index and draw(st.integers(0, 3)) == 0:
            key = f"{low}+"
        rows.append((key, draw(st.integers(-3, 9)), draw(st.sampled_from(POOLS))))
        if key.endswith("+"):
            break
        low = high + 1 + draw(st.integers(0, 1))
    return rows


def draw_formula(draw: Callable[[Any], Any], book: Book, taken: set[str]) -> Formula:
    formula_id = draw(names.filter(lambda name: name not in taken and name not in BUILTIN_FUNCTIONS))
    taken.add(formula_id)
    reserved = {*book.values, book.text_value}
    params = []
    for name in draw(st.lists(names.filter(lambda name: name not in reserved), max_size=3, unique=True)):
        kind = draw(st.sampled_from(["int", "int", "bool", "dice"]))
        params.append(Param(name, kind, draw(st.integers(-3, 0)), draw(st.integers(1, 8))))
    exprs = Exprs(draw, book, {p.name: p.type for p in params})
    text, kind = exprs.expr(draw(st.sampled_from(RETURNS)), draw(st.integers(1, 4)))
    return Formula(formula_id, params, text, kind, exprs.heavy)


def draw_calculator(draw: Callable[[Any], Any], book: Book) -> None:
    """A calculator: inputs (which may be named like the system's values, and then hide them) and outputs that
    use the inputs, the outputs before them and the formulas."""
    taken = {book.text_value}
    for name in draw(st.lists(names.filter(lambda name: name not in taken), min_size=1, max_size=3, unique=True)):
        kind = draw(st.sampled_from(["int", "int", "bool", "dice"]))
        book.inputs.append(Param(name, kind, draw(st.integers(-3, 0)), draw(st.integers(1, 8))))
    local = {p.name: p.type for p in book.inputs}
    for _ in range(draw(st.integers(1, 3))):
        name = draw(names.filter(lambda name: name not in local and name not in taken))
        exprs = Exprs(draw, book, local)
        text, kind = exprs.expr(draw(st.sampled_from(RETURNS)), draw(st.integers(1, 3)))
        book.outputs.append((name, text, kind))
        local[name] = kind


def poison(draw: Callable[[Any], Any], book: Book) -> None:
    """Give one definition a name the checker refuses: a word of the language, dice notation, or for a formula
    the name of a built-in function. Its uses keep the old name, so more errors may follow: all reported."""
    bad = draw(st.sampled_from(REFUSED))
    where = draw(st.sampled_from(["value", "table", "formula", "parameter"]))
    if where == "value":
        old = draw(st.sampled_from(sorted(book.values)))
        book.values[bad] = book.values.pop(old)
    elif where == "table":
        book.table = bad
    else:
        formula = draw(st.sampled_from(book.formulas))
        if where == "formula" or not formula.params:
            bad = draw(st.sampled_from(sorted({*REFUSED, *BUILTIN_FUNCTIONS})))
            formula.id = bad
        else:
            draw(st.sampled_from(formula.params)).name = bad
    book.refused = bad


def chapter(book: Book, returns: bool = True) -> dict[str, Any]:
    table = {"name": book.table, "columns": [
        {"key": book.columns[0], "label": "Key", "type": "range"},
        {"key": book.columns[1], "label": "Number", "type": "int"},
        {"key": book.columns[2], "label": "Pool", "type": "dice"}],
        "rows": [dict(zip(book.columns, row, strict=True)) for row in book.rows]}
    formulas = [{"id": f.id, "summary": "A drawn formula.", **({"returns": f.type} if returns else {}),
                 "expr": f.expr, "params": [param_yaml(p) for p in f.params]} for f in book.formulas]
    rule = {"id": "drawn", "name": "Drawn", "kind": "general", "text": "A drawn rule.",
            "provenance": {"source": "src", "section": "Drawn"},
            "values": {**book.values, book.text_value: "some words"}, "table": table, "formulas": formulas}
    if book.inputs:
        rule["calculators"] = [{"id": "calc", "title": "A drawn calculator.",
                                "inputs": [{**param_yaml(p), "label": "In"} for p in book.inputs],
                                "outputs": [{"name": name, "label": "Out", "expr": text}
                                            for name, text, _ in book.outputs]}]
    return {"id": "drawn", "title": "Drawn", "order": 1, "summary": "A drawn chapter.", "rules": [rule]}


def param_yaml(param: Param) -> dict[str, Any]:
    if param.type == "int":
        return {"name": param.name, "type": "int", "min": param.low, "max": param.high}
    return {"name": param.name, "type": param.type}


SYSTEM = {"id": "fuzz", "title": "Fuzz", "summary": "A drawn system.",
          "sources": [{"id": "src", "file": "seed.txt", "title": "Test source"}],
          "dice": {"summary": "Roll dice."}, "terms": [{"id": "pool", "name": "Pool", "definition": "Dice."}]}


def rulebook_yaml(book: Book, returns: bool = True) -> str:
    """The drawn chapter as YAML; without `returns`, the checker infers what each formula gives."""
    return yaml.safe_dump(chapter(book, returns), sort_keys=False, width=1000, allow_unicode=True)


def write_project(root: Path, book: Book, returns: bool = True) -> None:
    folder = root / "content" / "fuzz"
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(yaml.safe_dump(SYSTEM, sort_keys=False), encoding="utf-8")
    (folder / "drawn.yaml").write_text(rulebook_yaml(book, returns), encoding="utf-8")


# ---- arguments and the three runs -----------------------------------------------------------------------------

Call = tuple[str, list[Any]]  # a formula id and its arguments in order (dice pools as text)


@st.composite
def arguments(draw: Callable[[Any], Any], params: list[Param]) -> list[Any]:
    found: list[Any] = []
    for p in params:
        if p.type == "int":
            found.append(draw(st.sampled_from([p.low, p.high]) | st.integers(p.low, p.high)))
        else:
            found.append(draw(st.booleans() if p.type == "bool" else st.sampled_from(POOLS)))
    return found


def interpreter_run(program: Program, call: Call) -> Any:
    formula = program.formulas[call[0]]
    args = [R.parse_dice(a) if p.type == "dice" else a for p, a in zip(formula.params, call[1], strict=True)]
    return outcome(lambda: program.call(call[0], args), R.RulesError, program.returns[call[0]])


def engine_run(program: Program, module: Any, call: Call) -> Any:
    formula = program.formulas[call[0]]
    args = [module.R.parse_dice(a) if p.type == "dice" else a for p, a in zip(formula.params, call[1], strict=True)]
    function = getattr(module, python_names(program).formulas[call[0]])
    return outcome(lambda: function(*args), module.R.RulesError, program.returns[call[0]])


def outcome(run: Callable[[], Any], error: type[Exception], kind: str | dict[str, str]) -> Any:
    """{'value': the answer encoded by canon()}, {'error': the message} for the runtime's error, or {'crash': ...}
    for anything else (a crash is always a bug). `kind` is the answer's type, or for a calculator its outputs'."""
    try:
        value = run()
    except error as exc:
        return {"error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - any other exception is what this test looks for
        return {"crash": f"{type(exc).__name__}: {exc}"}
    if isinstance(kind, dict):
        return {"value": canon(kind, {name: python_value(v) for name, v in value.items()})}
    return {"value": canon(kind, python_value(value))}


def python_value(value: Any) -> Any:
    """A Python runtime's value (the interpreter's or the engine's own copy of the runtime) as plain data."""
    kind = type(value).__name__
    if kind == "Dice":
        return {"dice": str(value)}
    if kind == "Dist":
        return {"dist": {str(x): str(p) for x, p in value.items()}}
    if kind == "Outcomes":
        return {"outcomes": {json.dumps(x) if isinstance(x, bool) else x: str(p) for x, p in value.items()}}
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    return value


CALCULATOR = "calc"
"""The drawn calculator's id; a call of it gives its inputs in order and answers with every output by name."""


def calculator_run(program: Program, args: list[Any]) -> Any:
    calc = program.calculators[CALCULATOR]
    inputs = {p.name: R.parse_dice(a) if p.type == "dice" else a for p, a in zip(calc.inputs, args, strict=True)}
    return outcome(lambda: program.calculate(CALCULATOR, inputs), R.RulesError, output_types(program))


def output_types(program: Program) -> dict[str, str]:
    calc = program.calculators[CALCULATOR]
    return {o.name: output_type(o) for o in calc.outputs}


def js_run(docs: Path, program: Program, calls: list[Call], javascript: NodeHarness | None = None) -> list[Any]:
    """Every call in one request to Node (a process of its own unless `javascript` is given), each answer encoded
    by canon() (or an error or a crash)."""
    batch = [{"calculator": f, "args": args, "names": [p.name for p in program.calculators[f].inputs],
              "types": [p.type for p in program.calculators[f].inputs]} if f == CALCULATOR else
             {"formula": js_formula(f), "args": args, "types": [p.type for p in program.formulas[f].params]}
             for f, args in calls]
    request = {"docs": str(docs), "system": "fuzz", "calls": batch}
    if javascript is None:
        with NodeHarness(HARNESS) as alone:
            results = alone.ask(request)
    else:
        results = javascript.ask(request)
    return [{"value": canon(output_types(program) if f == CALCULATOR else program.returns[f], r["value"])}
            if "value" in r else r for (f, _), r in zip(calls, results, strict=True)]


# ---- one encoding for every runtime ---------------------------------------------------------------------------


def canon(kind: str | dict[str, str], raw: Any) -> Any:
    """A value of the checked type `kind` in one encoding for all runtimes: int and bool as JSON, an exact number
    as 'n/d', a float as a float, a pool as its text, a roll as {outcome: probability}. What does not fit the type
    is kept as {'unexpected': ...} so that it shows and never matches. A calculator's outputs are a mapping of
    such values, `kind` giving each output's type."""
    if isinstance(kind, dict):
        if not isinstance(raw, dict) or list(raw) != list(kind):
            return {"unexpected": raw}
        return {name: canon(kind[name], raw[name]) for name in kind}
    if isinstance(raw, dict) and "exact" in raw:  # JavaScript's R.exact(): like Python's exact()
        raw = from_exact(kind, raw["exact"])
    if kind == "bool" and isinstance(raw, bool):
        return raw
    if kind == "int" and isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if kind == "num":
        number = number_of(raw)
        if number is not None:
            return number
    if kind == "dice" and isinstance(raw, dict) and set(raw) == {"dice"}:
        return raw["dice"]
    if kind == "text" and isinstance(raw, str):
        return raw
    if kind in ("outcome", "event") and isinstance(raw, dict) and set(raw) == {"outcomes"}:
        return {str(label): number_of(p) for label, p in sorted(raw["outcomes"].items())}
    if kind == "dist" and isinstance(raw, dict) and set(raw) == {"dist"}:
        pairs = raw["dist"].items() if isinstance(raw["dist"], dict) else raw["dist"]
        probabilities = {int(x): number_of(p) for x, p in pairs}
        return {x: p for x, p in sorted(probabilities.items()) if p not in ("0/1", 0.0)}
    return {"unexpected": raw}


def number_of(raw: Any) -> str | float | None:
    """An exact number as 'n/d' (a whole number too: 1 is '1/1'), a float that is not whole as itself."""
    if isinstance(raw, dict) and set(raw) == {"fraction"}:
        raw = raw["fraction"]
    if (isinstance(raw, str) and re.fullmatch(r"-?\d+(/\d+)?", raw)) or (isinstance(raw, int)
                                                                       and not isinstance(raw, bool)):
        exact = Fraction(raw)
    elif isinstance(raw, float):
        if not raw.is_integer():
            return raw
        exact = Fraction(int(raw))
    else:
        return None
    return f"{exact.numerator}/{exact.denominator}"


def from_exact(kind: str, shown: Any) -> Any:
    """What JavaScript's R.exact() gave, read as Python's exact() reads: a pool's text, 'n/d', {outcome: 'p'}."""
    if kind == "dice":
        return {"dice": shown}
    if kind == "dist" and isinstance(shown, dict):
        return {"dist": shown}
    if kind in ("outcome", "event") and isinstance(shown, dict):
        return {"outcomes": shown}
    if isinstance(shown, dict) and "bigint" in shown:
        return int(shown["bigint"])
    return shown



# ---- by hand: python -m tests.differential "max(3)" "if true then 5 else 1d6" -----------------------------------


def three_ways(root: Path, exprs: list[str]) -> list[tuple[str, Any, Any, Any]]:
    """Each expression (no parameters; returns inferred) as a formula of a rulebook built in `root`: its three
    answers, or the check's transcript as the first when the rulebook does not check."""
    formulas = [Formula(f"f{i}", [], expr, "int", False) for i, expr in enumerate(exprs)]
    book = Book({"n": 3, "pool": "2d6", "flag": True}, "words", "tab", ("key", "num", "dice"),
                [("0-3", 1, "1d6"), ("4+", 2, "2d4")], formulas)
    write_project(root, book, returns=False)
    transcript = case_transcript(root)
    if not transcript.startswith("exit: 0"):
        return [(transcript, None, None, None)]
    build_project(Project(root), site=False)
    program = compile_project(Project(root)).programs[0]
    calls: list[Call] = [(f.id, []) for f in book.formulas]
    module = import_engine(root / "build/engine", "fuzz")
    try:
        python = [(interpreter_run(program, c), engine_run(program, module, c)) for c in calls]
    finally:
        drop_engine(root)
    js = js_run(root / "build/docs", program, calls)
    return [(e, a, b, c) for e, (a, b), c in zip(exprs, python, js, strict=True)]


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        for expr, *answers in three_ways(Path(folder), sys.argv[1:]):
            print(expr, *(f"\n  {who}: {answer}" for who, answer in zip(("interpreter", "engine", "javascript"),
                                                                        answers, strict=True)))
