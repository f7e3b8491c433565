"""GM screen page: every calculator of a system on one page, grouped by the chapter and section of its rule."""

from __future__ import annotations

from generator.analyze.program import Program
from generator.emit.site.calculators import render_calculator
from generator.emit.site.fragments import front, html_block, md_escape
from generator.emit.site.links import calculator_anchor, gm_screen_path
from generator.emit.site.markup import Markup
from generator.emit.writer import Writer
from generator.model import Calculator, Chapter, Rule

GM_PREFIX = "gm"
"""The GM screen's prefix for the calculators' element ids (a chapter page's copies start with "calc")."""


def gm_screen(program: Program, markup: Markup) -> str:
    """The GM screen: a short intro, then per chapter and section each calculator under a heading of its own."""
    system = program.system
    count = sum(len(rule.calculators) for rule in system.rules())
    w = front(f"{system.title}: GM screen", f"content/{system.id}/",
              f"Every calculator of {system.title} on one page, grouped by chapter.")
    w.writeline("# GM screen")
    w.writeline()
    html_block(w, "rulesc-text rulesc-gm__intro", _intro(count))
    for chapter in system.chapters:
        sections = chapter_sections(chapter)
        if sections:
            _chapter(w, program, markup, chapter, sections)
    return w.getvalue()


def _intro(count: int) -> str:
    if not count:
        return "<p>This system has no calculators.</p>"
    return (f"<p>All {count} calculator{'s' if count != 1 else ''} of this system on one page, grouped by the chapter "
            "and section of the rule each works out. Each heading is a permalink; a calculator's Share button copies "
            "a link that opens it here with the same inputs.</p>")


def chapter_sections(chapter: Chapter) -> list[tuple[Rule, list[Rule]]]:
    """The chapter's top-level rules that have calculators in them, each with those rules (itself or below it), in
    the chapter's order."""
    ids = {rule.id: rule for rule in chapter.rules}
    sections: dict[str, list[Rule]] = {}
    for rule in chapter.rules:
        if rule.calculators:
            sections.setdefault(_top(rule, ids).id, []).append(rule)
    return [(ids[top], rules) for top, rules in sections.items()]


def _top(rule: Rule, ids: dict[str, Rule]) -> Rule:
    """The rule's outermost ancestor within its chapter (itself if it has none there)."""
    seen = {rule.id}
    while rule.parent in ids and rule.parent not in seen:
        rule = ids[rule.parent]
        seen.add(rule.id)
    return rule


def _chapter(w: Writer, program: Program, markup: Markup, chapter: Chapter,
             sections: list[tuple[Rule, list[Rule]]]) -> None:
    w.writeline(f"## {md_escape(chapter.title)} {{#chapter-{chapter.id}}}")
    w.writeline()
    for section, rules in sections:
        w.writeline(f"### {md_escape(section.name)} {{#section-{section.id}}}")
        w.writeline()
        for rule in rules:
            for calculator in rule.calculators:
                _calculator(w, program, markup, rule, calculator)


def _calculator(w: Writer, program: Program, markup: Markup, rule: Rule, calculator: Calculator) -> None:
    anchor = calculator_anchor(calculator.id)
    w.writeline(f"#### {md_escape(calculator.title)} {{#{anchor}}}")
    w.writeline()
    link = markup.rule_link(rule.id, gm_screen_path(program.system))
    body = [f'<p class="rulesc-gm__rule">Rule: {link}</p>',
            render_calculator(program, calculator, prefix=GM_PREFIX, anchor=anchor)]
    html_block(w, "rulesc-gm__calc", "\n".join(body))
