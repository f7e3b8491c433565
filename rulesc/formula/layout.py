"""Formula stage, layout: generated source as nested groups, one line when it fits, else broken along its structure.

The backends build a small tree of text (str), runs of parts (Concat) and bracketed items (Group); `layout` prints
it within a width, breaking the outermost group that does not fit: its items go on their own indented lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Union

Doc = Union[str, "Concat", "Group"]
STRING_PIECE = 72
"""A string literal longer than this many columns may break into literals of about this size."""
_WORD = re.compile(r"\S+\s*|\s+")


@dataclass(frozen=True)
class Concat:
    """Parts printed one after another; a group among them may break."""

    parts: tuple[Doc, ...]

    @cached_property
    def flat(self) -> str:
        return "".join(flat(part) for part in self.parts)


@dataclass(frozen=True)
class Group:
    """`open item, item close` on one line, or `open`, each item on its own indented line, and `close`.

    `sep` follows every item but the last, `space` follows a separator on one line, `pad` lines the brackets on
    one line, `trail` follows the last item when broken; `kind` tags the group for the backend that made it (an
    operator chain); `text`, when given, is the one-line form instead (a string literal that breaks into pieces).
    """

    open: str
    items: tuple[Doc, ...]
    close: str
    sep: str = ","
    space: str = " "
    pad: str = ""
    trail: str = ""
    kind: str = ""
    text: str | None = None

    @cached_property
    def flat(self) -> str:
        if self.text is not None:
            return self.text
        inner = (self.sep + self.space).join(flat(item) for item in self.items)
        return f"{self.open}{self.pad}{inner}{self.pad}{self.close}" if inner else self.open + self.close


def flat(doc: Doc) -> str:
    """The one-line form of a doc."""
    return doc if isinstance(doc, str) else doc.flat


def concat(*parts: Doc) -> Doc:
    """Parts one after another (a plain string when they all are)."""
    if all(isinstance(part, str) for part in parts):
        return "".join(str(part) for part in parts)
    return Concat(parts)


def call(func: str, args: Sequence[Doc], trail: str = "") -> Group:
    """`func(a, b)`, or broken, one argument a line."""
    return Group(func + "(", tuple(args), ")", trail=trail)


def infix(op: str, left: Doc, right: Doc, chains: Mapping[str, str]) -> Group:
    """`(left op right)`; broken, each operand on its own line after its operator.

    `chains` names the operators the language groups from the left, e.g. + and - as one chain: when `left` is a
    chain of the same name, `(a - b) + c` is written `(a - b + c)`, which the language reads the same way.
    """
    chain = chains.get(op, "")
    operands = left.items if isinstance(left, Group) and chain and left.kind == chain else (left,)
    return Group("(", (*operands, concat(op, " ", right)), ")", sep="", kind=chain)


def whole(operation: Group) -> Group:
    """`R.whole(a * b)`: an infix operation checked to stay within +/- MAX_INT, its own parentheses dropped."""
    return Group("R.whole(", operation.items, ")", sep="")


def conditional(first: Doc, second: Doc, third: Doc, words: tuple[str, str]) -> Group:
    """`(a if b else c)` or `(a ? b : c)`; broken, one part a line after its word.

    Both languages read a conditional's last part as a whole conditional, so an else-if chain is written flat:
    `(a if b else c if d else e)`, not a staircase of parentheses.
    """
    rest = third.items if isinstance(third, Group) and third.kind == "conditional" else (third,)
    items = (first, concat(words[0], " ", second), concat(words[1], " ", rest[0]), *rest[1:])
    return Group("(", items, ")", sep="", kind="conditional")


def string(text: str, encode: Callable[[str], str], joiner: str) -> Doc:
    """A string literal (`encode` writes one); longer than STRING_PIECE columns, it may break into literals
    of about that size, split at spaces where it can, joined by `joiner` (" +" in JavaScript; in Python "",
    as Python joins adjacent literals)."""
    literal = encode(text)
    if len(literal) <= STRING_PIECE:
        return literal
    pieces = [""]
    for word in _WORD.findall(text):
        for part in _cut(word, encode):
            if pieces[-1] and len(encode(pieces[-1] + part)) > STRING_PIECE:
                pieces.append("")
            pieces[-1] += part
    return Group("(", tuple(encode(piece) for piece in pieces), ")", sep=joiner, text=literal)


def _cut(word: str, encode: Callable[[str], str]) -> Iterator[str]:
    """A word in parts whose literals are at most STRING_PIECE columns (most words are one part)."""
    start = 0
    while start < len(word):
        end = start + 1
        while end < len(word) and len(encode(word[start:end + 1])) <= STRING_PIECE:
            end += 1
        yield word[start:end]
        start = end


def layout(doc: Doc, width: int, column: int = 0, indent: str = "    ") -> list[str]:
    """The lines of `doc`, each meant to start at `column`, within `width` columns wherever its groups allow.

    Lines after the first carry their indentation (in units of `indent`) relative to the first.
    """
    printer = _Printer(width - column, indent)
    printer.emit(doc, 0, 0)
    return printer.finish()


class _Printer:
    def __init__(self, width: int, indent: str):
        self.width = width
        self.indent = indent
        self.lines: list[str] = []
        self.line = ""

    def emit(self, doc: Doc, level: int, suffix: int) -> None:
        """Print `doc` on the current line; `suffix` is how many columns must still follow it there."""
        if isinstance(doc, str):
            self.line += doc
        elif isinstance(doc, Concat):
            for i, part in enumerate(doc.parts):
                self.emit(part, level, _head(doc.parts[i + 1:], suffix))
        elif not doc.items or len(self.line) + len(doc.flat) + suffix <= self.width:
            self.line += doc.flat
        else:
            self.broken(doc, level)

    def broken(self, group: Group, level: int) -> None:
        self.line += group.open
        for i, item in enumerate(group.items):
            self.newline(level + 1)
            tail = group.sep if i < len(group.items) - 1 else group.trail
            self.emit(item, level + 1, len(tail))
            self.line += tail
        self.newline(level)
        self.line += group.close

    def newline(self, level: int) -> None:
        self.lines.append(self.line.rstrip())
        self.line = self.indent * level

    def finish(self) -> list[str]:
        return [*self.lines, self.line]


def _head(parts: Sequence[Doc], suffix: int) -> int:
    """Columns the parts take up to their first place to break, or all of them and `suffix` if they cannot."""
    width = 0
    for part in _leaves(parts):
        if isinstance(part, Group) and part.items:
            return width + len(part.open)
        width += len(flat(part))
    return width + suffix


def _leaves(parts: Sequence[Doc]) -> Iterator[Doc]:
    for part in parts:
        if isinstance(part, Concat):
            yield from _leaves(part.parts)
        else:
            yield part
