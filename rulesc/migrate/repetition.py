"""Step: `pool * n` repeated a pool's dice in format 1; format 2 spells that `repeat(pool, n)`, and `d66` was a die of
66 sides, spelled `1d(66)` in format 2 (in formulas) and `d(66)` in dice texts, where d66 is a tens-and-units roll."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from rulesc.analyze.program import Program
from rulesc.formula import nodes as n
from rulesc.formula.types import Type
from rulesc.migrate.edits import Edit
from rulesc.migrate.plan import Step, SystemSource, document
from rulesc.migrate.written import Written, scalar_edit
from rulesc.model import Expr
from rulesc.runtime.rulesc_runtime import TENS_AND_UNITS


def edits(source: SystemSource) -> list[Edit]:
    """One edit per outermost node that changes spelling, in every formula and calculator output (the variants'
    too), and each variant's `was:` that quotes a base formula the step rewrites."""
    found: set[Edit] = set()
    for program in source.programs:
        for expr in _expressions(program):
            found.update(_expression_edits(source, _rewriter(source, program, expr)))
    return sorted(found | set(_was_edits(source)) | set(_dice_text_edits(source)))


def _dice_text_edits(source: SystemSource) -> Iterator[Edit]:
    """Each dice text (a cell, a default, an example's argument, a dice fact, an attack's damage, dice by level) that
    writes a die of 66 sides as d66, as d(66)."""
    found = {spot for program in source.programs for spot in program.system.many_sides}  # the variants' too
    for file, path, written in sorted(found):
        edit = scalar_edit(source, document(source.project, source.project.root / Path(file)), path, written)
        if edit is not None:
            yield edit


def _expression_edits(source: SystemSource, rewriter: _Rewriter) -> list[Edit]:
    """The edits of one expression: each changed node rewritten in place, or, for a plain scalar inside `{...}`
    whose new text has a comma (repeat(a, b)), the whole expression double-quoted so the comma stays inside it."""
    expr = rewriter.written.expr
    assert expr.node is not None, "a project that checks has parsed every formula"
    path, changed = source.path(expr.span), list(rewriter.outermost(expr.node))
    if changed and _plain_in_flow(source.texts[path], source.at(expr.span)):
        start, end = rewriter.written.chars(expr.node)
        return [Edit(path, start, end, json.dumps(rewriter.render(expr.node)))]
    return [Edit(path, *rewriter.written.chars(node), rewriter.render(node)) for node in changed]


def _plain_in_flow(text: str, start: int) -> bool:
    """Whether the scalar starting at `start` is plain (unquoted, not a block) and inside a flow mapping or list."""
    return text[start] not in "'\"|>" and any(mark in text[text.rfind("\n", 0, start) + 1:start] for mark in "{[")


def _expressions(program: Program) -> Iterator[Expr]:
    for formula in program.formulas.values():
        yield formula.expr
    for calculator in program.calculators.values():  # not those rulesc writes itself (a stat block's attacks)
        yield from (output.expr for output in calculator.outputs if output.expr.doc is not None)


def _rewriter(source: SystemSource, program: Program, expr: Expr) -> _Rewriter:
    return _Rewriter(Written(expr, source.texts[source.path(expr.span)]))


def _was_edits(source: SystemSource) -> Iterator[Edit]:
    """A variant's `was:` records the base formula it replaced, as E0903 checks: where the step rewrites that
    formula, `was:` is rewritten the same way, on one line. One written over several lines is left as it is, and
    the check of the migrated copy reports it (E0903, with the new expression to write)."""
    for path, _ in source.variants:
        doc = document(source.project, path)
        for index, item in enumerate(doc.data.get("replace", {}).get("formulas", ())):
            base = source.program.formulas.get(item["formula"]["id"])
            if "was" not in item or base is None or base.expr.node is None or \
                    _one_line(item["was"]) != _one_line(base.expr.source):
                continue
            rewriter = _rewriter(source, source.program, base.expr)
            if any(rewriter.outermost(base.expr.node)):
                new = _one_line(rewriter.render(base.expr.node))
                edit = scalar_edit(source, doc, ("replace", "formulas", index, "was"), new)
                if edit is not None:
                    yield edit


def _one_line(text: str) -> str:
    return " ".join(text.split())


class _Rewriter:
    """Writes a node with each repeated pool and each d66 in format 2's spelling, the rest as it was written."""

    def __init__(self, written: Written):
        self.written = written

    def changes(self, node: n.Node) -> bool:
        if isinstance(node, n.BinOp):
            return node.op == "*" and {node.left.type, node.right.type} == {Type.INT, Type.DICE}
        return isinstance(node, n.DiceRoll) and _many_sides(node) and self.bare(node.sides)

    def bare(self, sides: n.Node) -> bool:
        """Whether a die's sides were written right after its 'd' (d66), not as an expression (1d(66))."""
        index = self.written.by_span.get(sides.span)
        return index is not None and index > 0 and self.written.tokens[index - 1].kind == "d"

    def outermost(self, node: n.Node) -> Iterator[n.Node]:
        if self.changes(node):
            yield node
            return
        for child in n.children(node):
            yield from self.outermost(child)

    def render(self, node: n.Node) -> str:
        if isinstance(node, n.BinOp) and self.changes(node):
            pool, count = (node.left, node.right) if node.left.type == Type.DICE else \
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
    return not roll.special and isinstance(roll.sides, n.Num) and str(roll.sides.value) in TENS_AND_UNITS


STEP = Step("repetition", "pool * n becomes repeat(pool, n); d66 (a die of 66 sides) becomes 1d(66)", edits)
