"""Index tables emitter: per system, one filterable and sortable table per kind of rule, every row linking to it.

The tables are plain HTML; site.js adds the filter box and sortable headers, so they work from file:// too.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from generator.analyze.program import Program, show
from generator.emit.site.fragments import facts_of, front, md_escape
from generator.emit.site.links import tables_path
from generator.emit.site.markup import Markup
from generator.model import Rule

KIND_ORDER = ("maneuver", "upgrade", "action", "stunt", "keyword", "condition", "general", "table", "list")
Column = tuple[str, Callable[[Rule], str]]


def table_kinds(program: Program) -> list[tuple[str, list[Rule]]]:
    """The kinds of rule a system has (sections are only headings), in a fixed order, with their rules."""
    rules = program.system.rules()
    kinds = [k for k in KIND_ORDER if any(r.kind == k for r in rules)]
    kinds += sorted({r.kind for r in rules} - set(KIND_ORDER) - {"section"})
    return [(kind, [r for r in rules if r.kind == kind]) for kind in kinds]


def plural(kind: str) -> str:
    return "general rules" if kind == "general" else f"{kind}s"


def emit_index_tables(program: Program, markup: Markup) -> str:
    system = program.system
    w = front(f"{system.title}: index tables", f"content/{system.id}/")
    w.writeline("# Index tables")
    w.writeline()
    w.writeline(f"Every rule of {md_escape(system.title)} by kind, with its key fields. Type in a box to filter a "
                "table; select a column heading to sort by it.")
    w.writeline()
    columns = _columns(program, markup)
    for kind, rules in table_kinds(program):
        w.writeline(f"## {plural(kind).capitalize()} {{#{kind}}}")
        w.writeline()
        w.writeline(f'<div class="rulesc-index" data-index-table="{kind}" markdown="0">')
        w.write_block(_table(columns, kind, rules))
        w.writeline("</div>")
        w.writeline()
    return w.getvalue()


def _table(columns: list[Column], kind: str, rules: list[Rule]) -> str:
    """The kind's table, with the columns that hold something for at least one of its rules (and Name)."""
    rows = [[get(rule) for _, get in columns] for rule in rules]
    kept = [i for i, (label, _) in enumerate(columns) if label == "Name" or any(row[i] for row in rows)]
    head = "".join(f'<th scope="col">{escape(columns[i][0])}</th>' for i in kept)
    body = "\n".join("<tr>" + "".join(f"<td>{row[i]}</td>" for i in kept) + "</tr>" for row in rows)
    return "\n".join([f'<table id="index-{kind}" aria-label="{escape(plural(kind).capitalize())}">',
                      f"<thead><tr>{head}</tr></thead>", f"<tbody>\n{body}\n</tbody>", "</table>"])


def _columns(program: Program, markup: Markup) -> list[Column]:
    page = tables_path(program.system)

    def link(target: str) -> str:
        return markup.rule_link(target, page)

    facts = {rule.id: dict(facts_of(rule)) for rule in program.system.rules()}

    def fact(label: str) -> Callable[[Rule], str]:
        return lambda rule: escape(facts[rule.id].get(label, ""))

    labels = sorted({label for found in facts.values() for label in found}, key=_fact_order)
    return [("Name", lambda r: link(r.id)),
            ("Under", lambda r: link(r.parent) if r.parent else ""),
            ("Chapter", lambda r: escape(_chapter_title(program, r))),
            *[(label, fact(label)) for label in labels],
            ("Requires", lambda r: ", ".join(link(i) for i in r.upgrade.requires) if r.upgrade else ""),
            ("Excludes", lambda r: ", ".join(link(i) for i in r.upgrade.excludes) if r.upgrade else ""),
            ("Modifies", lambda r: link(r.maneuver.base) if r.maneuver and r.maneuver.base else ""),
            ("Values", _values)]


def _fact_order(label: str) -> tuple[int, str]:
    order = ("Cost", "Limit", "Type", "Exploit", "Max times")
    return next((i for i, prefix in enumerate(order) if label.startswith(prefix)), len(order)), label


def _values(rule: Rule) -> str:
    """Named values such as trigger thresholds, e.g. "trigger min = 12"."""
    return "<br>".join(f"{escape(name.replace('_', ' '))} = {escape(v if isinstance(v, str) else show(v))}"
                       for name, v in rule.values)


def _chapter_title(program: Program, rule: Rule) -> str:
    return next(c.title for c in program.system.chapters if c.id == rule.chapter)


__all__ = ["emit_index_tables", "plural", "table_kinds"]
