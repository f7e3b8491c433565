"""Python backend: a checked expression to Python source that calls the engine runtime as R."""

from __future__ import annotations

from typing import Callable, Mapping

from . import nodes as n

Resolver = Callable[[str], str]
_DIRECT = {"abs": "abs", "min": "min", "max": "max"}
_RUNTIME = {name: f"R.{name}" for name in ("clamp", "ceil_div", "floor_div", "category", "category_index", "step")}


def expr_to_python(node: n.Node, types: Mapping[int, str], name: Resolver) -> str:
    """Python source for `node`; `name` maps a formula-language name to its Python spelling."""
    return _ToPython(types, name).visit(node)


class _ToPython:
    def __init__(self, types: Mapping[int, str], name: Resolver):
        self.types = types
        self.name = name

    def visit(self, node: n.Node) -> str:
        return str(getattr(self, "visit_" + type(node).__name__)(node))

    def is_dice(self, node: n.Node) -> bool:
        return self.types.get(id(node)) == "dice"

    def visit_Num(self, node: n.Num) -> str:
        return repr(node.value)

    def visit_Bool(self, node: n.Bool) -> str:
        return repr(node.value)

    def visit_Name(self, node: n.Name) -> str:
        return self.name(node.name)

    def visit_DiceRoll(self, node: n.DiceRoll) -> str:
        return f"R.dice({self.visit(node.count)}, {self.visit(node.sides)})"

    def visit_Neg(self, node: n.Neg) -> str:
        return f"(-{self.visit(node.operand)})"

    def visit_Not(self, node: n.Not) -> str:
        return f"(not {self.visit(node.operand)})"

    def visit_BinOp(self, node: n.BinOp) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op == "//":
            return f"R.floor_div({left}, {right})"
        if not self.is_dice(node):
            return f"({left} {node.op} {right})"
        if node.op == "*":
            return f"R.dice_scale({left}, {right})" if self.is_dice(node.left) else f"R.dice_scale({right}, {left})"
        return f"R.dice_add({left}, {right}{', -1' if node.op == '-' else ''})"

    def visit_Compare(self, node: n.Compare) -> str:
        return f"({self.visit(node.left)} {node.op} {self.visit(node.right)})"

    def visit_Logic(self, node: n.Logic) -> str:
        return f"({self.visit(node.left)} {node.op} {self.visit(node.right)})"

    def visit_IfElse(self, node: n.IfElse) -> str:
        return f"({self.visit(node.then)} if {self.visit(node.cond)} else {self.visit(node.other)})"

    def visit_Call(self, node: n.Call) -> str:
        if node.func == "lookup":
            table, column = node.args[0], node.args[1]
            assert isinstance(table, n.Name) and isinstance(column, n.Name)
            return f"R.lookup({self.name(table.name)}, {column.name!r}, {self.visit(node.args[2])})"
        args = ", ".join(self.visit(arg) for arg in node.args)
        func = _DIRECT.get(node.func) or _RUNTIME.get(node.func) or self.name(node.func)
        return f"{func}({args})"
