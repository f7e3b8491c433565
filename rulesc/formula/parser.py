"""Formula parser: tokens to nodes by recursive descent; it raises only FormulaSyntaxError."""

from __future__ import annotations

import re
from collections.abc import Callable

from rulesc.diagnostics.core import Span
from rulesc.formula import nodes as n
from rulesc.formula.lexer import FormulaSyntaxError, Token, tokenize
from rulesc.runtime.rulesc_runtime import TENS_AND_UNITS, RulesError, dice

COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
MAX_NESTING = 100
MAX_LENGTH = 10_000


def parse_formula(source: str, locate: Callable[[int], Span], version: int = 2) -> n.Node:
    """Parse a whole formula of content format `version` (in 2, d66 and d666 are tens-and-units rolls); `locate`
    turns a character offset into a span in the content file."""
    if len(source) > MAX_LENGTH:
        raise FormulaSyntaxError(f"the formula is {len(source)} characters long; at most {MAX_LENGTH} are allowed", 0,
                                 _SPLIT_HINT)
    tokens = tokenize(source)
    parser = _Parser(tokens, locate, version)
    try:
        node = parser.parse()
    except RecursionError:  # a long run of prefix operators such as '- - - 1' or 'not not ...'
        raise FormulaSyntaxError(f"formula nested deeper than {MAX_NESTING} levels", 0, _SPLIT_HINT) from None
    # A token makes at most two nodes ('d' and 'kh' may add an implied 1), so a short formula cannot be too deep.
    if 2 * len(tokens) > MAX_NESTING and _depth(node) > MAX_NESTING:
        raise FormulaSyntaxError(f"formula nested deeper than {MAX_NESTING} levels", 0, _SPLIT_HINT)
    return node


_SPLIT_HINT = "split it into smaller formulas that call each other"


def _depth(root: n.Node) -> int:
    """How deep the tree is, counted without recursion so later stages can safely recurse over it."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        for value in vars(node).values():
            children = value if isinstance(value, tuple) else (value,)
            stack.extend((child, depth + 1) for child in children if isinstance(child, n.Node))
    return deepest


class _Parser:
    def __init__(self, tokens: list[Token], locate: Callable[[int], Span], version: int = 2):
        self.tokens = tokens
        self.version = version
        self.pos = 0
        self.locate = locate
        self.depth = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def at(self, text: str) -> bool:
        token = self.tokens[self.pos]
        return token.text == text and token.kind in ("op", "keyword")

    def expect(self, text: str) -> Token:
        if not self.at(text):
            raise FormulaSyntaxError(f"expected '{text}', found {self._shown()}", self.tok.offset, self._dice_call())
        return self.advance()

    def _dice_call(self) -> str | None:
        """The hint for a call of a name that reads as dice, d100(...): such a formula can never be called."""
        before = self.tokens[max(0, self.pos - 3):self.pos]
        if not self.at("(") or len(before) < 2 or [t.kind for t in before[-2:]] != ["d", "int"]:
            return None
        if len(before) == 3 and (before[0].kind in ("int", "name") or before[0].text == ")"):
            return None  # 2d100( or (n)d100(: dice with a count, not a name
        name = "d" + before[-1].text
        return f"'{name}' reads as dice notation, so '{name}(' is a roll followed by '(': a formula named {name} " \
               "cannot be called; rename it"

    def _shown(self) -> str:
        return "the end of the formula" if self.tok.kind == "end" else repr(self.tok.text)

    def span(self, token: Token) -> Span:
        return self.locate(token.offset)

    def parse(self) -> n.Node:
        node = self.expr()
        if self.tok.kind != "end":
            raise FormulaSyntaxError(f"unexpected {self._shown()} after a complete formula", self.tok.offset,
                                     self._dice_call() or "join terms with an operator such as + or *")
        return node

    def expr(self) -> n.Node:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise FormulaSyntaxError(f"formula nested deeper than {MAX_NESTING} levels", self.tok.offset)
        try:
            if self.at("let"):
                return self.let()
            if self.at("if"):
                start = self.advance()
                cond = self.expr()
                self.expect("then")
                then = self.expr()
                self.expect("else")
                return n.IfElse(self.span(start), cond, then, self.expr())
            return self.disjunction()
        finally:
            self.depth -= 1

    def let(self) -> n.Node:
        start = self.advance()
        if self.tok.kind != "name":
            raise FormulaSyntaxError(f"expected a name after 'let', found {self._shown()}", self.tok.offset)
        name = self.advance().text
        self.expect("=")
        value = self.expr()
        self.expect("in")
        return n.Let(self.span(start), name, value, self.expr())

    def disjunction(self) -> n.Node:
        return self.level(("or",), self.conjunction, n.Logic)

    def conjunction(self) -> n.Node:
        return self.level(("and",), self.negation, n.Logic)

    def negation(self) -> n.Node:
        if self.at("not"):
            token = self.advance()
            return n.Not(self.span(token), self.negation())
        return self.comparison()

    def comparison(self) -> n.Node:
        left = self.additive()
        if self.tok.kind == "op" and self.tok.text in COMPARISONS:
            token = self.advance()
            right = self.additive()
            if self.tok.kind == "op" and self.tok.text in COMPARISONS:
                raise FormulaSyntaxError("comparisons cannot be chained", self.tok.offset,
                                         "write 'a < b and b < c'")
            return n.Compare(self.span(token), token.text, left, right)
        return left

    def additive(self) -> n.Node:
        return self.level(("+", "-"), self.multiplicative, n.BinOp)

    def multiplicative(self) -> n.Node:
        return self.level(("*", "//", "/"), self.unary, n.BinOp)

    def level(self, ops: tuple[str, ...], operand: Callable[[], n.Node],
              node: Callable[[Span, str, n.Node, n.Node], n.Node]) -> n.Node:
        """Left-associative operators of one precedence level; each level passes the next as a bound method."""
        left = operand()
        token = self.tokens[self.pos]
        while token.text in ops and token.kind in ("op", "keyword"):
            self.pos += 1
            left = node(self.span(token), token.text, left, operand())
            token = self.tokens[self.pos]
        return left

    def unary(self) -> n.Node:
        if self.at("-"):
            token = self.advance()
            return n.Neg(self.span(token), self.unary())
        return self.power()

    def power(self) -> n.Node:
        """a ^ b, binding tighter than '-' on its left and right-associative: -2^2 is -(2^2)."""
        base = self.dice()
        if self.at("^"):
            token = self.advance()
            return n.BinOp(self.span(token), "^", base, self.unary())
        return base

    def dice(self) -> n.Node:
        if self.tok.kind == "d":
            token = self.advance()
            return self.keep(self.die(token, n.Num(self.span(token), 1)))
        left = self.primary()
        if self.tok.kind == "d":
            token = self.advance()
            return self.keep(self.die(token, left))
        return left

    def die(self, token: Token, count: n.Node) -> n.DiceRoll:
        """What follows 'd': sides, F, or {faces}; after sides, ! (extra dice) or !! (one die showing the sum)
        to explode, optionally on {faces}, or r (once) or rr (while) and the highest face or {faces} to reroll."""
        span = self.span(token)
        if self.tok.kind in ("fudge", "faces"):
            written = self.advance().text
            special = "F" if written == "F" else _faces(written)
            return _rollable(n.DiceRoll(span, count, n.Num(span, 0), special), token.offset)
        if self.version >= 2 and self.tok.kind == "int" and self.tok.text in TENS_AND_UNITS:
            return self.tens_and_units(span, count)
        sides = self.primary()
        if self.tok.kind == "reroll":
            return _rollable(n.DiceRoll(span, count, sides, self.reroll()), token.offset)
        if self.at("!"):
            mark = self.advance().text + (self.advance().text if self.at("!") else "")
            faces = _faces(self.advance().text) if self.tok.kind == "faces" else ""
            return _rollable(n.DiceRoll(span, count, sides, mark + faces), token.offset)
        return _rollable(n.DiceRoll(span, count, sides), token.offset)

    def tens_and_units(self, span: Span, count: n.Node) -> n.DiceRoll:
        """d66 (d666): one d6 read as tens and one as units (and one as hundreds), a roll of 11 to 66 (111 to 666)."""
        written = self.advance().text
        if self.tok.kind == "reroll" or self.at("!"):
            raise FormulaSyntaxError(f"d{written} is a roll read as tens and units, which cannot explode or be "
                                     "rerolled", self.tok.offset, f"write 1d({written}) for a die of {written} sides")
        return n.DiceRoll(span, count, n.Num(span, 0), TENS_AND_UNITS[written])

    def reroll(self) -> str:
        """r or rr, then the highest face to reroll or the {faces}: 'r2', 'rr{1,2}'."""
        mark = self.advance().text
        if self.tok.kind not in ("int", "faces"):
            raise FormulaSyntaxError(f"expected the highest face to reroll, or {{faces}}, after '{mark}'",
                                     self.tok.offset, f"d6{mark}2 rerolls 1s and 2s, d6{mark}{{2,3,4,5}} those faces")
        written = self.advance()
        return mark + (written.text if written.kind == "int" else _faces(written.text))

    def keep(self, roll: n.DiceRoll) -> n.Node:
        """NdSkhK / NdSklK: the K highest or lowest dice (K defaults to 1)."""
        if self.tok.kind != "keep":
            return roll
        token = self.advance()
        count: n.Node = n.Num(self.span(token), 1)
        if self.tok.kind == "int":
            number = self.advance()
            count = n.Num(self.span(number), int(number.text))
            _check_keep(token.text, int(number.text), roll.count, number.offset)
        func = "highest" if token.text == "kh" else "lowest"
        return n.Call(self.span(token), func, (roll, count))

    def primary(self) -> n.Node:
        token = self.tok
        if self.at("!"):
            raise FormulaSyntaxError("unexpected '!'", token.offset,
                                     "write 'not' for not and '!=' for not equal; '!' after dice explodes them (2d6!)")
        if token.kind == "int":
            self.advance()
            return n.Num(self.span(token), int(token.text))
        if token.kind == "text":
            self.advance()
            return n.Text(self.span(token), token.text[1:-1])
        if token.kind == "keyword" and token.text in ("true", "false"):
            self.advance()
            return n.Bool(self.span(token), token.text == "true")
        if token.kind == "name":
            self.advance()
            return self.call(token) if self.at("(") else n.Name(self.span(token), token.text)
        if self.at("("):
            self.advance()
            inner = self.expr()
            self.expect(")")
            return inner
        raise FormulaSyntaxError(f"expected a number, a name, a quoted name or '(', found {self._shown()}",
                                 token.offset)

    def call(self, name: Token) -> n.Node:
        self.expect("(")
        args: list[n.Node] = []
        if not self.at(")"):
            args.append(self.expr())
            while self.at(","):
                self.advance()
                args.append(self.expr())
        self.expect(")")
        return n.Call(self.span(name), name.text, tuple(args))


def _rollable(roll: n.DiceRoll, offset: int) -> n.DiceRoll:
    """A die written with its sides as a number is one the runtime can roll: a d1 cannot explode, a d6r6 would
    reroll every face, a d6!{9} names a face a d6 lacks. Found here, such a die is an error at its 'd' when the
    content is checked rather than when the formula is first worked out."""
    sides = roll.sides
    if not isinstance(sides, n.Num) or type(sides.value) is not int:
        return roll  # sides from a parameter or value: the runtime checks them on each call
    count = roll.count.value if isinstance(roll.count, n.Num) and type(roll.count.value) is int else 1
    try:
        dice(max(count, 0), sides.value, roll.special)
    except RulesError as exc:
        raise FormulaSyntaxError(f"this die cannot be rolled: {exc}", offset, _ROLLABLE) from None
    return roll


_ROLLABLE = ("a die has at least 1 side; an exploding die needs a face that does not explode, a rerolled die a face "
             "that is kept, and the faces named must be the die's own")


def _faces(written: str) -> str:
    """Listed faces as one text, spaces dropped: '{ 9, 10 }' gives '{9,10}'."""
    return "{" + ",".join(re.findall(r"-?\d+", written)) + "}"


def _check_keep(keep: str, kept: int, rolled: n.Node, offset: int) -> None:
    """A written keep count such as the 4 of '3d6kh4' lies between 1 and the number of dice rolled."""
    dice = rolled.value if isinstance(rolled, n.Num) and rolled.value >= 1 else None
    if kept >= 1 and (dice is None or kept <= dice):
        return
    wanted = "at least 1" if dice is None else "1" if dice == 1 else f"between 1 and {dice}"
    raise FormulaSyntaxError(f"'{keep}{kept}' keeps {kept} dice, but the count after '{keep}' must be {wanted}",
                             offset, _keep_hint(keep, dice))


def _keep_hint(keep: str, dice: int | None) -> str:
    if dice is None:
        return f"'{keep}' with no count keeps one die"
    return f"with one die, write {keep}1" if dice == 1 else f"with {dice} dice, write {keep}1 to {keep}{dice}"
