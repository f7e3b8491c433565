"""Diff, field side: the fields of one rule or term, before and after, as readable old -> new pairs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulesc.analyze.mismatch import brief
from rulesc.analyze.program import Program
from rulesc.diff.text import WordDiff, word_diff
from rulesc.emit.site.fragments import plain_style, show_fact
from rulesc.model import Chain, Rule, Table, Term, Text

NONE = "(none)"
Field = tuple[str, str, str]  # what, old, new
TextDiff = tuple[str, WordDiff]  # which text, and its word diff


def rule_fields(old: Program, new: Program, before: Rule, after: Rule) -> tuple[list[Field], list[TextDiff]]:
    """Field changes (name, kind, values, limits, table rows...) and text changes of one rule (a move to another
    chapter is not a field: compare.py reports it as a Move)."""
    fields = [f for f in _plain(before, after) if f[1] != f[2]]
    fields += _keyed("value", dict(before.values), dict(after.values))
    fields += _keyed("fact", _facts(old, before), _facts(new, after))
    fields += _table(before.table, after.table)
    return fields, _texts(before, after)


def _plain(before: Rule, after: Rule) -> Iterator[Field]:
    yield "name", before.name, after.name
    yield "kind", before.kind, after.kind
    yield "parent", before.parent or NONE, after.parent or NONE
    yield "aliases", _listing(before.aliases), _listing(after.aliases)
    yield "source", _source(before), _source(after)
    yield "unstated", _listing([g.what for g in before.provenance.unstated]), \
        _listing([g.what for g in after.provenance.unstated])
    yield "roll", _roll(before), _roll(after)
    yield "outcomes", _listing([o.name for o in before.outcomes]), _listing([o.name for o in after.outcomes])


def _roll(rule: Rule) -> str:
    """What the rule's roll adds, and the formula named to roll it: +Edge or +Heart, plus adds (action)."""
    if rule.roll is None:
        return NONE
    shown = rule.roll.stat_choice() + (", plus adds" if rule.roll.adds else "")
    return shown + (f" ({rule.roll.formula})" if rule.roll.formula else "") if shown or rule.roll.formula else NONE


def _facts(program: Program, rule: Rule) -> dict[str, str]:
    """A rule's facts as the stat block writes them in plain text, by label."""
    style = plain_style(program.system, {r.id: r.name for r in program.rules.values()})
    return {fact.kind.label: show_fact(fact, program.system, style) for fact in rule.facts}


def _listing(items: Any) -> str:
    return ", ".join(items) if items else NONE


def _source(rule: Rule) -> str:
    return f"{rule.provenance.source}, “{rule.provenance.section}”"


def shown(value: Any) -> str:
    return NONE if value is None else value if isinstance(value, str) else brief(value)


def _keyed(label: str, before: dict[str, Any], after: dict[str, Any]) -> list[Field]:
    names = list(before) + [k for k in after if k not in before]
    return [(f"{label} {name}", shown(before.get(name)), shown(after.get(name)))
            for name in names
            if before.get(name) != after.get(name) or type(before.get(name)) is not type(after.get(name))]


def _table(before: Table | None, after: Table | None) -> list[Field]:
    if before is None or after is None:
        return [] if before is after else [("table", _table_name(before), _table_name(after))]
    label = f"table {after.name}"
    fields = [(f"{label} name", before.name, after.name), (f"{label} caption", before.caption or NONE,
              after.caption or NONE), (f"{label} columns", _columns(before), _columns(after)),
              (f"{label} roll", before.roll.written if before.roll else NONE,
               after.roll.written if after.roll else NONE)]
    changed = [f for f in fields if f[1] != f[2]]
    return changed + _rows(label, before, after)


def _table_name(table: Table | None) -> str:
    return NONE if table is None else f"{table.name} ({len(table.rows)} rows)"


def _columns(table: Table) -> str:
    return ", ".join(c.label for c in table.columns)


def _rows(label: str, before: Table, after: Table) -> list[Field]:
    """Cell changes by row key (the first column) and column label; rows added or removed whole."""
    old, new = _rows_by_key(before), _rows_by_key(after)
    found: list[Field] = []
    for key in list(old) + [k for k in new if k not in old]:
        a, b = old.get(key), new.get(key)
        if a is None or b is None:
            found.append((f"{label} row {key}", _row_text(a), _row_text(b)))
            continue
        found += [(f"{label} row {key}: {column}", a.get(column, NONE), b.get(column, NONE))
                  for column in list(a) + [c for c in b if c not in a] if a.get(column, NONE) != b.get(column, NONE)]
    return found


def _rows_by_key(table: Table) -> dict[str, dict[str, str]]:
    # The model builds each row from the table's columns, one cell per column; a roll table's row that rolls
    # again adds what it rolls ("then").
    chains = table.chains or (None,) * len(table.rows)
    return {shown(row[0]): {**{c.label: shown(v) for c, v in zip(table.columns[1:], row[1:], strict=True)},
                            **({"then": _chain_text(chain, table.name)} if chain else {})}
            for row, chain in zip(table.rows, chains, strict=True)}


def _chain_text(chain: Chain, own: str) -> str:
    """A row's roll again as a reviewer reads it: "2 rolls on wilds, repeats rerolled, this row kept"."""
    rolls = f"{chain.times} roll{'s' if chain.times > 1 else ''} on {chain.table or own}"
    return rolls + (", repeats rerolled" if chain.reroll else "") + (", this row kept" if chain.keep else "")


def _row_text(row: dict[str, str] | None) -> str:
    return NONE if row is None else "; ".join(f"{k} {v}" for k, v in row.items())


def _texts(before: Rule, after: Rule) -> list[TextDiff]:
    pairs: list[tuple[str, Text | None, Text | None]] = [("text", before.text, after.text)]
    count = max(len(before.items), len(after.items))
    pairs += [(f"item {i + 1}", _at(before.items, i), _at(after.items, i)) for i in range(count)]
    pairs.append(("trigger", before.trigger, after.trigger))
    old, new = {o.name: o.text for o in before.outcomes}, {o.name: o.text for o in after.outcomes}
    pairs += [(f"outcome {name}", old.get(name), new.get(name)) for name in [*old, *(n for n in new if n not in old)]]
    found = [(name, word_diff(a.source if a else "", b.source if b else "")) for name, a, b in pairs]
    return [(name, d) for name, d in found if d is not None]


def _at(items: tuple[Text, ...], index: int) -> Text | None:
    return items[index] if index < len(items) else None


def term_fields(before: Term, after: Term) -> tuple[list[Field], list[TextDiff]]:
    fields = [("name", before.name, after.name), ("abbreviations", _listing(before.abbreviations),
              _listing(after.abbreviations)), ("aliases", _listing(before.aliases), _listing(after.aliases)),
              ("rule", before.rule or NONE, after.rule or NONE)]
    text = word_diff(before.definition.source, after.definition.source)
    return [f for f in fields if f[1] != f[2]], [("definition", text)] if text else []
