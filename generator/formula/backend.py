"""Formula backends' shared part: dispatch over the nodes, their checked types, and what a plain name means."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping

from generator.formula import nodes as n
from generator.formula.layout import Doc
from generator.formula.names import OTHERWISE_CONSTANT, Spelling, resolve_name
from generator.formula.pools import only_total, questions


class Backend:
    """A visitor that prints a formula in a host language; to_python and to_js add one visit_* per construct."""

    def __init__(self, types: Mapping[int, str], spell: Spelling, checks: Collection[int] | None = None):
        self.types = types
        self.spell = spell
        self.checks = checks  # the whole-number operations that may leave +/- MAX_INT (bounds.py); None: all
        self.bound: set[str] = set()  # the lets in scope where the visitor is
        self.asked: dict[int, Doc] = {}  # a rolled pool's total or question -> its place in the answers

    def checked(self, node: n.Node) -> bool:
        """Whether a whole-number +, - or * is written inside R.whole(...)."""
        return self.checks is None or id(node) in self.checks

    def visit(self, node: n.Node) -> Doc:
        if id(node) in self.asked:
            return self.asked[id(node)]
        doc: Doc = getattr(self, "visit_" + type(node).__name__)(node)
        return doc

    def pool_let(self, node: n.Let) -> tuple[list[Doc], Doc] | None:
        """For a let that rolls a pool and asks it more than its total: each question as [kind, arguments...]
        and the body, in which each asking node reads its answer from the let's name; None otherwise."""
        if self.type(node.value) != "dice" or only_total(node.body, node.name):
            return None
        found, index = questions(node.body, node.name)
        asked = [[json.dumps(q.kind), *(self.visit(arg) for arg in q.args)] for q in found]
        spelled = self.spell.let(node.name)
        self.asked.update({key: f"{spelled}[{i}]" for key, i in index.items()})
        self.bound.add(node.name)
        try:
            return [self.sequence(items) for items in asked], self.visit(node.body)
        finally:
            self.bound.discard(node.name)

    def chance(self, node: n.Compare) -> str:
        """The runtime function for a comparison that is an event: of names, or of a roll."""
        return "R.named_chance" if self.type(node.left) in ("text", "outcome") else "R.chance"

    def sequence(self, items: list[Doc]) -> Doc:
        """A literal tuple or array of the items; each backend writes its own."""
        raise NotImplementedError

    def type(self, node: n.Node) -> str:
        return self.types.get(id(node), "int")

    def visit_Name(self, node: n.Name) -> Doc:
        if node.name in self.bound:
            return self.spell.let(node.name)
        kind = resolve_name(node.name, self.spell.locals, OTHERWISE_CONSTANT)
        return self.spell.local(node.name) if kind == "local" else self.spell.constant(node.name)
