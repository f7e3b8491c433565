"""A rule as players read it: its stat block first, then its text, with formulas and sources behind one disclosure."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from typing import Any

from generator.analyze.program import LINK, VALUE, Program
from generator.diagnostics.core import ContentError, Diagnostic, Span
from generator.emit.site.calculators import SOURCES_LABEL, explanation
from generator.emit.site.fragments import FactStyle, ordered_facts, show_fact
from generator.emit.site.markup import Markup, Section
from generator.model import Fact, Formula, Provenance, Rule, System

Cell = Callable[[Any], str]


ASSUMED = ' <span class="rulesc-assumed">(assumed, not stated by the source)</span>'
"""After a fact a note of what the source leaves unstated is about (its fact:); the note says why."""


def stat_block(system: System, rule: Rule, style: FactStyle) -> str:
    """The rule's typed facts as a compact list of name and value, in the order the system declares their kinds."""
    assumed = {gap.fact for gap in rule.provenance.unstated}
    rows = [_stat(fact, system, style, fact.kind.id in assumed) for fact in ordered_facts(system, rule)]
    return f'<dl class="rulesc-stats">{"".join(rows)}</dl>' if rows else ""


def _stat(fact: Fact, system: System, style: FactStyle, assumed: bool) -> str:
    shown = show_fact(fact, system, style) + (ASSUMED if assumed else "")
    return f"<div><dt>{escape(fact.kind.label)}</dt><dd>{shown}</dd></div>"


def sources(parts: list[str]) -> str:
    """One closed disclosure holding the parts (formulas, worked examples, explanations, provenance); nothing if
    every part is empty."""
    body = "\n".join(part for part in parts if part)
    if not body:
        return ""
    return (f'<details class="rulesc-sources" data-rulesc-sources><summary>{SOURCES_LABEL}</summary>\n'
            f"{body}\n</details>")


def rule_sources(program: Program, markup: Markup, rule: Rule, section: Section, cell: Cell) -> str:
    """What a rule's disclosure holds: its formulas and their worked examples, how its calculators work, where
    the rule comes from and what its source leaves unstated."""
    return sources([*(formula_box(formula, cell) for formula in rule.formulas),
                    *(explanation(program, calc, section.page) for calc in rule.calculators),
                    provenance(markup, program.system, rule.provenance, section)])


def formula_box(formula: Formula, cell: Cell) -> str:
    """A formula: what it gives, its expression, and its worked examples as a table."""
    params = ", ".join(p.name for p in formula.params)
    parts = [f'<div class="rulesc-formula"><p>{escape(formula.summary)}</p>',
             f"<p><code>{escape(formula.id)}({escape(params)}) = "
             f"{escape(' '.join(formula.expr.source.split()))}</code></p>"]
    if formula.examples:
        rows = "".join(f"<tr><td>{escape(', '.join(f'{k} = {cell(v)}' for k, v in e.args))}</td>"
                       f"<td><strong>{cell(e.expect)}</strong></td><td>{escape(e.note or '')}</td></tr>"
                       for e in formula.examples)
        parts.append('<table><caption>Worked examples</caption><thead><tr><th scope="col">Arguments</th>'
                     f'<th scope="col">Result</th><th scope="col">Note</th></tr></thead><tbody>{rows}</tbody></table>')
    parts.append("</div>")
    return "\n".join(parts)


def provenance(markup: Markup, system: System, prov: Provenance, section: Section) -> str:
    """Where the text comes from, and what the source leaves unstated (its notes may link rules and terms)."""
    source = next((s for s in system.sources if s.id == prov.source), None)
    title = escape(source.title if source else prov.source)
    edition = f" ({escape(source.edition)})" if source and source.edition else ""
    line = (f'<p class="rulesc-provenance"><span>Source:</span> {title}{edition}{_pages(prov.page)}, section '
            f"\u201c{escape(prov.section)}\u201d{_lines(prov.lines)}.</p>")
    if not prov.unstated:
        return line
    gaps = "".join(f"<li><strong>{markup.inline(g.what, section)}</strong> {markup.inline(g.reasoning, section)}"
                   f"{f' <span>(source {_lines(g.lines)[2:]})</span>' if g.lines else ''}</li>" for g in prov.unstated)
    return (f'{line}\n<div class="admonition note rulesc-gaps"><p class="admonition-title">'
            f"Not stated by the source</p><ul>{gaps}</ul></div>")


def _pages(page: str | None) -> str:
    """", p. 78" or ", pp. 78-79" after a publication's title; nothing without a page."""
    if not page:
        return ""
    return f", p. {escape(page)}" if page.isdigit() else f", pp. {escape(page)}"


def _lines(lines: str | None) -> str:
    """", line 30" or ", lines 10, 189" after a section's name; nothing without lines."""
    if not lines:
        return ""
    return f", line {escape(lines)}" if lines.isdigit() else f", lines {escape(lines)}"


CODE = re.compile(r"<(code|pre)\b[^>]*>.*?</\1>", re.S)


def refuse_raw_markup(program: Program, pages: dict[str, str]) -> None:
    """Stops the build (E0607) if any page would show a [[link]] or {{value}} as written, outside code: the check
    finds those in content, so one here is a field the pages forgot to render; the error points at the content
    it came from when that text is found in the system's files."""
    problems = []
    for page, text in sorted(pages.items()):
        if "[[" not in text and "{{" not in text:  # most pages: nothing to look at
            continue
        for found in _raw(CODE.sub("", text)):
            problems.append(Diagnostic("error", "E0607", f"{found} would show as written on {page}",
                                       _where(program, found), "links and values work only in rendered text"))
    if problems:
        raise ContentError(problems)


def _raw(text: str) -> list[str]:
    return sorted({m.group(0) for pattern in (LINK, VALUE) for m in pattern.finditer(text)})


def _where(program: Program, found: str) -> Span | None:
    """The first place in the system's files that holds `found`."""
    docs = {rule.doc.path: rule.doc for rule in program.system.rules() if rule.doc is not None}
    docs.setdefault(program.system.summary.doc.path, program.system.summary.doc)
    for path, doc in sorted(docs.items()):
        for number, line in enumerate(doc.lines, 1):
            if found in line:
                return Span(path, number, line.index(found) + 1)
    return None
