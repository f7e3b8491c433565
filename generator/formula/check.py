"""Formula checking: resolve every name and give every node a type (int, bool or dice)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from ..diagnostics import Diagnostics, Span, did_you_mean
from . import nodes as n

BUILTINS: dict[str, tuple[tuple[str, ...], str]] = {
    "abs": (("int",), "int"),
    "clamp": (("int", "int", "int"), "int"),
    "ceil_div": (("int", "int"), "int"),
    "floor_div": (("int", "int"), "int"),
    "category": (("int",), "dice"),
    "category_index": (("dice",), "int"),
    "step": (("dice", "int"), "dice"),
}
VARIADIC = {"min": "int", "max": "int"}
SPECIAL = ("lookup",)


class TypeFailure(Exception):
    """Stops typing one expression after its first error has been reported."""


@dataclass
class Scope:
    """What names mean inside one expression."""

    locals: Mapping[str, str]
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

    def fail(self, code: str, message: str, span: Span, hint: str | None = None) -> TypeFailure:
        self.diags.error(code, message, span, hint)
        return TypeFailure()

    def visit(self, node: n.Node) -> str:
        method = getattr(self, "visit_" + type(node).__name__)
        result: str = method(node)
        self.scope.types[id(node)] = result
        return result

    def expect(self, node: n.Node, wanted: str, what: str) -> None:
        got = self.visit(node)
        if got != wanted:
            raise self.fail("E0403", f"{what} must be {wanted}, got {got}", node.span)

    def visit_Num(self, node: n.Num) -> str:
        return "int"

    def visit_Bool(self, node: n.Bool) -> str:
        return "bool"

    def visit_Name(self, node: n.Name) -> str:
        found = self.scope.locals.get(node.name) or self.scope.constants.get(node.name)
        if found is None:
            known = list(self.scope.locals) + list(self.scope.constants)
            raise self.fail("E0402", f"unknown name '{node.name}'", node.span, did_you_mean(node.name, known))
        return found

    def visit_DiceRoll(self, node: n.DiceRoll) -> str:
        self.expect(node.count, "int", "the number of dice")
        self.expect(node.sides, "int", "the number of sides")
        return "dice"

    def visit_Neg(self, node: n.Neg) -> str:
        self.expect(node.operand, "int", "the operand of '-'")
        return "int"

    def visit_Not(self, node: n.Not) -> str:
        self.expect(node.operand, "bool", "the operand of 'not'")
        return "bool"

    def visit_BinOp(self, node: n.BinOp) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        kinds = {left, right}
        if kinds == {"int"}:
            return "int"
        if node.op in "+-" and kinds <= {"int", "dice"} and not (node.op == "-" and left == "int"):
            return "dice"
        if node.op == "*" and kinds == {"int", "dice"}:
            return "dice"
        raise self.fail("E0403", f"'{node.op}' cannot combine {left} and {right}", node.span,
                        "dice pools add to dice or numbers and multiply by numbers; '//' takes numbers")

    def visit_Compare(self, node: n.Compare) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        if left == right == "int" or (node.op in ("==", "!=") and left == right == "bool"):
            return "bool"
        raise self.fail("E0403", f"'{node.op}' cannot compare {left} with {right}", node.span)

    def visit_Logic(self, node: n.Logic) -> str:
        self.expect(node.left, "bool", f"the left side of '{node.op}'")
        self.expect(node.right, "bool", f"the right side of '{node.op}'")
        return "bool"

    def visit_IfElse(self, node: n.IfElse) -> str:
        self.expect(node.cond, "bool", "the condition of 'if'")
        then, other = self.visit(node.then), self.visit(node.other)
        if then != other:
            raise self.fail("E0403", f"the branches of 'if' differ: {then} and {other}", node.span)
        return then

    def visit_Call(self, node: n.Call) -> str:
        if node.func == "lookup":
            return self.lookup(node)
        if node.func in VARIADIC:
            if not node.args:
                raise self.fail("E0404", f"{node.func}() needs at least one argument", node.span)
            for arg in node.args:
                self.expect(arg, "int", f"each argument of {node.func}()")
            return VARIADIC[node.func]
        signature = BUILTINS.get(node.func) or self.scope.signature(node.func, node.span)
        if signature is None:
            known = list(BUILTINS) + list(VARIADIC) + ["lookup"]
            raise self.fail("E0402", f"unknown function '{node.func}'", node.span, did_you_mean(node.func, known))
        params, result = signature
        if len(params) != len(node.args):
            raise self.fail("E0404", f"{node.func}() takes {len(params)} argument(s), got {len(node.args)}", node.span)
        for index, (arg, wanted) in enumerate(zip(node.args, params), start=1):
            self.expect(arg, wanted, f"argument {index} of {node.func}()")
        return result

    def lookup(self, node: n.Call) -> str:
        if len(node.args) != 3 or not isinstance(node.args[0], n.Name) or not isinstance(node.args[1], n.Name):
            raise self.fail("E0404", "lookup() takes a table name, a column name and a key", node.span,
                            "e.g. lookup(tier_of_power_table, tier, power_level)")
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
