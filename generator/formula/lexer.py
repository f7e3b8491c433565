"""Formula lexer: source text to tokens with their offsets."""

from __future__ import annotations

import re
from dataclasses import dataclass

KEYWORDS = frozenset({"if", "then", "else", "and", "or", "not", "true", "false"})
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<int>\d+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>//|<=|>=|==|!=|[-+*<>(),])
""", re.VERBOSE)


class FormulaSyntaxError(Exception):
    """A formula that cannot be read; `offset` is the 0-based character position in the formula."""

    def __init__(self, message: str, offset: int, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


@dataclass(frozen=True)
class Token:
    kind: str  # int, name, keyword, op, d, end
    text: str
    offset: int


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(source):
        match = _TOKEN.match(source, pos)
        if match is None:
            raise FormulaSyntaxError(f"unexpected character {source[pos]!r}", pos)
        kind = match.lastgroup or "space"
        if kind != "space":
            tokens.extend(_classify(kind, match.group(), pos, tokens))
        pos = match.end()
    tokens.append(Token("end", "", len(source)))
    return tokens


def _classify(kind: str, text: str, offset: int, before: list[Token]) -> list[Token]:
    """Split dice notation out of names: '2d10' lexes as int 2 and name 'd10', which becomes d, 10."""
    if kind == "name" and re.fullmatch(r"d\d+", text):
        return [Token("d", "d", offset), Token("int", text[1:], offset + 1)]
    if kind == "name" and text == "d" and _ends_operand(before):
        return [Token("d", "d", offset)]
    if kind == "name":
        return [Token("keyword" if text in KEYWORDS else "name", text, offset)]
    return [Token(kind, text, offset)]


def _ends_operand(before: list[Token]) -> bool:
    return bool(before) and (before[-1].kind == "int" or before[-1].text == ")")
