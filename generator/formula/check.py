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
from generator.formula.names import resolve_call, resolve_name
from generator.formula.pools import POOL_FUNCTIONS

BUILTINS: dict[str, tuple[tuple[str, ...], str]] = {
    "abs": (("int",), "int"),
    "clamp": (("int", "int", "int"), "int"),
    "ceil_div": (("int", "int"), "int"),
    "floor_div": (("int", "int"), "int"),
    "category": (("int",), "dice"),
    "category_index": (("dice",), "int"),
    "step": (("dice", "int"), "dice"),
    "roll": (("dist",), "dist"),
    "successes": (("dice", "int"), "dist"),
    "highest": (("dice", "int"), "dist"),
    "lowest": (("dice", "int"), "dist"),
    "p_at_least": (("dist", "int"), "num"),
    "p_at_most": (("dist", "int"), "num"),
    "p_equal": (("dist", "int"), "num"),
    "mean": (("dist",), "num"),
    "sd": (("dist",), "num"),
    "p_greater": (("dist", "dist"), "num"),
    "p_tie": (("dist", "dist"), "num"),
    "p_win": (("dist", "dist", "bool"), "num"),
    "count": (("dice", "int", "int"), "dist"),  # count(pool, face) or count(pool, low, high)
    "upgrade_problems": (("upgrades",), "text"),
    "upgrade_count": (("upgrades",), "int"),
}
VARIADIC = {"min": "int", "max": "int"}
ROLLED = {"dice", "dist"}
FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "//": 2, "/": 2, "^": 3}
ACCEPTS = {"dist": {"dist", "dice", "int"}, "num": {"num", "int"}}


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
            raise self.fail("E0403", f"{what} must be {wanted}, got {got}", node.span)
        return got

    def visit_Num(self, node: n.Num) -> str:
        return "int"

    def visit_Bool(self, node: n.Bool) -> str:
        return "bool"

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
        return "dice"

    def visit_Neg(self, node: n.Neg) -> str:
        got = self.visit(node.operand)
        if got not in ("int", "num", "dist", "dice"):
            raise self.fail("E0403", f"the operand of '-' must be a number or a roll, got {got}", node.span)
        return "dist" if got == "dice" else got

    def visit_Not(self, node: n.Not) -> str:
        self.expect(node.operand, "bool", "the operand of 'not'")
        return "bool"

    def visit_BinOp(self, node: n.BinOp) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        result = _binary_type(node.op, left, right)
        if result is None:
            raise self.fail("E0403", f"'{node.op}' cannot combine {left} and {right}", node.span,
                            "dice pools add to dice or numbers and multiply by numbers; rolls (dist) add to rolls, "
                            "numbers and pools; '//' takes whole numbers and '/' gives an exact fraction")
        return result

    def visit_Compare(self, node: n.Compare) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        numbers = {"int", "num"}
        if (left in numbers and right in numbers) or (node.op in ("==", "!=") and left == right == "bool"):
            return "bool"
        if ROLLED & {left, right}:
            raise self.fail("E0403", f"'{node.op}' cannot compare {left} with {right}: a roll has many outcomes, "
                            "not one number", node.span, f"for the chance of it, write {_chance(node, left, right)}")
        raise self.fail("E0403", f"'{node.op}' cannot compare {left} with {right}", node.span)

    def visit_Logic(self, node: n.Logic) -> str:
        self.expect(node.left, "bool", f"the left side of '{node.op}'")
        self.expect(node.right, "bool", f"the right side of '{node.op}'")
        return "bool"

    def visit_IfElse(self, node: n.IfElse) -> str:
        self.expect(node.cond, "bool", "the condition of 'if'")
        then, other = self.visit(node.then), self.visit(node.other)
        joined = _join(then, other)
        if joined is None:
            raise self.fail("E0403", f"the branches of 'if' differ: {then} and {other}", node.span)
        return joined

    def visit_Let(self, node: n.Let) -> str:
        if node.name in self.scope.locals or node.name in self.scope.constants:
            raise self.fail("E0406", f"'{node.name}' is already a name here; a let needs a new one", node.span)
        bound = self.visit(node.value)
        rolled = bound in ("dice", "dist")
        if bound == "dice":
            self.pools[node.name] = set(self.scope.locals)
        self.scope.locals[node.name] = "pool" if bound == "dice" else "int" if rolled else bound
        try:
            body = self.visit(node.body)
        finally:
            del self.scope.locals[node.name]
            self.pools.pop(node.name, None)
        if rolled and body not in ("int", "dice", "dist"):
            raise self.fail("E0403", f"after rolling '{node.name}', the result must be a number or a roll, got {body}",
                            node.body.span)
        return "dist" if rolled else body

    def visit_Call(self, node: n.Call) -> str:
        if node.func == "lookup":
            return self.lookup(node)
        if node.func in POOL_FUNCTIONS and node.args and isinstance(node.args[0], n.Name) and \
                self.scope.locals.get(node.args[0].name) == "pool":
            return self.question(node, node.args[0])
        if node.func == "count":
            return self.count(node)
        if node.func in VARIADIC:
            return self.extreme(node)
        builtin = resolve_call(node.func) == "builtin"
        signature = BUILTINS.get(node.func) if builtin else self.scope.signature(node.func, node.span)
        if signature is None:
            known = list(BUILTINS) + list(VARIADIC) + ["lookup"]
            raise self.fail("E0402", f"unknown function '{node.func}'", node.span, did_you_mean(node.func, known))
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
        before = self.pools[pool.name]
        for index, arg in enumerate(node.args[1:], start=2):
            self.expect(arg, "int", f"argument {index} of {node.func}()")
            inner = sorted(name for name in _names(arg) if name in self.scope.locals and name not in before)
            if inner:
                raise self.fail("E0403", f"argument {index} of {node.func}() uses '{inner[0]}', which is known only "
                                f"after '{pool.name}' is rolled", arg.span,
                                f"what {node.func}() asks is fixed before the dice fall: use numbers, values, "
                                f"parameters or names let before '{pool.name}'")
        return "int"

    def count(self, node: n.Call) -> str:
        """count(pool, face) or count(pool, low, high): how many dice show it, a roll."""
        if len(node.args) not in (2, 3):
            raise self.fail("E0404", f"count() takes 2 or 3 arguments, got {len(node.args)}", node.span,
                            "count(pool, face) or count(pool, low, high)")
        self.expect(node.args[0], "dice", "argument 1 of count()")
        for index, arg in enumerate(node.args[1:], start=2):
            self.expect(arg, "int", f"argument {index} of count()")
        return "dist"

    def extreme(self, node: n.Call) -> str:
        """min/max: of whole numbers, of exact numbers, or of a roll and a number (each result clamped)."""
        if not node.args:
            raise self.fail("E0404", f"{node.func}() needs at least one argument", node.span)
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
        if column.name not in columns:
            raise self.fail("E0402", f"table '{table.name}' has no column '{column.name}'", column.span,
                            did_you_mean(column.name, columns))
        if columns[column.name] not in ("int", "dice"):
            raise self.fail("E0403", f"column '{column.name}' holds text, which formulas cannot use", column.span)
        self.expect(node.args[2], "int", "the key of lookup()")
        return columns[column.name]


def _names(node: n.Node) -> set[str]:
    """The plain names an expression mentions."""
    found = {node.name} if isinstance(node, n.Name) else set()
    for value in vars(node).values():
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, n.Node):
                found |= _names(child)
    return found


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
        return "dice"
    return None


def _join(a: str, b: str) -> str | None:
    """The type both branches of an if can be given."""
    if a == b:
        return a
    if {a, b} == {"int", "num"}:
        return "num"
    if {a, b} <= {"int", "dice", "dist"}:
        return "dist"
    return None


def _chance(node: n.Compare, left: str, right: str) -> str:
    """The probability function that answers `roll op value` (or `roll op roll`), written out."""
    op, roll, other = node.op, node.left, node.right
    if left not in ROLLED:
        op, roll, other = FLIPPED[op], node.right, node.left
    a, b = _text(roll), _text(other)
    if {left, right} <= ROLLED:
        both = {">": f"p_greater({a}, {b})", "<": f"p_greater({b}, {a})", "==": f"p_tie({a}, {b})"}
        return both.get(op, f"p_greater({a}, {b}) (or p_tie({a}, {b}) for a tie)")
    shifted = {">": _plus(other, 1), "<": _plus(other, -1)}.get(op, b)
    call = {">=": "p_at_least", ">": "p_at_least", "<=": "p_at_most", "<": "p_at_most"}.get(op, "p_equal")
    return f"{'1 - ' if op == '!=' else ''}{call}({a}, {shifted})"


def _plus(node: n.Node, step: int) -> str:
    if isinstance(node, n.Num):
        return str(node.value + step)
    return f"{_text(node)} {'+' if step > 0 else '-'} 1"


def _text(node: n.Node, outer: int = 0) -> str:
    """A node written back as formula text (enough for hints: numbers, names, dice, operators and calls)."""
    if isinstance(node, n.Num):
        return str(node.value)
    if isinstance(node, n.Name):
        return node.name
    if isinstance(node, n.DiceRoll):
        return f"{_text(node.count, 9)}d{_text(node.sides, 9)}"
    if isinstance(node, n.Neg):
        return f"-{_text(node.operand, 9)}"
    if isinstance(node, n.Call):
        return f"{node.func}({', '.join(_text(arg) for arg in node.args)})"
    if isinstance(node, n.BinOp):
        level = PRECEDENCE[node.op]
        text = f"{_text(node.left, level)} {node.op} {_text(node.right, level + 1)}"
        return f"({text})" if level < outer else text
    return "roll"
