"""Formula syntax tree: one frozen node class per construct, each with the span it came from."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from typing import TypeVar

from rulesc.diagnostics.core import Span
from rulesc.formula.types import Type

N = TypeVar("N", bound="Node")


@dataclass(frozen=True)
class Node:
    """A parsed node has no type; the checker returns the same tree with a type on every node (typed())."""

    span: Span
    checked: Type | None = field(default=None, kw_only=True, repr=False, compare=False)

    @property
    def type(self) -> Type:
        """The checked type; asking it of a node that did not pass the checker is a bug in rulesc."""
        if self.checked is None:
            raise AssertionError(f"{type(self).__name__} at {self.span} was never type-checked")
        return self.checked


@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Text(Node):
    """A quoted name, such as "critical": one of a roll's named outcomes, or a word from a table."""

    value: str


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class DiceRoll(Node):
    """NdS: `count` dice of `sides` sides; both are expressions. `special` makes them another kind: "F" (Fudge,
    sides unused), "{1,1,2}" (listed faces, sides unused), "!" (exploding) or "r<k>" (faces to k rerolled once)."""

    count: Node
    sides: Node
    special: str = ""


@dataclass(frozen=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True)
class BinOp(Node):
    op: str  # + - * //
    left: Node
    right: Node


@dataclass(frozen=True)
class Compare(Node):
    op: str  # < <= > >= == !=
    left: Node
    right: Node


@dataclass(frozen=True)
class Logic(Node):
    op: str  # and, or
    left: Node
    right: Node


@dataclass(frozen=True)
class IfElse(Node):
    cond: Node
    then: Node
    other: Node


@dataclass(frozen=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Let(Node):
    """let name = value in body; when value is a roll, body is evaluated for each of its results."""

    name: str
    value: Node
    body: Node


NOT_STRUCTURE = ("span", "checked")
"""A node's fields that say where it was written and what the checker found, not what was written."""


def typed(node: N, type_: Type, **parts: Node | tuple[Node, ...]) -> N:
    """`node` with its type, and with these typed children in place of its own."""
    return replace(node, checked=type_, **parts)  # type: ignore[arg-type]


def children(node: Node) -> list[Node]:
    """A node's direct subexpressions, left to right."""
    found: list[Node] = []
    for f in fields(node):
        value = getattr(node, f.name)
        found.extend(child for child in (value if isinstance(value, tuple) else (value,)) if isinstance(child, Node))
    return found


def walk(node: Node) -> Iterator[Node]:
    """Every node of an expression, parents before children, left to right."""
    yield node
    for child in children(node):
        yield from walk(child)
