"""Formula backends' shared part: dispatch over the nodes, their checked types, and what a plain name means."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from generator.formula import nodes as n
from generator.formula.layout import Doc
from generator.formula.names import OTHERWISE_CONSTANT, Spelling, resolve_name


class Backend:
    """A visitor that prints a formula in a host language; to_python and to_js add one visit_* per construct."""

    def __init__(self, types: Mapping[int, str], spell: Spelling, checks: Collection[int] | None = None):
        self.types = types
        self.spell = spell
        self.checks = checks  # the whole-number operations that may leave +/- MAX_INT (bounds.py); None: all
        self.bound: set[str] = set()  # the lets in scope where the visitor is

    def checked(self, node: n.Node) -> bool:
        """Whether a whole-number +, - or * is written inside R.whole(...)."""
        return self.checks is None or id(node) in self.checks

    def visit(self, node: n.Node) -> Doc:
        doc: Doc = getattr(self, "visit_" + type(node).__name__)(node)
        return doc

    def type(self, node: n.Node) -> str:
        return self.types.get(id(node), "int")

    def visit_Name(self, node: n.Name) -> Doc:
        if node.name in self.bound:
            return self.spell.let(node.name)
        kind = resolve_name(node.name, self.spell.locals, OTHERWISE_CONSTANT)
        return self.spell.local(node.name) if kind == "local" else self.spell.constant(node.name)
