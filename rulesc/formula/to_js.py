"""JavaScript backend: a checked expression to JavaScript that calls the calculator runtime as R, laid out by layout."""

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
from rulesc.runtime.contract import js_name

Resolver = Callable[[str], str]
_ROLL_OPS = {"+": "R.dadd", "-": "R.dsub", "//": "R.dfloorDiv"}
_COMPARE = {"==": "===", "!=": "!=="}
_AS = {Type.DIST: "R.asDist", Type.OUTCOME: "R.asOutcomes", Type.EVENT: "R.asOutcomes"}
_EXACT_OPS = {"+": "R.nadd", "-": "R.nsub", "*": "R.nmul"}
# Operators that JavaScript groups from the left, so `(a - b) + c` may be written `a - b + c`: each chain's name.
CHAINS = {"+": "sum", "-": "sum", "*": "product", "&&": "and", "||": "or"}
ROLLS = (Type.DICE, Type.DIST, Type.EVENT, Type.OUTCOME)


def expr_to_js(node: n.Node, name: Spelling | Resolver,
               checks: Collection[int] | None = None, pools: dict[str, str] | None = None) -> Doc:
    """JavaScript source for `node` (flat() gives one line, layout() lines within a width); `name` maps a
    formula-language name to its JavaScript spelling: a Spelling, or one function for every name but a let's.
    What a name refers to is names.resolve_name's and names.resolve_call's decision, as in the interpreter.
    With `pools`, a pool written with whole numbers is named there (its call -> Pool1, ...), for the script to
    make once, as the Python engine's module does (to_python.expr_to_python)."""
    spelling = name if isinstance(name, Spelling) else Spelling.uniform(name)
    node, checks = hoisted(node, checks)
    return _ToJs(spelling, checks, pools).visit(node)


def js_call(func: str, args: Sequence[Doc]) -> Group:
    """`func(a, b)`, or broken, one argument a line."""
    return Group(func + "(", tuple(args), ")")


def js_function(params: Sequence[str], body: Doc) -> Doc:
    """`function (a, b) { return body; }`, or broken, the return statement (and the parameters) on their own
    lines."""
    statement = Group("{", (concat("return ", body, ";"),), "}", sep="", pad=" ")
    return concat(Group("function (", tuple(params), ")"), " ", statement)


class _ToJs(Backend):
    WORDS = {"and": " && ", "or": " || ", "not": "!", "yes": "true"}

    def __init__(self, spell: Spelling, checks: Collection[int] | None, pools: dict[str, str] | None):
        super().__init__(spell, checks)
        self.pools = pools

    def as_type(self, node: n.Node, wanted: Type) -> Doc:
        source = self.visit(node)
        if not self.converted(node, wanted) or wanted not in _AS:
            return source
        return js_call(_AS[wanted], [source])

    def chance(self, node: n.Compare) -> str:
        return "R.namedChance" if super().chance(node) == "R.named_chance" else "R.chance"

    def visit_Num(self, node: n.Num) -> Doc:
        return json.dumps(node.value)

    def visit_Text(self, node: n.Text) -> Doc:
        return json.dumps(node.value)

    def visit_Bool(self, node: n.Bool) -> Doc:
        return json.dumps(node.value)

    def visit_DiceRoll(self, node: n.DiceRoll) -> Doc:
        special = [json.dumps(node.special)] if node.special else []
        made = js_call("R.dice", [self.visit(node.count), self.visit(node.sides), *special])
        if self.pools is None or not written_pool(node):
            return made
        return self.pools.setdefault(flat(made), f"Pool{len(self.pools) + 1}")

    def visit_Neg(self, node: n.Neg) -> Doc:
        operand, kind = self.visit(node.operand), node.type
        if kind in (Type.DIST, Type.NUM):
            return js_call("R.dneg" if kind == Type.DIST else "R.nneg", [operand])
        return concat("(-", operand, ")")

    def visit_Not(self, node: n.Not) -> Doc:
        if node.type == Type.EVENT:
            return js_call("R.negated", [self.visit(node.operand)])
        return concat("(!", self.visit(node.operand), ")")

    def visit_BinOp(self, node: n.BinOp) -> Doc:
        left, right = self.visit(node.left), self.visit(node.right)
        kind = node.type
        if node.op in ("/", "^"):
            return js_call("R.divide" if node.op == "/" else "R.power", [left, right])
        if kind == Type.DIST:
            if node.op == "*":
                return js_call("R.dscale", [left, right] if node.left.type in ROLLS else [right, left])
            return js_call(_ROLL_OPS[node.op], [left, right])
        if node.op == "//":
            return js_call("R.floorDiv", [left, right])
        if kind == Type.NUM:
            return js_call(_EXACT_OPS[node.op], [left, right])
        if kind == Type.INT:
            return whole(infix(node.op, left, right, CHAINS)) if self.checked(node) else infix(
                node.op, left, right, CHAINS)
        if node.op == "*":
            return js_call("R.diceScale", [left, right] if node.left.type == Type.DICE else [right, left])
        return js_call("R.diceAdd", [left, right, "-1"] if node.op == "-" else [left, right])

    def visit_Compare(self, node: n.Compare) -> Doc:
        """Whole numbers and flags compare as JavaScript does; fractions and floats exactly, through R.cmp."""
        left, right, op = self.visit(node.left), self.visit(node.right), _COMPARE.get(node.op, node.op)
        if node.type == Type.EVENT:
            return js_call(self.chance(node), [left, json.dumps(node.op), right])
        if Type.NUM in (node.left.type, node.right.type):
            return infix(op, js_call("R.cmp", [left, right]), "0", CHAINS)
        return infix(op, left, right, CHAINS)

    def visit_Logic(self, node: n.Logic) -> Doc:
        if node.type == Type.EVENT:
            both = "R.both" if node.op == "and" else "R.either"
            return js_call(both, [self.visit(node.left), self.visit(node.right)])
        op = "&&" if node.op == "and" else "||"
        return infix(op, self.visit(node.left), self.visit(node.right), CHAINS)

    def visit_IfElse(self, node: n.IfElse) -> Doc:
        kind = node.type
        if node.cond.type == Type.EVENT:
            branches = [js_function([], self.visit(part)) for part in (node.then, node.other)]
            return js_call("R.decide", [self.visit(node.cond), *branches])
        cond = self.visit(node.cond)
        return conditional(cond, self.as_type(node.then, kind), self.as_type(node.other, kind), ("?", ":"))

    def sequence(self, items: list[Doc]) -> Doc:
        return Group("[", tuple(items), "]")

    def visit_Let(self, node: n.Let) -> Doc:
        value = self.visit(node.value)
        pooled = self.pool_bound(node, "R.poolBind", value)
        if pooled is not None:
            return pooled
        inner = self.read_through(node)
        if inner is not None:
            return js_call("R.bindThrough", [value, self.bound_function(node.name, inner.value),
                                              self.bound_function(inner.name, inner.body)])
        chained = self.roll_chain(node)
        if chained is not None:
            chain, last = chained  # chain[0] is node, its value visited above
            values = self.sequence([value, *(self.visit(let.value) for let in chain[1:])])
            params = [self.spell.let(let.name) for let in chain]
            return js_call("R.bindEach", [values, js_function(params, self.chain_body(chain, last))])
        function = self.bound_function(node.name, node.body)
        if node.value.type in ROLLS:
            return js_call("R.bind", [value, function])
        return concat(Group("(", (function,), ")", sep=""), js_call("", [value]))

    def pool_bound(self, node: n.Let, func: str, value: Doc) -> Doc | None:
        """`func(pool, questions, function (answers) {...}, needed)` for a let that asks its pool questions
        (pool_let()); None for any other let."""
        pooled = self.pool_let(node)
        if pooled is None:
            return None
        asked, body, needed = pooled
        return js_call(func, [value, self.sequence(asked), js_function([self.spell.let(node.name)], body),
                              *([needed] if needed is not None else [])])

    def bound_function(self, name: str, body: n.Node) -> Doc:
        """`function (name) { return body; }`, with the let's name in scope in the body."""
        self.bound.add(name)
        try:
            return js_function([self.spell.let(name)], self.visit(body))
        finally:
            self.bound.discard(name)

    def visit_Call(self, node: n.Call) -> Doc:
        row = BUILTINS[node.func] if resolve_call(node.func) == "builtin" else None
        if row is None:
            return js_call(self.spell.formula(node.func), [self.visit(arg) for arg in node.args])
        let = self.mean_of_pool(node)
        if let is not None:
            self.mean_parts(let.body)
            found = self.pool_bound(let, "R.poolBindMean", self.visit(let.value))
            assert found is not None  # mean_of_pool() found a let that asks its pool
            return found
        if row.form == "lookup":
            table, column = node.args[0], node.args[1]
            assert isinstance(table, n.Name) and isinstance(column, n.Name)
            key = self.visit(node.args[2])
            return js_call(_runtime(row.runtime), [self.spell.table(table.name), json.dumps(column.name), key])
        args = [self.visit(arg) for arg in node.args]
        if row.form == "upgrades":
            return js_call(_runtime(row.runtime), ["U", args[0]])
        if row.form == "length":
            return concat(Group("(", (args[0],), ")", sep=""), ".length")
        if row.form == "extreme":
            return self.extreme(node, row, args)
        return js_call(row.host[1] or _runtime(row.runtime), [*args, *map(json.dumps, row.flags)])

    def extreme(self, node: n.Call, row: Builtin, args: list[Doc]) -> Doc:
        """min/max: of exact numbers, the runtime's (R.nmin); of whole numbers, the host's; of a roll and a
        number, the runtime's, the roll first."""
        if node.type == Type.NUM:
            return js_call(f"R.n{row.name}", args)
        if node.type != Type.DIST:
            return js_call(row.host[1], args)
        first, second = (0, 1) if node.args[0].type in ROLLS else (1, 0)
        return js_call(_runtime(row.runtime), [args[first], args[second]])


def _runtime(name: str) -> str:
    """A runtime function, named as Python spells it, as the generated JavaScript calls it."""
    return "R." + js_name(name)
