"""Stage 5, emit: each system's engine module, pages, scripts and export, then the files all systems share."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulesc.analyze.program import Program
from rulesc.analyze.variants import Marks
from rulesc.build.navigation import nav_entry
from rulesc.build.parallel import WorkerFailed, plan, run_shares
from rulesc.build.site_config import Settings
from rulesc.build.staging import write_tree
from rulesc.compile import Compiled, Layout, Project, Timings, compile_systems, discover, few_collections
from rulesc.diagnostics.core import ContentError, Diagnostics
from rulesc.emit.editor_schema import kinds_overlay, system_chapter_schema
from rulesc.emit.engine import emit_engine, engine_module
from rulesc.emit.export import emit_export, system_export
from rulesc.emit.scripts import emit_scripts, system_script
from rulesc.emit.site.changes_page import SystemHistory, changes_page, changes_path
from rulesc.emit.site.credits import notices_html, with_footer
from rulesc.emit.site.dice_page import emit_dice_page
from rulesc.emit.site.errors_page import emit_errors_page
from rulesc.emit.site.links import HOME, SEARCH_PAGE
from rulesc.emit.site.offline import offline_files
from rulesc.emit.site.pages import home_item, home_page, system_pages
from rulesc.emit.site.rule_notes import PageNotes
from rulesc.emit.site.search import emit_search_records, record_texts, search_kinds, search_page
from rulesc.schema import SCHEMA_FILES, schema_text

History = dict[str, SystemHistory]  # by system id: what changed in each version (a full build computes it)
Trees = dict[str, dict[str, str]]  # by output folder: {relative path: text}


@dataclass(frozen=True)
class Inputs:
    """What every emitting stage reads besides the programs: the project, its settings (mkdocs.yml, read once)
    and, for a full build, each system's change history (None: no What changed pages)."""

    project: Project
    settings: Settings
    history: History | None = None


@dataclass(frozen=True)
class Emitted:
    """One system's part of the build: its own files, and its parts of the files all systems share."""

    system: str
    files: Trees  # by output folder, as generate() returns them
    home_item: str
    facet: tuple[str, str]  # the search page's filter: system id and title
    kinds: list[tuple[str, str]]
    script: list[str]
    records: list[str]
    module: str
    nav: dict[str, list[Any]]
    editor: dict[str, Any] = field(default_factory=dict)  # its kinds for its editor schema (emit/editor_schema.py)
    footer: str = ""  # the notices its sources' licenses ask for, as HTML: the shared pages' footers carry them too
    written: int = 0  # how many of its own files were written straight to the staging folder (then left out of files)


def emit_system(program: Program, inputs: Inputs, timings: Timings | None = None,
                marks: Marks | None = None) -> Emitted:
    """Everything one system contributes to the outputs (all but the files every system shares); `marks` say
    what variants changed, the inputs' history adds the What changed page."""
    system, timings, site_url = program.system, timings or Timings(), inputs.settings.site_url
    history = None if inputs.history is None else inputs.history.get(system.id, SystemHistory())
    with timings.stage("formulas"):
        engine, script = engine_module(program, site_url), system_script(program)
    with timings.stage("pages"):
        notes = PageNotes(marks or {}, history.rules if history else {})
        pages, item, kinds = system_pages(program, notes), home_item(program), search_kinds(program)
        entry = nav_entry(program, history is not None)
        pages.update(with_footer({changes_path(system): changes_page(system, history)} if history else {},
                                 notices_html([system])))
    with timings.stage("search_records"):
        records = record_texts(program)
    with timings.stage("export"):
        export = system_export(program, site_url)
    files = {"build/docs": pages, "build/engine": engine, "build/export": export, "build/schema": {}}
    return Emitted(system.id, files, item, (system.id, system.title), kinds, script, records, system.module, entry,
                   kinds_overlay(program), notices_html([system]))


def assemble(inputs: Inputs, emitted: list[Emitted], timings: Timings | None = None) -> Trees:
    """Every generated file, by output folder ({folder: {relative path: text}}), from each system's part."""
    timings, settings = timings or Timings(), inputs.settings
    with timings.stage("formulas"):
        scripts = emit_scripts([e.script for e in emitted], [e.system for e in emitted])
        engine = emit_engine([e.module for e in emitted])
    with timings.stage("pages"):
        facets = [e.facet for e in emitted]
        home = home_page([e.home_item for e in emitted], settings.site_name, settings.site_description, facets)
        search = search_page(facets, {k for e in emitted for k in e.kinds})
        fixed = content_free_pages()
    with timings.stage("search_records"):
        records = emit_search_records([r for e in emitted for r in e.records])
    with timings.stage("export"):
        export = emit_export(inputs.project.schema)
        offline = offline_files(settings.site_name)  # manifest, icon, preview worker
    pages = with_footer({HOME: home, SEARCH_PAGE: search, **fixed}, "".join(e.footer for e in emitted))
    shared = {"build/docs": {**pages, **scripts, **records, **offline},
              "build/engine": engine, "build/export": export, "build/schema": editor_schemas(inputs.project, emitted)}
    return {folder: {**files, **{k: v for e in emitted for k, v in e.files[folder].items()}}
            for folder, files in shared.items()}


@functools.cache
def content_free_pages() -> Mapping[str, str]:
    """The pages no content changes, the error codes' and the dice notation's (about 17 ms of CPU), made once a
    process: `rulesc serve` assembles the outputs again on every edit, and a process that builds many books (the
    tests) assembles them for each."""
    return {**emit_errors_page(), **emit_dice_page()}


def editor_schemas(project: Project, emitted: Sequence[Emitted] = ()) -> dict[str, str]:
    """The content schemas the project is checked against, for editors (a scaffold's .vscode/settings.json maps
    content files to build/schema/): always those of the rulesc that built it, or the project's own schema/; and
    each system's chapter schema, which knows its kinds and their fields (<system>/chapter.schema.json)."""
    shared = {name: schema_text(project.schema, name) for name in SCHEMA_FILES}
    return shared | {f"{e.system}/chapter.schema.json": json.dumps(
        system_chapter_schema(str(project.schema), e.system, e.editor), indent=2, ensure_ascii=False) + "\n"
        for e in emitted if e.editor}


def emit_compiled(inputs: Inputs, compiled: Compiled) -> list[Emitted]:
    """Each system's part of the outputs from programs already compiled."""
    return [emit_system(program, inputs, marks=compiled.marks.get(program.system.id)) for program in compiled.programs]


def compile_and_emit(inputs: Inputs, staging: Path | None = None, timings: Timings | None = None) -> list[Emitted]:
    """Compile and emit every system, sharing the systems between processes where there are CPUs to spare.

    Systems are independent until assembly, so each process compiles and emits its share and sends back only
    text; given a staging folder, each writes its systems' own files there itself and sends back only their
    parts of the shared files. On any content error (or a system id two shares both use) the work is redone in
    this process alone, so errors are reported exactly as a single process reports them. Each stage's time, in
    every process, is added to `timings`.
    """
    with few_collections():
        return _compile_and_emit(inputs, staging, timings or Timings())


def _compile_and_emit(inputs: Inputs, staging: Path | None, timings: Timings) -> list[Emitted]:
    diags = Diagnostics()
    layout = discover(inputs.project, diags)
    diags.raise_if_errors()
    planned = plan([sum(_size(path) for path in (system, *chapters)) for system, chapters in layout])
    if len(planned) > 1:
        shares = [[layout[i] for i in share] for share in planned]
        try:
            parts = run_shares(lambda share: _emit_share(inputs, share, staging, timings), shares, timings)
        except (ContentError, WorkerFailed):
            pass
        else:
            order = {system: index for index, (system, _) in enumerate(layout)}
            emitted = sorted((e for part in parts for e in part), key=lambda pair: order[pair[0]])
            ids = [e.system for _, e in emitted]
            if len(set(ids)) == len(ids):
                return [e for _, e in emitted]
    return [e for _, e in _emit_share(inputs, layout, staging, timings)]


def _emit_share(inputs: Inputs, layout: Layout, staging: Path | None, timings: Timings) -> list[tuple[Path, Emitted]]:
    compiled = compile_systems(inputs.project, layout, timings)
    emitted = [(system, emit_system(program, inputs, timings, compiled.marks.get(program.system.id)))
               for (system, _), program in zip(layout, compiled.programs, strict=True)]  # a program per system
    return emitted if staging is None else [(system, _written(staging, e, timings)) for system, e in emitted]


def _written(staging: Path, emitted: Emitted, timings: Timings) -> Emitted:
    """The system's own files written to the staging folder, and the system's part without them."""
    with timings.stage("write"):
        for folder, files in emitted.files.items():
            write_tree(staging / folder, files)
    return replace(emitted, files={folder: {} for folder in emitted.files},
                   written=sum(len(files) for files in emitted.files.values()))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
