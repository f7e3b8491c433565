"""Where a formula's nodes were written: each node's characters in the file, found from the formula's tokens."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import yaml

from rulesc.diagnostics.core import Span
from rulesc.formula import nodes as n
from rulesc.formula.lexer import Token, tokenize
from rulesc.load import Document, JsonPath
from rulesc.migrate.edits import Edit, offset
from rulesc.model import Expr

if TYPE_CHECKING:
    from rulesc.migrate.plan import SystemSource

_SUFFIXES = ("reroll", "faces", "fudge")  # what may follow a die's 'd' or sides: 'F', 'r2', '{9,10}' (a keep, 'kh3',
# is a call of its own whose count covers it)


@dataclass
class Written:
    """One expression's tokens, and each token's start and end as character offsets in its file's `text`."""

    expr: Expr
    text: str
    tokens: list[Token] = field(init=False)
    starts: list[int] = field(init=False)
    ends: list[int] = field(init=False)
    by_span: dict[Span, int] = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = tokenize(self.expr.source)[:-1]  # the end marker is not written
        self.starts = [self.at(token.offset) for token in self.tokens]
        self.ends = [self.at(token.offset + len(token.text)) for token in self.tokens]
        self.by_span = {}
        for index, token in enumerate(self.tokens):
            self.by_span.setdefault(self.expr.locate(token.offset), index)

    def at(self, offset_in_source: int) -> int:
        return offset(self.text, self.expr.locate(offset_in_source))

    def extent(self, node: n.Node) -> tuple[int, int]:
        """The first and last token of a node as written, its brackets and a die's marks included."""
        own = self.by_span[node.span]
        first, last = own, own
        for child in n.children(node):
            child_first, child_last = self.extent(child)
            first, last = min(first, child_first), max(last, child_last)
        first, last = self.balanced(first, last)
        while last + 1 < len(self.tokens) and self.follows(node, last + 1):
            last += 1
        return self.balanced(first, last)

    def follows(self, node: n.Node, index: int) -> bool:
        """Whether token `index` belongs to `node`, which ends just before it: a die's marks, a call's brackets."""
        token, before = self.tokens[index], self.tokens[index - 1]
        if isinstance(node, n.DiceRoll):
            return token.kind in _SUFFIXES or token.text == "!" or (token.kind == "int" and before.kind in
                                                                      ("reroll", "d"))
        return isinstance(node, n.Call) and token.text == "(" and before.kind == "name"

    def balanced(self, first: int, last: int) -> tuple[int, int]:
        """Widen first..last until its brackets match: an operand written in brackets, a call's arguments."""
        depth = lowest = 0
        for token in self.tokens[first:last + 1]:
            depth += {"(": 1, ")": -1}.get(token.text, 0)
            lowest = min(lowest, depth)
        for _ in range(-lowest):
            first = self.opening(first)
        for _ in range(depth - lowest):
            last = self.closing(last)
        return first, last

    def opening(self, index: int) -> int:
        depth = 0
        while True:
            index -= 1
            depth += {"(": 1, ")": -1}.get(self.tokens[index].text, 0)
            if depth == 1:
                return index

    def closing(self, index: int) -> int:
        depth = 0
        while True:
            index += 1
            depth += {"(": 1, ")": -1}.get(self.tokens[index].text, 0)
            if depth == -1:
                return index

    def chars(self, node: n.Node) -> tuple[int, int]:
        """A node's characters in the file: the start of its first token to the end of its last."""
        first, last = self.extent(node)
        return self.starts[first], self.ends[last]


def scalar_edit(source: SystemSource, doc: Document, path: JsonPath, new: str) -> Edit | None:
    """Replace a one-line scalar of a document with `new`, quoted as it was (double quotes where plain text would
    read otherwise); None for a scalar written over several lines or with escapes."""
    file = source.project.root / doc.path
    text = source.texts[file]
    start = offset(text, doc.span(path))
    line_end = text.find("\n", start) if "\n" in text[start:] else len(text)
    end = _scalar_end(text[start:line_end], str(_at(doc, path)))
    if end is None:
        return None
    quote = text[start] if text[start] in "'\"" else ""
    flow = any(bracket in text[text.rfind("\n", 0, start) + 1:start] for bracket in "{[")
    return Edit(file, start, start + end, _spelled(new, quote, flow))


def _spelled(new: str, quote: str, flow: bool) -> str:
    """`new` as a YAML scalar quoted as the one it replaces, or double-quoted where that would read otherwise (a
    quote inside it; a comma or bracket inside `{...}`, where it would end the value)."""
    written = f"{quote}{new}{quote}"
    try:
        same = yaml.safe_load(f"k: {written}") == {"k": new}
    except yaml.YAMLError:
        same = False
    if not same or (flow and not quote and any(mark in new for mark in ",[]{}")):
        return json.dumps(new)
    return written


def _scalar_end(line: str, value: str) -> int | None:
    """How many characters of `line` (from the scalar's start) the scalar `value` takes, or None if it does not
    fit one line as a plain or simply quoted scalar."""
    if line.startswith(value) and not line.startswith(("'", '"')):
        return len(value)
    if line[:1] in ("'", '"') and line[1:].startswith(value) and line[1 + len(value):2 + len(value)] == line[0]:
        return len(value) + 2
    return None


def _at(doc: Document, path: JsonPath) -> object:
    found: object = doc.data
    for key in path:
        found = found[key]  # type: ignore[index]
    return found
