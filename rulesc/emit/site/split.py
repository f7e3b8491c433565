"""Which chapters (and GM screens) the site splits into part pages, and what each part holds: from the data alone.

A phone's load time grows with the page (parsing, Material's start-up, style and layout all scale with it), so a
chapter whose estimated size is over BUDGET becomes a landing page and part pages. A part is a run of sibling
sections, each with everything below it; a section over the budget alone gives its own text a part of its own and
is split at its children, recursively. The runs are cut as few as the budget allows and as even as they can be. A
GM screen over GM_BUDGET splits the same way into runs of its calculators, a part never spanning chapters.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from rulesc.model import Calculator, Chapter, Rule, System

BUDGET = 32_000
"""The most estimated bytes of rules' Markdown on one page: with the site's header, navigation and table of
contents a page stays near 65 KB. At 40,000 the fullest parts were ready in 0.9-1.06 s on the phone bench, where
its goal is 1 s and a near-empty page takes about 0.65 s (see split_estimate for the estimate and its fit)."""

GM_BUDGET = 20_000
"""The most estimated bytes of calculators on one GM screen page: a calculator costs a phone more than text of its
size (a form, results, its script's start-up), so a GM page holds about five where a chapter part holds rules of
twice the bytes."""

UPGRADE_PICKER = 150
"""Estimated bytes per upgrade of the system in a calculator input choosing a set of upgrades (it lists them all)."""


@dataclass(frozen=True)
class Unit:
    """A rule placed on a part page: alone (its children are elsewhere) or with every rule below it."""

    rule: Rule
    depth: int  # 0 for a top-level rule of the chapter
    whole: bool  # with its subtree


@dataclass(frozen=True)
class Part:
    """One part page of a split chapter: its folder name (its first rule's id), its title and its rules."""

    id: str
    title: str
    units: tuple[Unit, ...]


@dataclass(frozen=True)
class ChapterPlan:
    """How a chapter is paged: no parts means one page; else a landing page and its parts, and each rule's part."""

    chapter: Chapter
    parts: tuple[Part, ...]
    part_of: dict[str, str]  # rule id -> part id
    children: dict[str | None, list[Rule]]  # the chapter's rule tree: None holds its top-level rules


@dataclass(frozen=True)
class GmCalculator:
    """A calculator on the GM screen, with the chapter and section (the outermost rule above it there) it sits under."""

    chapter: Chapter
    section: Rule
    rule: Rule
    calculator: Calculator


@dataclass(frozen=True)
class GmPart:
    """One part page of a split GM screen: its folder name (its topic: the sections it holds), its title, its
    calculators, and the folder it had when parts were named after their first calculator (its old links')."""

    id: str
    title: str
    calculators: tuple[GmCalculator, ...]
    former: str


@dataclass(frozen=True)
class Plans:
    """How a system's pages are split: each chapter's plan by chapter id, and the GM screen's parts (none: one page)."""

    system: System
    chapters: dict[str, ChapterPlan]
    gm_parts: tuple[GmPart, ...]
    gm_part_of: dict[str, str]  # calculator id -> GM part id


T = TypeVar("T")
KEPT_PLANS = 64
"""The most systems whose plans are kept (a build asks for each system's many times, link by link; `rulesc serve`
compiles the systems afresh on every edit)."""


def plans(system: System) -> dict[str, ChapterPlan]:
    """Each chapter's plan, by chapter id; worked out once per system (asked for every link written)."""
    return _system_plans(system).chapters


def gm_parts(system: System) -> tuple[GmPart, ...]:
    """The GM screen's part pages, in order; none when every calculator fits on one page."""
    return _system_plans(system).gm_parts


def gm_part_of(system: System) -> dict[str, str]:
    """The GM part page each calculator is on, by calculator id; empty when the GM screen is one page."""
    return _system_plans(system).gm_part_of


@lru_cache(maxsize=KEPT_PLANS)
def _system_plans(system: System) -> Plans:
    """Worked out once per system: a System compares as itself (model.System), so the cache keys on the object."""
    upgrades = sum(1 for rule in system.rules() if rule.upgrade is not None)
    gm = plan_gm_screen(system, upgrades)
    return Plans(system, {c.id: plan_chapter(c, upgrades) for c in system.chapters}, gm,
                 {g.calculator.id: part.id for part in gm for g in part.calculators})


def plan_chapter(chapter: Chapter, upgrades: int = 0, budget: int = BUDGET) -> ChapterPlan:
    children = rule_tree(chapter)
    sizes = {rule.id: split_estimate(rule, upgrades) for rule in chapter.rules}
    total = _subtree_sizes(children, sizes)
    if sum(total[rule.id] for rule in children[None]) <= budget:
        return ChapterPlan(chapter, (), {}, children)
    units = _units(children, children[None], 0, total, budget)
    parts = tuple(_part(group) for group in _pack(units, total, sizes, budget))
    part_of = {rule.id: part.id for part in parts for unit in part.units for rule in _rules(unit, children)}
    return ChapterPlan(chapter, parts, part_of, children)


def rule_tree(chapter: Chapter) -> dict[str | None, list[Rule]]:
    """The chapter's rules by parent (None for top-level rules, and for rules whose parent is elsewhere)."""
    children: dict[str | None, list[Rule]] = defaultdict(list)
    ids = {rule.id for rule in chapter.rules}
    for rule in chapter.rules:
        children[rule.parent if rule.parent in ids else None].append(rule)
    return children


def split_estimate(rule: Rule, upgrades: int = 0) -> int:
    """The bytes the rule's own Markdown takes, estimated from its data (fitted by least squares on the bundled
    chapters' rules: within about 500 bytes of a mean 2,500 per rule)."""
    size = 800 + 3 * len(rule.text.source) + sum(len(item.source) for item in rule.items)
    size += sum(2 * len(text.source) + 120 for text in rule.texts()[1 + len(rule.items):])  # trigger and outcomes
    size += 45 * sum(len(row) for row in rule.table.rows) if rule.table else 0
    size += sum(100 + 120 * len(formula.examples) for formula in rule.formulas)
    return size + sum(calculator_estimate(calc, upgrades) for calc in rule.calculators)


def calculator_estimate(calc: Calculator, upgrades: int = 0) -> int:
    """The bytes a calculator's form takes, estimated like a rule's (split_estimate)."""
    size = 850 + 500 * (len(calc.inputs) + len(calc.outputs))
    return size + sum(UPGRADE_PICKER * upgrades for param in calc.inputs if param.type == "upgrades")


def _subtree_sizes(children: dict[str | None, list[Rule]], sizes: dict[str, int]) -> dict[str, int]:
    total: dict[str, int] = {}

    def visit(rule: Rule, path: frozenset[str]) -> int:
        below = [child for child in children.get(rule.id, []) if child.id not in path]
        total[rule.id] = sizes[rule.id] + sum(visit(child, path | {child.id}) for child in below)
        return total[rule.id]

    for rule in children[None]:
        visit(rule, frozenset({rule.id}))
    return total


def _units(children: dict[str | None, list[Rule]], rules: list[Rule], depth: int, total: dict[str, int],
           budget: int) -> list[Unit]:
    """The rules as units in page order: each whole if it fits, else alone followed by its children's units."""
    units: list[Unit] = []
    for rule in rules:
        below = children.get(rule.id, [])
        if total[rule.id] <= budget or not below:
            units.append(Unit(rule, depth, True))
        else:
            units.append(Unit(rule, depth, False))
            units += _units(children, below, depth + 1, total, budget)
    return units


def _pack(units: list[Unit], total: dict[str, int], sizes: dict[str, int], budget: int) -> list[list[Unit]]:
    """The units in pages of at most `budget` (a unit over it alone), as few and as even as it allows. A page's
    headings start at its first rule's level, so a page never holds a unit shallower than its first: the units go
    in stretches that never rise (a rule split at its children, or a unit shallower than the one before it, starts
    one), each cut evenly."""
    stretches: list[list[Unit]] = []
    for unit in units:
        if not stretches or not unit.whole or unit.depth < stretches[-1][-1].depth:
            stretches.append([])
        stretches[-1].append(unit)
    return [page for stretch in stretches
            for page in _even_runs(stretch, [total[u.rule.id] if u.whole else sizes[u.rule.id] for u in stretch],
                                   budget)]


def _part(units: list[Unit]) -> Part:
    """A part named by its first rule; titled by it, or by its first and last rules at that depth."""
    tops = [unit.rule for unit in units if unit.depth == units[0].depth]
    return Part(folder(tops[0].id), _span([rule.name for rule in tops]), tuple(units))


def _span(names: list[str]) -> str:
    """A part's title from the names it holds in order: the one, or the first and the last."""
    return names[0] if len(names) == 1 else f"{names[0]} \u2013 {names[-1]}"


def _rules(unit: Unit, children: dict[str | None, list[Rule]]) -> list[Rule]:
    """The rules a unit shows: the rule, and when whole every rule below it."""
    found, pending, seen = [], [unit.rule], set()
    while pending:
        rule = pending.pop()
        if rule.id in seen:
            continue
        seen.add(rule.id)
        found.append(rule)
        if unit.whole:
            pending.extend(children.get(rule.id, []))
    return found


def folder(part_id: str) -> str:
    """A part page's folder: its first rule's or calculator's id, except that `index` (the landing page's own file
    name) takes an underscore, which no id may hold."""
    return "index_" if part_id == "index" else part_id


def gm_calculators(system: System) -> list[GmCalculator]:
    """Every calculator of the system in the GM screen's order: by chapter, then by the section its rule is in (in
    the order the sections' first calculators come), then in the rules' order."""
    found: list[GmCalculator] = []
    for chapter in system.chapters:
        for section, rules in chapter_sections(chapter):
            found += [GmCalculator(chapter, section, rule, calc) for rule in rules for calc in rule.calculators]
    return found


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


def plan_gm_screen(system: System, upgrades: int = 0, budget: int = GM_BUDGET) -> tuple[GmPart, ...]:
    """The GM screen's parts: none if its calculators fit the budget; else each chapter's calculators in runs of
    about equal size within the budget (a calculator over it alone), so no part spans two chapters."""
    chapters: dict[str, list[GmCalculator]] = {}
    for gm in gm_calculators(system):
        chapters.setdefault(gm.chapter.id, []).append(gm)
    costs = {chapter: [calculator_estimate(gm.calculator, upgrades) for gm in group]
             for chapter, group in chapters.items()}
    if sum(map(sum, costs.values())) <= budget:
        return ()
    return _named([run for chapter, group in chapters.items() for run in _even_runs(group, costs[chapter], budget)])


def _even_runs(items: list[T], costs: list[int], budget: int) -> list[list[T]]:
    """The items in consecutive runs within the budget, as few as it allows, the largest as small as it can be; an
    item over the budget is a run alone."""
    runs: list[list[T]] = []
    stretch: list[int] = []
    for i in [*range(len(items)), None]:
        if i is None or costs[i] > budget:
            runs += _least_largest([items[k] for k in stretch], [costs[k] for k in stretch], budget)
            runs += [[items[i]]] if i is not None else []
            stretch = []
        else:
            stretch.append(i)
    return runs


def _least_largest(items: list[T], costs: list[int], budget: int) -> list[list[T]]:
    """The items (each within the budget) in the fewest runs within it, the largest run least: the least capacity
    whose greedy fill needs no more runs than the budget's own fill, found by bisection."""
    if not items:
        return []
    count = len(_greedy(costs, budget))
    low, high = max(costs), budget
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if len(_greedy(costs, middle)) <= count else (middle + 1, high)
    return [[items[i] for i in run] for run in _greedy(costs, low)]


def _greedy(costs: list[int], capacity: int) -> list[list[int]]:
    """Indexes of the costs in order, a run closed when the next would take it over the capacity."""
    runs: list[list[int]] = []
    used = 0
    for i, cost in enumerate(costs):
        if not runs or used + cost > capacity:
            runs.append([])
            used = 0
        runs[-1].append(i)
        used += cost
    return runs


def _named(runs: list[list[GmCalculator]]) -> tuple[GmPart, ...]:
    """The runs as parts, each named by its topic; a topic taken by an earlier part takes the first free "-2", "-3"."""
    parts: list[GmPart] = []
    taken: set[str] = set()
    for run in runs:
        names = list(dict.fromkeys(gm.section.name for gm in run))
        name = _free(slug(_span(names)) or run[0].section.id, taken)
        taken.add(name)
        parts.append(GmPart(folder(name), _span(names), tuple(run), folder(run[0].calculator.id)))
    return tuple(parts)


def _free(topic: str, taken: set[str]) -> str:
    """The topic, or the first of "topic-2", "topic-3"... that no earlier part has taken."""
    number, name = 1, topic
    while name in taken:
        number += 1
        name = f"{topic}-{number}"
    return name


SLUG_LENGTH = 60
"""The most characters of a topic's folder name; a longer one is cut at a hyphen."""


def slug(title: str) -> str:
    """A title as a folder name of lowercase ASCII letters, digits and hyphens ("Odds – Ends" reads "odds-ends");
    empty when the title has no such letter or digit."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii").lower()
    words = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
    return words if len(words) <= SLUG_LENGTH else words[:SLUG_LENGTH].rsplit("-", 1)[0]
