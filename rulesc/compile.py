"""Stages 1-4, compile: load -> validate -> model -> analyze, each stopping on its own errors."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulesc.analyze.kinds import check_kinds
from rulesc.analyze.program import Program, analyze_system
from rulesc.analyze.variants import Marks, apply_variant, variant_files
from rulesc.analyze.verbatim import check_verbatim
from rulesc.diagnostics.core import ContentError, Diagnostic, Diagnostics, Span
from rulesc.load import Document, load_document
from rulesc.model import System, build_system
from rulesc.schema import SCHEMA_DIR, validate_document

SYSTEM_FILE = "system.yaml"
# Collect the youngest generation after this many new objects, not Python's default 700 (see few_collections).
YOUNG_THRESHOLD = 1_000_000
Layout = list[tuple[Path, list[Path]]]  # each system's system.yaml and its chapter files


@dataclass(frozen=True)
class Project:
    """Where a rulebook lives: the project root, its content/ and schema/ folders; `variants` are applied in
    order (each NAME or SYSTEM/NAME, SYSTEM being a folder of content/)."""

    root: Path
    variants: tuple[str, ...] = ()

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def schema(self) -> Path:
        return self.root / "schema" if (self.root / "schema").is_dir() else SCHEMA_DIR

    def display(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return path.as_posix()


@dataclass
class Timings:
    """The build's own log of where its time went: wall and CPU seconds per stage (CPU counts this process and its
    finished children), added up over every process that worked on a stage; `workers` processes worked beside
    this one, and grew by `workers_kib` of memory in all (each its peak less what it started with)."""

    wall: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    workers: int = 0
    workers_kib: int = 0

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        wall, cpu = time.perf_counter(), cpu_seconds()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - wall, cpu_seconds() - cpu)

    def add(self, name: str, wall: float, cpu: float) -> None:
        self.wall[name] = self.wall.get(name, 0.0) + wall
        self.cpu[name] = self.cpu.get(name, 0.0) + cpu

    def merge(self, other: Timings) -> None:
        """Add in what another part of the build recorded (a forked worker's share, the site build)."""
        for name in other.wall:
            self.add(name, other.wall[name], other.cpu.get(name, 0.0))
        self.workers += other.workers
        self.workers_kib += other.workers_kib


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have finished (a build waits for its workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


@dataclass(frozen=True)
class Compiled:
    """The checked programs of all systems, plus the warnings found on the way, and by system id what the
    project's variants changed in each rule (nothing without variants)."""

    programs: tuple[Program, ...]
    warnings: tuple[Diagnostic, ...]
    marks: dict[str, Marks] = field(default_factory=dict)


def discover(project: Project, diags: Diagnostics) -> Layout:
    """Each system folder's system.yaml and its chapter files, in a stable order."""
    if not project.content.is_dir():
        diags.error("E0001", f"no content folder at {project.display(project.content)}", None,
                    "run rulesc from the project root, or pass --root")
        return []
    systems = []
    _left_out(project, sorted(project.content.glob("*.y*ml")), diags)
    for folder in sorted(p for p in project.content.iterdir() if p.is_dir() and not p.name.startswith(".")):
        chapters = sorted(p for p in folder.glob("*.yaml") if p.name != SYSTEM_FILE)
        _left_out(project, sorted(folder.glob("*.yml")), diags)
        if not os.path.lexists(folder / SYSTEM_FILE):  # a link or a folder named so is refused when read
            diags.error("E0002", f"{project.display(folder)}/ has no {SYSTEM_FILE}", None,
                        f"every folder in content/ is a game system and needs a {SYSTEM_FILE}")
            continue
        systems.append((folder / SYSTEM_FILE, chapters))
    if not systems and not diags.errors:
        diags.error("E0003", "content/ holds no game system", None, "add content/<system>/system.yaml")
    return systems


def _left_out(project: Project, paths: list[Path], diags: Diagnostics) -> None:
    """E0004 for each file named like content that discover() would not read: a .yml file in a system's folder, a
    .yaml or .yml file in content/ itself (the file is located at 1:1 only if it is a plain file to show a line of)."""
    for path in paths:
        shown = project.display(path)
        span = Span(shown, 1, 1) if path.is_file() and not path.is_symlink() else None
        if path.parent == project.content:
            diags.error("E0004", f"{shown} is in content/ itself, outside every system, so rulesc does not read it",
                        span, "move it into a system's folder, content/<system>/, beside its system.yaml")
        else:
            diags.error("E0004", f"{shown} ends in .yml: rulesc reads a system's .yaml files only, so it is left out",
                        span, f"rename it to {path.stem}.yaml")


def compile_project(project: Project) -> Compiled:
    """Load, validate, model and analyze every system; raises ContentError at the first failing stage."""
    diags = Diagnostics()
    layout = discover(project, diags)
    diags.raise_if_errors()
    with few_collections():
        return compile_systems(project, layout)


@contextmanager
def few_collections() -> Iterator[None]:
    """Run the cyclic garbage collector rarely for the duration of the block.

    Compiling makes a few hundred thousand objects that all live to the end and almost no cyclic garbage. At
    Python's default thresholds the collector ran every 700 allocations and again and again walked everything
    built so far: a fifth of the compile time at 5,000 rules. Reference counting still frees everything else at
    once, and the collector still runs, every YOUNG_THRESHOLD allocations.
    """
    before = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def compile_systems(project: Project, layout: Layout, timings: Timings | None = None) -> Compiled:
    """compile_project for the systems of `layout` (each a system.yaml and its chapter files); each stage's time
    is added to `timings`."""
    diags, timings = Diagnostics(), timings or Timings()
    with timings.stage("load"):
        loaded = [(_load(project, s, diags), [_load(project, c, diags) for c in cs]) for s, cs in layout]
    diags.raise_if_errors()
    with timings.stage("validate"):
        for system_doc, chapter_docs in loaded:
            _validate(project, system_doc, "system", diags)
            for doc in chapter_docs:
                _validate(project, doc, "chapter", diags)
    diags.raise_if_errors()
    with timings.stage("model"):
        systems = [build_system(_some(s), [_some(c) for c in cs], diags) for s, cs in loaded]
        _unique_systems(systems, diags)
    diags.raise_if_errors()
    marks: dict[str, Marks] = {}
    if project.variants:
        with timings.stage("variants"):
            systems = [_with_variants(project, folder.parent, system, diags, marks)
                       for (folder, _), system in zip(layout, systems, strict=True)]
        diags.raise_if_errors()
    with timings.stage("semantic"):
        programs = tuple(analyze_system(system, diags) for system in systems)
        for program in programs:
            check_kinds(program, diags)
            check_verbatim(program, diags)
    diags.raise_if_errors()
    return Compiled(programs, tuple(d for d in diags.items if d.severity == "warning"), marks)


def variants_of(project: Project, layout: Layout) -> list[tuple[str, Path]]:
    """Every variant of the project as SYSTEM/NAME (SYSTEM its folder in content/) and its file, in order."""
    return [(f"{system.parent.name}/{name}", path) for system, _ in layout for name, path in
            variant_files(system.parent)]


def _with_variants(project: Project, folder: Path, system: System, diags: Diagnostics,
                   marks: dict[str, Marks]) -> System:
    """The system with each of the project's variants that belong to it applied, in the order given."""
    found, origin = dict(variant_files(folder)), system
    for wanted in project.variants:
        name = wanted.removeprefix(f"{folder.name}/")
        if name not in found or ("/" in wanted and not wanted.startswith(f"{folder.name}/")):
            continue
        doc = load_document(found[name], project.display(found[name]), diags, project.root)
        if doc is None or not validate_document(doc, "variant", diags, project.schema):
            continue
        system, marks[system.id] = apply_variant(system, doc, name, diags, marks.get(system.id), origin)
    return system


def check_variants(project: Project) -> list[Diagnostic]:
    """Every variant of the project applied alone to its system and checked: the errors of all of them."""
    diags = Diagnostics()
    layout = discover(project, diags)
    found: list[Diagnostic] = []
    for entry in layout:
        for qualified, path in variants_of(project, [entry]):
            try:
                compile_systems(Project(project.root, (qualified,)), [entry])
            except ContentError as exc:
                found += [d for d in (_in_variant(d, qualified, project.display(path)) for d in exc.diagnostics)
                          if d not in found]
    return found


def _in_variant(diag: Diagnostic, qualified: str, file: str) -> Diagnostic:
    """A problem a variant causes outside its own file (a base example it breaks) says which variant."""
    if diag.span is not None and diag.span.file == file:
        return diag
    return replace(diag, message=f"with variant '{qualified}' applied: {diag.message}")


def _load(project: Project, path: Path, diags: Diagnostics) -> Document | None:
    return load_document(path, project.display(path), diags, project.root)


def _validate(project: Project, doc: Document | None, kind: str, diags: Diagnostics) -> None:
    if doc is not None:
        validate_document(doc, kind, diags, project.schema)


def _some(doc: Document | None) -> Document:
    assert doc is not None, "documents are checked before modelling"
    return doc


def _unique_systems(systems: list[System], diags: Diagnostics) -> None:
    seen: dict[str, Span] = {}
    for system in systems:
        if system.id in seen:
            diags.error("E0601", f"duplicate system id '{system.id}' (first defined at {seen[system.id]})", system.span)
        seen[system.id] = system.span
