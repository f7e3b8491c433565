"""Dice notation page emitter: the notation, each form with an example whose numbers the runtime computes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulesc.emit.site.fragments import front
from rulesc.formula.expression import roll_expression
from rulesc.runtime import rulesc_runtime as R

DICE_PAGE = "dice-notation.md"

EXAMPLES: tuple[tuple[str, str, str], ...] = (
    ("NdS", "N dice of S sides, added up", "2d6"),
    ("pool + pool + N", "dice of different sizes and a constant, added up", "1d10+1d4+2"),
    ("(expr)dS", "a number of dice worked out by a formula", "(4 + 6 // 3)d6"),
    ("roll * N", "the roll's result multiplied: each result of 1d6 times 10", "1d6 * 10"),
    ("repeat(pool, N)", "the pool's dice N times over, its constant too (a power's 1d6+1 at tier 3)",
     "repeat(1d6+1, 3)"),
    ("d66", "tens and units: one d6 read as tens and one as units, 11 to 66, each of its 36 results 1 in 36 "
     "(the same roll as 1d6 * 10 + 1d6)", "d66"),
    ("d666", "hundreds, tens and units: 111 to 666, each of its 216 results 1 in 216", "d666"),
    ("Nd(S)", "dice whose number of sides is worked out by a formula: 1d(66) is one die of 66 sides", "1d(66)"),
    ("NdSkhK", "roll N dice and keep the K highest (K defaults to 1)", "2d10kh1"),
    ("NdSklK", "roll N dice and keep the K lowest", "4d6kl3"),
    ("successes(pool, T)", "how many dice of the pool show T or more", "successes(5d6, 5)"),
    ("roll - roll", "the margin between two independent rolls", "successes(8d6, 5) - successes(5d6, 5)"),
    ("max(0, roll)", "a floor: results below 0 count as 0", "max(0, successes(6d6, 5) - 2)"),
    ("roll // 2", "halving, rounded down", "3d6 // 2"),
    ("let r = roll in ...", "a roll that depends on its own result: here a natural 10 adds 1d6",
     "let r = 1d10 in r + (if r >= 10 then 1d6 else 0d6)"),
    ("NdF", "Fudge dice: faces -1, 0 and 1", "4dF"),
    ("Nd{a,b,...}", "dice with listed faces (a face listed twice comes up twice as often)", "2d{0,0,1,1,2,3}"),
    ("NdS!", "exploding dice: a die showing its highest face adds one more die, which may explode again, until one "
     "more explosion is less likely than 1e-15; pool questions count every die, the extra ones too", "1d6!"),
    ("NdS!!", "compounding dice: the same sum, but each die shows its exploded total as one die, so a pool "
     "question sees one die (highest() and lowest() need this form)", "1d6!!"),
    ("NdS!{a,b}", "exploding (or with `!!`, compounding) on the listed faces", "1d10!{9,10}"),
    ("successes(NdS!, T)", "extra dice count: each 10 adds a die, and every die at 8 or more is a success",
     "successes(5d10!, 8)"),
    ("NdSrK", "faces 1 to K rolled again once, the second roll standing", "2d6r2"),
    ("NdSr{a,b}", "the listed faces rolled again once: here each die that is neither 1 nor 6", "2d6r{2,3,4,5}"),
    ("NdSrrK", "faces 1 to K rolled again while they show (`rr{a,b}`: the listed faces), so they never stand; "
     "a die must keep a face that stands and one that does not explode (`rulesc check` refuses d6rr6, d1!, d6!{9})",
     "2d6rr2"),
    ("count(pool, F)", "how many dice of the pool show F (count(pool, low, high): a range of faces)",
     "count(5d6, 6)"),
    ("let p = pool in ...", "one roll of a pool asked several things: its highest die, its number of sixes, its "
     "total (a plain p)", "let p = 4d6 in highest(p, 1) * 10 + count(p, 6)"),
    ("if condition on a roll", "each branch as often as the condition goes its way: a hit's damage",
     "if 1d20 + 5 >= 15 then 1d8 + 3 else 0"),
)

NAMED: tuple[tuple[str, str, str], ...] = (
    ('"name"', "a roll that ends in names: each name with its exact chance",
     'let r = 2d6 in if r >= 10 then "strong hit" else if r >= 7 then "weak hit" else "miss"'),
    ("let p = pool in ... names", "the outcome of an action roll: the highest die, two sixes a critical",
     'let p = 3d6 in if count(p, 6) >= 2 then "critical" else if highest(p, 1) == 6 then "full" '
     'else if highest(p, 1) >= 4 then "partial" else "bad"'),
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
    ("p(condition)", "the chance a condition on a roll holds", "p(1d20 + 5 >= 15)"),
    ("p(a and b)", "conditions on rolls written apart, rolled apart, both holding", "p(1d20 >= 11 and 1d6 == 6)"),
)


def emit_dice_page() -> dict[str, str]:
    w = front("Dice notation", "rulesc/emit/dice_page.py")
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
    w.writeline("## Multiplying a roll, repeating dice")
    w.writeline()
    w.writeline("Multiplying a roll multiplies its result, as AnyDice and icepool read it: `1d6 * 10 + 1d6` is a "
                "d66 roll, 36 results from 11 to 66 at 1 in 36 each, and `2d6 * 2` is an even number from 4 to "
                "24. To roll a pool's dice several times over, write `repeat(pool, N)`: `repeat(1d6, 3)` is 3d6, "
                "and `repeat(dice, tier)` is a power's dice at its tier.")
    w.writeline()
    w.writeline("This is content format 2 (`format: 2` in `system.yaml`). A system without it is read as format 1, "
                "where a pool times a number repeats its dice (`1d6 * 10 + 1d6` is 11d6: the mean of a d66, "
                "but not its chances) and `d66` is one die of 66 sides; `rulesc check` warns at each (W0708), "
                "and `rulesc migrate` rewrites them to `repeat()`, `d66` to `1d(66)`, and the system to "
                "format 2.")
    w.writeline()
    w.writeline("Dice typed into a calculator, a shared link, `rulesc calc` or the engine's `parse_dice()` are read "
                "the newest way: `d66` and `d666` are tens and units, and `d(66)` is one die of 66 sides. A die "
                "read as tens and units cannot explode or be rerolled: `d66!` is refused with a message naming "
                "`1d(66)!`.")
    w.writeline()
    w.writeline("## Questions about a roll")
    w.writeline()
    w.writeline("| Notation | Gives | Example | Value |")
    w.writeline("|---|---|---|---|")
    for notation, meaning, example in QUERIES:
        w.writeline(f"| `{notation}` | {meaning} | `{example}` | {_number(roll_expression(example))} |")
    w.writeline()
    w.writeline("## Named outcomes")
    w.writeline()
    w.writeline("| Notation | Meaning | Example | Outcomes |")
    w.writeline("|---|---|---|---|")
    for notation, meaning, example in NAMED:
        found = roll_expression(example)  # shown in the order the example first names them
        items = sorted(found.items(), key=lambda item: example.find(f'"{item[0]}"'))
        shown = ", ".join(f"{label} {_number(p)}" for label, p in items)
        w.writeline(f"| `{notation}` | {meaning} | `{example}` | {shown} |")
    w.writeline()
    w.writeline("## Limits")
    w.writeline()
    w.writeline(f"A roll of more than {R.MAX_DICE} dice, or with more than {R.MAX_OUTCOMES:,} possible results, "
                "is refused with an error instead of being computed, so no calculator can hang a browser tab; so is "
                f"a roll whose exact answer would take more than {R.MAX_ROLL_BITS:,} bits (its results times the "
                f"bits of each chance: `1000d100` fits, `1000d1000` does not), one that would multiply out two rolls "
                f"whose product passes {R.MAX_PRODUCT_BITS:,} bits (the smaller's results times the bits of the "
                "product's chances: `40d10!` fits, `100d10!` does not, as big products take too long), the best or "
                "worst k of many equal dice past a work budget of "
                f"{R.MAX_KEEP_WORK:,} (about k × k × sides × sides / 4 additions of whole numbers, each counted by "
                "its bits, under a second at the budget: `highest(1000d6, 500)` fits, `highest(1000d10, 300)` does "
                "not; the best k of mixed dice, such as `highest(50d6+50d8, 13)`, are counted against it by the "
                "ways fewer than k of them are placed: `highest(50d6+50d8, 14)` does not fit), the best or worst "
                f"one die of many past {R.MAX_EXTREME_BITS:,} bits (its faces times the bits of each chance: "
                "`highest(1000d10000, 1)` fits, `highest(1000d11000, 1)` does not), and a power "
                "of more than "
                f"{R.MAX_POWER_BITS:,} bits. Whole numbers stay within ±{R.MAX_INT:,} so that Python and JavaScript "
                "compute the same values.")
    return {DICE_PAGE: w.getvalue()}


def _number(value: Any) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):.4f} ({value})" if value.denominator < 10_000 else f"{float(value):.6f}"
    return f"{float(value):.4f}" if isinstance(value, float) else str(value)
