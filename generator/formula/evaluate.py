"""Formula interpreter over checked nodes, for `rulesc check` (examples) and `rulesc calc`."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..runtime import rulesc_runtime as R
from . import nodes as n

Value = Any
CallFormula = Callable[[str, list[Value]], Value]

_BUILTINS: dict[str, Callable[..., Value]] = {
    "abs": abs, "clamp": R.clamp, "ceil_div": R.ceil_div, "floor_div": R.floor_div, "category": R.category,
    "category_index": R.category_index, "step": R.step, "min": min, "max": max,
}


def evaluate(node: n.Node, env: Mapping[str, Value], tables: Mapping[str, R.Table], call: CallFormula) -> Value:
    """The value of a checked expression; raises RulesError when the rules give no answer."""
    return _Evaluator(env, tables, call).visit(node)


class _Evaluator:
    def __init__(self, env: Mapping[str, Value], tables: Mapping[str, R.Table], call: CallFormula):
        self.env = env
        self.tables = tables
        self.call_formula = call

    def visit(self, node: n.Node) -> Value:
        return getattr(self, "visit_" + type(node).__name__)(node)

    def visit_Num(self, node: n.Num) -> Value:
        return node.value

    def visit_Bool(self, node: n.Bool) -> Value:
        return node.value

    def visit_Name(self, node: n.Name) -> Value:
        return self.env[node.name]

    def visit_DiceRoll(self, node: n.DiceRoll) -> Value:
        return R.dice(self.visit(node.count), self.visit(node.sides))

    def visit_Neg(self, node: n.Neg) -> Value:
        return -self.visit(node.operand)

    def visit_Not(self, node: n.Not) -> Value:
        return not self.visit(node.operand)

    def visit_BinOp(self, node: n.BinOp) -> Value:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op == "//":
            return R.floor_div(left, right)
        if isinstance(left, R.Dice) or isinstance(right, R.Dice):
            if node.op == "*":
                return R.dice_scale(left, right) if isinstance(left, R.Dice) else R.dice_scale(right, left)
            return R.dice_add(left, right, 1 if node.op == "+" else -1)
        if node.op == "+":
            return left + right
        return left - right if node.op == "-" else left * right

    def visit_Compare(self, node: n.Compare) -> Value:
        left, right = self.visit(node.left), self.visit(node.right)
        return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right,
                "==": left == right, "!=": left != right}[node.op]

    def visit_Logic(self, node: n.Logic) -> Value:
        if node.op == "and":
            return self.visit(node.left) and self.visit(node.right)
        return self.visit(node.left) or self.visit(node.right)

    def visit_IfElse(self, node: n.IfElse) -> Value:
        return self.visit(node.then) if self.visit(node.cond) else self.visit(node.other)

    def visit_Call(self, node: n.Call) -> Value:
        if node.func == "lookup":
            table, column = node.args[0], node.args[1]
            assert isinstance(table, n.Name) and isinstance(column, n.Name)
            return R.lookup(self.tables[table.name], column.name, self.visit(node.args[2]))
        args = [self.visit(arg) for arg in node.args]
        builtin = _BUILTINS.get(node.func)
        return builtin(*args) if builtin else self.call_formula(node.func, args)
