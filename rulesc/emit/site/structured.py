"""A rule's structured parts on its page: the trigger, the roll's options, and each outcome with its exact chance."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import Any

from rulesc.analyze.kinds import outcome_formula
from rulesc.analyze.program import Program
from rulesc.emit.site.calculators import fixed
from rulesc.emit.site.markup import Markup, Section
from rulesc.formula.evaluate import Value as RuntimeValue
from rulesc.model import Formula, Param, Roll, Rule, default_of
from rulesc.runtime.rulesc_runtime import Outcomes, RulesError


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
    """Each outcome's name and text (after the rule's text and list items), then a table of their chances: by the
    values of one input of the rolling formula, else at each of its worked examples. A formula with no inputs has
    one chance per outcome, shown beside its name."""
    if not rule.outcomes:
        return ""
    formula = outcome_formula(program, rule)
    table = chance_table(program, formula) if formula is not None else None
    beside = table.rows[0][1] if table is not None and not table.heading else {}
    rows = [f'<div data-outcome="{escape(o.name)}"><dt>{escape(_capital(o.name))}'
            f"{_chance(beside.get(o.name))}</dt><dd>{markup.inline(o.text, section)}</dd></div>"
            for o in rule.outcomes]
    shown = _table_html(table, [o.name for o in rule.outcomes]) if table is not None and table.heading else ""
    return f'<dl class="rulesc-outcomes">{"".join(rows)}</dl>{shown}'


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


def _chance(chance: Fraction | None) -> str:
    if chance is None:
        return ""
    return f' <span class="rulesc-chance">{fixed(chance * 100, 2)}% ({chance})</span>'


MAX_ROWS = 12
"""The most values of one input the chances table lists, a row each: a stat or a progress track, not a d20 bonus."""


@dataclass(frozen=True)
class ChanceTable:
    """Each outcome's chance by row: by the values of one input (the others held), or at each worked example."""

    caption: str
    heading: str  # the first column's: the varied input's label, "Given" for worked examples, "" with no inputs
    rows: tuple[tuple[str, dict[str, Fraction]], ...]  # each row's label and its outcomes' chances


def chance_table(program: Program, formula: Formula) -> ChanceTable | None:
    """The formula's outcome chances: by the values of its first input with at most MAX_ROWS of them, the other
    inputs at the first worked example's values (or their defaults); else at each worked example; None when
    neither gives named outcomes. A formula with no inputs has one row, with no heading."""
    if not formula.params:
        chances = _outcomes(program, formula, {})
        return ChanceTable("", "", (("", chances),)) if chances is not None else None
    varied = next((p for p in formula.params if 0 < len(_values(p)) <= MAX_ROWS), None)
    held = dict(formula.examples[0].args) if formula.examples else {p.name: default_of(p) for p in formula.params}
    if varied is not None:
        by_input = _by_input(program, formula, varied, held)
        if by_input is not None:
            return by_input
    return _by_example(program, formula)


def _values(param: Param) -> list[tuple[str, Any]]:
    """An input's values as the table's rows name them: its options, else every whole number of its range."""
    if param.options:
        return [(o.label, o.value) for o in param.options]
    if param.type != "int" or param.min is None or param.max is None or param.max - param.min >= MAX_ROWS:
        return []
    return [(str(v), v) for v in range(param.min, param.max + 1)]


def _by_input(program: Program, formula: Formula, varied: Param, held: dict[str, RuntimeValue]) -> ChanceTable | None:
    rows = []
    for label, value in _values(varied):
        chances = _outcomes(program, formula, {**held, varied.name: value})
        if chances is None:
            return None
        rows.append((label, chances))
    others = ", ".join(f"{p.label} {_shown(held[p.name])}" for p in formula.params if p is not varied)
    return ChanceTable(f"Chances by {varied.label}" + (f", with {others}" if others else ""), varied.label,
                       tuple(rows))


def _by_example(program: Program, formula: Formula) -> ChanceTable | None:
    rows = []
    for example in formula.examples:
        args = dict(example.args)
        chances = _outcomes(program, formula, args)
        if chances is not None:
            rows.append((", ".join(f"{p.label} {_shown(args[p.name])}" for p in formula.params), chances))
    return ChanceTable("Chances at the worked examples", "Given", tuple(rows)) if rows else None


def _shown(value: Any) -> str:
    """An input's value as a caption or row names it: yes or no for a truth value."""
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _outcomes(program: Program, formula: Formula, args: dict[str, RuntimeValue]) -> dict[str, Fraction] | None:
    """The formula's named outcomes at `args`, by name; None if it gives none there (or fails, or lacks one)."""
    try:
        value = program.call(formula.id, [args[p.name] for p in formula.params])
    except (RulesError, KeyError):
        return None
    return {str(label): chance for label, chance in value.items()} if isinstance(value, Outcomes) else None


def _table_html(table: ChanceTable, names: list[str]) -> str:
    """The chances as a table: a row per input value (or worked example), a column per outcome, each cell its
    percent with the exact fraction as its value."""
    head = "".join(f'<th scope="col">{escape(_capital(name))}</th>' for name in names)
    body = "".join(f'<tr><th scope="row">{escape(label)}</th>'
                   + "".join(_cell(chances.get(name, Fraction(0))) for name in names) + "</tr>"
                   for label, chances in table.rows)
    return (f'<table data-rulesc-chances><caption>{escape(table.caption)}</caption><thead><tr>'
            f'<th scope="col">{escape(table.heading)}</th>{head}</tr></thead><tbody>{body}</tbody></table>')


def _cell(chance: Fraction) -> str:
    return f'<td><data value="{chance}" title="{chance}">{fixed(chance * 100, 2)}%</data></td>'
