"""Semantic stage for roll tables: chains name roll tables of the system (E0612), can end (E0613) and never run
out of rows to reroll (E0614); and the exact results of a roll, chains followed, wherever they are finite.

A result is the multiset of rows a roll keeps (a row that only says to roll again is not kept; `keep: true` keeps
it). The results are finite when no chain can come back to a row already on it: rerolls bar the rows that led
to them, so "roll twice more, no repeats" always ends; "roll twice" with repeats allowed can repeat without a
bound (and, where more than one roll in two asks for two more, may never end), so its results are not listed:
results_of() gives None, and a roll of it stops with an error past R.MAX_CHAIN_ROLLS."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import TypedDict, TypeVar

from rulesc.diagnostics.core import Diagnostic, Diagnostics, Span, did_you_mean
from rulesc.formula.table_rolls import covered
from rulesc.model import Chain, System, Table, Text
from rulesc.runtime import rulesc_runtime as R

Result = tuple[tuple[str, int], ...]
"""The rows a roll keeps, as (table, row), sorted: a multiset."""
Path = tuple[tuple[str, int], ...]
K = TypeVar("K")
Plain = Callable[[Text], str]
Tables = Mapping[str, Table]
"""A system's tables by name (Program.tables), roll tables and others."""
RUN_ON_STEPS = 2000
"""W0707: the steps of the average-rolls iteration after which a roll that still grows is said to run on."""
MAX_RESULTS = 20_000
MAX_WORK = 200_000
"""The most partial results combined while listing one table's results; past it, none are listed."""
MAX_DEPTH = 100
"""The longest chain of rolls listed; a longer one is not (it could not fit Python's stack)."""
"""The most distinct results (and partial results of one group of rolls) listed; past it, none are."""


class Unlisted(Exception):
    """The results are not finite, or too many to list."""


class RunsOut(Exception):
    """A group of rerolls has no row left, after the rows of `path`."""

    def __init__(self, path: Path):
        super().__init__(path)
        self.path = path


def roll_tables(tables: Tables) -> list[Table]:
    """A system's roll tables (of all its tables, by name), in order of name."""
    return [table for _, table in sorted(tables.items()) if table.roll is not None]


def check_roll_tables(every: Tables, diags: Diagnostics) -> dict[str, dict[Result, Fraction] | None]:
    """E0612 for a chain to a table that is not a roll table of the system, E0613 for one that can never end,
    E0614 for rerolls that run out of rows."""
    tables = {table.name: table for table in roll_tables(every)}
    errors = len(diags.errors)
    for table, _, chain in _chains(tables):
        target = chain.table or table.name
        if target not in tables:
            _unknown_target(every, tables, target, chain.span, diags)
    _never_ending(tables, diags)
    for table, row, chain in _chains(tables):
        _enough_rows(tables, table, row, chain, diags)
    return _deep_rerolls(tables, diags) if len(diags.errors) == errors else {}


def _chains(tables: dict[str, Table]) -> Iterator[tuple[Table, int, Chain]]:
    for table in tables.values():
        for row, chain in enumerate(table.chains):
            if chain is not None:
                yield table, row, chain


def _unknown_target(every: Tables, tables: dict[str, Table], target: str, span: Span,
                    diags: Diagnostics) -> None:
    if target in every:
        diags.error("E0612", f"table '{target}' has no roll, so a row cannot roll on it", span,
                    f"give '{target}' the dice it is rolled with (roll: 1d100), or roll on one of: "
                    f"{', '.join(sorted(tables))}")
        return
    diags.error("E0612", f"unknown roll table '{target}'", span,
                did_you_mean(target, tables) or f"a row rolls on a roll table of its own system: "
                f"{', '.join(sorted(tables))}")


def _never_ending(tables: dict[str, Table], diags: Diagnostics) -> None:
    """A row whose chain reaches only rows that roll again, on and on, never gives a result."""
    ends = {(t.name, row) for t in tables.values() for row, c in enumerate(t.chains)
            if (c is None or (c.table or t.name) not in tables) and t.weights[row]}  # an unknown table: E0612
    grew = True
    while grew:
        before = len(ends)
        ends |= {(t.name, row) for t, row, c in _chains(tables) if any(
            (target, other) in ends for target in [c.table or t.name] if target in tables
            for other in range(len(tables[target].rows)))}
        grew = len(ends) > before
    for table, row, chain in _chains(tables):
        if (table.name, row) not in ends and table.weights[row]:
            target = chain.table or table.name
            diags.error("E0613", f"row {table.rows[row][0]} of '{table.name}' never ends: every row of "
                        f"'{target}' it can roll leads to more rolls, on and on", chain.span,
                        "give a table on the chain a row that does not roll again")


def _enough_rows(tables: dict[str, Table], table: Table, row: int, chain: Chain, diags: Diagnostics) -> None:
    target = tables.get(chain.table or table.name)
    if target is None:
        return
    rows = sum(1 for weight in target.weights if weight) - (target is table)
    if chain.reroll and chain.times > rows:
        diags.error("E0614", f"row {table.rows[row][0]} of '{table.name}' rolls {chain.times} times on "
                    f"'{target.name}' without repeats, but only {rows} of its rows can come up", chain.span,
                    "roll fewer times, or let repeats stand (repeats: allowed)")


def _deep_rerolls(tables: dict[str, Table], diags: Diagnostics) -> dict[str, dict[Result, Fraction] | None]:
    """Rerolls that run out of rows only deeper in a chain, found while listing the results (which it gives)."""
    book = R.roll_tables([roll_spec(table, lambda text: text.source) for table in tables.values()])
    listed: dict[str, dict[Result, Fraction] | None] = {}
    for name in tables:
        try:
            listed[name] = results_of(book[name])
        except RunsOut as exc:
            table, row = exc.path[-1]
            chain = tables[table].chains[row]
            assert chain is not None
            diags.error("E0614", f"row {tables[table].rows[row][0]} of '{table}' rolls on "
                        f"'{chain.table or table}' without repeats after " + " -> ".join(
                            f"{t} {tables[t].rows[r][0]}" for t, r in exc.path[:-1]) +
                        ", and no row is left", chain.span, "roll fewer times, or let repeats stand")
            return {}
    return listed


def runs_on(every: Tables) -> Iterator[Diagnostic]:
    """W0707 for each roll table whose rolls may never end (see endless())."""
    found = endless(every)
    for table in roll_tables(every):
        grows = [c for c in table.chains if c is not None and not c.reroll]
        if table.name in found:
            yield Diagnostic("warning", "W0707", f"a roll on '{table.name}' may never end: with repeats allowed, its "
                             "rows ask on average for as many rolls as they make or more", grows[0].span,
                             "reroll repeats (repeats: reroll), or let fewer rows roll again; rolls stop with an "
                             f"error past {R.MAX_CHAIN_ROLLS}")


def endless(every: Tables) -> set[str]:
    """The roll tables whose rolls, chains with repeats allowed followed, have no finite average number of rolls:
    the expected rolls of each table, E = 1 + (each row's chance x its rolls x E of their table), iterated from 1,
    still grow after RUN_ON_STEPS steps (a chain asking on average for one more roll or more never settles)."""
    tables = {table.name: table for table in roll_tables(every)}
    links = {name: [(float(t.chance(row)) * c.times, None if c.reroll else c.table or name)
                    for row, c in enumerate(t.chains) if c is not None] for name, t in tables.items()}
    expected = {name: 1.0 for name in tables}
    for _ in range(RUN_ON_STEPS):
        after = {name: 1 + sum(w * (1.0 if to is None else expected[to]) for w, to in links[name]) for name in links}
        grown, expected = max((after[n] - expected[n] for n in tables), default=0.0), after
        if grown < 1e-9:
            return set()
    return {name for name, t in tables.items() if expected[name] > RUN_ON_STEPS / 10 and any(
        c is not None and not c.reroll for c in t.chains)}


def runtime_book(every: Tables, plain: Plain = lambda text: text.source) -> dict[str, R.RollTable]:
    """The system's roll tables as the runtime rolls them (the engine's ROLL_TABLES); `plain` gives a text cell
    as plain text (the emitters pass the site's Markup.plain, which shows a link as its name)."""
    return R.roll_tables([roll_spec(table, plain) for table in roll_tables(every)])


def roll_spec(table: Table, plain: Plain) -> list[object]:
    """[name, roll, keys, weights, texts, chains, outcomes] of a roll table, as roll_tables() takes it: each
    outcome of its roll is [value, weight, row]."""
    assert table.roll is not None
    chains = [None if c is None else [c.table or table.name, c.times, c.keep, c.reroll] for c in table.chains]
    rows = {outcome: row for row, key in enumerate(table.keys) for outcome, _ in covered(table.roll.outcomes, key)}
    return [table.name, table.roll.written, [str(row[0]) for row in table.rows], list(table.weights),
            [row_text(table, i, plain) for i in range(len(table.rows))], chains,
            [[outcome, weight, rows[outcome]] for outcome, weight in table.roll.outcomes]]


def row_text(table: Table, row: int, plain: Plain) -> str:
    """A row's cells after its key as plain text, joined by ' · '."""
    cells = zip(table.rows[row][1:], table.texts[row][1:], strict=True)
    return " · ".join(plain(text) if isinstance(text, Text) else str(value) for value, text in cells)


def result_text(result: Result, home: str, tables: Tables, titles: Mapping[str, str], plain: Plain) -> str:
    """A final result of a roll on `home` in words: each row it keeps by its text (or key), the home table's first
    and another table's after its title ("Gifts: Rope"), a row kept twice counted ("2 × Rope"), joined by " + "."""
    parts = []
    for name, row, count in result_parts(result, home):
        table = tables[name]
        words = row_text(table, row, plain) or str(table.rows[row][0])
        shown = words if name == home else f"{titles.get(name, name)}: {words}"
        parts.append(shown if count == 1 else f"{count} \u00d7 {shown}")
    return " + ".join(parts)


def result_parts(result: Result, home: str) -> list[tuple[str, int, int]]:
    """A final result's rows in the order its words name them, the home table's first: each table, row and how many
    times the result keeps it."""
    kept = Counter(sorted(result, key=lambda step: (step[0] != home, step)))
    return [(name, row, count) for (name, row), count in kept.items()]


def table_titles(system: System) -> dict[str, str]:
    """Each table's title where a result names it: its rule's name."""
    return {rule.table.name: rule.name for rule in system.rules() if rule.table is not None}


class RowRecord(TypedDict):
    """A row a final result kept: its table, its index there and its key as written."""

    table: str
    row: int
    key: str


class ResultRecord(TypedDict):
    """A final result as the export and `rulesc calc --json` give it."""

    rows: list[RowRecord]
    text: str
    exact: str


def result_records(results: Mapping[Result, Fraction], home: str, tables: Tables, titles: Mapping[str, str],
                   plain: Plain) -> list[ResultRecord]:
    """Final results as the export and `rulesc calc --json` give them: each kept row (its table, index and key),
    the result in words and its exact chance, in the order of their rows."""
    return [{"rows": [{"table": name, "row": row, "key": str(tables[name].rows[row][0])} for name, row in result],
             "text": result_text(result, home, tables, titles, plain), "exact": str(chance)}
            for result, chance in results.items()]


def by_chance(results: Mapping[Result, Fraction]) -> list[tuple[Result, Fraction]]:
    """Final results, the likeliest first; equal chances in the order of their rows."""
    return sorted(results.items(), key=lambda item: -item[1])


def results_of(table: R.RollTable) -> dict[Result, Fraction] | None:
    """The exact chance of each result of one roll on a table, or None where they are not finite or too many."""
    try:
        return dict(sorted(_group(table, 1, False, (), [MAX_WORK]).items()))
    except Unlisted:
        return None


def _group(table: R.RollTable, times: int, reroll: bool, path: Path, work: list[int]) -> dict[Result, Fraction]:
    """The results of `times` rolls on a table, each drawn as roll_on() draws it; `work` counts down the
    combinations left to try (Unlisted past them, as past MAX_DEPTH rolls in a chain)."""
    if len(path) > MAX_DEPTH:
        raise Unlisted
    states: dict[tuple[tuple[int, ...], Result], Fraction] = {((), ()): Fraction(1)}
    for _ in range(times):
        after: dict[tuple[tuple[int, ...], Result], Fraction] = {}
        for (drawn, result), chance in states.items():
            barred = {row for name, row in path if name == table.name} | set(drawn) if reroll else set()
            open_rows = [(row, w) for row, w in enumerate(table.weights) if w and row not in barred]
            if not open_rows:
                raise RunsOut(path)
            total = sum(w for _, w in open_rows)
            for row, weight in open_rows:
                subs = _row(table, row, path, work)
                work[0] -= len(subs)
                if work[0] < 0:
                    raise Unlisted
                for sub, p in subs.items():
                    key = (tuple(sorted((*drawn, row))) if reroll else (), tuple(sorted(result + sub)))
                    after[key] = after.get(key, Fraction(0)) + chance * Fraction(weight, total) * p
                if len(after) > MAX_RESULTS:
                    raise Unlisted
        states = _within(after)
    found: dict[Result, Fraction] = {}
    for (_, result), chance in states.items():
        found[result] = found.get(result, Fraction(0)) + chance
    return found


def _row(table: R.RollTable, row: int, path: Path, work: list[int]) -> dict[Result, Fraction]:
    """The results of a row once drawn: itself, or what its chain gives (and itself, if kept)."""
    here = (table.name, row)
    chain = table.chains[row]
    if chain is None:
        return {(here,): Fraction(1)}
    if here in path:
        raise Unlisted  # the chain can come back to this row again and again
    rolled = _group(table.book[chain.table], chain.times, chain.reroll, (*path, here), work)
    if not chain.keep:
        return rolled
    return {tuple(sorted((*r, here))): p for r, p in rolled.items()}


def _within(found: dict[K, Fraction]) -> dict[K, Fraction]:
    if len(found) > MAX_RESULTS:
        raise Unlisted
    return found
