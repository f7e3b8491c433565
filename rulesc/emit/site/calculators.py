"""Calculator markup: labelled controls and outputs inside a [data-calculator] element."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rulesc.analyze.program import Program, label_order, output_type
from rulesc.emit.site.book import Book
from rulesc.emit.site.links import calculator_element_id, rule_href
from rulesc.emit.site.markup import Markup
from rulesc.emit.site.upgrade_picker import field_help, upgrade_picker
from rulesc.emit.writer import Writer
from rulesc.formula import nodes as n
from rulesc.formula.evaluate import Value as RuntimeValue
from rulesc.formula.types import Type
from rulesc.model import Calculator, Output, Param, Rule, default_of
from rulesc.runtime.rulesc_runtime import Dice, Dist, Outcomes, mean, p, sd

SOURCES_LABEL = "Sources and formulas"
"""The one disclosure of formulas and sources per rule (and per calculator on the GM screen); calculators.js
remembers whether the reader keeps them open, in localStorage, and applies that on every page."""


def render_calculator(program: Program, calc: Calculator, prefix: str = "calc",
                      anchor: tuple[str, str] | None = None) -> str:
    """The calculator's form, pre-filled with the results of its defaults; calculators.js makes it live.

    On its rule's chapter page it needs neither option. Another page (the GM screen) passes a `prefix` of its own
    for the element ids, and the `anchor` its Share button lands on instead of the calculator's own element (the
    page's Markdown path, and the id on it); its links to rules then all name their pages.
    """
    w = Writer()
    system = program.system
    key = f"{system.id}/{calc.id}"
    defaults = {p.name: default_of(p) for p in calc.inputs}
    results = program.calculate(calc.id, defaults)
    base = calculator_element_id(system, calc.id, prefix)
    w.writeline(f'<div class="rulesc-calc" id="{base}" data-calculator="{html.escape(key)}" '
                f'data-anchor="{html.escape(anchor[1] if anchor else base)}" markdown="0">')
    w.writeline(f'<form class="rulesc-calc__form" aria-labelledby="{base}-title" novalidate>')
    w.writeline(f'<p class="rulesc-calc__title" id="{base}-title">{html.escape(calc.title)}</p>')
    for param in calc.inputs:
        if param.type == "upgrades":
            w.writeline(upgrade_picker(base, param, program))
        else:
            w.writeline(_control(base, param, defaults[param.name]))
    w.writeline(f'<p class="rulesc-calc__stale" id="{base}-stale" aria-live="polite"></p>')
    w.writeline(f'<dl class="rulesc-calc__results" aria-live="polite" aria-describedby="{base}-stale">')
    for output in calc.outputs:
        suffix = f' data-suffix="{html.escape(output.suffix)}"' if output.suffix else ""
        w.writeline(f'<dt>{html.escape(output.label)}</dt><dd><output name="{output.name}" '
                    f'id="{base}-out-{output.name}"{suffix}>{html.escape(show_output(program, output, results))}'
                    "</output></dd>")
    w.writeline("</dl>")
    for output in _charted(program, calc):
        w.writeline(f'<div class="rulesc-calc__chart-box"><p class="rulesc-calc__chart-title">'
                    f'{html.escape(output.label)}</p><div class="rulesc-calc__chart" data-chart="{output.name}"'
                    f"{_target(calc, output)}></div></div>")
    if anchor is not None:  # on the GM screen; a chapter page puts it in its rule's "Sources and formulas"
        w.writeline(f'<details class="rulesc-sources" data-rulesc-sources><summary>{SOURCES_LABEL}</summary>'
                    f"{explanation(program, calc, anchor[0])}</details>")
    w.writeline('<button type="reset" class="md-button rulesc-calc__reset">Reset</button>')
    w.writeline("</form>")
    w.writeline("</div>")
    return w.getvalue()


def _charted(program: Program, calc: Calculator) -> list[Output]:
    """The outputs drawn as charts (rolls of numbers or of named outcomes): below every result in words, so the
    answer the calculator is for comes first and a phone shows it beside the inputs."""
    return [o for o in calc.outputs if o.expr.node is not None and output_type(o) in (Type.DIST, Type.OUTCOME)]


def show_output(program: Program, output: Output, results: dict[str, RuntimeValue]) -> str:
    """A calculator output's result as the page and `rulesc calc` show it, with its unit (the output's suffix)."""
    assert output.expr.node is not None
    return display(results[output.name], output.format, output_type(output),
                   label_order(program, output.expr.node), output.suffix or "", outcome_texts(program, output))


def outcome_texts(program: Program, output: Output) -> dict[str, str]:
    """The plain texts of the named outcomes of the rule whose calculator has `output`, when the output rolls named
    outcomes: the calculator answers with what happens, not only with the names."""
    if output.expr.node is None or output_type(output) != Type.OUTCOME:
        return {}
    calc = next((c for c in program.calculators.values() if any(o is output for o in c.outputs)), None)
    rule = program.rules.get(calc.rule) if calc is not None else None
    if rule is None or not rule.outcomes:
        return {}
    markup = Markup.of(program)
    return {outcome.name: markup.plain(outcome.text) for outcome in rule.outcomes}


def display(value: Any, fmt: str = "decimal", type_: str | None = None, labels: Sequence[str] = (),
            suffix: str = "", texts: Mapping[str, str] | None = None) -> str:
    """A value as pages, `rulesc calc` and calculators show it: yes/no for flags, a dash for no dice, numbers
    by the one number rule of fixed() (calculators.js applies the same rule in the widget).

    type_ is the checker's type of the output; a "num" output shows decimals and a percent output shows a
    percent whichever branch produced the value (an int from one branch of an `if` included). An exact number
    (Fraction, float) shows decimals whatever the type, never as a fraction. A number that is not
    a percent is followed by `suffix`, its unit (" m"). A roll reads as a sentence: "Average 2.51, typically
    within ±1.31" (the standard deviation in words), or its named outcomes, "Hit 55.00%, critical 10.00%"; with the
    `texts` of the outcomes (a rule's), each outcome reads as a sentence of what happens, "Hit 55.00%: You hit."
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(value) if value else "none"
    if isinstance(value, Dist):
        return f"Average {fixed(mean(value), 2)}{suffix}, typically within \u00b1{fixed(sd(value), 2)}{suffix}"
    if isinstance(value, Outcomes) and (type_ == "event" or set(value.labels) <= {True, False}):
        return fixed(p(value) * 100, 2) + "%"
    if isinstance(value, Outcomes) and texts:
        return " ".join(_told(label, chance, texts) for label, chance in in_order(value, labels))
    if isinstance(value, Outcomes):
        return _sentence(", ".join(f"{label} {fixed(chance * 100, 2)}%" for label, chance in in_order(value, labels)))
    if isinstance(value, (int, Fraction, float)):
        if fmt == "percent":
            return fixed(Fraction(value) * 100 if not isinstance(value, float) else value * 100, 2) + "%"
        if type_ == "num" or not isinstance(value, int):
            return fixed(value, 2) + suffix
        return str(value) + suffix
    if isinstance(value, Dice) and not value.counts and not value.const:
        return "\u2014"
    return str(value)


def _target(calc: Calculator, roll: Output) -> str:
    """The chart's target: where another output asks for the chance of `roll` reaching a result
    (p_at_least(roll, x)), x as an input's or output's name (data-target-name) or a number (data-target)."""
    for output in calc.outputs:
        node = output.expr.node
        if isinstance(node, n.Call) and node.func == "p_at_least" and len(node.args) == 2 and \
                isinstance(node.args[0], n.Name) and node.args[0].name == roll.name:
            goal = node.args[1]
            if isinstance(goal, n.Name):
                return f' data-target-name="{html.escape(goal.name)}"'
            if isinstance(goal, n.Num):
                return f' data-target="{goal.value}"'
    return ""


def _told(label: str, chance: Fraction, texts: Mapping[str, str]) -> str:
    """One outcome as a sentence: its name, its chance and what happens (ended by a stop if it has none)."""
    said = f"{_sentence(label)} {fixed(chance * 100, 2)}%" + (f": {texts[label]}" if label in texts else "")
    return said if said.endswith((".", "!", "?")) else said + "."


def _sentence(text: str) -> str:
    """Text starting with a capital letter, as a sentence does."""
    return text[:1].upper() + text[1:]


FLOAT_NUDGE = 1e-13
"""How far a float is pushed away from zero before rounding (relative): calculators.js's FLOAT_NUDGE."""


def in_order(value: Outcomes, labels: Sequence[str]) -> list[tuple[str, Fraction]]:
    """A roll's named outcomes, those in `labels` first in that order, then the rest as the runtime has them."""
    rank = {label: i for i, label in enumerate(labels)}
    items = [(str(label), chance) for label, chance in value.items()]
    return sorted(items, key=lambda item: rank.get(item[0], len(rank)))


def fixed(value: int | Fraction | float, places: int) -> str:
    """The one number rule: round half away from zero to `places` decimals; a result that rounds to zero has
    no minus sign ("0.00", never "-0.00").

    Exact numbers (int, Fraction) round from their exact value, so 1/32 as a percent is 3.125% -> "3.13%" and
    39/40 is 0.975 -> "0.98". A float is already an approximation (the widget computes in float64, within 1e-12),
    so it is first pushed away from zero by FLOAT_NUDGE of itself: far more than float representation error, far
    less than the distance of a real value from a rounding boundary, so a float that stands for 0.975 rounds as
    0.975 does. calculators.js does exactly this with the same constant.
    """
    if isinstance(value, float):
        units = math.floor(abs(value) * 10 ** places * (1 + FLOAT_NUDGE) + 0.5)
    else:
        units = math.floor(abs(Fraction(value)) * 10 ** places + Fraction(1, 2))
    sign = "-" if value < 0 and units else ""
    whole, part = divmod(units, 10 ** places)
    return f"{sign}{whole}" + (f".{part:0{places}d}" if places else "")


def _control(base: str, param: Param, value: Any) -> str:
    ident = f"{base}-{param.name}"
    label = f'<label for="{ident}">{html.escape(param.label)}</label>'
    help_text, described = field_help(ident, param)
    msg = f'{help_text}<span class="rulesc-calc__msg" id="{ident}-msg" aria-live="polite"></span>'
    common = f'id="{ident}" name="{param.name}" data-type="{param.type}" aria-describedby="{described}"'
    if param.type == "bool":
        checked = " checked" if value else ""
        return (f'<div class="rulesc-calc__field rulesc-calc__field--toggle">'
                f'<input type="checkbox" {common}{checked}> {label}{msg}</div>')
    if param.options:
        options = "".join(f'<option value="{o.value}"{" selected" if o.value == value else ""}>'
                          f'{html.escape(o.label)}</option>' for o in param.options)
        return f'<div class="rulesc-calc__field">{label}<select {common}>{options}</select>{msg}</div>'
    if param.type == "dice":
        return (f'<div class="rulesc-calc__field">{label}<input type="text" {common} value="{html.escape(str(value))}" '
                f'spellcheck="false" autocomplete="off" pattern="[0-9d+ ]+">{msg}</div>')
    bounds = "".join(f' {k}="{v}"' for k, v in (("min", param.min), ("max", param.max)) if v is not None)
    return (f'<div class="rulesc-calc__field">{label}<input type="number"{_keypad(param)} step="1"{bounds} '
            f'{common} value="{value}">{msg}</div>')


def _keypad(param: Param) -> str:
    """The phone keypad of a whole-number field: digits only where the field takes no negative number, else the
    one type="number" brings, which has a minus key (iOS's "numeric" keypad has none)."""
    return ' inputmode="numeric"' if param.min is not None and param.min >= 0 else ""




def explanation(program: Program, calc: Calculator, here: str, editors: bool = True) -> str:
    """What each output of the calculator computes, as the book writes it, and links to every rule whose formula it
    uses (from the page `here`, a Markdown path); the outputs in the formula language follow behind "For editors"
    unless `editors` is false (a rule's page gathers its own in one such disclosure)."""
    book, outputs = Book(program), {output.name: output.label for output in calc.outputs}
    rows = "".join(f"<dt>{html.escape(output.label)}</dt>"
                   f"<dd>{html.escape(book.expression(output.expr.node, calc.inputs, outputs))}</dd>"
                   for output in calc.outputs)
    parts = [f'<div class="rulesc-calc__how"><p>How <strong>{html.escape(calc.title)}</strong> works out each result:'
             f"</p><dl>{rows}</dl>"]
    rules = _rules_used(program, calc)
    if rules:
        links = ", ".join(f'<a href="{rule_href(program.system, r, here)}">{html.escape(r.name)}</a>' for r in rules)
        parts.append(f"<p>Rules used: {links}.</p>")
    if editors:
        parts.append(f'<details class="rulesc-editors"><summary>For editors</summary>{outputs_code(calc)}</details>')
    return "".join(parts) + "</div>"


def outputs_code(calc: Calculator) -> str:
    """The calculator's outputs in the formula language, for editors: each output's name and expression."""
    code = "".join(f"<dt>{html.escape(output.name)}</dt><dd><code>{html.escape(' '.join(output.expr.source.split()))}"
                   "</code></dd>" for output in calc.outputs)
    return f"<dl>{code}</dl>"


def _rules_used(program: Program, calc: Calculator) -> list[Rule]:
    """The rules of every formula the calculator's outputs call, directly or through other formulas."""
    seen: dict[str, None] = {}
    pending = [o.expr.node for o in calc.outputs if o.expr.node is not None]
    while pending:
        node = pending.pop()
        if isinstance(node, n.Call) and node.func in program.formulas and node.func not in seen:
            seen[node.func] = None
            formula = program.formulas[node.func]
            if formula.expr.node is not None:
                pending.append(formula.expr.node)
        pending.extend(_children(node))
    ids = dict.fromkeys(program.formulas[f].rule for f in seen)
    return sorted((program.rules[i] for i in ids), key=lambda r: (r.chapter, r.name))


def _children(node: n.Node) -> list[n.Node]:
    return [value for value in vars(node).values() if isinstance(value, n.Node)] + \
        [arg for arg in getattr(node, "args", ()) if isinstance(arg, n.Node)]
