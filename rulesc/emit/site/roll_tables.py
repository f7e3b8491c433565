"""Roll tables on the site: each roll table's HTML (an anchor per row, a [data-roll-table] box calculators.js makes
rollable), a search record per row, and what the page's script needs to roll them (the runtime's table specs, and
where each table and row is)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html import escape

from rulesc.analyze.program import Program, show
from rulesc.analyze.rolls import Result, Tables, by_chance, result_parts, roll_spec, table_titles
from rulesc.emit.site.calculators import display
from rulesc.emit.site.links import rule_page, url_of
from rulesc.emit.site.markup import Markup, Section
from rulesc.emit.writer import JsonObject
from rulesc.formula.table_rolls import percent
from rulesc.model import Rule, Table, Text, Value

ROW_SEPARATOR = " \u00b7 "
"""Between a row's table, key and cells where they read as one line ("Action oracle · 01-05 · Scheme")."""


def table_anchor(table: Table) -> str:
    """A roll table's anchor: an underscore, which no rule id has, keeps it apart from every rule's permalink."""
    return f"table_{table.name}"


def row_anchor(table: Table, row: int) -> str:
    """A row's anchor, after the lowest outcome it covers (which no other row of the table covers)."""
    return f"row_{table.name}_{table.keys[row][0]}"


def roll_rules(program: Program) -> list[Rule]:
    """The rules that hold a roll table, in the system's order."""
    return [rule for rule in program.system.rules() if rule.table is not None and rule.table.roll is not None]


def cell_text(value: Value) -> str:
    """A cell that is not a text as the page shows it (as the chapter pages' tables do), unescaped."""
    return value if isinstance(value, str) else show(value) if isinstance(value, (bool, Fraction, dict)) \
        else display(value)


def roll_table_html(rule: Rule, markup: Markup, page: str) -> str:
    """A rule's roll table on `page`, in the box the page's script adds a Roll button to: its caption names the roll,
    each row has its anchor and its key cell adds its chance ("01-05 · 5%"), and text cells are rendered as rule
    text (links, terms, emphasis), escaped. The table itself has no class: Material styles `table:not([class])`."""
    table = rule.table
    assert table is not None and table.roll is not None
    caption = escape(f"{table.caption} ({table.roll.written})" if table.caption else f"Roll {table.roll.written}")
    head = "".join(f'<th scope="col">{escape(c.label)}</th>' for c in table.columns)
    section = Section(page, rule.id)
    rows = "".join(
        f'<tr id="{row_anchor(table, i)}" data-row="{i}"><th scope="row">{escape(cell_text(row[0]))} · '
        f"{percent(table.chance(i))}</th>"
        + "".join(f"<td>{_cell(markup, section, table, i, j)}</td>" for j in range(1, len(table.columns))) + "</tr>"
        for i, row in enumerate(table.rows))
    box = f"{escape(markup.program.system.id)}/{escape(table.name)}"
    return (f'<div class="rulesc-roll-table" data-roll-table="{box}"><table id="{table_anchor(table)}" '
            f'data-table="{table.name}" data-roll="{escape(table.roll.written)}">'
            f"<caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>")


def final_results_html(program: Program, rule: Rule, markup: Markup, page: str) -> str:
    """Under a table whose rows roll again, a disclosure of the exact chance of each final result of one roll, chains
    followed, the likeliest first ("Rope + A map · 1/6 · 16.7%"), each row's words shown as its table cells are (their
    links live); where they are not finite, or too many, it says so. Empty for a table none of whose rows rolls again
    (its rows and their chances are its results)."""
    table = rule.table
    assert table is not None
    if all(chain is None for chain in table.chains):
        return ""
    results = program.roll_results.get(table.name)
    if results is None:
        body = ("<p>Not listed: with repeats allowed, a roll can go on without a bound, or it has too many results "
                "to list.</p>")
    else:
        titles, section = table_titles(program.system), Section(page, rule.id)
        body = "<ul>" + "".join(
            f"<li>{_result_html(markup, section, program.tables, result, table.name, titles)} · {chance} · "
            f"{percent(chance)}</li>" for result, chance in by_chance(results)) + "</ul>"
    roll = escape(table.roll.written) if table.roll else ""
    return (f'<details class="rulesc-roll-results"><summary>Final results ({roll}, every roll followed)</summary>'
            f"{body}</details>")


def _result_html(markup: Markup, section: Section, tables: Tables, result: Result, home: str,
                 titles: Mapping[str, str]) -> str:
    """A final result as result_text() words it ("Friendly + Gifts: Rope"), each row's text cells rendered as its
    table shows them (links, terms, emphasis) and the rest escaped."""
    parts = []
    for name, row, count in result_parts(result, home):
        table = tables[name]
        cells = zip(table.rows[row][1:], table.texts[row][1:], strict=True)
        words = " · ".join(markup.inline(text, section) if isinstance(text, Text) else escape(str(value))
                           for value, text in cells) or escape(str(table.rows[row][0]))
        shown = words if name == home else f"{escape(titles.get(name, name))}: {words}"
        parts.append(shown if count == 1 else f"{count} \u00d7 {shown}")
    return " + ".join(parts)


def _cell(markup: Markup, section: Section, table: Table, row: int, column: int) -> str:
    text = _text(table, row, column)
    return markup.inline(text, section) if text is not None else escape(cell_text(table.rows[row][column]))


def _text(table: Table, row: int, column: int) -> Text | None:
    return table.texts[row][column] if table.texts and table.texts[row] else None


def row_text(markup: Markup, table: Table, row: int) -> str:
    """A row's cells after its key, as plain text ("Scheme", "Clash, see Reaction")."""
    cells = [markup.plain(text) if (text := _text(table, row, j)) is not None else cell_text(table.rows[row][j])
             for j in range(1, len(table.columns))]
    return ROW_SEPARATOR.join(cell for cell in cells if cell)


def row_title(rule: Rule, row: int, markup: Markup) -> str:
    """How a row is named where it stands alone (a search hit): its table, its key and its text."""
    table = rule.table
    assert table is not None
    return ROW_SEPARATOR.join(part for part in (rule.name, cell_text(table.rows[row][0]),
                                                row_text(markup, table, row)) if part)


def row_url(program: Program, rule: Rule, row: int) -> str:
    """A row's address under the site's root."""
    assert rule.table is not None
    return url_of(rule_page(program.system, rule)) + f"#{row_anchor(rule.table, row)}"


def roll_specs(program: Program) -> list[list[object]]:
    """Each roll table as the runtime's rollTables() reads it, as the engine's ROLL_TABLES has it."""
    markup = Markup.of(program)
    return [roll_spec(rule.table, markup.plain) for rule in roll_rules(program) if rule.table is not None]


def roll_places(program: Program) -> dict[str, JsonObject]:
    """Where each roll table is: its page under the site's root, its title (its rule's name), each row's anchor."""
    return {rule.table.name: {"page": url_of(rule_page(program.system, rule)), "title": rule.name,
                              "rows": [row_anchor(rule.table, i) for i in range(len(rule.table.rows))]}
            for rule in roll_rules(program) if rule.table is not None}
