"""Dice notation page emitter: the notation, each form with an example whose numbers the runtime computes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from generator.emit.site.fragments import front
from generator.formula.expression import roll_expression
from generator.runtime import rulesc_runtime as R

DICE_PAGE = "dice-notation.md"

EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("NdS", "N dice of S sides, added up", "2d6"),
    ("pool + pool + N", "dice of different sizes and a constant, added up", "1d10+1d4+2"),
    ("(expr)dS", "a number of dice worked out by a formula", "(4 + 6 // 3)d6"),
    ("NdSkhK", "roll N dice and keep the K highest (K defaults to 1)", "2d10kh1"),
    ("NdSklK", "roll N dice and keep the K lowest", "4d6kl3"),
    ("successes(pool, T)", "how many dice of the pool show T or more", "successes(5d6, 5)"),
    ("roll - roll", "the margin between two independent rolls", "successes(8d6, 5) - successes(5d6, 5)"),
    ("max(0, roll)", "a floor: results below 0 count as 0", "max(0, successes(6d6, 5) - 2)"),
    ("roll // 2", "halving, rounded down", "3d6 // 2"),
    ("let r = roll in ...", "a roll that depends on its own result: here a natural 10 adds 1d6",
     "let r = 1d10 in r + (if r >= 10 then 1d6 else 0d6)"),
)

QUERIES: tuple[tuple[str, str, str], ...] = (
    ("p_at_least(roll, k)", "the chance of k or more", "p_at_least(2d6, 7)"),
    ("p_at_most(roll, k)", "the chance of k or less", "p_at_most(2d10kh1, 5)"),
    ("p_equal(roll, k)", "the chance of exactly k", "p_equal(3d6, 10)"),
    ("mean(roll)", "the average", "mean(4d6kh3)"),
    ("sd(roll)", "the standard deviation", "sd(2d6)"),
    ("p_greater(a, b)", "the chance a beats b, ties counting for neither", "p_greater(1d20, 1d20)"),
    ("p_tie(a, b)", "the chance of a tie", "p_tie(1d20, 1d20)"),
    ("p_win(a, b, ties)", "the chance a wins when ties go to a only if ties is true",
     "p_win(1d20, 1d20, false)"),
)


def emit_dice_page() -> dict[str, str]:
    w = front("Dice notation", "generator/emit/dice_page.py")
    w.writeline("# Dice notation")
    w.writeline()
    w.writeline("Formulas and calculators write rolls in the usual `NdS` notation. Every probability below is "
                "worked out exactly (as a fraction) by the same runtime the engine and the calculators use; "
                "nothing is simulated. From a terminal, `rulesc dice \"EXPRESSION\"` prints the whole "
                "distribution, and `--json` gives it to other programs.")
    w.writeline()
    w.writeline("## Rolls")
    w.writeline()
    w.writeline("| Notation | Meaning | Example | Range | Mean |")
    w.writeline("|---|---|---|---|---|")
    for notation, meaning, example in EXAMPLES:
        dist = roll_expression(example)
        outcomes = [x for x, _ in dist.items()]
        w.writeline(f"| `{notation}` | {meaning} | `{example}` | {min(outcomes)} to {max(outcomes)} | "
                    f"{_number(R.mean(dist))} |")
    w.writeline()
    w.writeline("## Questions about a roll")
    w.writeline()
    w.writeline("| Notation | Gives | Example | Value |")
    w.writeline("|---|---|---|---|")
    for notation, meaning, example in QUERIES:
        w.writeline(f"| `{notation}` | {meaning} | `{example}` | {_number(roll_expression(example))} |")
    w.writeline()
    w.writeline("## Limits")
    w.writeline()
    w.writeline(f"A roll of more than {R.MAX_DICE} dice, or with more than {R.MAX_OUTCOMES:,} possible results, "
                "is refused with an error instead of being computed, so no calculator can hang a browser tab. "
                f"Whole numbers stay within ±{R.MAX_INT:,} so that Python and JavaScript compute the same values.")
    return {DICE_PAGE: w.getvalue()}


def _number(value: Any) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.4f} ({value})" if value.denominator < 10_000 else f"{float(value):.6f}"
    return f"{float(value):.4f}" if isinstance(value, float) else str(value)
