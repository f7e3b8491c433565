"""`rulesc dice`: the exact distribution of a dice expression, as a terminal chart or JSON."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from rulesc.cli.usage import UsageError
from rulesc.compile import Project
from rulesc.formula.expression import DiceUsageError, roll_expression
from rulesc.runtime import rulesc_runtime as R

BAR_WIDTH = 40


def register(commands: Any) -> None:
    dice = commands.add_parser("dice", help='print the exact distribution of a dice expression, e.g. "4d6kh3"')
    dice.add_argument("expression", nargs="?",
                      help="an expression in rulesc's dice notation (see the site's Dice notation page); "
                           "it may start with '-', as in -1d6")
    dice.add_argument("--json", action="store_true", help="print {expression, distribution, mean, sd} as JSON")
    dice.set_defaults(run=run_dice_command)


def run_dice_command(project: Project, args: argparse.Namespace) -> int:
    if args.expression is None:
        raise UsageError('dice needs an expression, e.g. rulesc dice "4d6kh3" (one starting with \'-\' works too: '
                         'rulesc dice "-1d6")')
    try:
        print(run_dice(args))
    except DiceUsageError as exc:
        raise UsageError(str(exc)) from None
    return 0


def describe(source: str, dist: R.Dist) -> dict[str, Any]:
    """The JSON form: outcome -> probability, with mean and standard deviation."""
    return {"expression": source,
            "distribution": {str(x): float(p) for x, p in dist.items()},
            "mean": float(R.mean(dist)), "sd": R.sd(dist)}


def chart(source: str, dist: R.Dist) -> str:
    """A terminal table: each outcome with its probability, the chance of at least it, and a bar."""
    items = dist.items()
    top = max(p for _, p in items)
    width = max(len(str(x)) for x, _ in items)
    lines = [f"{source}: average {float(R.mean(dist)):.4f}, standard deviation {R.sd(dist):.4f}",
             f"{'':>{width}}  {'exactly':>9}  {'at least':>9}"]
    remaining = Fraction(1)
    for outcome, p in items:
        bar = "\u2588" * max(1 if p else 0, round(float(p / top) * BAR_WIDTH))
        lines.append(f"{outcome:>{width}}  {float(p) * 100:8.4f}%  {float(remaining) * 100:8.4f}%  {bar}")
        remaining -= p
    return "\n".join(lines)


def named(source: str, outcomes: R.Outcomes) -> str:
    """A terminal table of a roll of names: each name with its exact chance and a bar, in the runtime's order."""
    items = [(R.exact_text(label) if isinstance(label, bool) else label, p) for label, p in outcomes.items()]
    top, width = max(p for _, p in items), max(len(str(label)) for label, _ in items)
    lines = [f"{source}:"]
    for label, p in items:
        bar = "\u2588" * max(1, round(float(p / top) * BAR_WIDTH))
        lines.append(f"{label!s:<{width}}  {str(p):>11}  {float(p) * 100:8.4f}%  {bar}")
    return "\n".join(lines)


def run_dice(args: argparse.Namespace) -> str:
    result = roll_expression(args.expression)
    if isinstance(result, R.Outcomes):
        if args.json:
            return json.dumps({"expression": args.expression,
                               "outcomes": [{"outcome": label, "exact": str(p), "float": float(p)}
                                            for label, p in result.items()]})
        return named(args.expression, result)
    if not isinstance(result, R.Dist):
        exact = Fraction(result) if not isinstance(result, float) else None
        if args.json:
            return json.dumps({"expression": args.expression, "value": float(result),
                               "exact": str(exact) if exact is not None else None})
        return f"{args.expression} = {exact} = {float(result):.12g}" if exact is not None else \
            f"{args.expression} = {result:.12g}"
    return json.dumps(describe(args.expression, result)) if args.json else chart(args.expression, result)
