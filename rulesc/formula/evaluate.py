"""Formula interpreter over checked nodes, for `rulesc check` (examples) and `rulesc calc`."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Mapping
from typing import Any

from rulesc.formula import nodes as n
from rulesc.formula.builtins import BUILTINS, ROWS, Builtin
from rulesc.formula.names import resolve_call, resolve_name
from rulesc.formula.pools import only_total, questions
from rulesc.formula.types import Type
from rulesc.runtime import rulesc_runtime as R

Value = Any
CallFormula = Callable[[str, list[Value]], Value]


def _extreme(pick: Callable[..., Value], on_rolls: Callable[[Value, Value], Value]) -> Callable[..., Value]:
    def apply(*args: Value) -> Value:
        if any(isinstance(a, (R.Dist, R.Dice)) for a in args):
            first, second = args if isinstance(args[0], (R.Dist, R.Dice)) else (args[1], args[0])
            return on_rolls(first, second)
        return pick(*args)
    return apply


def _flagged(function: Callable[..., Value], flags: tuple[bool, ...]) -> Callable[..., Value]:
    return lambda *args: function(*args, *flags)


def _function(row: Builtin) -> Callable[..., Value]:
    """What a call of a built-in runs: the host's function, or the runtime's (min and max pick on rolls)."""
    if row.form == "extreme":
        return _extreme(getattr(builtins, row.host[0]), getattr(R, row.runtime))
    if row.host[0]:
        found: Callable[..., Value] = getattr(builtins, row.host[0])
        return found
    return _flagged(getattr(R, row.runtime), row.flags) if row.flags else getattr(R, row.runtime)


_BUILTINS: dict[str, Callable[..., Value]] = {row.name: _function(row) for row in ROWS
                                              if row.form in ("call", "keep", "extreme")}


def evaluate(node: n.Node, env: Mapping[str, Value], tables: Mapping[str, R.Table],
             call: CallFormula, upgrades: Mapping[str, R.Upgrade] | None = None,
             constants: Mapping[str, Value] | None = None) -> Value:
    """The value of a checked expression (check.check_types: a type on every node); raises RulesError when the
    rules give no answer.

    Names are looked up in `env` first, then in `constants`: kept apart, the system's constants are not copied
    for every call and every let binding. As in the generated code, each whole-number +, - and * is refused
    beyond MAX_INT, where JavaScript would lose exactness."""
    return _Evaluator(env, tables, call, upgrades or {}, constants or {}).visit(node)


class _Evaluator:
    def __init__(self, env: Mapping[str, Value], tables: Mapping[str, R.Table],
                 call: CallFormula, upgrades: Mapping[str, R.Upgrade], constants: Mapping[str, Value]):
        self.env = env
        self.tables = tables
        self.call_formula = call
        self.upgrades = upgrades
        self.constants = constants
        self.answers: Mapping[int, Value] = {}  # a rolled pool's total or question -> its answer in this roll

    def visit(self, node: n.Node) -> Value:
        if id(node) in self.answers:
            return self.answers[id(node)]
        return getattr(self, "visit_" + type(node).__name__)(node)

    def visit_Num(self, node: n.Num) -> Value:
        return node.value

    def visit_Bool(self, node: n.Bool) -> Value:
        return node.value

    def visit_Text(self, node: n.Text) -> Value:
        return node.value

    def visit_Name(self, node: n.Name) -> Value:
        if resolve_name(node.name, self.env, self.constants) == "local":
            return self.env[node.name]
        return self.constants[node.name]

    def visit_DiceRoll(self, node: n.DiceRoll) -> Value:
        return R.dice(self.visit(node.count), self.visit(node.sides), node.special)

    def visit_Neg(self, node: n.Neg) -> Value:
        value = self.visit(node.operand)
        return R.dneg(value) if isinstance(value, (R.Dist, R.Dice)) else -value

    def visit_Not(self, node: n.Not) -> Value:
        if node.type == Type.EVENT:
            return R.negated(self.visit(node.operand))
        return not self.visit(node.operand)

    def visit_BinOp(self, node: n.BinOp) -> Value:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.op == "/":
            return R.divide(left, right)
        if node.op == "^":
            return R.power(left, right)
        if isinstance(left, R.Dist) or isinstance(right, R.Dist) or (node.op == "//" and isinstance(left, R.Dice)) \
                or node.type == Type.DIST:
            return _roll_arithmetic(node.op, left, right)
        if node.op == "//":
            return R.floor_div(left, right)
        if isinstance(left, R.Dice) or isinstance(right, R.Dice):
            if node.op == "*":
                return R.dice_scale(left, right) if isinstance(left, R.Dice) else R.dice_scale(right, left)
            return R.dice_add(left, right, 1 if node.op == "+" else -1)
        result = left + right if node.op == "+" else left - right if node.op == "-" else left * right
        return R.whole(result) if node.type == Type.INT else result

    def visit_Compare(self, node: n.Compare) -> Value:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.type == Type.EVENT:
            named = node.left.type in (Type.TEXT, Type.OUTCOME)
            return (R.named_chance if named else R.chance)(left, node.op, right)
        return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right,
                "==": left == right, "!=": left != right}[node.op]

    def visit_Logic(self, node: n.Logic) -> Value:
        if node.type == Type.EVENT:
            return (R.both if node.op == "and" else R.either)(self.visit(node.left), self.visit(node.right))
        if node.op == "and":
            return self.visit(node.left) and self.visit(node.right)
        return self.visit(node.left) or self.visit(node.right)

    def visit_Let(self, node: n.Let) -> Value:
        value = self.visit(node.value)
        if isinstance(value, R.Dice) and node.value.type == Type.DICE and \
                not only_total(node.body, node.name):
            found, index = questions(node.body, node.name)
            asked = [(q.kind, *(self.visit(arg) for arg in q.args)) for q in found]
            return R.pool_bind_any(value, asked, lambda answers: self.answering(index, answers).visit(node.body))
        if isinstance(value, (R.Dist, R.Dice, R.Outcomes)):
            return R.bind_any(value, lambda result: self.with_name(node.name, result).visit(node.body))
        return self.with_name(node.name, value).visit(node.body)

    def with_name(self, name: str, value: Value) -> _Evaluator:
        return self.scoped({**self.env, name: value}, self.answers)

    def answering(self, index: Mapping[int, int], answers: tuple[int, ...]) -> _Evaluator:
        """This evaluator, with each asking node of a rolled pool reading its answer in one roll."""
        return self.scoped(self.env, {**self.answers, **{node: answers[i] for node, i in index.items()}})

    def scoped(self, env: Mapping[str, Value], answers: Mapping[int, Value]) -> _Evaluator:
        """An evaluator for an inner scope: these names and these answers, the rest shared."""
        found = _Evaluator(env, self.tables, self.call_formula, self.upgrades, self.constants)
        found.answers = answers
        return found

    def visit_IfElse(self, node: n.IfElse) -> Value:
        cond = self.visit(node.cond)
        if isinstance(cond, R.Outcomes):
            return R.decide_any(cond, lambda: self.visit(node.then), lambda: self.visit(node.other))
        value = self.visit(node.then) if cond else self.visit(node.other)
        kind = node.type  # as the backends do: each branch becomes the type of the whole
        if kind == Type.DIST and not isinstance(value, R.Dist):
            return R.as_dist(value)
        return R.as_outcomes(value) if kind in (Type.OUTCOME, Type.EVENT) else value

    def visit_Call(self, node: n.Call) -> Value:
        form = BUILTINS[node.func].form if resolve_call(node.func) == "builtin" else None
        if form == "lookup":
            table, column = node.args[0], node.args[1]
            assert isinstance(table, n.Name) and isinstance(column, n.Name)
            return R.lookup(self.tables[table.name], column.name, self.visit(node.args[2]))
        args = [self.visit(arg) for arg in node.args]
        if form == "upgrades":
            return getattr(R, BUILTINS[node.func].runtime)(self.upgrades, args[0])
        if form == "length":
            return len(args[0])
        if form is not None:
            return _BUILTINS[node.func](*args)
        return self.call_formula(node.func, args)


def _roll_arithmetic(op: str, left: Value, right: Value) -> Value:
    if op == "+":
        return R.dadd(left, right)
    if op == "-":
        return R.dsub(left, right)
    if op == "//":
        return R.dfloor_div(left, right)
    return R.dscale(left, right) if isinstance(right, int) else R.dscale(right, left)
