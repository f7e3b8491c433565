"""Formula guards: when a rolled pool's question is only read under conditions on plain values, those conditions.

`let p = 2d20 in if edge > 0 then highest(p, 1) else lowest(p, 1)` reads highest() only when edge > 0, and that
is known before the pool is rolled: the generated code tells the runtime which questions the body can read, and
the runtime asks the pool only those (the joint answers of fewer questions are fewer, so the body runs fewer
times). A condition counts when it compares names of plain values (parameters, constants, earlier results) and
literals, and nothing bound inside the body: it cannot fail, and it has the same value for every roll.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesc.formula import nodes as n
from rulesc.formula.types import Type

Guard = tuple[tuple[n.Node, bool], ...]
"""Conditions that all hold on one way to a question: each node, and whether it is true or false there."""
PLAIN = (Type.INT, Type.BOOL, Type.TEXT)


def question_guards(body: n.Node, index: Mapping[int, int], count: int) -> list[list[Guard] | None]:
    """For each of `count` questions (index: asking node -> question), the ways to its readings (it is read when
    any one holds), or None when one way to it has no plain condition (it may be read on any roll)."""
    found: list[list[Guard] | None] = [[] for _ in range(count)]
    _walk(body, (), frozenset(), _Scan(index, found))
    return found


class _Scan:
    def __init__(self, index: Mapping[int, int], found: list[list[Guard] | None]):
        self.index = index
        self.found = found

    def reached(self, node: n.Node, guard: Guard) -> None:
        if id(node) not in self.index:
            return
        ways = self.found[self.index[id(node)]]
        if ways is not None:
            if guard:
                if guard not in ways:  # reached the same way twice (a question asked in two places)
                    ways.append(guard)
            else:
                self.found[self.index[id(node)]] = None

    def plain(self, node: n.Node, inner: frozenset[str]) -> bool:
        """Whether a condition reads only literals and plain names bound outside the body, with no arithmetic."""
        if isinstance(node, (n.Num, n.Bool, n.Text)):
            return True
        if isinstance(node, n.Name):
            return node.name not in inner and node.type in PLAIN
        if isinstance(node, (n.Compare, n.Logic, n.Not)) and node.type == Type.BOOL:
            return all(self.plain(child, inner) for child in n.children(node))
        return False


def _walk(node: n.Node, guard: Guard, inner: frozenset[str], scan: _Scan) -> None:
    scan.reached(node, guard)
    if isinstance(node, n.IfElse) and scan.plain(node.cond, inner):
        _walk(node.cond, guard, inner, scan)
        _walk(node.then, (*guard, (node.cond, True)), inner, scan)
        _walk(node.other, (*guard, (node.cond, False)), inner, scan)
    elif isinstance(node, n.IfElse) and isinstance(node.cond, n.Logic) and scan.plain(node.cond.left, inner):
        # `if a or b` goes the other way only where a is false; `if a and b` goes its way only where a is true
        _walk(node.cond, guard, inner, scan)
        left, both = node.cond.left, node.cond.op == "and"
        _walk(node.then, (*guard, (left, True)) if both else guard, inner, scan)
        _walk(node.other, guard if both else (*guard, (left, False)), inner, scan)
    elif isinstance(node, n.Logic) and node.op in ("and", "or") and scan.plain(node.left, inner):
        _walk(node.left, guard, inner, scan)
        _walk(node.right, (*guard, (node.left, node.op == "and")), inner, scan)
    elif isinstance(node, n.Let):
        _walk(node.value, guard, inner, scan)
        _walk(node.body, guard, inner | {node.name}, scan)
    else:
        for child in n.children(node):
            _walk(child, guard, inner, scan)
