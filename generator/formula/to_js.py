"""JavaScript backend: a checked expression to JavaScript that calls the calculator runtime as R."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from generator.formula import nodes as n

Resolver = Callable[[str], str]
_DIRECT = {"abs": "Math.abs"}
_RUNTIME = {
    "clamp": "R.clamp", "ceil_div": "R.ceilDiv", "floor_div": "R.floorDiv", "category": "R.category",
    "category_index": "R.categoryIndex", "step": "R.step", "roll": "R.asDist", "successes": "R.successes",
    "p_at_least": "R.atLeast", "p_at_most": "R.atMost", "p_equal": "R.probEq", "mean": "R.mean", "sd": "R.sd",
    "p_greater": "R.greater", "p_tie": "R.tie", "p_win": "R.win",
}
_ROLL_OPS = {"+": "R.dadd", "-": "R.dsub", "//": "R.dfloorDiv"}
_COMPARE = {"==": "===", "!=": "!=="}
ROLLS = ("dice", "dist")


def expr_to_js(node: n.Node, types: Mapping[int, str], name: Resolver) -> str:
    """JavaScript source for `node`; `name` maps a formula-language name to its JavaScript spelling."""
    return _ToJs(types, name).visit(node)


class _ToJs:
    def __init__(self, types: Mapping[int, str], name: Resolver):
        self.types = types
        self.name = name
        self.bound: set[str] = set()

    def visit(self, node: n.Node) -> str:
        return str(getattr(self, "visit_" + type(node).__name__)(node))

    def type(self, node: n.Node) -> str:
        return self.types.get(id(node), "int")

    def as_type(self, node: n.Node, wanted: str) -> str:
        source = self.visit(node)
        return f"R.asDist({source})" if wanted == "dist" and self.type(node) != "dist" else source

    def visit_Num(self, node: n.Num) -> str:
        return json.dumps(node.value)

    def visit_Bool(self, node: n.Bool) -> str:
        return json.dumps(node.value)

    def visit_Name(self, node: n.Name) -> str:
        return f"l_{node.name}" if node.name in self.bound else self.name(node.name)

    def visit_DiceRoll(self, node: n.DiceRoll) -> str:
        return f"R.dice({self.visit(node.count)}, {self.visit(node.sides)})"

    def visit_Neg(self, node: n.Neg) -> str:
        operand = self.visit(node.operand)
        return f"R.dneg({operand})" if self.type(node) == "dist" else f"(-{operand})"

    def visit_Not(self, node: n.Not) -> str:
        return f"(!{self.visit(node.operand)})"

    def visit_BinOp(self, node: n.BinOp) -> str:
        left, right = self.visit(node.left), self.visit(node.right)
        kind = self.type(node)
        if node.op == "/":
            return f"R.divide({left}, {right})"
        if node.op == "^":
            return f"R.power({left}, {right})"
        if kind == "dist":
            if node.op == "*":
                return f"R.dscale({left}, {right})" if self.type(node.left) in ROLLS else f"R.dscale({right}, {left})"
            return f"{_ROLL_OPS[node.op]}({left}, {right})"
        if node.op == "//":
            return f"R.floorDiv({left}, {right})"
        if kind != "dice":
            return f"({left} {node.op} {right})"
        if node.op == "*":
            return f"R.diceScale({left}, {right})" if self.type(node.left) == "dice" else f"R.diceScale({right}, {left})"
        return f"R.diceAdd({left}, {right}{', -1' if node.op == '-' else ''})"

    def visit_Compare(self, node: n.Compare) -> str:
        return f"({self.visit(node.left)} {_COMPARE.get(node.op, node.op)} {self.visit(node.right)})"

    def visit_Logic(self, node: n.Logic) -> str:
        op = "&&" if node.op == "and" else "||"
        return f"({self.visit(node.left)} {op} {self.visit(node.right)})"

    def visit_IfElse(self, node: n.IfElse) -> str:
        kind = self.type(node)
        return f"({self.visit(node.cond)} ? {self.as_type(node.then, kind)} : {self.as_type(node.other, kind)})"

    def visit_Let(self, node: n.Let) -> str:
        value = self.visit(node.value)
        self.bound.add(node.name)
        try:
            body = self.visit(node.body)
        finally:
            self.bound.discard(node.name)
        function = f"function (l_{node.name}) {{ return {body}; }}"
        return f"R.bind({value}, {function})" if self.type(node.value) in ROLLS else f"({function})({value})"

    def visit_Call(self, node: n.Call) -> str:
        if node.func == "lookup":
            table, column = node.args[0], node.args[1]
            assert isinstance(table, n.Name) and isinstance(column, n.Name)
            return f"R.lookup({self.name(table.name)}, {json.dumps(column.name)}, {self.visit(node.args[2])})"
        args = [self.visit(arg) for arg in node.args]
        if node.func == "upgrade_problems":
            return f"R.upgradeProblems(U, {args[0]})"
        if node.func == "upgrade_count":
            return f"({args[0]}).length"
        if node.func in ("highest", "lowest"):
            return f"R.keep({args[0]}, {args[1]}, {json.dumps(node.func == 'highest')})"
        if node.func in ("min", "max"):
            return self.extreme(node, args)
        func = _DIRECT.get(node.func) or _RUNTIME.get(node.func) or self.name(node.func)
        return f"{func}({', '.join(args)})"

    def extreme(self, node: n.Call, args: list[str]) -> str:
        if self.type(node) != "dist":
            return f"Math.{node.func}({', '.join(args)})"
        first, second = (0, 1) if self.type(node.args[0]) in ROLLS else (1, 0)
        return f"R.d{node.func}({args[first]}, {args[second]})"
