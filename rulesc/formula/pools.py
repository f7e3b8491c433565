"""Formula pools: `let p = 5d6 in ...` rolls a pool once, and its body asks that one roll several questions.

A plain `p` is the roll's total (its dice and constant); `highest(p, k)`, `lowest(p, k)`, `successes(p, t)`,
`count(p, face)` and `count(p, low, high)` read the same dice. The questions are gathered here, in one order
that the checker, the interpreter and both backends share, and the runtime works out their answers jointly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields

from rulesc.formula import nodes as n
from rulesc.formula.builtins import ROWS

POOL_FUNCTIONS: dict[str, tuple[int, ...]] = {row.name: row.counts for row in ROWS if row.asks_pool}
"""The built-ins that may ask a rolled pool a question, and how many arguments each takes (the pool first)."""


@dataclass(frozen=True)
class Question:
    """One question to a rolled pool: its kind (total or a pool function) and the arguments after the pool."""

    kind: str
    args: tuple[n.Node, ...]


def asks(node: n.Node, name: str) -> bool:
    """Whether `node` is a pool function called on the pool bound to `name`."""
    return (isinstance(node, n.Call) and node.func in POOL_FUNCTIONS and bool(node.args)
            and isinstance(node.args[0], n.Name) and node.args[0].name == name)


def questions(body: n.Node, name: str) -> tuple[list[Question], dict[int, int]]:
    """The distinct questions `body` asks the pool bound to `name`, in the order they first appear, and for each
    asking node (a plain use of the name, or a pool function call) the index of its question."""
    found: list[Question] = []
    keys: dict[object, int] = {}
    index: dict[int, int] = {}
    for node in _asking(body, name):
        question = Question(node.func, node.args[1:]) if isinstance(node, n.Call) else Question("total", ())
        key = (question.kind, tuple(_shape(arg) for arg in question.args))
        if key not in keys:
            keys[key] = len(found)
            found.append(question)
        index[id(node)] = keys[key]
    return found, index


def only_total(body: n.Node, name: str) -> bool:
    """Whether the body uses the roll only as its total (or not at all): then it is a plain roll of the sum."""
    return all(q.kind == "total" for q in questions(body, name)[0])


def _asking(node: n.Node, name: str) -> Iterator[n.Node]:
    if asks(node, name):
        assert isinstance(node, n.Call)
        yield node
        for arg in node.args[1:]:
            yield from _asking(arg, name)
        return
    if isinstance(node, n.Name) and node.name == name:
        yield node
        return
    for child in n.children(node):
        yield from _asking(child, name)


def _shape(node: n.Node) -> object:
    """A node's structure without its spans (nor types), so two spellings of the same question are one question."""
    return (type(node).__name__, *(_shape(v) if isinstance(v, n.Node) else tuple(_shape(x) for x in v)
                                   if isinstance(v, tuple) else v
                                   for f in fields(node) if f.name not in n.NOT_STRUCTURE
                                   for v in (getattr(node, f.name),)))
