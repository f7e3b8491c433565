"""Formula, standalone expressions: a dice expression with no names, parsed, checked and evaluated exactly."""

from __future__ import annotations

from typing import Any

from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula.check import Scope, check_types
from rulesc.formula.evaluate import evaluate
from rulesc.formula.lexer import FormulaSyntaxError
from rulesc.formula.parser import parse_formula
from rulesc.formula.types import Type
from rulesc.runtime import rulesc_runtime as R


class DiceUsageError(Exception):
    """An expression that cannot be rolled; the message is ready to print."""


def roll_expression(source: str) -> Any:
    """Evaluate a dice expression with no names, e.g. '4d6kh3', 'max(0, 2d6 - 3)' or 'p_at_least(2d6, 7)': a
    roll, a number (an event gives its chance) or a roll of names."""
    try:
        node = parse_formula(source, lambda offset: Span("<expression>", 1, offset + 1))
    except FormulaSyntaxError as exc:
        raise DiceUsageError(_pointed(source, exc.offset, f"syntax error: {exc.message}", exc.hint)) from None
    diags = Diagnostics()
    scope = Scope({}, {}, {}, lambda name, span: None)
    typed = check_types(node, scope, diags)
    if typed is None:
        first = diags.items[0]
        raise DiceUsageError(_pointed(source, (first.span.col - 1) if first.span else 0, first.message,
                                        first.hint))
    kind = typed.type
    if kind not in (Type.INT, Type.DICE, Type.DIST, Type.NUM, Type.EVENT, Type.OUTCOME):
        raise DiceUsageError(f"{source!r} is {kind}, neither a roll nor a number")
    try:
        value = evaluate(typed, {}, {}, _no_formulas)
        if kind == Type.EVENT:  # a condition on a roll: its chance
            return R.p(value)
        if kind == Type.OUTCOME:  # a roll of names: each name with its chance
            return R.as_outcomes(value)
        return value if kind == Type.NUM else R.as_dist(value)
    except R.RulesError as exc:
        raise DiceUsageError(f"no answer: {exc}") from None


def _no_formulas(name: str, args: list[Any]) -> Any:
    raise R.RulesError(f"unknown function {name}")


def _pointed(source: str, offset: int, message: str, hint: str | None) -> str:
    return f"{message}\n  {source}\n  {' ' * offset}^" + (f"\n  hint: {hint}" if hint else "")
