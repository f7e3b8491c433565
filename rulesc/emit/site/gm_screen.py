"""GM screen pages: every calculator of a system, grouped by the chapter and section of its rule, then its roll tables.

A GM screen whose calculators fit split.BUDGET is one page. A bigger one is a landing page that lists every
calculator by chapter and section, each linked to the part page it is on (split.py packs whole sections), and
sends an old link to a calculator on the one page (`gm-screen/#calc-id`, a shared state in its query) on to it.
A part is named by its topic (the sections it holds); the folder it had when parts were named after their first
calculator keeps a page that sends its old links on, query and anchor kept.
The roll tables are on the one page, or on the landing page.
"""

from __future__ import annotations

from html import escape

from rulesc.analyze.program import Program
from rulesc.emit.site.calculators import render_calculator
from rulesc.emit.site.fragments import front, html_block, md_escape
from rulesc.emit.site.links import (
    calculator_anchor,
    calculator_element_id,
    gm_calculator_page,
    gm_part_path,
    gm_screen_path,
    href,
)
from rulesc.emit.site.markup import Markup
from rulesc.emit.site.moved import REDIRECT, moved_block, part_steps, redirect_block
from rulesc.emit.site.roll_tables import roll_rules, roll_table_html
from rulesc.emit.site.split import GmCalculator, GmPart, chapter_sections, gm_calculators, gm_parts
from rulesc.emit.writer import Writer
from rulesc.model import Chapter, Rule, System

GM_PREFIX = "gm"
"""The GM screen's prefix for the calculators' element ids (a chapter page's copies start with "calc")."""

__all__ = ["GM_PREFIX", "chapter_sections", "gm_screen", "gm_screen_pages"]


def gm_screen_pages(program: Program, markup: Markup) -> dict[str, str]:
    """The GM screen's pages by Markdown path: the one page, or the landing page and a page per part."""
    system = program.system
    parts = gm_parts(system)
    if not parts:
        return {gm_screen_path(system): gm_screen(program, markup)}
    files = {gm_screen_path(system): _landing(program, markup, parts)}
    for number, part in enumerate(parts, 1):
        files[gm_part_path(system, part.id)] = _part_page(program, markup, parts, number)
    current = {part.id for part in parts}
    files.update({gm_part_path(system, part.former): _former_page(program, part) for part in parts
                  if part.former not in current})
    return files


def _former_page(program: Program, part: GmPart) -> str:
    """The page at a part's former folder: it sends a link there on to the part, its query and anchor kept."""
    system = program.system
    w = _opening(program, f"{part.title} ({system.title}: GM screen)", f"Moved: calculators of {system.title}: "
                 f"{part.title}.")
    to = href(gm_part_path(system, part.former), gm_part_path(system, part.id))
    html_block(w, REDIRECT, redirect_block(to, f"{part.title} (GM screen)"))
    return w.getvalue()


def gm_screen(program: Program, markup: Markup) -> str:
    """The GM screen as one page: a short intro, then per chapter and section each calculator under its heading."""
    system = program.system
    calculators = gm_calculators(system)
    w = _opening(program, f"{system.title}: GM screen", f"Every calculator of {system.title} on one page, grouped by "
                 "chapter.")
    html_block(w, "rulesc-text rulesc-gm__intro", _intro(len(calculators)) + _tables_intro(program))
    _calculators(w, program, markup, calculators, gm_screen_path(system))
    _roll_tables(w, program, markup, gm_screen_path(system))
    return w.getvalue()


def _opening(program: Program, title: str, description: str) -> Writer:
    w = front(title, f"content/{program.system.id}/", description)
    w.writeline("# GM screen")
    w.writeline()
    return w


def _intro(count: int) -> str:
    if not count:
        return "<p>This system has no calculators.</p>"
    return (f"<p>All {count} calculator{'s' if count != 1 else ''} of this system on one page, grouped by the chapter "
            "and section of the rule each works out. Each heading is a permalink; a calculator's Share button copies "
            "a link that opens it here with the same inputs.</p>")


def _tables_intro(program: Program) -> str:
    count = len(roll_rules(program))
    if not count:
        return ""
    tables = f"{count} roll tables follow" if count != 1 else "roll table follows"
    return f"<p>Its {tables} under Roll tables, each rolled with its Roll button.</p>"


def _landing(program: Program, markup: Markup, parts: tuple[GmPart, ...]) -> str:
    """The split GM screen's page: every calculator by chapter and section, each linked where it is."""
    system = program.system
    page = gm_screen_path(system)
    calculators = gm_calculators(system)
    w = _opening(program, f"{system.title}: GM screen", f"Every calculator of {system.title}, grouped by chapter.")
    html_block(w, "rulesc-moved", moved_block(_moved(program, parts), "Links to a calculator of this page now lead "
                                                                      "to its part, listed below."))
    html_block(w, "rulesc-text rulesc-gm__intro",
               f"<p>All {len(calculators)} calculators of this system, grouped by the chapter and section of the rule "
               f"each works out, on {len(parts)} pages. Select one to open its page with the calculator at the top; "
               "its Share button copies a link that opens it with the same inputs.</p>", " data-rulesc-gm-index")
    html_block(w, "rulesc-gm__find", _filter(len(calculators)))
    for chapter, section, group in _groups(calculators):
        _headings(w, chapter, section)
        links = "".join(_index_item(system, page, gm) for gm in group)
        html_block(w, "rulesc-list rulesc-gm__list", f"<ul>{links}</ul>")
    _roll_tables(w, program, markup, page)
    return w.getvalue()


def _filter(count: int) -> str:
    """The index's filter, in the page from the start so that nothing moves when site.js makes it work (a page
    without scripts hides it: site.css)."""
    return ('<form class="rulesc-filter rulesc-gm-filter" role="search"><label for="rulesc-gm-filter">Find a '
            'calculator</label><input type="search" id="rulesc-gm-filter" autocomplete="off" spellcheck="false">'
            f'<span role="status" aria-live="polite">{count} calculators</span></form>')


def _index_item(system: System, page: str, gm: GmCalculator) -> str:
    """A calculator on the index: its link, and for the filter the words it is also found by (its rule, section
    and chapter)."""
    words = " ".join(dict.fromkeys((gm.rule.name, gm.section.name, gm.chapter.title)))
    link = href(page, gm_calculator_page(system, gm.calculator.id), _anchor(gm))
    return f'<li data-words="{escape(words)}"><a href="{link}">{escape(gm.calculator.title)}</a></li>'


def _moved(program: Program, parts: tuple[GmPart, ...]) -> dict[str, str]:
    """Every id a calculator had on the one page (its heading's anchor, its element's id) to its part page."""
    system, page = program.system, gm_screen_path(program.system)
    moved: dict[str, str] = {}
    for part in parts:
        folder = href(page, gm_part_path(system, part.id))
        for gm in part.calculators:
            ids = (_anchor(gm), calculator_element_id(system, gm.calculator.id, GM_PREFIX))
            moved.update(dict.fromkeys(ids, folder))
    return moved


def _part_page(program: Program, markup: Markup, parts: tuple[GmPart, ...], number: int) -> str:
    """One part of a split GM screen: where it sits, its calculators as on the one page, the neighbouring parts."""
    system, part = program.system, parts[number - 1]
    page = gm_part_path(system, part.id)
    w = _opening(program, f"{part.title} ({system.title}: GM screen)",
                 f"Calculators of {system.title}: {part.title}.")
    landing = href(page, gm_screen_path(system))
    html_block(w, "rulesc-part-of", f'<p class="rulesc-muted" data-rulesc-landing="{landing}">Part {number} of '
                                    f'{len(parts)} of the <a href="{landing}">GM screen</a>: {escape(part.title)}</p>')
    _calculators(w, program, markup, list(part.calculators), page)
    steps = [(gm_part_path(system, other.id), other.title) for other in parts]
    html_block(w, "rulesc-part-steps", part_steps(steps, number, "Parts of the GM screen"))
    return w.getvalue()


def _calculators(w: Writer, program: Program, markup: Markup, calculators: list[GmCalculator], page: str) -> None:
    for chapter, section, group in _groups(calculators):
        _headings(w, chapter, section)
        for gm in group:
            _calculator(w, program, markup, gm, page)


def _headings(w: Writer, chapter: Chapter | None, section: Rule) -> None:
    """A group's headings: its chapter's when it is the chapter's first group, then its section's."""
    if chapter is not None:
        w.writeline(f"## {md_escape(chapter.title)} {{#chapter-{chapter.id}}}")
        w.writeline()
    w.writeline(f"### {md_escape(section.name)} {{#section-{section.id}}}")
    w.writeline()


def _groups(calculators: list[GmCalculator]) -> list[tuple[Chapter | None, Rule, list[GmCalculator]]]:
    """The calculators by section, in order, each group with its chapter when it is the chapter's first group."""
    groups: list[tuple[Chapter | None, Rule, list[GmCalculator]]] = []
    for gm in calculators:
        last = groups[-1][2][-1] if groups else None
        if last is None or (last.chapter, last.section) != (gm.chapter, gm.section):
            groups.append((gm.chapter if last is None or last.chapter is not gm.chapter else None, gm.section, []))
        groups[-1][2].append(gm)
    return groups


def _roll_tables(w: Writer, program: Program, markup: Markup, page: str) -> None:
    """Every roll table of the system after the calculators (on the landing page of a split GM screen), each under
    its rule's name with a link to the rule, rolled with one tap of its Roll button."""
    rules = roll_rules(program)
    if not rules:
        return
    w.writeline("## Roll tables {#roll-tables}")
    w.writeline()
    for rule in rules:
        w.writeline(f"#### {md_escape(rule.name)} {{#roll-table-{rule.id}}}")
        w.writeline()
        body = [f'<p class="rulesc-gm__rule">Rule: {markup.rule_link(rule.id, page)}</p>',
                roll_table_html(rule, markup, page)]
        html_block(w, "rulesc-gm__table", "\n".join(body))


def _anchor(gm: GmCalculator) -> str:
    return calculator_anchor(gm.calculator.id)


def _calculator(w: Writer, program: Program, markup: Markup, gm: GmCalculator, page: str) -> None:
    anchor = _anchor(gm)
    w.writeline(f"#### {md_escape(gm.calculator.title)} {{#{anchor}}}")
    w.writeline()
    link = markup.rule_link(gm.rule.id, page)
    body = [f'<p class="rulesc-gm__rule">Rule: {link}</p>',
            render_calculator(program, gm.calculator, prefix=GM_PREFIX, anchor=(page, anchor))]
    html_block(w, "rulesc-gm__calc", "\n".join(body))
