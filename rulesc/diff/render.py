"""Diff, output side: a RulebookDiff as Markdown (for a pull request comment or job summary) or as JSON."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from rulesc.diff.compare import WORKING_TREE, RulebookDiff, RuleChange, SystemDiff, TermChange
from rulesc.diff.examples import ExampleEdit
from rulesc.diff.history import Changelog
from rulesc.diff.impact import CalculatorChange, FormulaChange
from rulesc.diff.text import markdown as word_diff_markdown
from rulesc.emit.writer import Writer


def diff_markdown(diff: RulebookDiff) -> str:
    w = Writer()
    w.writeline(f"# Rules diff: {_rev(diff.base)} -> {_rev(diff.head)}")
    w.writeline()
    if not diff.systems:
        w.writeline("No changes to the rules, their numbers or their pages.")
        return w.getvalue()
    breaking = diff.breaking
    if breaking:
        w.writeline(f"**Breaking changes ({len(breaking)}):**")
        w.writeline()
        for item in breaking:
            w.writeline(f"- {item}")
        w.writeline()
    for system in diff.systems:
        _system(w, system)
    return w.getvalue()


def _rev(revision: str) -> str:
    return revision if revision == WORKING_TREE else f"`{revision}`"


def _system(w: Writer, system: SystemDiff) -> None:
    note = {"added": " (new system)", "removed": " (removed)"}.get(system.status, "")
    w.writeline(f"## {system.title} (`{system.id}`){note}")
    w.writeline()
    _section(w, "Rules added", [f"`{r.id}` {r.name} ({r.page})" for r in system.added])
    _section(w, "Rules removed", [f"`{r.id}` {r.name} ({r.page})" + (" **breaking: no alias keeps its permalink**"
                                                                     if r.breaking else "") for r in system.removed])
    _section(w, "Rules renamed", [f"`{r.old_id}` -> `{r.new_id}` ({r.name}): the old id is kept as an alias"
                                  for r in system.renamed])
    _section(w, "Rules moved", [f"`{m.id}` {m.name}: {m.old_chapter} ({m.old_page}) -> {m.new_chapter} "
                                f"({m.new_page}) **breaking: its permalink {m.old_permalink} stops working**"
                                for m in system.moved])
    _section(w, "Rules changed", [line for change in system.changed for line in _rule_lines(change)])
    _section(w, "Glossary", [line for term in system.terms for line in _term_lines(term)])
    _section(w, "Formulas", [line for f in system.impact.formulas for line in _formula_lines(f)])
    _section(w, "Calculators", [line for c in system.impact.calculators for line in _calculator_lines(c)])
    engine = system.impact.engine
    affected = [f"engine functions: {', '.join(f'`{e}`' for e in engine)}"] if engine else []
    _section(w, "Affected", affected + [f"pages: {', '.join(system.pages)}"])


def _section(w: Writer, title: str, lines: list[str]) -> None:
    if not lines:
        return
    w.writeline(f"### {title}")
    w.writeline()
    for line in lines:
        w.writeline(line if line.startswith("  ") else f"- {line}")
    w.writeline()


def _rule_lines(change: RuleChange) -> list[str]:
    lines = [f"{change.name}: {f.field} {f.old} -> {f.new}" for f in change.fields]
    return lines + [f"{change.name}: {t.field}: {word_diff_markdown(t.diff)}" for t in change.texts]


def _term_lines(term: TermChange) -> list[str]:
    if term.status != "changed":
        return [f"term `{term.id}` ({term.name}) {term.status}"]
    lines = [f"{term.name}: {f.field} {f.old} -> {f.new}" for f in term.fields]
    return lines + [f"{term.name}: {t.field}: {word_diff_markdown(t.diff)}" for t in term.texts]


def _formula_lines(change: FormulaChange) -> list[str]:
    what = {"added": "added", "removed": "removed", "changed": "changed",
            "affected": "unchanged itself, but it uses a value, table or formula that changed",
            "examples": "worked examples edited"}[change.status]
    lines = [f"`{change.id}` ({change.rule}): {what}"]
    if change.expr:
        lines.append(f"  - formula: `{change.expr[0]}` -> `{change.expr[1]}`")
    if change.signature:
        lines.append(f"  - signature: `{change.signature[0]}` -> `{change.signature[1]}`")
    lines += [f"  - {r.subject}: {r.old} -> {r.new}" for r in change.results]
    return lines + [f"  - {example_line(e)}" for e in change.examples]


def example_line(edit: ExampleEdit) -> str:
    """One edited worked example, as a line of the report."""
    if edit.field == "added":
        return f"example added: {edit.call}, expecting {edit.new}"
    if edit.field == "removed":
        return f"example removed: {edit.call}, which expected {edit.old}"
    if edit.field == "arguments":
        return f"example arguments: {edit.old} -> {edit.new}"
    return f"example {edit.call}: {edit.field} {edit.old} -> {edit.new}"


def _calculator_lines(change: CalculatorChange) -> list[str]:
    what = {"added": "added", "removed": "removed", "changed": "changed",
            "affected": "results at its defaults changed"}[change.status]
    return [f"`{change.id}` ({change.title}): {what}"] + \
        [f"  - {r.subject}: {r.old} -> {r.new}" for r in change.results]


def changelog_markdown(log: Changelog) -> str:
    """Every tagged version, newest first, with what changed since the one before (each diff a level deeper)."""
    w = Writer()
    w.writeline("# What changed")
    w.writeline()
    if log.note:
        w.writeline(log.note + ".")
        w.writeline()
    for change in log.changes:
        w.writeline(f"## {change.base} -> {change.head}")
        w.writeline()
        for line in diff_markdown(change).splitlines()[2:]:  # without its own title
            w.writeline(f"#{line}" if line.startswith("#") else line)
    if log.versions:
        w.writeline(f"First version: {log.versions[0].tag}.")
    return w.getvalue()


def changelog_json(log: Changelog) -> str:
    return json.dumps({"versions": [v.tag for v in log.versions], "note": log.note,
                       "changes": [_jsonable(change) for change in log.changes]}, indent=2, ensure_ascii=False) + "\n"


def diff_json(diff: RulebookDiff) -> str:
    return json.dumps(_jsonable(diff), indent=2, ensure_ascii=False) + "\n"


def _jsonable(diff: RulebookDiff) -> dict[str, Any]:
    systems = []
    for system in diff.systems:
        data = dataclasses.asdict(system)
        data["impact"].pop("breaking")
        systems.append({**data, "pages": list(system.pages), "breaking": system.breaking})
    return {"base": {"revision": diff.base, "commit": diff.base_commit},
            "head": {"revision": diff.head, "commit": diff.head_commit},
            "breaking": diff.breaking, "systems": systems}
