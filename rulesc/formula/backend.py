"""Formula backends' shared part: dispatch over the nodes, their checked types, and what a plain name means."""

from __future__ import annotations

import json
from collections.abc import Collection

from rulesc.formula import nodes as n
from rulesc.formula.guards import Guard, question_guards
from rulesc.formula.layout import Doc, concat
from rulesc.formula.names import OTHERWISE_CONSTANT, Spelling, mentioned_names, resolve_call, resolve_name
from rulesc.formula.pools import only_total, questions
from rulesc.formula.regroup import through
from rulesc.formula.types import Type


class Backend:
    """A visitor that prints a formula in a host language; to_python and to_js add one visit_* per construct."""

    def __init__(self, spell: Spelling, checks: Collection[int] | None = None):
        self.spell = spell
        self.checks = checks  # the whole-number operations that may leave +/- MAX_INT (bounds.py); None: all
        self.bound: set[str] = set()  # the lets in scope where the visitor is
        self.asked: dict[int, Doc] = {}  # a rolled pool's total or question -> its place in the answers
        self.parts: set[int] = set()  # the nodes whose value is a part of a mean, taken as it is (mean_parts())

    def checked(self, node: n.Node) -> bool:
        """Whether a whole-number +, - or * is written inside R.whole(...)."""
        return self.checks is None or id(node) in self.checks

    def visit(self, node: n.Node) -> Doc:
        if id(node) in self.asked:
            return self.asked[id(node)]
        doc: Doc = getattr(self, "visit_" + type(node).__name__)(node)
        return doc

    WORDS = {"and": " and ", "or": " or ", "not": "not ", "yes": "True"}  # the host's logic, for needed()

    def pool_let(self, node: n.Let) -> tuple[list[Doc], Doc, Doc | None] | None:
        """For a let that rolls a pool and asks it more than its total: each question as [kind, arguments...],
        the body, in which each asking node reads its answer from the let's name, and whether each question
        can be read (guards.py; None when every one can); None otherwise."""
        if node.value.type != Type.DICE or only_total(node.body, node.name):
            return None
        found, index = questions(node.body, node.name)
        asked = [[json.dumps(q.kind), *(self.visit(arg) for arg in q.args)] for q in found]
        needed = self.needed(question_guards(node.body, index, len(found)))
        spelled = self.spell.let(node.name)
        self.asked.update({key: f"{spelled}[{i}]" for key, i in index.items()})
        self.bound.add(node.name)
        try:
            return [self.sequence(items) for items in asked], self.visit(node.body), needed
        finally:
            self.bound.discard(node.name)

    def mean_of_pool(self, node: n.Call) -> n.Let | None:
        """The let of `mean(let x = pool in ...)` when it asks the pool more than its total: its mean is
        taken part by part (pool_bind_mean: the mean of a mixture is its parts' means weighed by their
        chances), with no mixture made; None for any other call, or a mean of anything else."""
        let = node.args[0] if node.func == "mean" and len(node.args) == 1 else None
        if not isinstance(let, n.Let) or resolve_call(node.func) != "builtin":
            return None
        return let if let.value.type == Type.DICE and not only_total(let.body, let.name) else None

    def mean_parts(self, node: n.Node) -> None:
        """Mark the branches whose value is the value of `node` (a mean_of_pool() let's body), through plain lets
        and ifs: each part's mean is taken as it is, so a pool or a number there is not made a roll first."""
        if isinstance(node, n.Let) and node.value.type not in _ROLLS:
            self.mean_parts(node.body)
        elif isinstance(node, n.IfElse) and node.cond.type != Type.EVENT:
            self.parts.update([id(node.then), id(node.other)])
            self.mean_parts(node.then)
            self.mean_parts(node.other)

    def converted(self, node: n.Node, wanted: Type) -> bool:
        """Whether a node of one type is made the `wanted` type where it stands: not a pool or a number that is
        a part of a mean (mean_parts())."""
        if wanted == node.type:
            return False
        return not (id(node) in self.parts and wanted == Type.DIST and node.type in (Type.DICE, Type.INT))

    def needed(self, guards: list[list[Guard] | None]) -> Doc | None:
        """Whether each question can be read, as the host's yes/no expressions; None when every one can."""
        if all(ways is None for ways in guards):
            return None
        words = self.WORDS
        return self.sequence([words["yes"] if ways is None else _grouped([_grouped(
            [self.visit(cond) if holds else concat(words["not"], self.visit(cond)) for cond, holds in way],
            words["and"]) for way in ways], words["or"]) for ways in guards])

    def roll_chain(self, node: n.Let) -> tuple[list[n.Let], n.Node] | None:
        """Two or more nested lets that each bind a roll by its total, none rolling by an earlier one's result
        (`let a = 1d6 in let b = 1d6 in body`): the lets and the innermost body, bound at once; None otherwise."""
        chain: list[n.Let] = []
        body: n.Node = node
        # a name shadowed inside a value counts as read: the answer errs towards nesting
        while isinstance(body, n.Let) and self.rolls_total(body) and body.name not in {let.name for let in chain} \
                and mentioned_names(body.value).isdisjoint(let.name for let in chain):
            chain.append(body)
            body = body.body
        return (chain, body) if len(chain) > 1 else None

    def read_through(self, node: n.Let) -> n.Let | None:
        """The inner let of `let x = roll in let y = value in body` whose body reads y and not x, y a plain value or
        a roll read by its total (regroup.through()); None otherwise."""
        inner = node.body
        return through(node, self.rolls_total(node), isinstance(inner, n.Let) and self.rolls_total(inner))

    def rolls_total(self, node: n.Let) -> bool:
        """Whether a let binds a roll by its total (a pool asked nothing but its total counts)."""
        kind = node.value.type
        return kind in (Type.DIST, Type.EVENT, Type.OUTCOME) or (kind == Type.DICE and only_total(node.body, node.name))

    def chain_body(self, chain: list[n.Let], body: n.Node) -> Doc:
        """The innermost body of a roll_chain(), with its lets in scope."""
        names = {let.name for let in chain} - self.bound
        self.bound.update(names)
        try:
            return self.visit(body)
        finally:
            self.bound.difference_update(names)

    def chance(self, node: n.Compare) -> str:
        """The runtime function for a comparison that is an event: of names, or of a roll."""
        return "R.named_chance" if node.left.type in (Type.TEXT, Type.OUTCOME) else "R.chance"

    def sequence(self, items: list[Doc]) -> Doc:
        """A literal tuple or array of the items; each backend writes its own."""
        raise NotImplementedError

    def visit_Name(self, node: n.Name) -> Doc:
        if node.name in self.bound:
            return self.spell.let(node.name)
        kind = resolve_name(node.name, self.spell.locals, OTHERWISE_CONSTANT)
        return self.spell.local(node.name) if kind == "local" else self.spell.constant(node.name)


_ROLLS = (Type.DICE, Type.DIST, Type.EVENT, Type.OUTCOME)


def written_pool(node: n.DiceRoll) -> bool:
    """Whether a pool is written with whole numbers (2d6, 1d6r2), so it can be made once, as the module loads:
    the parser refused every such die the runtime cannot roll (parser._rollable), so making it cannot fail."""
    return all(isinstance(part, n.Num) and type(part.value) is int for part in (node.count, node.sides))


def _grouped(parts: list[Doc], word: str) -> Doc:
    """The parts with `word` between each two, in parentheses when there are two or more."""
    if len(parts) == 1:
        return parts[0]
    return concat("(", *[piece for i, part in enumerate(parts) for piece in ((word, part) if i else (part,))], ")")
