"""Formula bounds: which whole-number +, - and * could leave +/- MAX_INT, and so need a check in generated code.

Every whole number rulesc holds is within +/- MAX_INT (inputs are checked, and so is every operation that could
leave the range), so an unknown whole number lies in FULL. An operation whose operands' ranges keep its result in
range needs no check; the rest are written R.whole(...) by both backends. The interpreter checks every one, which
gives the same answers: a check that cannot fail changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from rulesc.formula import nodes as n
from rulesc.formula.builtins import BUILTINS
from rulesc.formula.names import resolve_call
from rulesc.formula.types import Type
from rulesc.runtime.rulesc_runtime import MAX_INT

Interval = tuple[int, int]
FULL: Interval = (-MAX_INT, MAX_INT)
Constant = Callable[[str], Interval | None]
Column = Callable[[str, str], Interval | None]


def overflow_checks(node: n.Node, locals_: Collection[str], constant: Constant,
                    column: Column) -> set[int]:
    """The ids of the whole-number +, - and * nodes of `node` whose result may leave +/- MAX_INT.

    `locals_` are the parameters and inputs (any whole number); `constant` gives a value's range (its value
    twice) and `column` a table column's, or None where it is not whole numbers."""
    walker = _Bounds(set(locals_), constant, column)
    walker.visit(node)
    return walker.checks


class _Bounds:
    def __init__(self, locals_: set[str], constant: Constant, column: Column):
        self.locals = locals_
        self.constant = constant
        self.column = column
        self.lets: dict[str, Interval] = {}
        self.faces: dict[str, Interval] = {}  # a let-bound plain roll of dice: the range of each die's face
        self.checks: set[int] = set()

    def visit(self, node: n.Node) -> Interval:
        """The range of a whole-number node (FULL for anything else), visiting every child."""
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            for child in n.children(node):
                self.visit(child)
            return FULL
        found: Interval = method(node)
        return found if node.type == Type.INT else FULL

    def visit_Num(self, node: n.Num) -> Interval:
        return (node.value, node.value) if isinstance(node.value, int) else FULL

    def visit_Name(self, node: n.Name) -> Interval:
        if node.name in self.lets:
            return self.lets[node.name]
        if node.name in self.locals:
            return FULL
        return self.constant(node.name) or FULL

    def visit_Neg(self, node: n.Neg) -> Interval:
        low, high = self.visit(node.operand)
        return (-high, -low)

    def visit_BinOp(self, node: n.BinOp) -> Interval:
        left, right = self.visit(node.left), self.visit(node.right)
        if node.type != Type.INT:
            return FULL
        if node.op in ("+", "-", "*"):
            found = _arithmetic(node.op, left, right)
            if not _within(found):
                self.checks.add(id(node))
                return FULL
            return found
        if node.op == "//":
            return _shrunk(left)
        return FULL

    def visit_IfElse(self, node: n.IfElse) -> Interval:
        self.visit(node.cond)
        return _hull(self.visit(node.then), self.visit(node.other))

    def visit_Let(self, node: n.Let) -> Interval:
        bound = self.visit(node.value)
        rolled = node.value.type in (Type.DICE, Type.DIST)
        faces = self.roll_faces(node.value) if rolled else None
        saved, saved_faces = self.lets.get(node.name), self.faces.pop(node.name, None)
        self.lets[node.name] = bound if not rolled else self.roll_total(node.value, faces)
        if faces is not None:
            self.faces[node.name] = faces
        try:
            return self.visit(node.body)
        finally:
            _restore(self.lets, node.name, saved)
            _restore(self.faces, node.name, saved_faces)

    def roll_faces(self, node: n.Node) -> Interval | None:
        """The range of each die's face in NdS written out (plain, Fudge, listed or rerolled faces), else None."""
        if not isinstance(node, n.DiceRoll) or node.special.startswith("!") or "!" in node.special:
            return None
        if node.special == "F":
            return (-1, 1)
        if node.special.startswith("{"):
            try:
                listed = [int(face) for face in node.special.strip("{} ").split(",")]
            except ValueError:
                return None
            return (min(listed), max(listed))
        sides = self.visit(node.sides)
        return (1, sides[1]) if sides[1] >= 1 and _within(sides) else None

    def roll_total(self, node: n.Node, faces: Interval | None) -> Interval:
        """The range of a let-bound roll's total: N dice's faces added up (N >= 0), else FULL."""
        if faces is None or not isinstance(node, n.DiceRoll):
            return FULL
        low, high = self.visit(node.count)
        found = _arithmetic("*", (max(low, 0), max(high, 0)), faces)
        return found if _within(found) else FULL

    def visit_Call(self, node: n.Call) -> Interval:
        row = BUILTINS.get(node.func) if resolve_call(node.func) == "builtin" else None
        if row is not None and row.form == "lookup" and isinstance(node.args[0], n.Name) and \
                isinstance(node.args[1], n.Name):
            self.visit(node.args[2])
            return self.column(node.args[0].name, node.args[1].name) or FULL
        args = [self.visit(arg) for arg in node.args]
        picked = self.picked(node, args)
        if picked is not None:
            return picked
        if row is None or not args:
            return FULL
        if row.form == "extreme":
            pick = min if row.host[0] == "min" else max
            return (pick(a[0] for a in args), pick(a[1] for a in args))
        if row.bounds == "clamp" and len(args) == 3:
            return (args[1][0], max(args[1][1], args[2][1]))
        if row.bounds == "magnitude":
            return (0, max(abs(args[0][0]), abs(args[0][1])))
        return _shrunk(args[0]) if row.bounds == "shrunk" else FULL

    def picked(self, node: n.Call, args: list[Interval]) -> Interval | None:
        """highest/lowest(p, k) of a let-bound roll p: k faces (0 <= k), so k times a face at the most."""
        row = BUILTINS.get(node.func) if resolve_call(node.func) == "builtin" else None
        if row is None or row.form != "keep" or len(args) != 2 or not isinstance(node.args[0], n.Name):
            return None
        faces = self.faces.get(node.args[0].name)
        if faces is None or node.args[0].name not in self.lets:
            return None
        found = _arithmetic("*", (max(args[1][0], 0), max(args[1][1], 0)), _hull(faces, (0, 0)))
        return found if _within(found) else None


def _restore(found: dict[str, Interval], name: str, saved: Interval | None) -> None:
    if saved is None:
        found.pop(name, None)
    else:
        found[name] = saved


def _arithmetic(op: str, a: Interval, b: Interval) -> Interval:
    if op == "+":
        return (a[0] + b[0], a[1] + b[1])
    if op == "-":
        return (a[0] - b[1], a[1] - b[0])
    corners = [x * y for x in a for y in b]
    return (min(corners), max(corners))


def _shrunk(a: Interval) -> Interval:
    """The range of a // b for any whole b: never further from zero than a (or than 1, for b = -1 and a = 0)."""
    reach = max(abs(a[0]), abs(a[1]), 1)
    return (-reach, reach)


def _hull(a: Interval, b: Interval) -> Interval:
    return (min(a[0], b[0]), max(a[1], b[1]))


def _within(a: Interval) -> bool:
    return a[0] >= -MAX_INT and a[1] <= MAX_INT
