"""Whether a system's index tables fit on one page or go on a page per kind of rule: worked out from the data alone.

A phone's load time grows with a page's elements (split.py says why), and an index table's are its cells: a system
whose tables hold more than BUDGET cells gets a landing page listing its kinds and one page per kind.
"""

from __future__ import annotations

from rulesc.model import Rule, System

BUDGET = 800
"""The most cells of index tables on one page (see `table_cells`). On the phone bench (390x844, CPU 4x slower) a
tables page was ready in about 750 ms + 0.14 ms per cell (least squares over the fastest of five loads of pages
from 0 to 1,806 cells), so 800 cells is about 860 ms, under the 900 ms that leaves the bench's noise room below its
1 s goal; the bundled systems' one pages of 76 and 101 cells stay whole, those of 1,474 and 1,806 cells split."""


def kinds_of(system: System) -> list[tuple[str, list[Rule]]]:
    """The kinds of rule a system has (sections are only headings), in the order it declares them, with their
    rules."""
    rules = system.rules()
    found = [(kind.id, [r for r in rules if r.kind == kind.id]) for kind in system.kinds if kind.index]
    return [(kind, of_kind) for kind, of_kind in found if of_kind]


def split_tables(system: System, budget: int = BUDGET) -> bool:
    """True when the system's index tables are estimated over `budget` cells: a page per kind, then."""
    return table_cells(system) > budget


def table_cells(system: System) -> int:
    """The cells the index tables show: each kind's rows times its columns (tables.py keeps a column when a row of
    the kind fills it; an amount's columns at each level count when an amount of its fact kind is a number)."""
    return sum(len(rules) * _columns(system, rules) for _, rules in kinds_of(system))


def _columns(system: System, rules: list[Rule]) -> int:
    """Name and Chapter, Under, Trigger, Roll and Values when a rule fills them, and each indexed fact kind the rules
    state."""
    count = 2 + any(rule.parent for rule in rules) + any(rule.values for rule in rules)
    count += any(rule.trigger for rule in rules) + any(rule.roll and rule.roll.stats for rule in rules)
    for kind in (kind for kind in system.fact_kinds if kind.index):
        facts = [fact for rule in rules for fact in rule.facts if fact.kind.id == kind.id]
        amounts = any(fact.amount and fact.amount.amount is not None for fact in facts)
        count += bool(facts) + (len(kind.at.levels) if kind.at is not None and amounts else 0)
    return count
