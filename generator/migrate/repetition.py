"""Step: `pool * n` repeated a pool's dice in format 1; format 2 spells that `repeat(pool, n)`, and `d66` was a die of
66 sides, spelled `1d(66)` in format 2, where d66 is a tens-and-units roll."""

from __future__ import annotations

from collections.abc import Iterator

from generator.formula import nodes as n
from generator.formula.parser import TENS_AND_UNITS
from generator.migrate.edits import Edit
from generator.migrate.plan import Step, SystemSource
from generator.migrate.written import Written
from generator.model import Expr


def edits(source: SystemSource) -> list[Edit]:
    """One edit per outermost node that changes spelling, in every formula and calculator output."""
    found: list[Edit] = []
    for expr in _expressions(source):
        assert expr.node is not None, "a project that checks has parsed every formula"
        path = source.path(expr.span)
        rewriter = _Rewriter(Written(expr, source.texts[path]), source.program.types)
        for node in rewriter.outermost(expr.node):
            start, end = rewriter.written.chars(node)
            found.append(Edit(path, start, end, rewriter.render(node)))
    return found


def _expressions(source: SystemSource) -> Iterator[Expr]:
    program = source.program
    for formula in program.formulas.values():
        yield formula.expr
    for calculator in program.calculators.values():
        yield from (output.expr for output in calculator.outputs)


class _Rewriter:
    """Writes a node with each repeated pool and each d66 in format 2's spelling, the rest as it was written."""

    def __init__(self, written: Written, types: dict[int, str]):
        self.written = written
        self.types = types

    def changes(self, node: n.Node) -> bool:
        if isinstance(node, n.BinOp):
            return node.op == "*" and {self.types.get(id(node.left)), self.types.get(id(node.right))} == {"int", "dice"}
        return isinstance(node, n.DiceRoll) and _many_sides(node)

    def outermost(self, node: n.Node) -> Iterator[n.Node]:
        if self.changes(node):
            yield node
            return
        for child in n.children(node):
            yield from self.outermost(child)

    def render(self, node: n.Node) -> str:
        if isinstance(node, n.BinOp) and self.changes(node):
            pool, count = (node.left, node.right) if self.types.get(id(node.left)) == "dice" else \
                (node.right, node.left)
            return f"repeat({self.render(pool)}, {self.render(count)})"
        if isinstance(node, n.DiceRoll) and self.changes(node):
            return self.sides(node)
        return self.as_written(node)

    def as_written(self, node: n.Node) -> str:
        """The node's text in the file, with its changed descendants rendered anew."""
        start, end = self.written.chars(node)
        text = self.written.text
        parts, at = [], start
        for changed in (inner for child in n.children(node) for inner in self.outermost(child)):
            changed_start, changed_end = self.written.chars(changed)
            parts += [text[at:changed_start], self.render(changed)]
            at = changed_end
        return "".join(parts) + text[at:end]

    def sides(self, roll: n.DiceRoll) -> str:
        """d66 as a die of 66 sides: its sides in brackets (1d(66)), and the count it implied written out."""
        assert isinstance(roll.sides, n.Num)
        written = self.as_written(roll)
        implied = roll.count.span == roll.span
        sides = str(roll.sides.value)
        at = written.index("d") + 1
        return ("1" if implied else "") + written[:at] + f"({sides})" + written[at + len(sides):]


def _many_sides(roll: n.DiceRoll) -> bool:
    """A die written d66 or d666, which format 1 reads as one die of that many sides."""
    return not roll.special and isinstance(roll.sides, n.Num) and str(roll.sides.value) in TENS_AND_UNITS \
        and roll.sides.span != roll.span


STEP = Step("repetition", "pool * n becomes repeat(pool, n); d66 (a die of 66 sides) becomes 1d(66)", edits)
