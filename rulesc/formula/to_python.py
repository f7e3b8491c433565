"""Python backend: a checked expression to Python source that calls the engine runtime as R, laid out by layout."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence

from rulesc.formula import nodes as n
from rulesc.formula.backend import Backend, written_pool
from rulesc.formula.builtins import BUILTINS, Builtin
from rulesc.formula.layout import Doc, Group, concat, conditional, flat, infix, whole
from rulesc.formula.names import Spelling, resolve_call
from rulesc.formula.regroup import hoisted
from rulesc.formula.types import Type

Resolver = Callable[[str], str]
_AS = {Type.DIST: "R.as_dist", Type.OUTCOME: "R.as_outcomes", Type.EVENT: "R.as_outcomes"}
_ROLL_OPS = {"+": "R.dadd", "-": "R.dsub", "//": "R.dfloor_div"}
# Operators that Python groups from the left, so `(a - b) + c` may be written `a - b + c`: each chain's name.
CHAINS = {"+": "sum", "-": "sum", "*": "product", "and": "and", "or": "or"}
ROLLS = (Type.DICE, Type.DIST, Type.EVENT, Type.OUTCOME)


def expr_to_python(node: n.Node, name: Spelling | Resolver,
                   checks: Collection[int] | None = None, pools: dict[str, str] | None = None) -> Doc:
    """Python source for `node` (flat() gives one line, layout() lines within a width); `name` maps a
    formula-language name to its Python spelling: a Spelling, or one function for every name but a let's.
    What a name refers to is names.resolve_name's and names.resolve_call's decision, as in the interpreter.
    With `pools`, a pool written with whole numbers (2d6, 1d6r2) the runtime accepts is named there (its
    call -> a module-level name, _Pool1, ...), for the module to make once: a pool is a description, like a
    table; its roll is still worked out on each call."""
    spelling = name if isinstance(name, Spelling) else Spelling.uniform(name)
    node, checks = hoisted(node, checks)
    return _ToPython(spelling, checks, pools).visit(node)


def py_call(func: str, args: Sequence[Doc]) -> Group:
    """`func(a, b)`, or broken, one argument a line with a trailing comma."""
    return Group(func + "(", tuple(args), ")", trail=",")


class _ToPython(Backend):
    def __init__(self, spell: Spelling, checks: Collection[int] | None, pools: dict[str, str] | None):
        super().__init__(spell, checks)
        self.pools = pools

    def as_type(self, node: n.Node, wanted: Type) -> Doc:
        """The node's source, turned into a roll where a roll is wanted and the node is a number or pool."""
        source = self.visit(node)
        if not self.converted(node, wanted) or wanted not in _AS:
            return source
        return py_call(_AS[wanted], [source])

    def visit_Num(self, node: n.Num) -> Doc:
        return repr(node.value)

    def visit_Text(self, node: n.Text) -> Doc:
        return repr(node.value)

    def visit_Bool(self, node: n.Bool) -> Doc:
        return repr(node.value)

    def visit_DiceRoll(self, node: n.DiceRoll) -> Doc:
        special = [json.dumps(node.special)] if node.special else []
        made = py_call("R.dice", [self.visit(node.count), self.visit(node.sides), *special])
        if self.pools is None or not written_pool(node):
            return made
        return self.pools.setdefault(flat(made), f"_Pool{len(self.pools) + 1}")

    def visit_Neg(self, node: n.Neg) -> Doc:
        operand = self.visit(node.operand)
        return py_call("R.dneg", [operand]) if node.type == Type.DIST else concat("(-", operand, ")")

    def visit_Not(self, node: n.Not) -> Doc:
        if node.type == Type.EVENT:
            return py_call("R.negated", [self.visit(node.operand)])
        return concat("(not ", self.visit(node.operand), ")")

    def visit_BinOp(self, node: n.BinOp) -> Doc:
        left, right = self.visit(node.left), self.visit(node.right)
        kind = node.type
        if node.op in ("/", "^"):
            return py_call("R.divide" if node.op == "/" else "R.power", [left, right])
        if kind == Type.DIST:
            if node.op == "*":
                return py_call("R.dscale", [left, right] if node.left.type in ROLLS else [right, left])
            return py_call(_ROLL_OPS[node.op], [left, right])
        if node.op == "//":  # by a number written out, not 0: Python's own floor division, no call
            divisor = node.right
            if isinstance(divisor, n.Num) and type(divisor.value) is int and divisor.value:
                return infix("//", left, right, CHAINS)
            return py_call("R.floor_div", [left, right])
        if kind == Type.INT:
            return whole(infix(node.op, left, right, CHAINS)) if self.checked(node) else infix(
                node.op, left, right, CHAINS)
        if kind != Type.DICE:
            return infix(node.op, left, right, CHAINS)
        if node.op == "*":
            return py_call("R.dice_scale", [left, right] if node.left.type == Type.DICE else [right, left])
        return py_call("R.dice_add", [left, right, "-1"] if node.op == "-" else [left, right])

    def visit_Compare(self, node: n.Compare) -> Doc:
        if node.type == Type.EVENT:
            return py_call(self.chance(node), [self.visit(node.left), repr(node.op), self.visit(node.right)])
        return infix(node.op, self.visit(node.left), self.visit(node.right), CHAINS)

    def visit_Logic(self, node: n.Logic) -> Doc:
        if node.type == Type.EVENT:
            both = "R.both" if node.op == "and" else "R.either"
            return py_call(both, [self.visit(node.left), self.visit(node.right)])
        return infix(node.op, self.visit(node.left), self.visit(node.right), CHAINS)

    def visit_IfElse(self, node: n.IfElse) -> Doc:
        kind = node.type
        if node.cond.type == Type.EVENT:
            branches = [concat("lambda: ", self.visit(part)) for part in (node.then, node.other)]
            return py_call(self.named("R.decide", node), [self.visit(node.cond), *branches])
        then, cond = self.as_type(node.then, kind), self.visit(node.cond)
        return conditional(then, cond, self.as_type(node.other, kind), ("if", "else"))

    def sequence(self, items: list[Doc]) -> Doc:
        return Group("(", tuple(items), ",)" if len(items) == 1 else ")")

    def named(self, func: str, node: n.Node) -> str:
        """A mixing runtime function in its typed form: of numbers, or of names and yes/no (`_named`)."""
        return func + "_named" if node.type in (Type.OUTCOME, Type.EVENT) else func

    def visit_Let(self, node: n.Let) -> Doc:
        value = self.visit(node.value)
        pooled = self.pool_bound(node, self.named("R.pool_bind", node), value)
        if pooled is not None:
            return pooled
        inner = self.read_through(node)
        if inner is not None:
            return py_call(self.named("R.bind_through", node), [value, self.bound_function(node.name, inner.value),
                                                                 self.bound_function(inner.name, inner.body)])
        chained = self.roll_chain(node)
        if chained is not None:
            chain, last = chained  # chain[0] is node, its value visited above
            values = self.sequence([value, *(self.visit(let.value) for let in chain[1:])])
            spelled = ", ".join(self.spell.let(let.name) for let in chain)
            return py_call(self.named("R.bind_each", node),
                           [values, concat(f"lambda {spelled}: ", self.chain_body(chain, last))])
        function = self.bound_function(node.name, node.body)
        if node.value.type in ROLLS:
            return py_call(self.named("R.bind", node), [value, function])
        return concat(Group("(", (function,), ")", sep=""), py_call("", [value]))

    def pool_bound(self, node: n.Let, func: str, value: Doc) -> Doc | None:
        """`func(pool, questions, lambda answers: body, needed)` for a let that asks its pool questions
        (pool_let()); None for any other let."""
        pooled = self.pool_let(node)
        if pooled is None:
            return None
        asked, body, needed = pooled
        return py_call(func, [value, self.sequence(asked), concat(f"lambda {self.spell.let(node.name)}: ", body),
                              *([needed] if needed is not None else [])])

    def bound_function(self, name: str, body: n.Node) -> Doc:
        """`lambda name: body`, with the let's name in scope in the body."""
        self.bound.add(name)
        try:
            return concat(f"lambda {self.spell.let(name)}: ", self.visit(body))
        finally:
            self.bound.discard(name)

    def visit_Call(self, node: n.Call) -> Doc:
        row = BUILTINS[node.func] if resolve_call(node.func) == "builtin" else None
        if row is None:
            return py_call(self.spell.formula(node.func), [self.visit(arg) for arg in node.args])
        let = self.mean_of_pool(node)
        if let is not None:
            self.mean_parts(let.body)
            found = self.pool_bound(let, "R.pool_bind_mean", self.visit(let.value))
            assert found is not None  # mean_of_pool() found a let that asks its pool
            return found
        if row.form == "lookup":
            table, column = node.args[0], node.args[1]
            assert isinstance(table, n.Name) and isinstance(column, n.Name)
            typed = {Type.INT: "R.lookup_int", Type.DICE: "R.lookup_dice", Type.TEXT: "R.lookup_text"}.get(node.type,
                                                                                                "R.lookup")
            return py_call(typed, [self.spell.table(table.name), repr(column.name), self.visit(node.args[2])])
        args = [self.visit(arg) for arg in node.args]
        if row.form == "upgrades":
            return py_call(f"R.{row.runtime}", ["UPGRADES", args[0]])
        if row.form == "length":
            return py_call(row.host[0], args[:1])
        if row.form == "extreme":
            return self.extreme(node, row, args)
        return py_call(row.host[0] or f"R.{row.runtime}", [*args, *map(repr, row.flags)])

    def extreme(self, node: n.Call, row: Builtin, args: list[Doc]) -> Doc:
        """min/max: of numbers, the host's; of a roll and a number, the runtime's, the roll first."""
        if node.type != Type.DIST:
            return py_call(row.host[0], args)
        first, second = (0, 1) if node.args[0].type in ROLLS else (1, 0)
        return py_call(f"R.{row.runtime}", [args[first], args[second]])
