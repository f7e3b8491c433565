"""Diff: what a change does to the rulebook, compared system by system and rule by rule between two revisions."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from rulesc.analyze.program import Program
from rulesc.compile import Project, compile_project
from rulesc.diagnostics.core import ContentError, Diagnostic, Span
from rulesc.diff.fields import rule_fields, term_fields
from rulesc.diff.git import commit_of, export_revision
from rulesc.diff.impact import Impact, assess, rule_url
from rulesc.diff.text import WordDiff
from rulesc.emit.site.links import permalink
from rulesc.model import Rule

WORKING_TREE = "working tree"


@dataclass(frozen=True)
class FieldChange:
    """One field of a rule: `field` is how the reader names it (e.g. "limit"), old and new are shown as text."""

    field: str
    old: str
    new: str


@dataclass(frozen=True)
class TextChange:
    field: str
    diff: WordDiff


@dataclass(frozen=True)
class RuleEntry:
    """A rule added or removed; `breaking` when its permalink stops working."""

    id: str
    name: str
    page: str
    breaking: bool = False


@dataclass(frozen=True)
class Rename:
    old_id: str
    new_id: str
    name: str
    page: str


@dataclass(frozen=True)
class Move:
    """A rule that moved to another chapter (under its id, or renamed with the old id as an alias): its place
    before and after, each a chapter's title and the page that holds the rule, and the permalink that breaks."""

    id: str
    name: str
    old_chapter: str
    old_page: str
    new_chapter: str
    new_page: str
    old_permalink: str


@dataclass(frozen=True)
class RuleChange:
    id: str
    name: str
    page: str
    fields: tuple[FieldChange, ...]
    texts: tuple[TextChange, ...]


@dataclass(frozen=True)
class TermChange:
    id: str
    name: str
    status: str  # added, removed, changed
    fields: tuple[FieldChange, ...] = ()
    texts: tuple[TextChange, ...] = ()


@dataclass(frozen=True)
class SystemDiff:
    id: str
    title: str
    status: str  # added, removed, changed, unchanged
    added: tuple[RuleEntry, ...] = ()
    removed: tuple[RuleEntry, ...] = ()
    renamed: tuple[Rename, ...] = ()
    moved: tuple[Move, ...] = ()
    changed: tuple[RuleChange, ...] = ()
    terms: tuple[TermChange, ...] = ()
    impact: Impact = Impact()

    @property
    def breaking(self) -> list[str]:
        """Every breaking change of this system, one sentence each."""
        found = [f"system `{self.id}` removed: every permalink of its pages stops working"] \
            if self.status == "removed" else []
        found += [f"rule `{r.id}` ({r.name}) removed with no alias: its permalink {r.page}#{r.id} stops working"
                  for r in self.removed if r.breaking]
        found += [f"rule `{m.id}` ({m.name}) moved from {m.old_chapter} to {m.new_chapter}: its permalink "
                  f"{m.old_permalink} stops working" for m in self.moved]
        return found + self.impact.breaking

    @property
    def pages(self) -> tuple[str, ...]:
        """Every page of the site that the change alters."""
        entries: tuple[RuleEntry | Rename | RuleChange, ...] = (*self.added, *self.removed, *self.renamed,
                                                                 *self.changed)
        pages = set(self.impact.pages) | {entry.page for entry in entries}
        pages |= {page for move in self.moved for page in (move.old_page, move.new_page)}
        pages |= {f"{self.id}/glossary/"} if self.terms else set()
        return tuple(sorted(pages))


@dataclass(frozen=True)
class RulebookDiff:
    base: str
    head: str
    base_commit: str
    head_commit: str | None
    systems: tuple[SystemDiff, ...]

    @property
    def breaking(self) -> list[str]:
        return [item for system in self.systems for item in system.breaking]


def diff_revisions(project: Project, base: str, head: str | None) -> RulebookDiff:
    """Compile the rulebook at `base` and at `head` (None: the working tree) and compare them."""
    base_commit = commit_of(project.root, base)
    head_commit = commit_of(project.root, head) if head is not None else None
    with tempfile.TemporaryDirectory(prefix="rulesc-diff-") as scratch:
        old = _programs_at(project, base, base_commit, Path(scratch) / "base")
        new = _programs_at(project, head, head_commit, Path(scratch) / "head") if head_commit else \
            _programs_of(project, None)
    return RulebookDiff(base, head or WORKING_TREE, base_commit, head_commit, compare_programs(old, new))


def _programs_at(project: Project, label: str | None, commit: str | None, folder: Path) -> tuple[Program, ...]:
    assert commit is not None
    root = export_revision(project.root, commit, folder)
    return _programs_of(Project(root), label)


def _programs_of(project: Project, label: str | None) -> tuple[Program, ...]:
    """The compiled systems; content errors at a revision are reported at `REV:file:line:col`."""
    if not project.content.is_dir() and label is not None:
        return ()
    try:
        return compile_project(project).programs
    except ContentError as exc:
        if label is None:
            raise
        raise ContentError([_at_revision(d, label) for d in exc.diagnostics]) from None


def _at_revision(diag: Diagnostic, label: str) -> Diagnostic:
    message = f"at revision {label}: {diag.message}"
    if diag.span is None:
        return replace(diag, message=message)
    return replace(diag, message=message, span=Span(f"{label}:{diag.span.file}", diag.span.line, diag.span.col))


def compare_programs(old: tuple[Program, ...], new: tuple[Program, ...]) -> tuple[SystemDiff, ...]:
    """One SystemDiff per system of either side, in id order; unchanged systems are left out."""
    before = {p.system.id: p for p in old}
    after = {p.system.id: p for p in new}
    diffs = [compare_system(before.get(sid), after.get(sid)) for sid in sorted(set(before) | set(after))]
    return tuple(d for d in diffs if d.status != "unchanged")


def compare_system(old: Program | None, new: Program | None) -> SystemDiff:
    if old is None or new is None:
        program = new or old
        assert program is not None
        status = "added" if old is None else "removed"
        entries = tuple(_entry(program, r, breaking=status == "removed") for r in program.system.rules())
        return SystemDiff(program.system.id, program.system.title, status,
                          added=entries if status == "added" else (), removed=entries if status == "removed" else ())
    renamed = _renames(old, new)
    moved = {r.old_id for r in renamed}
    diff = SystemDiff(
        new.system.id, new.system.title, "changed",
        added=tuple(_entry(new, r) for r in new.system.rules() if r.id not in old.rules and r.id not in
                    {x.new_id for x in renamed if x.new_id not in old.rules}),
        removed=tuple(_entry(old, r, breaking=True) for r in old.system.rules()
                      if r.id not in new.rules and r.id not in moved),
        renamed=renamed, moved=_moves(old, new, renamed), changed=_changed_rules(old, new, renamed),
        terms=_terms(old, new), impact=assess(old, new))
    return diff if _has_changes(diff) else replace(diff, status="unchanged")


def _has_changes(diff: SystemDiff) -> bool:
    return any((diff.added, diff.removed, diff.renamed, diff.moved, diff.changed, diff.terms, not diff.impact.empty))


def _entry(program: Program, rule: Rule, breaking: bool = False) -> RuleEntry:
    return RuleEntry(rule.id, rule.name, rule_url(program, rule), breaking)


def _renames(old: Program, new: Program) -> tuple[Rename, ...]:
    """Old ids that are gone but kept as an alias of a rule in the new revision."""
    found = []
    for rule in old.system.rules():
        target = new.aliases.get(rule.id) if rule.id not in new.rules else None
        if target is not None:
            renamed = new.rules[target]
            found.append(Rename(rule.id, target, renamed.name, rule_url(new, renamed)))
    return tuple(found)


def _pairs(old: Program, new: Program, renamed: tuple[Rename, ...]) -> list[tuple[Rule, Rule]]:
    """Each rule of both revisions, before and after: by its id, or by the rename that kept its old id."""
    pairs = [(old.rules[r.id], r) for r in new.system.rules() if r.id in old.rules]
    return pairs + [(old.rules[x.old_id], new.rules[x.new_id]) for x in renamed if x.new_id not in old.rules]


def _moves(old: Program, new: Program, renamed: tuple[Rename, ...]) -> tuple[Move, ...]:
    """The rules whose chapter changed, with their old and new places."""
    return tuple(Move(after.id, after.name, _chapter_title(old, before), rule_url(old, before),
                      _chapter_title(new, after), rule_url(new, after), permalink(old.system, before))
                 for before, after in _pairs(old, new, renamed) if before.chapter != after.chapter)


def _chapter_title(program: Program, rule: Rule) -> str:
    return next(c.title for c in program.system.chapters if c.id == rule.chapter)


def _changed_rules(old: Program, new: Program, renamed: tuple[Rename, ...]) -> tuple[RuleChange, ...]:
    changes = [_rule_change(old, new, before, after) for before, after in _pairs(old, new, renamed)]
    return tuple(c for c in changes if c.fields or c.texts)


def _rule_change(old: Program, new: Program, before: Rule, after: Rule) -> RuleChange:
    fields, texts = rule_fields(old, new, before, after)
    if before.id != after.id:  # a rename: the new alias is the rename itself
        fields = [f for f in fields if f[0] != "aliases"]
    return RuleChange(after.id, after.name, rule_url(new, after),
                      tuple(FieldChange(*f) for f in fields),
                      tuple(TextChange(name, d) for name, d in texts))


def _terms(old: Program, new: Program) -> tuple[TermChange, ...]:
    found: list[TermChange] = []
    for term_id in sorted(set(old.terms) | set(new.terms)):
        before, after = old.terms.get(term_id), new.terms.get(term_id)
        if before is None or after is None:
            some = after or before
            assert some is not None
            found.append(TermChange(term_id, some.name, "added" if before is None else "removed"))
            continue
        fields, texts = term_fields(before, after)
        if fields or texts:
            found.append(TermChange(term_id, after.name, "changed", tuple(FieldChange(*f) for f in fields),
                                    tuple(TextChange(name, d) for name, d in texts)))
    return tuple(found)


__all__ = ["RulebookDiff", "SystemDiff", "diff_revisions"]
