"""Formula checking: resolve every name and give every node a type (int, bool, dice, dist or num).

dice is a pool written like 1d10+1d4; dist is the exact distribution of a roll; num is an exact rational
(a probability, a mean). Where a dist is expected a dice pool or an int is accepted; where a num is expected,
an int is accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from generator.diagnostics.core import Diagnostics, Span, did_you_mean
from generator.formula import nodes as n
from generator.formula.builtins import BUILTINS, Builtin
from generator.formula.names import mentioned_names, resolve_call, resolve_name
from generator.formula.pools import POOL_FUNCTIONS

ROLLED = {"dice", "dist"}
NAMED = {"text", "outcome"}
CHANCY = {"bool", "event"}
ACCEPTS = {"dist": {"dist", "dice", "int"}, "num": {"num", "int"}, "event": {"event", "bool"},
           "outcome": {"outcome", "text"}}
ROLL_RESULTS = {"int": "dist", "dice": "dist", "dist": "dist", "text": "outcome", "outcome": "outcome",
                "bool": "event", "event": "event"}
"""What a result that depends on a roll becomes: a roll of numbers, of named outcomes, or of yes and no."""


REPEAT_HINT = ("write repeat(pool, n) to repeat the dice in either format; `rulesc migrate` writes that for every "
               "such '*' and moves the system to format 2")

UNKEYED = ""
"""In a scope's table columns: the table's first column, when it holds no whole numbers to look a row up by."""


class TypeFailure(Exception):
    """Stops typing one expression after its first error has been reported."""


@dataclass
class Scope:
    """What names mean inside one expression."""

    locals: dict[str, str]
    constants: Mapping[str, str]
    tables: Mapping[str, Mapping[str, str]]
    signature: Callable[[str, Span], tuple[tuple[str, ...], str] | None]
    types: dict[int, str] = field(default_factory=dict)
    format: int = 2  # the system's content format: in 1, a pool times a number repeats its dice (W0708)


def type_of(node: n.Node, scope: Scope, diags: Diagnostics) -> str | None:
    """The type of an expression, recording the type of every node in scope.types; None on error."""
    try:
        return _Typer(scope, diags).visit(node)
    except TypeFailure:
        return None


class _Typer:
    def __init__(self, scope: Scope, diags: Diagnostics):
        self.scope = scope
        self.diags = diags
        self.pools: dict[str, set[str]] = {}  # each rolled pool's name -> the local names bound before it
        self.rolled: dict[str, n.Node] = {}  # each rolled pool's name -> the expression it was rolled from

    def fail(self, code: str, message: str, span: Span, hint: str | None = None) -> TypeFailure:
        self.diags.error(code, message, span, hint)
        return TypeFailure()

    def visit(self, node: n.Node) -> str:
        method = getattr(self, "visit_" + type(node).__name__)
        result: str = method(node)
        self.scope.types[id(node)] = result
        return result

    def expect(self, node: n.Node, wanted: str, what: str) -> str:
        got = self.visit(node)
        if got not in ACCEPTS.get(wanted, {wanted}):
            raise self.fail("E0403", f"{what} must be {wanted}, got {got}", node.span, repeat_hint(node, wanted, got))
        return got

    def visit_Num(self, node: n.Num) -> str:
        return "int"

    def visit_Bool(self, node: n.Bool) -> str:
        return "bool"

    def visit_Text(self, node: n.Text) -> str:
        return "text"

    def visit_Name(self, node: n.Name) -> str:
        kind = resolve_name(node.name, self.scope.locals, self.scope.constants)
        found = self.scope.locals[node.name] if kind == "local" else self.scope.constants.get(node.name)
        if found is None:
            known = list(self.scope.locals) + list(self.scope.constants)
            raise self.fail("E0402", f"unknown name '{node.name}'", node.span, did_you_mean(node.name, known))
        return "int" if found == "pool" else found  # a rolled pool, used as a number, is its total

    def visit_DiceRoll(self, node: n.DiceRoll) -> str:
        self.expect(node.count, "int", "the number of dice")
        self.expect(node.sides, "int", "the number of sides")
        if self.scope.format == 1 and _written_d66(node):
            assert isinstance(node.sides, n.Num)
            sides = node.sides.value
            self.diags.warning("W0708", f"d{sides} is one die of {sides} sides in content format 1; format 2 reads "
                               f"it as tens and units, as d66 tables do", node.span,
                               f"write 1d({sides}) to keep a die of {sides} sides in either format; `rulesc migrate` "
                               "writes that for every such die and moves the system to format 2")
        return "dice"

    def visit_Neg(self, node: n.Neg) -> str:
        got = self.visit(node.operand)
        if got not in ("int", "num", "dist", "dice"):
            raise self.fail("E0403", f"the operand of '-' must be a number or a roll, got {got}", node.span)
        return "dist" if got == "dice" else got

    def visit_Not(self, node: n.Not) -> str:
        return self.expect(node.operand, "event", "the operand of 'not'")

    def visit_BinOp(self, node: n.BinOp) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op == "*" and {left, right} == {"int", "dice"} and self.scope.format == 1:
            self.diags.warning("W0708", "'*' on a pool repeats its dice in content format 1 (1d6 * 3 is 3d6); "
                               "format 2 reads it as the roll's result times the number", node.span, REPEAT_HINT)
            return "dice"
        result = _binary_type(node.op, left, right)
        if result is None:
            raise self.fail("E0403", f"'{node.op}' cannot combine {left} and {right}", node.span,
                            _combine_hint(left, right))
        return result

    def visit_Compare(self, node: n.Compare) -> str:
        """Numbers compare to bool; a roll compared (with a number or a roll) is an event, the chance of yes;
        names compare for equality, a roll of named outcomes with a name is an event too."""
        left, right = self.visit(node.left), self.visit(node.right)
        numbers, equality = {"int", "num"}, node.op in ("==", "!=")
        if (left in numbers and right in numbers) or (equality and left == right and left in ("bool", "text")):
            return "bool"
        if ROLLED & {left, right} and {left, right} <= ROLLED | {"int"}:
            return "event"
        if equality and {left, right} == NAMED:
            return "event"
        hint = "names compare with == and !=" if {left, right} & NAMED else None
        raise self.fail("E0403", f"'{node.op}' cannot compare {left} with {right}", node.span, hint)

    def visit_Logic(self, node: n.Logic) -> str:
        left = self.expect(node.left, "event", f"the left side of '{node.op}'")
        right = self.expect(node.right, "event", f"the right side of '{node.op}'")
        return "event" if "event" in (left, right) else "bool"

    def visit_IfElse(self, node: n.IfElse) -> str:
        """On a yes/no condition, one branch; on an event (a condition on a roll), the mixture of both."""
        cond = self.expect(node.cond, "event", "the condition of 'if'")
        then, other = self.visit(node.then), self.visit(node.other)
        joined = _join(then, other)
        if joined is None:
            raise self.fail("E0403", f"the branches of 'if' differ: {then} and {other}", node.span)
        if cond == "event":
            if joined not in ROLL_RESULTS:
                raise self.fail("E0403", f"on a condition on a roll, the branches must be numbers, rolls, names or "
                                f"yes/no, got {joined}", node.span, "take the chance of it with p(...)")
            return ROLL_RESULTS[joined]
        return joined

    def visit_Let(self, node: n.Let) -> str:
        if node.name in self.scope.locals or node.name in self.scope.constants:
            raise self.fail("E0406", f"'{node.name}' is already a name here; a let needs a new one", node.span)
        bound = self.visit(node.value)
        rolled = bound in ("dice", "dist")
        rolled = rolled or bound in ("event", "outcome")
        if bound == "dice":
            self.pools[node.name] = set(self.scope.locals)
            self.rolled[node.name] = node.value
        rolled_as = {"dice": "pool", "dist": "int", "event": "bool", "outcome": "text"}
        self.scope.locals[node.name] = rolled_as.get(bound, bound)
        try:
            body = self.visit(node.body)
        finally:
            del self.scope.locals[node.name]
            self.pools.pop(node.name, None)
            self.rolled.pop(node.name, None)
        if rolled and body not in ROLL_RESULTS:
            raise self.fail("E0403", f"after rolling '{node.name}', the result must be a number, a roll, a name or "
                            f"yes/no, got {body}", node.body.span, _wrap_hint(node))
        return ROLL_RESULTS[body] if rolled else body

    def visit_Call(self, node: n.Call) -> str:
        row = BUILTINS[node.func] if resolve_call(node.func) == "builtin" else None
        if row is None:
            return self.call(node, self.scope.signature(node.func, node.span))
        if row.form == "lookup":
            return self.lookup(node)
        if row.asks_pool and node.args and isinstance(node.args[0], n.Name) and \
                self.scope.locals.get(node.args[0].name) == "pool":
            return self.question(node, node.args[0])
        if row.arities:
            return self.counted(node, row)
        if row.form == "keep" and node.args:
            self.ordered(node, node.args[0])
        if row.form == "extreme":
            return self.extreme(node)
        return self.call(node, (row.params, row.result))

    def call(self, node: n.Call, signature: tuple[tuple[str, ...], str] | None) -> str:
        """A call with one argument per parameter: of a built-in or of a formula of the system."""
        if signature is None:
            raise self.fail("E0402", f"unknown function '{node.func}'", node.span, did_you_mean(node.func, BUILTINS))
        params, result = signature
        if len(params) != len(node.args):
            raise self.fail("E0404", f"{node.func}() takes {len(params)} argument(s), got {len(node.args)}", node.span)
        for index, (arg, wanted) in enumerate(zip(node.args, params, strict=True), start=1):
            self.expect(arg, wanted, f"argument {index} of {node.func}()")
        return result

    def question(self, node: n.Call, pool: n.Name) -> str:
        """highest(p, k), count(p, face), ... on a rolled pool: a whole number, read from the one roll."""
        if len(node.args) not in POOL_FUNCTIONS[node.func]:
            wanted = " or ".join(str(k) for k in POOL_FUNCTIONS[node.func])
            raise self.fail("E0404", f"{node.func}() takes {wanted} argument(s), got {len(node.args)}", node.span)
        self.scope.types[id(pool)] = "pool"
        if BUILTINS[node.func].form == "keep":
            self.ordered(node, self.rolled[pool.name])
        before = self.pools[pool.name]
        for index, arg in enumerate(node.args[1:], start=2):
            self.expect(arg, "int", f"argument {index} of {node.func}()")
            inner = sorted(name for name in mentioned_names(arg) if name in self.scope.locals and name not in before)
            if inner:
                raise self.fail("E0403", f"argument {index} of {node.func}() uses '{inner[0]}', which is known only "
                                f"after '{pool.name}' is rolled", arg.span,
                                f"what {node.func}() asks is fixed before the dice fall: use numbers, values, "
                                f"parameters or names let before '{pool.name}'")
        return "int"

    def ordered(self, node: n.Call, pool: n.Node) -> None:
        """highest() and lowest() need a pool whose number of dice is known before the roll: not dice that explode
        into extra dice (d6!), of which there are as many as the roll makes."""
        found = next((roll for roll in n.walk(pool) if isinstance(roll, n.DiceRoll) and _separate(roll.special)),
                     None)
        if found is None:
            return
        sides = str(found.sides.value) if isinstance(found.sides, n.Num) else "S"
        raise self.fail("E0409", f"{node.func}() cannot be asked of dice that explode into extra dice "
                        f"(d{sides}{found.special}): how many dice there are depends on the roll", found.span,
                        "write '!!' instead of '!' for dice that each show their exploded sum (compounding), or ask "
                        "successes() or count(), which count the extra dice")

    def counted(self, node: n.Call, row: Builtin) -> str:
        """A built-in that takes some of its parameters, in order: count(pool, face) or count(pool, low, high)."""
        if len(node.args) not in row.arities:
            wanted = " or ".join(str(k) for k in row.arities)
            raise self.fail("E0404", f"{node.func}() takes {wanted} arguments, got {len(node.args)}", node.span,
                            row.usage or None)
        for index, (arg, param) in enumerate(zip(node.args, row.params, strict=False), start=1):
            self.expect(arg, param, f"argument {index} of {node.func}()")
        return row.result

    def extreme(self, node: n.Call) -> str:
        """min/max: of whole numbers, of exact numbers, or of a roll and a number (each result clamped)."""
        if len(node.args) < 2:
            raise self.fail("E0404", f"{node.func}() needs at least two arguments, got {len(node.args)}", node.span,
                            f"{node.func}(a, b) gives the {'larger' if node.func == 'max' else 'smaller'} of a and b")
        kinds = [self.visit(arg) for arg in node.args]
        if set(kinds) <= {"int"}:
            return "int"
        if set(kinds) <= {"int", "num"}:
            return "num"
        if len(kinds) == 2 and set(kinds) <= {"int", "dice", "dist"}:
            return "dist"
        raise self.fail("E0403", f"{node.func}() takes numbers, or two values of which one may be a roll; "
                        f"got {', '.join(kinds)}", node.span)

    def lookup(self, node: n.Call) -> str:
        if len(node.args) != 3 or not isinstance(node.args[0], n.Name) or not isinstance(node.args[1], n.Name):
            raise self.fail("E0404", "lookup() takes a table name, a column name and a key", node.span,
                            "e.g. lookup(damage_table, dice, level)")
        table, column = node.args[0], node.args[1]
        columns = self.scope.tables.get(table.name)
        if columns is None:
            raise self.fail("E0402", f"unknown table '{table.name}'", table.span,
                            did_you_mean(table.name, self.scope.tables))
        if UNKEYED in columns:
            raise self.fail("E0403", f"table '{table.name}' has no whole numbers to look a row up by: its first column "
                            f"'{columns[UNKEYED]}' holds {columns[columns[UNKEYED]]}", table.span,
                            "lookup() finds the row whose first column (type: range, or int) holds the key")
        if column.name not in columns:
            raise self.fail("E0402", f"table '{table.name}' has no column '{column.name}'", column.span,
                            did_you_mean(column.name, columns))
        key = self.visit(node.args[2])
        if key != "int":
            hint = (f"roll it first and look the roll up: let key = ... in lookup({table.name}, {column.name}, key) "
                    f"gives the {column.name} of each result with its chance") if key in ROLLED else None
            raise self.fail("E0403", f"the key of lookup() must be int, got {key}", node.args[2].span, hint)
        return columns[column.name]


def _combine_hint(left: str, right: str) -> str:
    """What an operator that cannot combine `left` and `right` can do instead."""
    if {left, right} & NAMED:
        return ("text is a whole name and is never added or joined: write the name you mean in one quote, or choose "
                "it whole, as in if total >= 10 then \"strong hit\" else \"miss\"")
    return ("dice pools add to dice or numbers, repeat(pool, n) repeats one; rolls (dist) add to rolls, numbers and "
            "pools and multiply by numbers; '//' takes whole numbers and '/' gives an exact fraction")


def _wrap_hint(node: n.Let) -> str:
    """How to take a chance or a mean of what a let rolls: around the whole let, where the roll is whole."""
    taken = next((each for each in n.walk(node.body) if isinstance(each, n.Call) and each.func in BUILTINS
                  and BUILTINS[each.func].result == "num" and node.name in mentioned_names(each)), None)
    if any(isinstance(each, n.BinOp) and each.op == "/" for each in n.walk(node.body)):
        return ("a roll's results are whole numbers: divide with '//' (rounding down) or ceil_div(), or take the "
                f"mean of the whole let first: mean(let {node.name} = ... in ...) / 2")
    if taken is None:
        return (f"'{node.name}' is one result of the roll; to take the chance or the mean over all of them, wrap "
                f"the whole let: p(let {node.name} = ... in ...) or mean(let {node.name} = ... in ...)")
    more = ", ..." if len(taken.args) > 1 else ""
    return (f"{taken.func}(...) must wrap the whole let, which rolls '{node.name}': "
            f"{taken.func}(let {node.name} = ... in ...{more})")


def repeat_hint(node: n.Node, wanted: str | None, got: str) -> str | None:
    """Where dice are wanted and `pool * n` gave a roll: the hint to repeat the pool instead."""
    if wanted == "dice" and got == "dist" and isinstance(node, n.BinOp) and node.op == "*":
        return "'*' multiplies a roll's result (content format 2): write repeat(pool, n) to repeat a pool's dice"
    return None


def _written_d66(roll: n.DiceRoll) -> bool:
    """Whether a die was written d66 or d666: those sides as a number right after its 'd' (not 1d(66))."""
    sides = roll.sides
    return not roll.special and isinstance(sides, n.Num) and sides.value in (66, 666) and \
        (sides.span.file, sides.span.line, sides.span.col) == (roll.span.file, roll.span.line, roll.span.col + 1)


def _separate(special: str) -> bool:
    """Whether a die kind explodes into extra dice: '!' not followed by a second '!'."""
    return special.startswith("!") and not special.startswith("!!")


def _binary_type(op: str, left: str, right: str) -> str | None:
    """The type of `left op right`, or None when the operator does not apply."""
    kinds = {left, right}
    if op == "^":
        return left if left in ("int", "num") and right == "int" else None
    if op == "/":
        return "num" if kinds <= {"int", "num"} else None
    if op == "//":
        return "int" if kinds == {"int"} else "dist" if left in ("dist", "dice") and right == "int" else None
    if kinds == {"int"}:
        return "int"
    if kinds <= {"int", "num"}:
        return "num"
    if "dist" in kinds and kinds <= {"int", "dice", "dist"}:
        if op == "*":
            return "dist" if "int" in kinds else None
        return "dist"
    if op in "+-" and kinds <= {"int", "dice"} and not (op == "-" and left == "int"):
        return "dice"
    if op == "*" and kinds == {"int", "dice"}:
        return "dist"  # the roll's result multiplied: 1d6 * 10 + 1d6 is d66's tens and units
    return None


def _join(a: str, b: str) -> str | None:
    """The type both branches of an if can be given."""
    if a == b:
        return a
    for group in ({"int", "num"}, {"int", "dice", "dist"}, NAMED, CHANCY):
        if {a, b} <= group:
            return "num" if group == {"int", "num"} else ROLL_RESULTS.get(a if a in ROLL_RESULTS.values() else b, a)
    return None
