"""Formula lexer: source text to tokens with their offsets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulesc.runtime.rulesc_runtime import MAX_INT

KEYWORDS = frozenset({"if", "then", "else", "and", "or", "not", "true", "false", "let", "in"})
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<int>\d+)
  | (?P<faces>\{\s*-?\d+(?:\s*,\s*-?\d+)*\s*\})
  | (?P<text>"[^"\n]*"|'[^'\n]*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>//|<=|>=|==|!=|!|[-+*/^<>(),=])
""", re.VERBOSE)


_DICE = re.compile(r"d(\d+|F)(?:(rr?)(\d*))?(?:(k[hl])(\d*))?")
_KEEP = re.compile(r"k[hl]\d*")


class FormulaSyntaxError(Exception):
    """A formula that cannot be read; `offset` is the 0-based character position in the formula."""

    def __init__(self, message: str, offset: int, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


@dataclass(frozen=True)
class Token:
    kind: str  # int, text (a quoted name, quotes kept), faces ({1,1,2}), name, keyword, op, d, fudge, reroll, end
    text: str
    offset: int


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    pos = 0
    while pos < len(source):
        match = _TOKEN.match(source, pos)
        if match is None:
            if source[pos] in "\"'":
                raise FormulaSyntaxError("a quoted name is not closed", pos,
                                         f"end it with {source[pos]} on the same line")
            raise FormulaSyntaxError(f"unexpected character {source[pos]!r}", pos, _CHARACTER_HINTS.get(source[pos]))
        kind = match.lastgroup or "space"
        if kind != "space":
            tokens.extend(_classify(kind, match.group(), pos, tokens))
        pos = match.end()
    tokens.append(Token("end", "", len(source.rstrip())))
    for token in tokens:
        _check_number(token)
    return tokens


_CHARACTER_HINTS = {"&": "write 'and'", "|": "write 'or'", "!": "write 'not', or '!=' for 'is not equal to'",
                    "\u00d7": "write * to multiply", "\u00f7": "write // to divide",
                    "%": "formulas have no '%' operator"}


def _check_number(token: Token) -> None:
    """Whole numbers stay within the runtime's MAX_INT, so Python and JavaScript compute the same. Leading zeros add
    nothing: only the digits after them are counted (more than 16 is too large, and never read as a number)."""
    if token.kind != "int":
        return
    digits = token.text.lstrip("0")
    if len(digits) > 16 or int(digits or "0") > MAX_INT:
        shown = token.text if len(token.text) <= 24 else token.text[:20] + "..."
        raise FormulaSyntaxError(f"the number {shown} is too large", token.offset,
                                 f"whole numbers in formulas are at most {MAX_INT} (2**53-1)")


def _classify(kind: str, text: str, offset: int, before: list[Token]) -> list[Token]:
    """Split dice notation out of names: '2d10kh1' lexes as int 2, then d, 10, keep 'kh', 1."""
    if kind != "name":
        return [Token(kind, text, offset)]
    dice = _DICE.fullmatch(text) if text[0] == "d" else None
    if dice:
        sides = Token("fudge", "F", offset + 1) if dice.group(1) == "F" else Token("int", dice.group(1), offset + 1)
        tokens = [Token("d", "d", offset), sides]
        at = offset + 1 + len(dice.group(1))
        if dice.group(2):
            tokens.append(Token("reroll", dice.group(2), at))
            at += len(dice.group(2))
            if dice.group(3):
                tokens.append(Token("int", dice.group(3), at))
                at += len(dice.group(3))
        if dice.group(4):
            tokens.append(Token("keep", dice.group(4), at))
            if dice.group(5):
                tokens.append(Token("int", dice.group(5), at + 2))
        return tokens
    if text[0] == "k" and _KEEP.fullmatch(text) and _ends_dice(before):
        tokens = [Token("keep", text[:2], offset)]
        return tokens + ([Token("int", text[2:], offset + 2)] if len(text) > 2 else [])
    if text == "d" and _ends_operand(before):
        return [Token("d", "d", offset)]
    return [Token("keyword" if text in KEYWORDS else "name", text, offset)]


def _ends_dice(before: list[Token]) -> bool:
    """Whether the tokens end with dice notation, such as 3d6 or 2d10!{9,10}, that a keep may follow."""
    marks = 0
    while marks < len(before) and before[-1 - marks].kind in ("int", "faces", "reroll", "fudge") or \
            marks < len(before) and before[-1 - marks].text == "!":
        marks += 1
    return 0 < marks < len(before) and before[-1 - marks].kind == "d"


def _ends_operand(before: list[Token]) -> bool:
    return bool(before) and (before[-1].kind == "int" or before[-1].text == ")")
