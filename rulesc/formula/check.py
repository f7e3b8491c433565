"""Formula checking: resolve every name and return the tree with a type on every node (int, bool, dice, dist, ...).

dice is a pool written like 1d10+1d4; dist is the exact distribution of a roll; num is an exact rational
(a probability, a mean). Where a dist is expected a dice pool or an int is accepted; where a num is expected,
an int is accepted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rulesc.diagnostics.core import Diagnostics, Span, did_you_mean
from rulesc.formula import nodes as n
from rulesc.formula.builtins import BUILTINS, Builtin
from rulesc.formula.names import mentioned_names, resolve_call, resolve_name
from rulesc.formula.pools import POOL_FUNCTIONS
from rulesc.formula.types import CHANCY, NAMED, ROLLED, Type

ACCEPTS = {Type.DIST: {Type.DIST, Type.DICE, Type.INT}, Type.NUM: {Type.NUM, Type.INT},
           Type.EVENT: {Type.EVENT, Type.BOOL}, Type.OUTCOME: {Type.OUTCOME, Type.TEXT}}
ROLL_RESULTS = {Type.INT: Type.DIST, Type.DICE: Type.DIST, Type.DIST: Type.DIST, Type.TEXT: Type.OUTCOME,
                Type.OUTCOME: Type.OUTCOME, Type.BOOL: Type.EVENT, Type.EVENT: Type.EVENT}
"""What a result that depends on a roll becomes: a roll of numbers, of named outcomes, or of yes and no."""


REPEAT_HINT = ("write repeat(pool, n) to repeat the dice in either format; `rulesc migrate` writes that for every "
               "such '*' and moves the system to format 2")

@dataclass(frozen=True)
class Columns:
    """A table's columns as formulas see them: each one's type by its key, and the first column's key when it
    holds no whole numbers to look a row up by (`unkeyed`: lookup() refuses the table)."""

    types: Mapping[str, Type]
    unkeyed: str | None = None


class TypeFailure(Exception):
    """Stops typing one expression after its first error has been reported."""


@dataclass
class Scope:
    """What names mean inside one expression."""

    locals: dict[str, Type]
    constants: Mapping[str, Type]
    tables: Mapping[str, Columns]
    signature: Callable[[str, Span], tuple[tuple[Type, ...], Type] | None]
    format: int = 2  # the system's content format: in 1, a pool times a number repeats its dice (W0708)


def check_types(node: n.Node, scope: Scope, diags: Diagnostics) -> n.Node | None:
    """The expression with a type on every node (the whole's is its .type); None after reporting an error."""
    try:
        return _Typer(scope, diags).visit(node)
    except TypeFailure:
        return None


class _Typer:
    """Each visit returns the node typed, with its children typed (nodes.typed)."""

    def __init__(self, scope: Scope, diags: Diagnostics):
        self.scope = scope
        self.diags = diags
        self.pools: dict[str, set[str]] = {}  # each rolled pool's name -> the local names bound before it
        self.rolled: dict[str, n.Node] = {}  # each rolled pool's name -> the expression it was rolled from

    def fail(self, code: str, message: str, span: Span, hint: str | None = None) -> TypeFailure:
        self.diags.error(code, message, span, hint)
        return TypeFailure()

    def visit(self, node: n.Node) -> n.Node:
        method = getattr(self, "visit_" + type(node).__name__)
        found: n.Node = method(node)
        return found

    def expect(self, node: n.Node, wanted: Type, what: str) -> n.Node:
        got = self.visit(node)
        if got.type not in ACCEPTS.get(wanted, {wanted}):
            raise self.fail("E0403", f"{what} must be {wanted}, got {got.type}", node.span,
                            repeat_hint(node, wanted, got.type))
        return got

    def visit_Num(self, node: n.Num) -> n.Node:
        return n.typed(node, Type.INT)

    def visit_Bool(self, node: n.Bool) -> n.Node:
        return n.typed(node, Type.BOOL)

    def visit_Text(self, node: n.Text) -> n.Node:
        return n.typed(node, Type.TEXT)

    def visit_Name(self, node: n.Name) -> n.Node:
        kind = resolve_name(node.name, self.scope.locals, self.scope.constants)
        found = self.scope.locals[node.name] if kind == "local" else self.scope.constants.get(node.name)
        if found is None:
            known = list(self.scope.locals) + list(self.scope.constants)
            raise self.fail("E0402", f"unknown name '{node.name}'", node.span, did_you_mean(node.name, known))
        return n.typed(node, Type.INT if found == Type.POOL else Type(found))  # a rolled pool as a number: its total

    def visit_DiceRoll(self, node: n.DiceRoll) -> n.Node:
        count = self.expect(node.count, Type.INT, "the number of dice")
        sides = self.expect(node.sides, Type.INT, "the number of sides")
        if self.scope.format == 1 and _written_d66(node):
            assert isinstance(node.sides, n.Num)
            value = node.sides.value
            self.diags.warning("W0708", f"d{value} is one die of {value} sides in content format 1; format 2 reads "
                               f"it as tens and units, as d66 tables do", node.span,
                               f"write 1d({value}) to keep a die of {value} sides in either format; `rulesc migrate` "
                               "writes that for every such die and moves the system to format 2")
        return n.typed(node, Type.DICE, count=count, sides=sides)

    def visit_Neg(self, node: n.Neg) -> n.Node:
        operand = self.visit(node.operand)
        got = operand.type
        if got not in (Type.INT, Type.NUM, Type.DIST, Type.DICE):
            raise self.fail("E0403", f"the operand of '-' must be a number or a roll, got {got}", node.span)
        return n.typed(node, Type.DIST if got == Type.DICE else got, operand=operand)

    def visit_Not(self, node: n.Not) -> n.Node:
        operand = self.expect(node.operand, Type.EVENT, "the operand of 'not'")
        return n.typed(node, operand.type, operand=operand)

    def visit_BinOp(self, node: n.BinOp) -> n.Node:
        left, right = self.visit(node.left), self.visit(node.right)
        kinds = {left.type, right.type}
        if node.op == "*" and kinds == {Type.INT, Type.DICE} and self.scope.format == 1:
            self.diags.warning("W0708", "'*' on a pool repeats its dice in content format 1 (1d6 * 3 is 3d6); "
                               "format 2 reads it as the roll's result times the number", node.span, REPEAT_HINT)
            return n.typed(node, Type.DICE, left=left, right=right)
        result = _binary_type(node.op, left.type, right.type)
        if result is None:
            raise self.fail("E0403", f"'{node.op}' cannot combine {left.type} and {right.type}", node.span,
                            _combine_hint(left.type, right.type))
        return n.typed(node, result, left=left, right=right)

    def visit_Compare(self, node: n.Compare) -> n.Node:
        """Numbers compare to bool; a roll compared (with a number or a roll) is an event, the chance of yes;
        names compare for equality, a roll of named outcomes with a name is an event too."""
        left, right = self.visit(node.left), self.visit(node.right)
        return n.typed(node, self.compared(node, left.type, right.type), left=left, right=right)

    def compared(self, node: n.Compare, left: Type, right: Type) -> Type:
        numbers, equality, kinds = {Type.INT, Type.NUM}, node.op in ("==", "!="), {left, right}
        if (left in numbers and right in numbers) or (equality and left == right and left in (Type.BOOL, Type.TEXT)):
            return Type.BOOL
        if ROLLED & kinds and kinds <= ROLLED | {Type.INT}:
            return Type.EVENT
        if equality and kinds == NAMED:
            return Type.EVENT
        hint = "names compare with == and !=" if kinds & NAMED else None
        raise self.fail("E0403", f"'{node.op}' cannot compare {left} with {right}", node.span, hint)

    def visit_Logic(self, node: n.Logic) -> n.Node:
        left = self.expect(node.left, Type.EVENT, f"the left side of '{node.op}'")
        right = self.expect(node.right, Type.EVENT, f"the right side of '{node.op}'")
        result = Type.EVENT if Type.EVENT in (left.type, right.type) else Type.BOOL
        return n.typed(node, result, left=left, right=right)

    def visit_IfElse(self, node: n.IfElse) -> n.Node:
        """On a yes/no condition, one branch; on an event (a condition on a roll), the mixture of both."""
        cond = self.expect(node.cond, Type.EVENT, "the condition of 'if'")
        then, other = self.visit(node.then), self.visit(node.other)
        joined = _join(then.type, other.type)
        if joined is None:
            raise self.fail("E0403", f"the branches of 'if' differ: {then.type} and {other.type}", node.span)
        if cond.type == Type.EVENT:
            if joined not in ROLL_RESULTS:
                raise self.fail("E0403", f"on a condition on a roll, the branches must be numbers, rolls, names or "
                                f"yes/no, got {joined}", node.span, "take the chance of it with p(...)")
            joined = ROLL_RESULTS[joined]
        return n.typed(node, joined, cond=cond, then=then, other=other)

    def visit_Let(self, node: n.Let) -> n.Node:
        if node.name in self.scope.locals or node.name in self.scope.constants:
            raise self.fail("E0406", f"'{node.name}' is already a name here; a let needs a new one", node.span)
        value = self.visit(node.value)
        bound = value.type
        rolled = bound in (Type.DICE, Type.DIST, Type.EVENT, Type.OUTCOME)
        if bound == Type.DICE:
            self.pools[node.name] = set(self.scope.locals)
            self.rolled[node.name] = node.value
        rolled_as = {Type.DICE: Type.POOL, Type.DIST: Type.INT, Type.EVENT: Type.BOOL, Type.OUTCOME: Type.TEXT}
        self.scope.locals[node.name] = rolled_as.get(bound, bound)
        try:
            body = self.visit(node.body)
        finally:
            del self.scope.locals[node.name]
            self.pools.pop(node.name, None)
            self.rolled.pop(node.name, None)
        if rolled and body.type not in ROLL_RESULTS:
            raise self.fail("E0403", f"after rolling '{node.name}', the result must be a number, a roll, a name or "
                            f"yes/no, got {body.type}", node.body.span, _wrap_hint(node))
        return n.typed(node, ROLL_RESULTS[body.type] if rolled else body.type, value=value, body=body)

    def visit_Call(self, node: n.Call) -> n.Node:
        row = BUILTINS[node.func] if resolve_call(node.func) == "builtin" else None
        if row is None:
            return self.call(node, self.scope.signature(node.func, node.span))
        if row.form == "lookup":
            return self.lookup(node)
        if row.asks_pool and node.args and isinstance(node.args[0], n.Name) and \
                self.scope.locals.get(node.args[0].name) == Type.POOL:
            return self.question(node, node.args[0])
        if row.arities:
            return self.counted(node, row)
        if row.form == "keep" and node.args:
            self.ordered(node, node.args[0])
        if row.form == "extreme":
            return self.extreme(node)
        return self.call(node, (row.params, row.result))

    def call(self, node: n.Call, signature: tuple[tuple[Type, ...], Type] | None) -> n.Node:
        """A call with one argument per parameter: of a built-in or of a formula of the system."""
        if signature is None:
            raise self.fail("E0402", f"unknown function '{node.func}'", node.span, did_you_mean(node.func, BUILTINS))
        params, result = signature
        if len(params) != len(node.args):
            raise self.fail("E0404", f"{node.func}() takes {len(params)} argument(s), got {len(node.args)}", node.span)
        args = tuple(self.expect(arg, wanted, f"argument {index} of {node.func}()")
                     for index, (arg, wanted) in enumerate(zip(node.args, params, strict=True), start=1))
        return n.typed(node, result, args=args)

    def question(self, node: n.Call, pool: n.Name) -> n.Node:
        """highest(p, k), count(p, face), ... on a rolled pool: a whole number, read from the one roll."""
        if len(node.args) not in POOL_FUNCTIONS[node.func]:
            wanted = " or ".join(str(k) for k in POOL_FUNCTIONS[node.func])
            raise self.fail("E0404", f"{node.func}() takes {wanted} argument(s), got {len(node.args)}", node.span)
        if BUILTINS[node.func].form == "keep":
            self.ordered(node, self.rolled[pool.name])
        args: list[n.Node] = [n.typed(pool, Type.POOL)]
        for index, arg in enumerate(node.args[1:], start=2):
            args.append(self.expect(arg, Type.INT, f"argument {index} of {node.func}()"))
            self.known_before(node, pool, index, arg)
        return n.typed(node, Type.INT, args=tuple(args))

    def known_before(self, node: n.Call, pool: n.Name, index: int, arg: n.Node) -> None:
        """E0403 for a question's argument that reads a name bound after the pool is rolled."""
        before = self.pools[pool.name]
        inner = sorted(name for name in mentioned_names(arg) if name in self.scope.locals and name not in before)
        if inner:
            raise self.fail("E0403", f"argument {index} of {node.func}() uses '{inner[0]}', which is known only "
                            f"after '{pool.name}' is rolled", arg.span,
                            f"what {node.func}() asks is fixed before the dice fall: use numbers, values, "
                            f"parameters or names let before '{pool.name}'")

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

    def counted(self, node: n.Call, row: Builtin) -> n.Node:
        """A built-in that takes some of its parameters, in order: count(pool, face) or count(pool, low, high)."""
        if len(node.args) not in row.arities:
            wanted = " or ".join(str(k) for k in row.arities)
            raise self.fail("E0404", f"{node.func}() takes {wanted} arguments, got {len(node.args)}", node.span,
                            row.usage or None)
        args = tuple(self.expect(arg, param, f"argument {index} of {node.func}()")
                     for index, (arg, param) in enumerate(zip(node.args, row.params, strict=False), start=1))
        return n.typed(node, row.result, args=args)

    def extreme(self, node: n.Call) -> n.Node:
        """min/max: of whole numbers, of exact numbers, or of a roll and a number (each result clamped)."""
        if len(node.args) < 2:
            raise self.fail("E0404", f"{node.func}() needs at least two arguments, got {len(node.args)}", node.span,
                            f"{node.func}(a, b) gives the {'larger' if node.func == 'max' else 'smaller'} of a and b")
        args = tuple(self.visit(arg) for arg in node.args)
        kinds = {arg.type for arg in args}
        if kinds <= {Type.INT}:
            return n.typed(node, Type.INT, args=args)
        if kinds <= {Type.INT, Type.NUM}:
            return n.typed(node, Type.NUM, args=args)
        if len(args) == 2 and kinds <= {Type.INT, Type.DICE, Type.DIST}:
            return n.typed(node, Type.DIST, args=args)
        raise self.fail("E0403", f"{node.func}() takes numbers, or two values of which one may be a roll; "
                        f"got {', '.join(arg.type for arg in args)}", node.span)

    def lookup(self, node: n.Call) -> n.Node:
        if len(node.args) != 3 or not isinstance(node.args[0], n.Name) or not isinstance(node.args[1], n.Name):
            raise self.fail("E0404", "lookup() takes a table name, a column name and a key", node.span,
                            "e.g. lookup(damage_table, dice, level)")
        table, column = node.args[0], node.args[1]
        columns = self.columns(table, column)
        key = self.visit(node.args[2])
        if key.type != Type.INT:
            hint = (f"roll it first and look the roll up: let key = ... in lookup({table.name}, {column.name}, key) "
                    f"gives the {column.name} of each result with its chance") if key.type in ROLLED else None
            raise self.fail("E0403", f"the key of lookup() must be int, got {key.type}", node.args[2].span, hint)
        args = (n.typed(table, Type.TABLE), n.typed(column, Type.COLUMN), key)
        return n.typed(node, columns.types[column.name], args=args)

    def columns(self, table: n.Name, column: n.Name) -> Columns:
        """The columns of the table lookup() names, which must have `column` and a key to look rows up by."""
        columns = self.scope.tables.get(table.name)
        if columns is None:
            raise self.fail("E0402", f"unknown table '{table.name}'", table.span,
                            did_you_mean(table.name, self.scope.tables))
        if columns.unkeyed is not None:
            raise self.fail("E0403", f"table '{table.name}' has no whole numbers to look a row up by: its first column "
                            f"'{columns.unkeyed}' holds {columns.types[columns.unkeyed]}", table.span,
                            "lookup() finds the row whose first column (type: range, or int) holds the key")
        if column.name not in columns.types:
            raise self.fail("E0402", f"table '{table.name}' has no column '{column.name}'", column.span,
                            did_you_mean(column.name, columns.types))
        return columns


def _combine_hint(left: Type, right: Type) -> str:
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


def repeat_hint(node: n.Node, wanted: str | None, got: Type) -> str | None:
    """Where dice are wanted and `pool * n` gave a roll: the hint to repeat the pool instead."""
    if wanted == Type.DICE and got == Type.DIST and isinstance(node, n.BinOp) and node.op == "*":
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


def _binary_type(op: str, left: Type, right: Type) -> Type | None:
    """The type of `left op right`, or None when the operator does not apply."""
    kinds = {left, right}
    if op == "^":
        return left if left in (Type.INT, Type.NUM) and right == Type.INT else None
    if op == "/":
        return Type.NUM if kinds <= {Type.INT, Type.NUM} else None
    if op == "//":
        return Type.INT if kinds == {Type.INT} else Type.DIST if left in ROLLED and right == Type.INT else None
    if kinds == {Type.INT}:
        return Type.INT
    if kinds <= {Type.INT, Type.NUM}:
        return Type.NUM
    if Type.DIST in kinds and kinds <= {Type.INT, Type.DICE, Type.DIST}:
        return None if op == "*" and Type.INT not in kinds else Type.DIST
    if op in "+-" and kinds <= {Type.INT, Type.DICE} and not (op == "-" and left == Type.INT):
        return Type.DICE
    if op == "*" and kinds == {Type.INT, Type.DICE}:
        return Type.DIST  # the roll's result multiplied: 1d6 * 10 + 1d6 is d66's tens and units
    return None


def _join(a: Type, b: Type) -> Type | None:
    """The type both branches of an if can be given."""
    if a == b:
        return a
    if {a, b} <= {Type.INT, Type.NUM}:
        return Type.NUM
    for group in ({Type.INT, Type.DICE, Type.DIST}, NAMED, CHANCY):
        if {a, b} <= group:
            return ROLL_RESULTS.get(a if a in ROLL_RESULTS.values() else b, a)
    return None
