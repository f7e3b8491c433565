"""A rule's structured parts on its page: the trigger, the roll's options, and each outcome with its exact chance."""

from __future__ import annotations

from fractions import Fraction
from html import escape

from generator.analyze.kinds import outcome_formula
from generator.analyze.program import Program
from generator.emit.site.calculators import fixed
from generator.emit.site.markup import Markup, Section
from generator.model import Formula, Roll, Rule
from generator.runtime.rulesc_runtime import Outcomes, RulesError


def lead_parts(markup: Markup, rule: Rule, section: Section) -> list[str]:
    """The trigger and the roll, which the page shows before the rule's text, as HTML blocks."""
    before = [f'<p class="rulesc-trigger"><em>{markup.inline(rule.trigger, section)}</em></p>'
              if rule.trigger else "", roll_line(rule.roll) if rule.roll else ""]
    return [part for part in before if part]


def roll_line(roll: Roll) -> str:
    """What the roll adds, as the book writes it: Roll +Edge or +Heart, plus adds."""
    stats = roll.stat_choice(escape)
    adds = (", plus adds" if stats else " plus adds") if roll.adds else ""
    return f'<p class="rulesc-roll">Roll{" " + stats if stats else ""}{adds}</p>' if stats or adds else ""


def outcomes_block(program: Program, markup: Markup, rule: Rule, section: Section) -> str:
    """Each outcome's name, its chance at the rolling formula's first worked example, and its text (after the rule's
    text and list items)."""
    if not rule.outcomes:
        return ""
    formula = outcome_formula(program, rule)
    chances, caption = _chances(program, formula) if formula is not None else ({}, "")
    rows = [f'<div data-outcome="{escape(o.name)}"><dt>{escape(o.name[:1].upper() + o.name[1:])}'
            f"{_chance(chances.get(o.name))}</dt><dd>{markup.inline(o.text, section)}</dd></div>"
            for o in rule.outcomes]
    return f'<dl class="rulesc-outcomes">{"".join(rows)}</dl>{caption}'


def _chance(chance: Fraction | None) -> str:
    if chance is None:
        return ""
    return f' <span class="rulesc-chance">{fixed(chance * 100, 2)}% ({chance})</span>'


def _chances(program: Program, formula: Formula) -> tuple[dict[str, Fraction], str]:
    """The formula's outcomes at its first worked example, by name, and the sentence naming those arguments."""
    if not formula.examples:
        return {}, ""
    args = dict(formula.examples[0].args)
    try:
        value = program.call(formula.id, [args[p.name] for p in formula.params])
    except (RulesError, KeyError):
        return {}, ""
    if not isinstance(value, Outcomes):
        return {}, ""
    at = ", ".join(f"{escape(p.label)} {escape(str(args[p.name]))}" for p in formula.params)
    where = f" at {at}" if at else ""
    return ({str(label): chance for label, chance in value.items()},
            f'<p class="rulesc-muted rulesc-outcomes__at">Chances{where}.</p>')
