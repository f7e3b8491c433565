"""Index tables emitter: per system, one filterable and sortable table per kind of rule, every row linking to it.

A system with many rules gets a landing page and a page per kind instead (table_plan.py). The tables are plain
HTML, laid out as cards on a phone from the first paint (each cell names its column); site.js adds the filter box
and sortable headers, so they work from file:// too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape, unescape

from rulesc.analyze.program import Program, show
from rulesc.emit.site.fragments import FactStyle, front, html_block, md_escape, show_fact
from rulesc.emit.site.links import href, table_kind_path, tables_path
from rulesc.emit.site.markup import Markup, Section
from rulesc.emit.site.moved import moved_block, part_steps
from rulesc.emit.site.table_plan import kinds_of, split_tables
from rulesc.emit.writer import Writer
from rulesc.kinds import mid_sentence
from rulesc.model import FactKind, Rule, Scaling, System

TAG = re.compile(r"<[^>]*>")

Column = tuple[str, Callable[[Rule], str]]


def table_kinds(program: Program) -> list[tuple[str, list[Rule]]]:
    """The kinds of rule a system has (sections are only headings), in a fixed order, with their rules."""
    return kinds_of(program.system)


def plural(system: System, kind: str) -> str:
    """Several rules of a kind, as the system words them (Moves)."""
    return system.kind(kind).plural


def emit_index_tables(program: Program, markup: Markup) -> str:
    """The index tables page: every kind's table, or, split (table_plan.py), the landing page listing the kinds."""
    system = program.system
    if split_tables(system):
        return _landing(program)
    page = tables_path(system)
    w = _opening(system, "Index tables", f"{system.title}: index tables")
    w.writeline(f"Every rule of {md_escape(system.title)} by kind, with its key fields. Type in a box to filter a "
                "table; select a column heading to sort by it.")
    w.writeline()
    columns = _columns(program, markup, page)
    for kind, rules in table_kinds(program):
        w.writeline(f"## {md_escape(plural(system, kind))} {{#{kind}}}")
        w.writeline()
        _index_table(w, columns, kind, rules, plural(system, kind), system.scalings)
    return w.getvalue()


def index_kind_pages(program: Program, markup: Markup) -> dict[str, str]:
    """A page per kind of rule when the system's index tables are split, by path (else none)."""
    system = program.system
    if not split_tables(system):
        return {}
    kinds = table_kinds(program)
    return {table_kind_path(system, kind): _kind_page(program, markup, kinds, number)
            for number, (kind, _) in enumerate(kinds, 1)}


def _opening(system: System, heading: str, title: str) -> Writer:
    w = front(title, f"content/{system.id}/")
    w.writeline(f"# {heading}")
    w.writeline()
    return w


def _landing(program: Program) -> str:
    """Each kind with its number of rules, linked to its page; the map of moved anchors sends an old link to a
    kind's table on the one page (`tables/#kind`, `tables/#index-kind`) on to the kind's page."""
    system, page = program.system, tables_path(program.system)
    kinds = table_kinds(program)
    w = _opening(system, "Index tables", f"{system.title}: index tables")
    moved = {anchor: href(page, table_kind_path(system, kind)) for kind, _ in kinds
             for anchor in (kind, f"index-{kind}")}
    html_block(w, "rulesc-moved", moved_block(moved, "Links to a table on this page now lead to its own page, "
                                                     "listed below."))
    w.writeline(f"Every rule of {md_escape(system.title)} by kind, with its key fields: each kind's table is on a "
                "page of its own, where a box filters it and a column heading sorts it.")
    w.writeline()
    items = [f'<li><a href="{href(page, table_kind_path(system, kind))}"><strong>{escape(plural(system, kind))}'
             f'</strong></a> <span class="rulesc-muted">({_count(rules)})</span></li>' for kind, rules in kinds]
    html_block(w, "rulesc-list rulesc-parts", "\n".join(["<ul>", *items, "</ul>"]))
    return w.getvalue()


def _count(rules: list[Rule]) -> str:
    return f"{len(rules)} rule{'s' if len(rules) != 1 else ''}"


def _kind_page(program: Program, markup: Markup, kinds: list[tuple[str, list[Rule]]], number: int) -> str:
    """One kind's table, as on the one page, then links to the kinds before and after."""
    system, (kind, rules) = program.system, kinds[number - 1]
    page, name = table_kind_path(system, kind), plural(system, kind)
    w = _opening(system, f"{md_escape(name)} {{#{kind}}}", f"{system.title}: {name} (index tables)")
    html_block(w, "rulesc-part-of", f'<p class="rulesc-muted">Table {number} of {len(kinds)} of the '
                                    f'<a href="{href(page, tables_path(system))}">index tables</a> of '
                                    f'{escape(system.title)}: {_count(rules)}</p>')
    one = md_escape(mid_sentence(system.kind(kind).label))
    w.writeline(f"Every {one} of {md_escape(system.title)}, with its key fields. Type in the box to "
                "filter the table; select a column heading to sort by it.")
    w.writeline()
    _index_table(w, _columns(program, markup, page), kind, rules, name, system.scalings)
    steps = [(table_kind_path(system, other), plural(system, other)) for other, _ in kinds]
    html_block(w, "rulesc-part-steps", part_steps(steps, number, f"Index tables of {system.title}", "table"))
    return w.getvalue()


def _index_table(w: Writer, columns: list[Column], kind: str, rules: list[Rule], name: str,
                 scalings: tuple[Scaling, ...]) -> None:
    table = _table(columns, kind, rules, name)
    w.writeline(f'<div class="rulesc-index rulesc-index--cards" data-index-table="{kind}" markdown="0">')
    w.write_block(_fields(kind, name, len(rules), table, scalings))
    w.write_block(table)
    w.writeline("</div>")
    w.writeline()


def _fields(kind: str, name: str, count: int, table: str, scalings: tuple[Scaling, ...]) -> str:
    """The table's filter and, where its cells hold scaled amounts, a field for each scaling they use: in the page
    as built, so that nothing below them moves when site.js makes them work (a page without scripts hides them:
    site.css)."""
    field = f"index-{kind}-filter"
    fields = (f'<div class="rulesc-filter"><label for="{field}">Filter {escape(mid_sentence(name))}</label>'
              f'<input type="search" id="{field}" autocomplete="off">'
              f'<span role="status" aria-live="polite">{count} of {count} shown</span></div>')
    used = _scalings_used(table, scalings)
    return fields + _scaling_fields([scaling for scaling in scalings if scaling.notation in used])


def scaled_pattern(scalings: tuple[Scaling, ...]) -> re.Pattern[str]:
    """An amount carrying one of the scalings, "8(bT)" or "1d10(T)", as filters.js's scaledPattern() reads it."""
    notations = "|".join(re.escape(scaling.notation) for scaling in scalings)
    return re.compile(rf"(\d+)(d\d+)?\(({notations})\)", re.ASCII)


def _scalings_used(table: str, scalings: tuple[Scaling, ...]) -> set[str]:
    """The notations of the scaled amounts in the table's text."""
    if not scalings:
        return set()
    pattern = scaled_pattern(scalings)
    return {match.group(3) for text in TAG.split(table) for match in pattern.finditer(unescape(text))}


def _scaling_fields(scalings: list[Scaling]) -> str:
    """A field for each scaling, named by its label and taking its range; its notation tells filters.js which
    amounts it scales. Nothing when there are none."""
    if not scalings:
        return ""
    labels = " ".join(f'<label>{escape(s.label)} <input type="number" min="{s.min}" max="{s.max}" '
                      f'inputmode="numeric" data-tier="{escape(s.notation)}"></label>' for s in scalings)
    marks = [f"({escape(s.notation)})" for s in scalings]
    listed = " and ".join([", ".join(marks[:-1]), marks[-1]] if len(marks) > 1 else marks)
    these = "these values" if len(marks) > 1 else "this value"
    return f'<div class="rulesc-filter rulesc-tiers">{labels} <span>show {listed} amounts at {these}</span></div>'


def _table(columns: list[Column], kind: str, rules: list[Rule], name: str) -> str:
    """The kind's table, with the columns that hold something for at least one of its rules (and Name)."""
    rows = [[get(rule) for _, get in columns] for rule in rules]
    kept = [i for i, (label, _) in enumerate(columns) if label == "Name" or any(row[i] for row in rows)]
    head = "".join(f'<th scope="col">{escape(columns[i][0])}</th>' for i in kept)
    body = "\n".join("<tr>" + "".join(_cell(columns[i][0], row[i]) for i in kept) + "</tr>" for row in rows)
    return "\n".join([f'<table id="index-{kind}" aria-label="{escape(name)}">',
                      f"<thead><tr>{head}</tr></thead>", f"<tbody>\n{body}\n</tbody>", "</table>"])


def _cell(label: str, text: str) -> str:
    """A cell naming its column for the phone's cards (site.css); an empty one is left bare, and a card hides it."""
    return f'<td data-label="{escape(label)}">{text}</td>' if text.strip() else "<td></td>"


def _columns(program: Program, markup: Markup, page: str) -> list[Column]:
    def link(target: str) -> str:
        return markup.rule_link(target, page)

    style = FactStyle(link, lambda term, label: markup.term_link(term, label, page), escape)
    kinds = [kind for kind in program.system.fact_kinds if kind.index]
    return [("Name", lambda r: link(r.id)),
            ("Under", lambda r: link(r.parent) if r.parent else ""),
            ("Chapter", lambda r: escape(_chapter_title(program, r))),
            ("Trigger", lambda r: markup.inline(r.trigger, Section(page)) if r.trigger else ""),
            ("Roll", lambda r: r.roll.stat_choice(escape) if r.roll else ""),
            *[column for kind in kinds for column in _fact_columns(program, kind, style)],
            ("Values", _values)]


def _fact_columns(program: Program, kind: FactKind, style: FactStyle) -> list[Column]:
    """The kind's column, then one per level its at: names (an amount worked out by the system's formula)."""
    system = program.system

    def shown(rule: Rule) -> str:
        return " ".join(show_fact(f, system, style) for f in rule.facts if f.kind.id == kind.id)

    columns: list[Column] = [(kind.label, shown)]
    if kind.at is not None:
        columns += [(f"{kind.label} {kind.at.label} {level}", _at_level(program, kind, level))
                    for level in kind.at.levels]
    return columns


def _at_level(program: Program, kind: FactKind, level: int) -> Callable[[Rule], str]:
    """A scaled amount of the kind at `level`, through the formula its at: names; unscaled amounts are as written."""
    def cell(rule: Rule) -> str:
        amounts = [f.amount for f in rule.facts if f.kind.id == kind.id and f.amount and f.amount.amount is not None]
        assert kind.at is not None
        return ", ".join(str(program.call(kind.at.formula, [a.amount, level]) if a.scaling else a.amount)
                         for a in amounts)
    return cell


def _values(rule: Rule) -> str:
    """Named values such as trigger thresholds, e.g. "trigger min = 12"."""
    return "<br>".join(f"{escape(name.replace('_', ' '))} = {escape(v if isinstance(v, str) else show(v))}"
                       for name, v in rule.values)


def _chapter_title(program: Program, rule: Rule) -> str:
    return next(c.title for c in program.system.chapters if c.id == rule.chapter)


__all__ = ["emit_index_tables", "index_kind_pages", "plural", "table_kinds"]
