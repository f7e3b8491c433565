"""Index tables emitter: per system, one filterable and sortable table per kind of rule, every row linking to it.

The tables are plain HTML, laid out as cards on a phone from the first paint (each cell names its column); site.js
adds the filter box and sortable headers, so they work from file:// too.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from generator.analyze.program import Program, show
from generator.emit.site.fragments import FactStyle, front, md_escape, show_fact
from generator.emit.site.links import tables_path
from generator.emit.site.markup import Markup
from generator.model import FactKind, Rule

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
        w.writeline(f'<div class="rulesc-index rulesc-index--cards" data-index-table="{kind}" markdown="0">')
        w.write_block(_table(columns, kind, rules))
        w.writeline("</div>")
        w.writeline()
    return w.getvalue()


def _table(columns: list[Column], kind: str, rules: list[Rule]) -> str:
    """The kind's table, with the columns that hold something for at least one of its rules (and Name)."""
    rows = [[get(rule) for _, get in columns] for rule in rules]
    kept = [i for i, (label, _) in enumerate(columns) if label == "Name" or any(row[i] for row in rows)]
    head = "".join(f'<th scope="col">{escape(columns[i][0])}</th>' for i in kept)
    body = "\n".join("<tr>" + "".join(_cell(columns[i][0], row[i]) for i in kept) + "</tr>" for row in rows)
    return "\n".join([f'<table id="index-{kind}" aria-label="{escape(plural(kind).capitalize())}">',
                      f"<thead><tr>{head}</tr></thead>", f"<tbody>\n{body}\n</tbody>", "</table>"])


def _cell(label: str, text: str) -> str:
    """A cell naming its column for the phone's cards (site.css); an empty one is left bare, and a card hides it."""
    return f'<td data-label="{escape(label)}">{text}</td>' if text.strip() else "<td></td>"


def _columns(program: Program, markup: Markup) -> list[Column]:
    page = tables_path(program.system)

    def link(target: str) -> str:
        return markup.rule_link(target, page)

    style = FactStyle(link, lambda term, label: markup.term_link(term, label, page), escape)
    kinds = [kind for kind in program.system.fact_kinds if kind.index]
    return [("Name", lambda r: link(r.id)),
            ("Under", lambda r: link(r.parent) if r.parent else ""),
            ("Chapter", lambda r: escape(_chapter_title(program, r))),
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


__all__ = ["emit_index_tables", "plural", "table_kinds"]
