"""Plan a migration: run every step on each format-1 system, check the result in a scratch copy, then write it."""

from __future__ import annotations

import difflib
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulesc.analyze.program import Program
from rulesc.analyze.variants import variant_files
from rulesc.compile import Project, check_variants, compile_project
from rulesc.diagnostics.core import ContentError, Diagnostics, Span
from rulesc.load import Document, load_document
from rulesc.migrate.edits import Edit, apply, offset
from rulesc.model import FORMATS

NEWEST = FORMATS[-1]


@dataclass(frozen=True)
class SystemSource:
    """One format-1 system as the steps see it: its checked program and the texts of its files as written."""

    project: Project
    program: Program
    texts: Mapping[Path, str]
    variants: tuple[tuple[Path, Program], ...] = ()  # each variant's file, and the program with it applied

    @property
    def programs(self) -> tuple[Program, ...]:
        """The program, then the program with each variant applied (whose formulas include the variant's)."""
        return (self.program, *(program for _, program in self.variants))

    def path(self, span: Span) -> Path:
        """The file a span of the program points into."""
        return self.project.root / span.file

    def at(self, span: Span) -> int:
        """A span as a character offset in its file's text."""
        return offset(self.texts[self.path(span)], span)


@dataclass(frozen=True)
class Step:
    """One change of meaning between formats: its name, what it does, and the edits it makes to a system."""

    name: str
    summary: str
    edits: Callable[[SystemSource], list[Edit]]
    every_format: bool = False  # the step sees whether it has run (what it writes is there): it runs on every system


@dataclass(frozen=True)
class Migration:
    """What migrating a project changes: each changed file's text before and after, and the systems migrated."""

    root: Path
    before: Mapping[Path, str]
    after: Mapping[Path, str]
    systems: tuple[str, ...]

    def diff(self) -> str:
        """A unified diff of every changed file, paths relative to the project (a/ and b/ as git writes them)."""
        parts: list[str] = []
        for path in sorted(self.after):
            shown = path.relative_to(self.root).as_posix()
            parts += difflib.unified_diff(self.before[path].splitlines(keepends=True),
                                          self.after[path].splitlines(keepends=True), f"a/{shown}", f"b/{shown}")
        return "".join(parts)


def plan(project: Project, steps: Sequence[Step]) -> Migration:
    """Every step's edits on every system written in format 1 (and those of the steps that run in every format on
    the others), checked in a scratch copy of the project: raises ContentError, and nothing is written, if the
    project or its migrated copy does not check."""
    programs = compile_project(project).programs
    broken = check_variants(project)
    if broken:
        raise ContentError(broken)
    before: dict[Path, str] = {}
    after: dict[Path, str] = {}
    migrated: list[str] = []
    for program in programs:
        old = program.system.format < NEWEST
        source = _source(project, program)
        edits = [edit for step in steps if old or step.every_format for edit in step.edits(source)]
        edits += [_format_edit(source)] if old else []
        for path, text in source.texts.items():
            changed = apply(text, [edit for edit in edits if edit.path == path])
            if changed != text:
                before[path], after[path] = text, changed
        migrated += [program.system.id] if edits else []
    migration = Migration(project.root, before, after, tuple(migrated))
    if migrated:
        _check_copy(project, migration)
    return migration


def _source(project: Project, program: Program) -> SystemSource:
    folder = (project.root / program.system.span.file).parent
    variants = variant_files(folder)
    files = sorted(folder.glob("*.yaml")) + [path for _, path in variants]
    applied = tuple((path, _with_variant(project, f"{folder.name}/{name}", program.system.id))
                    for name, path in variants)
    return SystemSource(project, program, {path: _read(path) for path in files}, applied)


def _with_variant(project: Project, qualified: str, system: str) -> Program:
    """The system's program with one of its variants applied."""
    programs = compile_project(Project(project.root, (qualified,))).programs
    return next(program for program in programs if program.system.id == system)


def _read(path: Path) -> str:
    with path.open(encoding="utf-8", newline="") as handle:  # newline="": line endings kept as written
        return handle.read()


def _format_edit(source: SystemSource) -> Edit:
    """`format: 2` in system.yaml: the written `format:` changed, or a new line before `sources:`."""
    path = source.path(source.program.system.span)
    doc = document(source.project, path)
    if "format" in doc.data:
        start = source.at(doc.span(("format",)))
        return Edit(path, start, start + len(str(doc.data["format"])), str(NEWEST))
    text = source.texts[path]
    start = source.at(doc.key_span(("sources",)))
    start -= len(text[:start]) - len(text[:start].rstrip(" "))
    return Edit(path, start, start, f"format: {NEWEST}" + ("\r\n" if "\r\n" in text else "\n"))


def document(project: Project, path: Path) -> Document:
    doc = load_document(path, project.display(path), Diagnostics(), project.root)
    assert doc is not None, "a project that checks has readable files"
    return doc


def _check_copy(project: Project, migration: Migration) -> None:
    """Compile the migrated project in a scratch folder: its errors, if any, are the migration's."""
    with tempfile.TemporaryDirectory(prefix="rulesc-migrate-") as scratch:
        copy = Path(scratch)
        shutil.copytree(project.content, copy / "content", symlinks=True)
        if (project.root / "schema").is_dir():
            shutil.copytree(project.root / "schema", copy / "schema", symlinks=True)
        for path, text in migration.after.items():
            _write(copy / path.relative_to(project.root), text)
        copied = Project(copy)
        compile_project(copied)
        broken = check_variants(copied)
        if broken:
            raise ContentError(broken)


def write(migration: Migration) -> None:
    """Write every changed file: each to a temporary file beside it first, then all moved into place, so a failure
    part way leaves the project as it was."""
    staged: list[tuple[Path, Path]] = []
    try:
        for path, text in sorted(migration.after.items()):
            temporary = path.with_name(f".{path.name}.rulesc-migrate")
            staged.append((temporary, path))
            _write(temporary, text)
            shutil.copymode(path, temporary)
    except BaseException:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise
    for temporary, path in staged:
        os.replace(temporary, path)


def _write(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write(text)

