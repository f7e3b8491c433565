"""A rule as players read it: its stat block first, then its text, with formulas and sources behind one disclosure."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from rulesc.analyze.lint import texts
from rulesc.analyze.program import LINK, VALUE, Program
from rulesc.diagnostics.core import ContentError, Diagnostic, Span
from rulesc.emit.site.book import Book, result_name
from rulesc.emit.site.calculators import SOURCES_LABEL, explanation, outputs_code
from rulesc.emit.site.fragments import FactStyle, attack_words, ordered_facts, show_fact
from rulesc.emit.site.markup import Markup, Section
from rulesc.model import Fact, Formula, Provenance, Rule, System

Cell = Callable[[Any], str]


ASSUMED = ' <span class="rulesc-assumed">(assumed, not stated by the source)</span>'
"""After a fact a note of what the source leaves unstated is about (its fact:); the note says why."""


Modifier = Callable[[str, int], str]
"""A score's modifier as shown beside it: the system's formula named by its kind, and the score."""


def stat_block(system: System, rule: Rule, style: FactStyle, modifier: Modifier | None = None) -> str:
    """The rule's typed facts as a compact list of name and value, in the order the system declares their kinds;
    scores, attacks and dice by level as the small tables and lists stat blocks print."""
    assumed = {gap.fact for gap in rule.provenance.unstated}
    rows = [_stat(fact, system, style, fact.kind.id in assumed, modifier) for fact in ordered_facts(system, rule)]
    return f'<dl class="rulesc-stats">{"".join(rows)}</dl>' if rows else ""


def _stat(fact: Fact, system: System, style: FactStyle, assumed: bool, modifier: Modifier | None) -> str:
    shown = _block(fact, modifier) or show_fact(fact, system, style)
    wide = ' class="rulesc-stats__wide"' if fact.scores or fact.attacks or fact.levels else ""
    return f"<div{wide}><dt>{escape(fact.kind.label)}</dt><dd>{shown}{ASSUMED if assumed else ''}</dd></div>"


def _block(fact: Fact, modifier: Modifier | None) -> str:
    """Scores and dice by level as a two-row table, attacks as a list; empty for any other fact."""
    if fact.scores:
        shown = [(name, f"{score}{_modifier(fact, score, modifier)}") for name, score in fact.scores]
        return _two_rows(fact.kind.label, shown)
    if fact.levels:
        return _two_rows(fact.kind.label, [(str(level), dice) for level, dice in fact.levels],
                         fact.kind.unit or "Level")
    items = "".join(f"<li>{escape(attack_words(attack))}</li>" for attack in fact.attacks)
    return f'<ul class="rulesc-attacks">{items}</ul>' if items else ""


def _modifier(fact: Fact, score: int, modifier: Modifier | None) -> str:
    return f" ({modifier(fact.kind.modifier, score)})" if fact.kind.modifier and modifier else ""


def _two_rows(caption: str, cells: list[tuple[str, str]], heading: str = "") -> str:
    """A table of one header row and one row of values, e.g. STR 10 (+0) | DEX 14 (+2)."""
    first = f'<th scope="row">{escape(heading)}</th>' if heading else ""
    values = '<th scope="row">Dice</th>' if heading else ""
    head = "".join(f'<th scope="col">{escape(name)}</th>' for name, _ in cells)
    body = "".join(f"<td>{escape(value)}</td>" for _, value in cells)
    return (f'<table class="rulesc-statrow" aria-label="{escape(caption)}">'
            f"<thead><tr>{first}{head}</tr></thead><tbody><tr>{values}{body}</tr></tbody></table>")


def sources(parts: list[str]) -> str:
    """One closed disclosure holding the parts (formulas, worked examples, explanations, provenance); nothing if
    every part is empty."""
    body = "\n".join(part for part in parts if part)
    if not body:
        return ""
    return (f'<details class="rulesc-sources" data-rulesc-sources><summary>{SOURCES_LABEL}</summary>\n'
            f"{body}\n</details>")


def rule_sources(program: Program, markup: Markup, rule: Rule, section: Section, cell: Cell,
                 folded: Sequence[Rule] = ()) -> str:
    """What a rule's disclosure holds: its formulas as the book writes them with their worked examples in words, how
    its calculators work, where the rule comes from and what its source leaves unstated; then where each sub-rule
    folded into it comes from (one disclosure per rule, not one per one-line sub-rule); then, for editors, the
    formulas in the formula language and the source files."""
    book, system = Book(program), program.system
    return sources([*(formula_box(book, formula, result_name(formula, rule.calculators), cell)
                      for formula in rule.formulas),
                    *(explanation(program, calc, section.page, editors=False) for calc in rule.calculators),
                    provenance(markup, system, rule.provenance, section),
                    *(provenance(markup, system, sub.provenance, section, sub.name) for sub in folded
                      if _says_more(sub, rule)),
                    for_editors(system, rule, folded)])


def folds(rule: Rule) -> bool:
    """Whether a sub-rule's sources go into its parent's disclosure: it has no formula or calculator of its own."""
    return not rule.formulas and not rule.calculators


def _says_more(sub: Rule, rule: Rule) -> bool:
    """Whether a folded sub-rule's provenance adds to its parent's: another source or section, or gaps of its own."""
    mine, theirs = sub.provenance, rule.provenance
    return bool(mine.unstated) or (mine.source, mine.section) != (theirs.source, theirs.section)


def formula_box(book: Book, formula: Formula, name: str, cell: Cell) -> str:
    """A formula: what it gives, its expression as the book writes it, and its worked examples in words."""
    labels = {p.name: p.label for p in formula.params}
    parts = [f'<div class="rulesc-formula"><p>{escape(formula.summary)}</p>',
             f'<p class="rulesc-formula__book">{escape(book.formula(formula, name))}</p>']
    if formula.examples:
        rows = "".join(f"<tr><td>{escape('; '.join(f'{labels.get(k, k)}: {_word(v, cell)}' for k, v in e.args))}"
                       f"</td><td><strong>{_word(e.expect, cell)}</strong></td><td>{escape(e.note or '')}</td></tr>"
                       for e in formula.examples)
        parts.append('<table><caption>Worked examples</caption><thead><tr><th scope="col">Given</th>'
                     f'<th scope="col">{escape(name)}</th><th scope="col">Note</th></tr></thead><tbody>{rows}'
                     "</tbody></table>")
    parts.append("</div>")
    return "\n".join(parts)


def _word(value: Any, cell: Cell) -> str:
    """A worked example's value as a player reads it: yes or no for a truth value."""
    return ("yes" if value else "no") if isinstance(value, bool) else cell(value)


def for_editors(system: System, rule: Rule, folded: Sequence[Rule] = ()) -> str:
    """The rule's formulas and its calculators' outputs as the formula language writes them, and the source files
    behind it and its folded sub-rules, in one disclosure of their own: editors' matter, out of the players' way."""
    code = [f"<p><code>{escape(f.id)}({escape(', '.join(p.name for p in f.params))}) = "
            f"{escape(' '.join(f.expr.source.split()))}</code></p>" for f in rule.formulas]
    code += [f"<p>{escape(calc.title)}:</p>{outputs_code(calc)}" for calc in rule.calculators]
    files = [_file_line(system, r.provenance) for r in (rule, *folded)]
    body = "".join(code) + "".join(dict.fromkeys(line for line in files if line))
    return f'<details class="rulesc-editors"><summary>For editors</summary>{body}</details>' if body else ""


def _file_line(system: System, prov: Provenance) -> str:
    source = next((s for s in system.sources if s.id == prov.source), None)
    if source is None or source.file is None:  # a publication with no local copy: the players' line says it all
        return ""
    return (f'<p class="rulesc-provenance">Source file: <code>{escape(source.file)}</code>, section '
            f"\u201c{escape(prov.section)}\u201d{_lines(prov.lines)}.</p>")


def provenance(markup: Markup, system: System, prov: Provenance, section: Section, name: str = "") -> str:
    """Where the text comes from, as the book and its section (of the sub-rule `name`, if given), and what the source
    leaves unstated (its notes may link rules and terms)."""
    source = next((s for s in system.sources if s.id == prov.source), None)
    title = escape(source.title if source else prov.source)
    label = f"Source of {escape(name)}:" if name else "Source:"
    edition = f" ({escape(source.edition)})" if source and source.edition else ""
    line = (f'<p class="rulesc-provenance"><span>{label}</span> {title}{edition}{_pages(prov.page)}, section '
            f"\u201c{escape(prov.section)}\u201d{_lines(prov.lines)}.</p>")
    if not prov.unstated:
        return line
    gaps = "".join(f"<li><strong>{markup.inline(g.what, section)}</strong> {markup.inline(g.reasoning, section)}"
                   "</li>" for g in prov.unstated)
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
    """The first place in the system's texts that holds `found`, located as the model recorded each text."""
    spans = [text.locate(text.source.index(found)) for text in texts(program) if found in text.source]
    return min(spans, key=lambda span: (span.file, span.line, span.col), default=None)
