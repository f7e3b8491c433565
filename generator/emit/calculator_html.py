"""Calculator markup: labelled controls and outputs inside a [data-calculator] element."""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any

from ..analyze import Program
from ..model import Calculator, Param
from ..runtime.rulesc_runtime import Dice
from .writer import Writer


def render_calculator(program: Program, calc: Calculator) -> str:
    """The calculator's form, pre-filled with the results of its defaults; calculators.js makes it live."""
    w = Writer()
    system = program.system
    key = f"{system.id}/{calc.id}"
    defaults = {p.name: default_of(p) for p in calc.inputs}
    results = program.calculate(calc.id, defaults)
    base = f"calc-{system.id}-{calc.id}"
    w.writeline(f'<div class="rulesc-calc" data-calculator="{html.escape(key)}" markdown="0">')
    w.writeline(f'<form class="rulesc-calc__form" aria-labelledby="{base}-title" novalidate>')
    w.writeline(f'<p class="rulesc-calc__title" id="{base}-title">{html.escape(calc.title)}</p>')
    for param in calc.inputs:
        w.writeline(_control(base, param, defaults[param.name]))
    w.writeline('<dl class="rulesc-calc__results" aria-live="polite">')
    for output in calc.outputs:
        shown = display(results[output.name], output.format)
        w.writeline(f'<dt>{html.escape(output.label)}</dt><dd><output name="{output.name}" '
                    f'id="{base}-out-{output.name}">{html.escape(shown)}</output></dd>')
        if program.types.get(id(output.expr.node)) == "dist":
            w.writeline(f'<dd class="rulesc-calc__chart" data-chart="{output.name}"></dd>')
    w.writeline("</dl>")
    w.writeline('<button type="reset" class="md-button rulesc-calc__reset">Reset</button>')
    w.writeline("</form>")
    w.writeline("</div>")
    return w.getvalue()


def display(value: Any, fmt: str = "decimal") -> str:
    """A value as pages and calculators show it: yes/no for flags, a dash for no dice, numbers rounded."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (Fraction, float)):
        return f"{float(value) * 100:.2f}%" if fmt == "percent" else f"{float(value):.2f}"
    if isinstance(value, Dice) and not value.counts and not value.const:
        return "\u2014"
    return str(value)


def default_of(param: Param) -> Any:
    """The value a calculator input starts from."""
    if param.default is not None:
        return param.default
    if param.type == "bool":
        return False
    if param.options:
        return param.options[0].value
    return max(param.min or 0, min(param.max if param.max is not None else 0, 0))


def _control(base: str, param: Param, value: Any) -> str:
    ident = f"{base}-{param.name}"
    label = f'<label for="{ident}">{html.escape(param.label)}</label>'
    msg = f'<span class="rulesc-calc__msg" id="{ident}-msg" aria-live="polite"></span>'
    common = f'id="{ident}" name="{param.name}" data-type="{param.type}" aria-describedby="{ident}-msg"'
    if param.type == "bool":
        checked = " checked" if value else ""
        return f'<div class="rulesc-calc__field rulesc-calc__field--toggle"><input type="checkbox" {common}{checked}> {label}{msg}</div>'
    if param.options:
        options = "".join(f'<option value="{o.value}"{" selected" if o.value == value else ""}>{html.escape(o.label)}</option>'
                          for o in param.options)
        return f'<div class="rulesc-calc__field">{label}<select {common}>{options}</select>{msg}</div>'
    if param.type == "dice":
        return (f'<div class="rulesc-calc__field">{label}<input type="text" {common} value="{html.escape(str(value))}" '
                f'spellcheck="false" autocomplete="off" pattern="[0-9d+ ]+">{msg}</div>')
    bounds = "".join(f' {k}="{v}"' for k, v in (("min", param.min), ("max", param.max)) if v is not None)
    return (f'<div class="rulesc-calc__field">{label}<input type="number" inputmode="numeric" step="1"{bounds} '
            f'{common} value="{value}">{msg}</div>')


