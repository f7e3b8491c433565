"""Pages emitter: the Markdown the MkDocs site is built from: home, per system a landing page, chapters, glossary.

Headings stay Markdown (MkDocs builds the table of contents and checks the anchors); everything that comes from
content is rendered by markup.py to escaped HTML blocks, which Python-Markdown passes through untouched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from html import escape
from typing import Any

from rulesc.analyze.program import Program, show
from rulesc.emit.site.calculators import display, render_calculator
from rulesc.emit.site.credits import notices, notices_html, source_item, with_footer
from rulesc.emit.site.crosslink import backlinks
from rulesc.emit.site.dice_page import DICE_PAGE
from rulesc.emit.site.errors_page import PAGE as ERRORS_PAGE
from rulesc.emit.site.fragments import FactStyle, front, html_block, md_escape
from rulesc.emit.site.gm_screen import gm_screen_pages
from rulesc.emit.site.links import (
    HOME,
    SEARCH_PAGE,
    calculator_element_id,
    glossary_path,
    gm_screen_path,
    href,
    landing_path,
    page_path,
    part_path,
    tables_path,
)
from rulesc.emit.site.markup import Markup, Section
from rulesc.emit.site.moved import moved_block, part_steps
from rulesc.emit.site.reading import folds, provenance, refuse_raw_markup, rule_sources, sources, stat_block
from rulesc.emit.site.roll_tables import final_results_html, roll_table_html
from rulesc.emit.site.rule_notes import NO_NOTES, PageNotes, rule_notes, variants_applied
from rulesc.emit.site.split import ChapterPlan, Part, gm_parts, plans
from rulesc.emit.site.structured import lead_parts, outcomes_block
from rulesc.emit.site.tables import emit_index_tables, index_kind_pages, table_kinds
from rulesc.emit.writer import Writer
from rulesc.kinds import mid_sentence
from rulesc.model import Chapter, Rule, System
from rulesc.runtime import rulesc_runtime as R


class Context:
    """What every page of one system needs: the program, its markup renderer and its backlinks."""

    def __init__(self, program: Program, notes: PageNotes = NO_NOTES):
        self.program = program
        self.notes = notes  # what variants changed in each rule, and each rule's history
        self.system: System = program.system
        self.markup = Markup.of(program)
        self.backlinks = backlinks(program)

    def modifier(self, formula: str, score: int) -> str:
        """What a score's modifier formula gives for it, signed when a whole number: +2; ? if it cannot run."""
        try:
            value = self.program.call(formula, [score])
        except (R.RulesError, KeyError):
            return "?"
        return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else show(value)


def system_pages(program: Program, notes: PageNotes = NO_NOTES) -> dict[str, str]:
    """One system's pages: its landing page, GM screen, glossary, index tables and chapters."""
    ctx = Context(program, notes)
    system = ctx.system
    files = {landing_path(system): _landing(ctx), **gm_screen_pages(program, ctx.markup),
             glossary_path(system): _glossary(ctx), tables_path(system): emit_index_tables(ctx.program, ctx.markup),
             **index_kind_pages(ctx.program, ctx.markup)}
    for chapter in system.chapters:
        files.update(_chapter_pages(ctx, plans(system)[chapter.id]))
    refuse_raw_markup(program, files)
    return with_footer(files, notices_html([system]))


def home_page(items: list[str], name: str, description: str | None,
              systems: Sequence[tuple[str, str]] = ()) -> str:
    """The home page, from each system's home_item(): titled by the site's name (mkdocs.yml site_name, which the
    browser's tab shows alone) and introduced by its description (site_description), with each system's GM screen
    one tap away (`systems`: id, title); the pages for authors are linked at its end, out of the players' nav."""
    w = front(None, "mkdocs.yml and content/", description or "")
    w.writeline(f"# {md_escape(name)}")
    w.writeline()
    if systems:
        html_block(w, "rulesc-gm-link rulesc-home__gm", home_gm_links(systems))  # styled as the landing's button
    html_block(w, "rulesc-home", "\n".join([
        *([f"<p>{escape(description)}</p>"] if description else []),
        f'<p>Search by a rule\'s name, an abbreviation or any word of its text from the search box, or open the '
        f'<a href="{href(HOME, SEARCH_PAGE)}">search page</a> to filter by system and kind of rule.</p>',
        *(["<h2>Systems</h2>"] if len(items) > 1 else []), '<ul class="rulesc-systems">', *items, "</ul>",
        _for_authors()]))
    return w.getvalue()


def _for_authors() -> str:
    """The home page's end: the way to the pages for the rulebook's authors."""
    return (f'<p class="rulesc-muted rulesc-for-authors">For authors: <a href="{href(HOME, DICE_PAGE)}">Dice '
            "notation</a>, every construct of the formula language with its numbers, and "
            f'<a href="{href(HOME, ERRORS_PAGE)}">Error codes</a>, what each message of <code>rulesc check</code> '
            "means and how to fix it.</p>")


def home_gm_links(systems: Sequence[tuple[str, str]]) -> str:
    """Each system's GM screen as a big button (one tap from the home page at the table), above the home page's
    prose; every system's GM screen is served at `system/gm-screen/`, one page or split."""
    links = "".join(f'<a class="md-button md-button--primary" href="{href(HOME, f"{sid}/gm-screen/index.md")}">'
                    f"GM screen: {escape(title)}</a>" for sid, title in systems)
    return f'<nav aria-label="GM screens">{links}</nav>'


def home_item(program: Program) -> str:
    """The system's entry in the home page's list of systems: a card with its name, what it is, and buttons to its
    glossary and index tables, each a big target on a phone (its GM screen's button is at the top of the page, with
    every system's: home_gm_links)."""
    system, section = program.system, Section(HOME)
    rules = system.rules()
    counts = f"{len(rules)} rules, {len(system.terms)} terms, {sum(len(r.calculators) for r in rules)} calculators"
    return (f'<li><a class="rulesc-systems__name" href="{href(HOME, landing_path(system))}">'
            f'<strong>{escape(system.title)}</strong></a>'
            f'<p>{Markup.of(program).inline(system.summary, section)} <span class="rulesc-muted">({counts})</span></p>'
            f'<p class="rulesc-systems__go">'
            f'<a class="md-button" href="{href(HOME, glossary_path(system))}">Glossary</a> '
            f'<a class="md-button" href="{href(HOME, tables_path(system))}">Index tables</a></p></li>')


def _landing(ctx: Context) -> str:
    system, page = ctx.system, landing_path(ctx.system)
    w = front(system.title, f"content/{system.id}/system.yaml", ctx.markup.plain(system.summary))
    w.writeline(f"# {md_escape(system.title)}")
    w.writeline()
    body = [b for b in (variants_applied(ctx.notes, ctx.markup), ctx.markup.block(system.summary,
                                                                                   Section(page, heading=2))) if b]
    if system.name_note:
        body.append(f"<p><em>About the name:</em> {escape(system.name_note)}</p>")
    html_block(w, "rulesc-text", "\n".join(body))
    html_block(w, "rulesc-gm-link", _gm_link(ctx))
    _landing_section(w, "Chapters", [_chapter_item(ctx, c) for c in system.chapters] + [
        f'<li><a href="{href(page, glossary_path(system))}">Glossary</a>: {len(system.terms)} defined terms, '
        "with their abbreviations and aliases</li>"])
    kinds = ", ".join(_counted(system, kind, len(rules)) for kind, rules in table_kinds(ctx.program))
    _landing_section(w, "Index tables", [
        f'<li><a href="{href(page, tables_path(system))}">Index tables</a>: {escape(kinds) or "no rules"}, '
        "filterable and sortable</li>"])
    w.writeline("## Dice")
    w.writeline()
    html_block(w, "rulesc-text", ctx.markup.block(system.dice_summary, Section(page, heading=3)))
    _landing_section(w, "Sources", [source_item(s) for s in system.sources])
    if notices(system):
        html_block(w, "rulesc-attributions", notices_html([system]))
    return w.getvalue()


def _gm_link(ctx: Context) -> str:
    """The landing page's way to the GM screen, above the chapters: a button and what the page holds."""
    page, count = landing_path(ctx.system), sum(len(rule.calculators) for rule in ctx.system.rules())
    where = f"on {len(gm_parts(ctx.system))} pages" if gm_parts(ctx.system) else "on one page"
    what = f"all {count} calculator{'s' if count != 1 else ''} {where}, grouped by chapter" if count else \
        "this system has no calculators yet"
    return (f'<p><a class="md-button md-button--primary" href="{href(page, gm_screen_path(ctx.system))}">GM screen</a> '
            f'<span class="rulesc-muted">{what}</span></p>')


def _counted(system: System, kind_id: str, count: int) -> str:
    """A number of rules of a kind in the system's words: 1 move, 3 moves."""
    kind = system.kind(kind_id)
    return f"{count} {mid_sentence(kind.label if count == 1 else kind.plural)}"


def _landing_section(w: Writer, title: str, items: list[str]) -> None:
    w.writeline(f"## {title}")
    w.writeline()
    html_block(w, "rulesc-list", "\n".join(["<ul>", *items, "</ul>"]))


def _chapter_item(ctx: Context, chapter: Chapter) -> str:
    page = landing_path(ctx.system)
    summary = ctx.markup.inline(chapter.summary, Section(page))
    return (f'<li><a href="{href(page, page_path(ctx.system, chapter.id))}">{escape(chapter.title)}</a> '
            f'<span class="rulesc-muted">({len(chapter.rules)} rules)</span>: {summary}</li>')


def _glossary(ctx: Context) -> str:
    system, page = ctx.system, glossary_path(ctx.system)
    w = front(f"{system.title}: glossary", f"content/{system.id}/system.yaml")
    w.writeline("# Glossary")
    w.writeline()
    for term in sorted(system.terms, key=lambda t: (t.name.lower(), t.id)):
        w.writeline(f"## {md_escape(term.name)} {{#{term.id} data-kind=\"term\"}}")
        w.writeline()
        body = []
        also = [*term.abbreviations, *term.aliases]
        if also:
            body.append("<p>Also: " + ", ".join(f"<strong>{escape(a)}</strong>" for a in also) + "</p>")
        body.append(ctx.markup.block(term.definition, Section(page, term.id, heading=3)))
        if term.rule:
            body.append(f"<p>Defined in {ctx.markup.rule_link(term.rule, page)}.</p>")
        body.append(sources([provenance(ctx.markup, system, term.provenance, Section(page, term.id))])
                    if term.provenance else "")
        body.append(_backlinks(ctx, term.id, page))
        html_block(w, "rulesc-term", "\n".join(b for b in body if b))
    return w.getvalue()


def _chapter_pages(ctx: Context, plan: ChapterPlan) -> dict[str, str]:
    """The chapter's page, or, split, its landing page and a page per part."""
    chapter, page = plan.chapter, page_path(ctx.system, plan.chapter.id)
    if not plan.parts:
        return {page: _chapter(ctx, plan)}
    files = {page: _chapter_landing(ctx, plan)}
    for number, part in enumerate(plan.parts, 1):
        files[part_path(ctx.system, chapter.id, part.id)] = _part_page(ctx, plan, part, number)
    return files


def _chapter(ctx: Context, plan: ChapterPlan) -> str:
    page = page_path(ctx.system, plan.chapter.id)
    w = _chapter_opening(ctx, plan.chapter, page)
    for rule in plan.children[None]:
        _rule(w, ctx, rule, plan.children, 2, page)
    return w.getvalue()


def _chapter_landing(ctx: Context, plan: ChapterPlan) -> str:
    """A split chapter's page: its summary, its parts with the names of their rules, and the map that sends an old
    link to a rule on this page (`chapter/#rule`) on to the rule's part page."""
    w = _chapter_opening(ctx, plan.chapter, page_path(ctx.system, plan.chapter.id), _moved_script(ctx, plan))
    w.writeline("## Parts")
    w.writeline()
    html_block(w, "rulesc-list rulesc-parts", "\n".join(["<ol>", *(_part_item(ctx, plan, p) for p in plan.parts),
                                                          "</ol>"]))
    return w.getvalue()


def _chapter_opening(ctx: Context, chapter: Chapter, page: str, moved: str | None = None) -> Writer:
    """A chapter's page up to its rules: the front matter, the title, a split chapter's map of moved anchors, and
    the summary."""
    w = front(chapter.title, chapter.file, ctx.markup.plain(chapter.summary))
    w.writeline(f"# {md_escape(chapter.title)}")
    w.writeline()
    if moved is not None:
        html_block(w, "rulesc-moved", moved)
    html_block(w, "rulesc-text", ctx.markup.block(chapter.summary, Section(page, heading=2)))
    return w


def _part_item(ctx: Context, plan: ChapterPlan, part: Part) -> str:
    page = page_path(ctx.system, plan.chapter.id)
    target = part_path(ctx.system, plan.chapter.id, part.id)
    rules = [rule for rule in plan.chapter.rules if plan.part_of.get(rule.id) == part.id]
    names = ", ".join(f'<a href="{href(page, target, rule.id)}">{escape(rule.name)}</a>' for rule in rules)
    return (f'<li><a href="{href(page, target)}"><strong>{escape(part.title)}</strong></a> '
            f'<span class="rulesc-muted">({len(rules)} rule{"s" if len(rules) != 1 else ""})</span>: {names}</li>')


def _moved_script(ctx: Context, plan: ChapterPlan) -> str:
    """Every id a rule of the chapter had on the whole chapter's page (the rule, its old ids, its calculators) to
    its part page."""
    chapter, page = plan.chapter, page_path(ctx.system, plan.chapter.id)
    moved: dict[str, str] = {}
    for rule in chapter.rules:
        folder = href(page, part_path(ctx.system, chapter.id, plan.part_of[rule.id]))
        ids = [rule.id, *rule.aliases, *(calculator_element_id(ctx.system, calc.id) for calc in rule.calculators)]
        moved.update(dict.fromkeys(ids, folder))
    return moved_block(moved, "Links to a rule of this chapter now lead to its part, listed below.")


def _part_page(ctx: Context, plan: ChapterPlan, part: Part, number: int) -> str:
    """One part of a split chapter: the chapter's title, where the part sits, then its rules as on the whole page."""
    chapter, page = plan.chapter, part_path(ctx.system, plan.chapter.id, part.id)
    w = front(f"{part.title} ({chapter.title})", chapter.file, ctx.markup.plain(chapter.summary))
    w.writeline(f"# {md_escape(chapter.title)}")
    w.writeline()
    landing = href(page, page_path(ctx.system, chapter.id))
    html_block(w, "rulesc-part-of", f'<p class="rulesc-muted" data-rulesc-landing="{landing}">Part {number} of '
                                    f'{len(plan.parts)} of <a href="{landing}">{escape(chapter.title)}</a>: '
                                    f"{escape(part.title)}</p>")
    top = part.units[0].depth
    for unit in part.units:
        _rule(w, ctx, unit.rule, plan.children if unit.whole else {}, unit.depth - top + 2, page)
    html_block(w, "rulesc-part-steps", _part_steps(ctx, plan, number))
    return w.getvalue()


def _part_steps(ctx: Context, plan: ChapterPlan, number: int) -> str:
    chapter = plan.chapter
    return part_steps([(part_path(ctx.system, chapter.id, part.id), part.title) for part in plan.parts], number,
                      f"Parts of {chapter.title}")


def _rule(w: Writer, ctx: Context, rule: Rule, children: Mapping[str | None, list[Rule]], level: int,
          page: str, folded: bool = False) -> None:
    """A rule and the rules below it on this page; a `folded` rule's sources are in its parent's disclosure."""
    w.writeline(f"{'#' * min(level, 6)} {md_escape(rule.name)} {{#{rule.id} data-kind=\"{rule.kind}\"}}")
    w.writeline()
    section = Section(page, rule.id, heading=min(level + 1, 6))
    old_ids = "".join(f'<span id="{alias}" class="rulesc-alias"></span>' for alias in rule.aliases)  # old permalinks
    body = [old_ids, stat_block(ctx.system, rule, html_style(ctx.markup, page), ctx.modifier),
            rule_notes(ctx.notes, rule.id, ctx.markup), *lead_parts(ctx.markup, rule, section),
            ctx.markup.block(rule.text, section)]
    if rule.items:
        body.append("<ol>" + "".join(f"<li>{ctx.markup.inline(item, section)}</li>" for item in rule.items) + "</ol>")
    body.append(outcomes_block(ctx.program, ctx.markup, rule, section))
    if rule.table:
        body.append(roll_table_html(rule, ctx.markup, page) if rule.table.roll else _table(rule))
        body.append(final_results_html(ctx.program, rule, ctx.markup, page) if rule.table.roll else "")
    body += [render_calculator(ctx.program, calculator) for calculator in rule.calculators]
    if not folded:
        body.append(rule_sources(ctx.program, ctx.markup, rule, section, cell, _folded_below(rule, children)))
    body.append(_backlinks(ctx, rule.id, page))
    calculated = " data-calculated" if rule.calculators else ""  # laid out at once (rulesc-head.html)
    html_block(w, "rulesc-rule", "\n".join(b for b in body if b), f' data-rule="{rule.id}"{calculated}')
    for child in children.get(rule.id, []):
        _rule(w, ctx, child, children, level + 1, page, folds(child))


def _folded_below(rule: Rule, children: Mapping[str | None, list[Rule]]) -> list[Rule]:
    """The sub-rules on this page whose sources go into the rule's disclosure: each child that folds, and what folds
    into it, in the page's order."""
    found: list[Rule] = []
    for child in children.get(rule.id, []):
        if folds(child):
            found += [child, *_folded_below(child, children)]
    return found


def html_style(markup: Markup, page: str) -> FactStyle:
    """Facts as HTML on `page`: rules and glossary terms linked, everything else escaped."""
    return FactStyle(lambda target: markup.rule_link(target, page),
                     lambda term, label: markup.term_link(term, label, page), escape)


def cell(value: Any) -> str:
    exact = isinstance(value, (bool, Fraction, dict))  # worked examples show exact fractions and distributions
    shown = value if isinstance(value, str) else show(value) if exact else display(value)
    return escape(shown)


def _table(rule: Rule) -> str:
    table = rule.table
    assert table is not None
    caption = f"<caption>{escape(table.caption)}</caption>" if table.caption else ""
    head = "".join(f'<th scope="col">{escape(c.label)}</th>' for c in table.columns)
    rows = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in table.rows)
    return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _backlinks(ctx: Context, target: str, page: str) -> str:
    rules = ctx.backlinks.get(target, [])
    if not rules:
        return ""
    links = ", ".join(ctx.markup.rule_link(rule.id, page) for rule in rules)
    return f'<p class="rulesc-backlinks"><span>Referenced by:</span> {links}</p>'
