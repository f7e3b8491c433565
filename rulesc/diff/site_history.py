"""Diff, for the site: each system's versions (its system.yaml's versions:, else the repository's tags) with what
changed from each to the next, as the plain data the What changed page and the rules' history lines show."""

from __future__ import annotations

import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesc.analyze.program import Program
from rulesc.compile import Project, compile_project
from rulesc.diagnostics.core import ContentError
from rulesc.diff.compare import SystemDiff, compare_system
from rulesc.diff.git import GitError, commit_of, export_revision, git, is_shallow
from rulesc.diff.history import Listed, declared_versions, resolve_listed, with_missing
from rulesc.diff.history import versions as tagged_versions
from rulesc.diff.impact import Impact
from rulesc.diff.text import markdown as word_diff
from rulesc.emit.site.changes_page import Section, SystemHistory, VersionChanges

NOT_IN_GIT = "This copy of the rules is not in a git repository, so there is no history to show"
SHALLOW = ("This is a shallow clone, so its history and tags are not here: fetch them (git fetch --unshallow --tags) "
           "to fill this page")
NO_VERSIONS = ("No versions yet: tag a release (git tag v1.0), or list versions in system.yaml, and the changes "
               "from each version to the next are listed here")


@dataclass(frozen=True)
class Version:
    name: str
    commit: str
    date: str


def site_history(project: Project) -> dict[str, SystemHistory]:
    """Each system's history by id; a note instead wherever the repository cannot tell (never an error)."""
    declared = declared_versions(project)
    try:
        commit_of(project.root, "HEAD")
    except GitError:
        return {sid: SystemHistory(note=NOT_IN_GIT) for sid in declared}
    tags: list[Listed] = [(v.tag, v.tag, None) for v in tagged_versions(project)]
    snapshots = _Snapshots(project)
    with snapshots:
        return {sid: _system_history(project, sid, listed if listed else tags, snapshots)
                for sid, listed in declared.items()}


def _system_history(project: Project, sid: str, listed: list[Listed],
                    snapshots: _Snapshots) -> SystemHistory:
    resolved, missing = _resolve(project, listed)
    if len(resolved) < 2:
        shallow = is_shallow(project.root)
        note = SHALLOW if shallow else NO_VERSIONS if not resolved else \
            f"Only {resolved[0].name} is a version so far: nothing to compare it with yet"
        return SystemHistory(first=resolved[0].name if resolved else None, note=with_missing(note, missing))
    versions: list[VersionChanges] = []
    rules: dict[str, list[str]] = defaultdict(list)
    problems: list[str] = []
    for before, after in reversed(list(zip(resolved, resolved[1:], strict=False))):
        old, new = snapshots.program(before.commit, sid, problems), snapshots.program(after.commit, sid, problems)
        diff = compare_system(old, new) if old is not None or new is not None else None
        versions.append(VersionChanges(after.name, before.name, after.date, _sections(diff)))
        for rule_id, line in _rule_lines(diff, old, new) if diff is not None else ():
            rules[rule_id].append(f"{line} in {after.name}")
    return SystemHistory(tuple(versions), resolved[0].name, with_missing("; ".join(problems) or None, missing),
                         {k: tuple(v) for k, v in sorted(rules.items())})


def _resolve(project: Project, listed: list[Listed]) -> tuple[list[Version], list[str]]:
    found, missing = resolve_listed(project, listed)
    return [Version(name, commit, date or git(project.root, "log", "-1", "--format=%cs", commit).decode().strip())
            for (name, _, date), commit in found], missing


class _Snapshots:
    """The compiled systems at each commit asked for, each commit unpacked and compiled once."""

    def __init__(self, project: Project):
        self.project = project
        self.scratch = tempfile.TemporaryDirectory(prefix="rulesc-history-")
        self.compiled: dict[str, dict[str, Program] | str] = {}

    def __enter__(self) -> _Snapshots:
        return self

    def __exit__(self, *exc: object) -> None:
        self.scratch.cleanup()

    def program(self, commit: str, sid: str, problems: list[str]) -> Program | None:
        if commit not in self.compiled:
            self.compiled[commit] = self._compile(commit)
        found = self.compiled[commit]
        if isinstance(found, str):
            if found not in problems:
                problems.append(found)
            return None
        return found.get(sid)

    def _compile(self, commit: str) -> dict[str, Program] | str:
        root = export_revision(self.project.root, commit, Path(self.scratch.name) / commit)
        try:
            programs = compile_project(Project(root)).programs if (root / "content").is_dir() else ()
        except ContentError as exc:
            return f"The rules at commit {commit[:12]} do not compile ({len(exc.diagnostics)} error(s)), so its " \
                   "changes are left out"
        return {p.system.id: p for p in programs}


def _sections(diff: SystemDiff | None) -> tuple[Section, ...]:
    if diff is None or diff.status == "unchanged":
        return ()
    impact = diff.impact
    found = [
        Section("Rules added", tuple(f"{r.name} ({r.id})" for r in diff.added)),
        Section("Rules removed", tuple(f"{r.name} ({r.id})" + (": its link no longer works" if r.breaking else "")
                                       for r in diff.removed)),
        Section("Rules renamed", tuple(f"{r.old_id} -> {r.new_id} ({r.name}): the old link still works"
                                       for r in diff.renamed)),
        Section("Rules moved", tuple(f"{m.name} ({m.id}): from {m.old_chapter} to {m.new_chapter}, so its old link "
                                     "no longer works" for m in diff.moved)),
        Section("Rules changed", tuple(f"{c.name}: {line}" for c in diff.changed for line in _change_lines(c))),
        Section("Glossary", tuple(f"{t.name}: {t.status}" if t.status != "changed" else
                                  f"{t.name}: " + "; ".join([f"{f.field} {f.old} -> {f.new}" for f in t.fields]
                                                            + [f"{x.field} reworded" for x in t.texts])
                                  for t in diff.terms)),
        Section("Formulas", _formula_lines(impact)),
        Section("Calculators", tuple(line for c in impact.calculators for line in
                                     [f"{c.title} ({c.id}): {_STATUS[c.status]}",
                                      *[f"{c.title}: {r.subject}: {r.old} -> {r.new}" for r in c.results]])),
    ]
    return tuple(s for s in found if s.lines)


_STATUS = {"added": "added", "removed": "removed", "changed": "changed",
           "affected": "unchanged itself, but what it uses changed", "examples": "worked examples edited"}


def _change_lines(change: Any) -> list[str]:
    return [f"{f.field} {f.old} -> {f.new}" for f in change.fields] + \
        [f"{t.field} reworded: {word_diff(t.diff, '[-{}-]', '{{+{}+}}')}" for t in change.texts]


def _formula_lines(impact: Impact) -> tuple[str, ...]:
    lines: list[str] = []
    for f in impact.formulas:
        lines.append(f"{f.id} ({f.rule}): {_STATUS[f.status]}")
        lines += [f"{f.id}: formula {f.expr[0]} -> {f.expr[1]}"] if f.expr else []
        lines += [f"{f.id}: takes {f.signature[1]} (was {f.signature[0]})"] if f.signature else []
        lines += [f"{r.subject}: {r.old} -> {r.new}" for r in f.results]
    return tuple(lines)


def _rule_lines(diff: SystemDiff, old: Program | None, new: Program | None) -> list[tuple[str, str]]:
    """(rule id, line) for every change that belongs to a rule still there (its page shows the line)."""
    found = [(r.id, "added") for r in diff.added]
    found += [(r.new_id, f"renamed from {r.old_id}") for r in diff.renamed]
    found += [(m.id, f"moved from {m.old_chapter} to {m.new_chapter}") for m in diff.moved]
    found += [(c.id, line) for c in diff.changed for line in _change_lines(c)]
    owner = {**_owners(old), **_owners(new)}
    for f in diff.impact.formulas:
        lines = [f"formula {f.id} {f.status}"] if f.status in ("added", "removed") else []
        lines += [f"formula {f.id}: {f.expr[0]} -> {f.expr[1]}"] if f.expr else []
        lines += [f"formula {f.id}: takes {f.signature[1]} (was {f.signature[0]})"] if f.signature else []
        found += [(owner[f.id], line) for line in lines + [f"{r.subject}: {r.old} -> {r.new}" for r in f.results]
                  if f.id in owner]
    for c in diff.impact.calculators:
        found += [(owner[c.id], f"{c.title}: {r.subject}: {r.old} -> {r.new}") for r in c.results if c.id in owner]
    live = set(new.rules) if new is not None else set()
    return [(rule_id, line) for rule_id, line in found if rule_id in live]


def _owners(program: Program | None) -> dict[str, str]:
    """The rule of every formula and calculator of a program, by their ids."""
    if program is None:
        return {}
    return {**{fid: f.rule for fid, f in program.formulas.items()},
            **{cid: c.rule for cid, c in program.calculators.items()}}
