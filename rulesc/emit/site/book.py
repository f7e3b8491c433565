"""Formulas as the book writes them, for players: labels for parameters, numbers for values, signs and words for
operators and built-ins ("Cost = 2 × Tier"); the formula language's own text stays for editors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulesc.analyze.program import Program, show
from rulesc.formula import nodes as n
from rulesc.formula.builtins import BUILTINS
from rulesc.model import Calculator, Formula, Param, Value

Written = tuple[str, int]  # a piece of the text and how tightly it binds (PRECEDENCE)

ATOM = 9
PRECEDENCE = {"or": 1, "and": 2, "not": 3, "compare": 4, "+": 5, "-": 5, "*": 6, "//": 6, "/": 6, "neg": 7, "^": 8}
SIGNS = {"+": "+", "-": "\u2212", "*": "\u00d7", "//": "\u00f7", "/": "\u00f7", "^": "^"}
COMPARE = {"<": "<", "<=": "\u2264", ">": ">", ">=": "\u2265", "==": "=", "!=": "\u2260"}
EMPTY: Mapping[str, str] = {}
INLINE_NODES = 7
"""A called formula of at most this many nodes is written out in place ("2 × Tier of Power", not "scaled(...)")."""

def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def words_of(name: str) -> str:
    """A formula language name as words: `cost_at_tier` reads "cost at tier"."""
    return name.replace("_", " ").strip()


@dataclass(frozen=True)
class Book:
    """Writes a system's expressions as the book would, each name by its label or its value."""

    program: Program

    def expression(self, node: n.Node | None, params: tuple[Param, ...], named: Mapping[str, str] = EMPTY) -> str:
        """The expression with `params` named by their labels (and the names in `named`, such as a calculator's
        earlier outputs, by theirs); "" without a checked expression."""
        if node is None:
            return ""
        labels = {**named, **{p.name: p.label for p in params}}
        return self._write(node, {name: (label, ATOM) for name, label in labels.items()}, 0)[0]

    def formula(self, formula: Formula, name: str) -> str:
        """"name = the formula's expression"."""
        return f"{name} = {self.expression(formula.expr.node, formula.params)}"

    def _write(self, node: n.Node, env: Mapping[str, Written], depth: int) -> Written:
        if isinstance(node, (n.Num, n.Bool, n.Text, n.Name)):
            return self._leaf(node, env)
        if isinstance(node, n.BinOp | n.Compare | n.Logic):
            return self._binary(node, env, depth)
        if isinstance(node, n.Neg):
            return "\u2212" + self._inner(node.operand, env, depth, PRECEDENCE["neg"]), PRECEDENCE["neg"]
        if isinstance(node, n.Not):  # "not (A > B)": a reader cannot tell how far a bare "not" reaches
            return "not " + self._inner(node.operand, env, depth, ATOM), PRECEDENCE["not"]
        if isinstance(node, n.DiceRoll):
            return self._dice(node, env, depth), ATOM
        if isinstance(node, n.IfElse):
            parts = (self._inner(part, env, depth, 1) for part in (node.then, node.cond, node.other))
            return "{} if {}, otherwise {}".format(*parts), 0
        if isinstance(node, n.Let):
            value = self._inner(node.value, env, depth, 1)
            body = self._write(node.body, {**env, node.name: (words_of(node.name), ATOM)}, depth)[0]
            return f"{body}, where {words_of(node.name)} = {value}", 0
        assert isinstance(node, n.Call)
        return self._call(node, env, depth)

    def _leaf(self, node: n.Num | n.Bool | n.Text | n.Name, env: Mapping[str, Written]) -> Written:
        if isinstance(node, n.Bool):
            return ("yes" if node.value else "no"), ATOM
        if isinstance(node, n.Num):
            return str(node.value), ATOM
        if isinstance(node, n.Text):
            return f"\u201c{node.value}\u201d", ATOM
        if node.name in env:
            return env[node.name]
        value = self.program.constants.get(node.name)
        return (value_text(value) if value is not None else words_of(node.name)), ATOM

    def _binary(self, node: n.BinOp | n.Compare | n.Logic, env: Mapping[str, Written], depth: int) -> Written:
        key = "compare" if isinstance(node, n.Compare) else node.op
        tight = PRECEDENCE.get(key, ATOM)
        sign = COMPARE[node.op] if isinstance(node, n.Compare) else SIGNS.get(node.op, node.op)
        mixed = {side: isinstance(side, n.Logic) and side.op != key for side in (node.left, node.right)}
        left = self._inner(node.left, env, depth, ATOM if mixed[node.left] else tight)  # "A or (B and C)"
        right = self._inner(node.right, env, depth, ATOM if mixed[node.right] else
                            tight + (key in ("-", "//", "/", "compare", "^")))
        rounded = " (rounded down)" if node.op == "//" else ""
        return f"{left} {sign} {right}{rounded}", tight

    def _inner(self, node: n.Node, env: Mapping[str, Written], depth: int, tight: int) -> str:
        """A part of a bigger expression, in parentheses when it binds less tightly than its place asks."""
        text, binds = self._write(node, env, depth)
        return f"({text})" if binds < tight else text

    def _dice(self, node: n.DiceRoll, env: Mapping[str, Written], depth: int) -> str:
        count = self._inner(node.count, env, depth, ATOM)
        if node.special == "F" or node.special.startswith("{"):
            return f"{count}d{node.special}"
        return f"{count}d{self._inner(node.sides, env, depth, ATOM)}{node.special}"

    def _call(self, node: n.Call, env: Mapping[str, Written], depth: int) -> Written:
        args = [self._write(arg, env, depth) for arg in node.args]
        callee = self.program.formulas.get(node.func)
        if callee is not None and callee.expr.node is not None and _size(callee.expr.node) <= INLINE_NODES \
                and depth < 4:
            inner = {p.name: arg for p, arg in zip(callee.params, args, strict=False)}
            return self._write(callee.expr.node, inner, depth + 1)
        builtin = BUILTINS.get(node.func) if callee is None else None
        if builtin is not None and builtin.words:
            return _in_words(builtin.words, args)
        return f"{words_of(node.func)} ({', '.join(text for text, _ in args)})", ATOM


def _in_words(template: str, args: list[Written]) -> Written:
    """A built-in's call by its row's words; "{0}" alone passes its argument through, words that begin with an
    argument ("A, at least 1 and at most B") bind loosely, words around them ("the lowest of A and B") tightly."""
    if template == "{0}":
        return args[0]
    texts = [text for text, _ in args]
    return template.format(*texts, all=_listed(texts)), 0 if template.startswith("{") else ATOM


def _size(node: n.Node) -> int:
    """How many nodes an expression has."""
    kids = [v for v in vars(node).values() if isinstance(v, n.Node)]
    kids += [a for a in getattr(node, "args", ()) if isinstance(a, n.Node)]
    return 1 + sum(_size(kid) for kid in kids)


def value_text(value: Value) -> str:
    """A value as a player reads it: yes or no for a truth value, the book's terms for the rest."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value) if isinstance(value, int) else show(value)


def result_name(formula: Formula, calculators: tuple[Calculator, ...]) -> str:
    """What a formula works out, named as the book would: the label of a calculator output that is just a call to
    it, else its name in words, capitalized."""
    for calc in calculators:
        for output in calc.outputs:
            node = output.expr.node
            if isinstance(node, n.Call) and node.func == formula.id:
                return output.label
    return words_of(formula.id).capitalize()
