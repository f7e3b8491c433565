"""JavaScript backend: a checked expression to JavaScript that calls the calculator runtime as R."""

from __future__ import annotations

import json
from typing import Callable, Mapping

from . import nodes as n

Resolver = Callable[[str], str]
_DIRECT = {"abs": "Math.abs", "min": "Math.min", "max": "Math.max"}
_RUNTIME = {"clamp": "R.clamp", "ceil_div": "R.ceilDiv", "floor_div": "R.floorDiv", "category": "R.category",
            "category_index": "R.categoryIndex", "step": "R.step"}
_COMPARE = {"==": "===", "!=": "!=="}


def expr_to_js(node: n.Node, types: Mapping[int, str], name: Resolver) -> str:
    """JavaScript source for `node`; `name` maps a formula-language name to its JavaScript spelling."""
    return _ToJs(types, name).visit(node)


class _ToJs:
    def __init__(self, types: Mapping[int, str], name: Resolver):
        self.types = types
        self.name = name

    def visit(self, node: n.Node) -> str:
        return str(getattr(self, "visit_" + type(node).__name__)(node))

    def is_dice(self, node: n.Node) -> bool:
        return self.types.get(id(node)) == "dice"

    def visit_Num(self, node: n.Num) -> str:
        return json.dumps(node.value)

    def visit_Bool(self, node: n.Bool) -> str:
        return json.dumps(node.value)

    def visit_Name(self, node: n.Name) -> str:
        return self.name(node.name)

    def visit_DiceRoll(self, node: n.DiceRoll) -> str:
        return f"R.dice({self.visit(node.count)}, {self.visit(node.sides)})"

    def visit_Neg(self, node: n.Neg) -> str:
        return f"(-{self.visit(node.operand)})"

    def visit_Not(self, node: n.Not) -> str:
        return f"(!{self.visit(node.operand)})"

    def visit_BinOp(self, node: n.BinOp) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op == "//":
            return f"R.floorDiv({left}, {right})"
        if not self.is_dice(node):
            return f"({left} {node.op} {right})"
        if node.op == "*":
            return f"R.diceScale({left}, {right})" if self.is_dice(node.left) else f"R.diceScale({right}, {left})"
        return f"R.diceAdd({left}, {right}{', -1' if node.op == '-' else ''})"

    def visit_Compare(self, node: n.Compare) -> str:
        return f"({self.visit(node.left)} {_COMPARE.get(node.op, node.op)} {self.visit(node.right)})"

    def visit_Logic(self, node: n.Logic) -> str:
        op = "&&" if node.op == "and" else "||"
        return f"({self.visit(node.left)} {op} {self.visit(node.right)})"

    def visit_IfElse(self, node: n.IfElse) -> str:
        return f"({self.visit(node.cond)} ? {self.visit(node.then)} : {self.visit(node.other)})"

    def visit_Call(self, node: n.Call) -> str:
        if node.func == "lookup":
            table, column = node.args[0], node.args[1]
            assert isinstance(table, n.Name) and isinstance(column, n.Name)
            return f"R.lookup({self.name(table.name)}, {json.dumps(column.name)}, {self.visit(node.args[2])})"
        args = ", ".join(self.visit(arg) for arg in node.args)
        func = _DIRECT.get(node.func) or _RUNTIME.get(node.func) or self.name(node.func)
        return f"{func}({args})"
