"""Stage 5, build: emit every output into a staging folder, build the site there, then swap it all in."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from generator.analyze.program import Program
from generator.analyze.variants import Marks
from generator.build.builders import DEFAULT_SITE_BUILDER, SiteBuildError, zensical_build
from generator.build.offline import write_site_worker
from generator.build.parallel import WorkerFailed, plan, run_shares
from generator.build.site_config import load_site_config, setting, site_text
from generator.build.styles import inline_styles
from generator.diagnostics.core import ContentError, Diagnostic, Diagnostics
from generator.emit.editor_schema import kinds_overlay, system_chapter_schema
from generator.emit.engine import emit_engine, engine_module
from generator.emit.export import emit_export, system_export
from generator.emit.scripts import emit_scripts, system_script
from generator.emit.site.changes_page import SystemHistory, changes_page, changes_path
from generator.emit.site.credits import notices_html, with_footer
from generator.emit.site.dice_page import DICE_PAGE, emit_dice_page
from generator.emit.site.errors_page import PAGE as ERRORS_PAGE
from generator.emit.site.errors_page import emit_errors_page
from generator.emit.site.fragments import theme_text
from generator.emit.site.links import (
    HOME,
    SEARCH_PAGE,
    glossary_path,
    gm_screen_path,
    landing_path,
    page_path,
    tables_path,
)
from generator.emit.site.offline import offline_files
from generator.emit.site.pages import home_item, home_page, system_pages
from generator.emit.site.rule_notes import PageNotes
from generator.emit.site.search import (
    RECORDS,
    PagefindPlugin,
    emit_search_records,
    index_in_background,
    record_texts,
    search_kinds,
    search_page,
    write_index,
)
from generator.emit.site.theme import with_rulesc_theme
from generator.pipeline import (
    Compiled,
    Layout,
    Project,
    Timings,
    compile_systems,
    discover,
    few_collections,
)
from generator.schema import SCHEMA_FILES, schema_text

OUTPUTS = ("build/docs", "build/engine", "build/export", "build/schema")
SITE = "site"
FIXED_EPOCH = "1700000000"  # MkDocs stamps sitemap dates with SOURCE_DATE_EPOCH; fixed, builds stay byte-identical


@dataclass(frozen=True)
class Emitted:
    """One system's part of the build: its own files, and its parts of the files all systems share."""

    system: str
    files: dict[str, dict[str, str]]  # by output folder, as generate() returns them
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


@dataclass(frozen=True)
class BuildResult:
    systems: int
    files: int
    nav: list[Any]
    timings: Timings  # where the build's time went, stage by stage


def emit_system(program: Program, site_url: str, timings: Timings | None = None, marks: Marks | None = None,
                history: SystemHistory | None = None) -> Emitted:
    """Everything one system contributes to the outputs (all but the files every system shares); `marks` say
    what variants changed, `history` (computed by the build command) adds the What changed page."""
    system, timings = program.system, timings or Timings()
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


def assemble(project: Project, emitted: list[Emitted], timings: Timings | None = None) -> dict[str, dict[str, str]]:
    """Every generated file, by output folder ({folder: {relative path: text}}), from each system's part."""
    timings = timings or Timings()
    with timings.stage("formulas"):
        scripts = emit_scripts([e.script for e in emitted], [e.system for e in emitted])
        engine = emit_engine([e.module for e in emitted])
    with timings.stage("pages"):
        site = site_text(project.root)
        home, search = home_page([e.home_item for e in emitted], site.name, site.description,
                                 [e.facet for e in emitted]), \
            search_page([e.facet for e in emitted], {k for e in emitted for k in e.kinds})
        errors, dice = emit_errors_page(), emit_dice_page()
    with timings.stage("search_records"):
        records = emit_search_records([r for e in emitted for r in e.records])
    with timings.stage("export"):
        export = emit_export(project.schema)
        offline = offline_files(site.name)  # manifest, icon, preview worker
    pages = with_footer({HOME: home, SEARCH_PAGE: search, **errors, **dice}, "".join(e.footer for e in emitted))
    shared = {"build/docs": {**pages, **scripts, **records, **offline},
              "build/engine": engine, "build/export": export, "build/schema": editor_schemas(project, emitted)}
    return {folder: {**files, **{k: v for e in emitted for k, v in e.files[folder].items()}}
            for folder, files in shared.items()}


def editor_schemas(project: Project, emitted: Sequence[Emitted] = ()) -> dict[str, str]:
    """The content schemas the project is checked against, for editors (a scaffold's .vscode/settings.json maps
    content files to build/schema/): always those of the rulesc that built it, or the project's own schema/; and
    each system's chapter schema, which knows its kinds and their fields (<system>/chapter.schema.json)."""
    shared = {name: schema_text(project.schema, name) for name in SCHEMA_FILES}
    return shared | {f"{e.system}/chapter.schema.json": json.dumps(
        system_chapter_schema(str(project.schema), e.system, e.editor), indent=2, ensure_ascii=False) + "\n"
        for e in emitted if e.editor}


def generate(project: Project, compiled: Compiled) -> dict[str, dict[str, str]]:
    """Every generated file of compiled programs, by output folder: {folder: {relative path: text}}."""
    site_url = site_url_of(project)
    return assemble(project, [emit_system(program, site_url, marks=compiled.marks.get(program.system.id))
                              for program in compiled.programs])


History = dict[str, SystemHistory]  # by system id: what changed in each version (rulesc build computes it)


def compile_and_emit(project: Project, staging: Path | None = None, timings: Timings | None = None,
                     history: History | None = None) -> list[Emitted]:
    """Compile and emit every system, sharing the systems between processes where there are CPUs to spare.

    Systems are independent until assembly, so each process compiles and emits its share and sends back only
    text; given a staging folder, each writes its systems' own files there itself and sends back only their
    parts of the shared files. On any content error (or a system id two shares both use) the work is redone in
    this process alone, so errors are reported exactly as a single process reports them. Each stage's time, in
    every process, is added to `timings`.
    """
    with few_collections():
        return _compile_and_emit(project, staging, timings or Timings(), history)


def _compile_and_emit(project: Project, staging: Path | None, timings: Timings,
                      history: History | None = None) -> list[Emitted]:
    diags = Diagnostics()
    layout = discover(project, diags)
    diags.raise_if_errors()
    planned = plan([sum(_size(path) for path in (system, *chapters)) for system, chapters in layout])
    if len(planned) > 1:
        shares = [[layout[i] for i in share] for share in planned]
        try:
            parts = run_shares(lambda share: _emit_share(project, share, staging, timings, history), shares, timings)
        except (ContentError, WorkerFailed):
            pass
        else:
            order = {system: index for index, (system, _) in enumerate(layout)}
            emitted = sorted((e for part in parts for e in part), key=lambda pair: order[pair[0]])
            ids = [e.system for _, e in emitted]
            if len(set(ids)) == len(ids):
                return [e for _, e in emitted]
    return [e for _, e in _emit_share(project, layout, staging, timings, history)]


def _emit_share(project: Project, layout: Layout, staging: Path | None, timings: Timings,
                history: History | None = None) -> list[tuple[Path, Emitted]]:
    compiled = compile_systems(project, layout, timings)
    site_url = site_url_of(project)
    emitted = [(system, emit_system(program, site_url, timings, compiled.marks.get(program.system.id),
                                    None if history is None else history.get(program.system.id, SystemHistory())))
               for (system, _), program in zip(layout, compiled.programs, strict=True)]  # a program per system
    return emitted if staging is None else [(system, _written(staging, e, timings)) for system, e in emitted]


def _written(staging: Path, emitted: Emitted, timings: Timings) -> Emitted:
    """The system's own files written to the staging folder, and the system's part without them."""
    with timings.stage("write"):
        for folder, files in emitted.files.items():
            _write_tree(staging / folder, files)
    return replace(emitted, files={folder: {} for folder in emitted.files},
                   written=sum(len(files) for files in emitted.files.values()))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def build_project(project: Project, site: bool = True, builder: str = DEFAULT_SITE_BUILDER,
                  history: History | None = None) -> BuildResult:
    """Every output staged, then swapped in; the result says what was built and where the time went. With a
    `history`, each system gets its What changed page and each rule its history lines."""
    staging, timings = Path(tempfile.mkdtemp(prefix=".rulesc-tmp-", dir=project.root)), Timings()
    try:
        emitted = compile_and_emit(project, staging, timings, history)
        trees = assemble(project, emitted, timings)
        navigation = nav([e.nav for e in emitted])
        with timings.stage("write"):
            for folder, files in trees.items():
                _write_tree(staging / folder, files)
        if site:
            timings.merge(build_site(project, staging / "build/docs", staging / SITE, navigation, builder=builder))
        with timings.stage("swap"):
            _swap(project.root, staging, list(trees) + ([SITE] if site else []))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    written = sum(len(files) for files in trees.values()) + sum(e.written for e in emitted)
    return BuildResult(len(emitted), written, navigation, timings)


PREVIEW_OUTPUTS = ("build/docs",)


@dataclass(frozen=True)
class Refresh:
    """What one refresh of build/ did: files rewritten and deleted, and every file it generated, by folder."""
    written: int
    deleted: int
    generated: dict[str, frozenset[str]]


def files_in(project: Project, folders: tuple[str, ...] = PREVIEW_OUTPUTS) -> dict[str, frozenset[str]]:
    """The files now in each of `folders`, by folder: right after a build, the files it generated."""
    return {folder: frozenset(p.relative_to(project.root / folder).as_posix()
                              for p in (project.root / folder).rglob("*") if p.is_file()) for folder in folders}


def refresh_outputs(project: Project, folders: tuple[str, ...] = OUTPUTS,
                    before: dict[str, frozenset[str]] | None = None) -> Refresh:
    """Rewrite only the changed files of build/ in place (for `rulesc serve`).

    Unchanged files keep their modification time, so MkDocs' dirty build rebuilds only the pages that changed. A
    file that the refresh before (`before`) generated and this one does not is deleted, with the folders it leaves
    empty: a chapter that passes its budget turns `chapter.md` into `chapter/index.md`, and the old page would
    otherwise stay and claim the same address. Files no refresh generates (the What changed pages, which only
    `rulesc build` writes) stay.
    """
    trees = assemble(project, compile_and_emit(project))
    written = deleted = 0
    for folder, files in ((f, trees[f]) for f in folders):
        for relative, text in sorted(files.items()):
            target = project.root / folder / relative
            if target.is_file() and target.read_text(encoding="utf-8") == text:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
            written += 1
        for relative in sorted((before or {}).get(folder, frozenset()) - files.keys()):
            deleted += _delete(project.root / folder, relative)
    return Refresh(written, deleted, {folder: frozenset(trees[folder]) for folder in folders})


def _delete(folder: Path, relative: str) -> int:
    """Delete folder/relative and the folders under `folder` that it leaves empty; 1 if the file was there."""
    target = folder / relative
    if not target.is_file():
        return 0
    target.unlink()
    for parent in target.parents:
        if parent == folder or any(parent.iterdir()):
            break
        parent.rmdir()
    return 1


def _write_tree(folder: Path, files: dict[str, str]) -> None:
    for relative, text in sorted(files.items()):
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")


def _swap(root: Path, staging: Path, folders: list[str]) -> None:
    """Move each staged folder into place, then remove the old ones (moved into staging on the way)."""
    retired = staging / ".retired"
    moved: list[tuple[Path, Path | None]] = []
    try:
        for index, folder in enumerate(folders):
            target, fresh = root / folder, staging / folder
            old = None
            if target.exists():
                old = retired / str(index)
                old.parent.mkdir(parents=True, exist_ok=True)
                os.replace(target, old)
            target.parent.mkdir(parents=True, exist_ok=True)
            moved.append((target, old))
            os.replace(fresh, target)
    except BaseException:
        for target, old in reversed(moved):  # put back what was there before
            if target.exists():
                shutil.rmtree(target, ignore_errors=True)
            if old is not None:
                os.replace(old, target)
        raise
    shutil.rmtree(retired, ignore_errors=True)


AUTHORS_PAGES = (DICE_PAGE, ERRORS_PAGE)
"""Pages for the rulebook's authors: linked from the home page's end, and left out of the players' navigation."""


def nav(systems: list[dict[str, list[Any]]]) -> list[Any]:
    """The players' navigation: home, search and each system's nav_entry() (AUTHORS_PAGES are left out)."""
    return [{"Home": "index.md"}, {"Search": SEARCH_PAGE}, *systems]


def compiled_nav(compiled: Compiled) -> list[Any]:
    return nav([nav_entry(program) for program in compiled.programs])


def nav_entry(program: Program, changes: bool = False) -> dict[str, list[Any]]:
    """A system in the navigation: its landing page, GM screen, chapters, glossary and index tables (and its
    What changed page, when the build has its history); titles escaped, as the theme prints them as they are."""
    system = program.system
    pages: list[Any] = [{"Overview": landing_path(system)}, {"GM screen": gm_screen_path(system)}]
    pages += [{theme_text(c.title): page_path(system, c.id)} for c in system.chapters]  # parts: on its page
    pages += [{"Glossary": glossary_path(system)}, {"Index tables": tables_path(system)}]
    pages += [{"What changed": changes_path(system)}] if changes else []
    return {theme_text(system.title): pages}


def listed_by_their_section(docs: Path, navigation: list[Any]) -> str:
    """The pages the navigation leaves to a page it lists, as MkDocs' not_in_nav patterns: every other page in the
    folder of a listed `folder/index.md` (a split chapter's parts, a big system's index tables by kind: each landing
    page lists its own), and the pages for authors with the error codes' sections, which the home page links. The
    sidebar stays one entry each, as Material writes the whole navigation into every page."""
    listed = set(_nav_pages(navigation))
    folders = sorted(page[: -len("index.md")] for page in {*listed, *AUTHORS_PAGES} if page.endswith("/index.md"))
    pages = [f"{folder}{path.name}" for folder in folders for path in sorted((docs / folder).glob("*.md"))]
    pages += [page for page in AUTHORS_PAGES if page not in pages]
    return "\n".join(f"/{page}" for page in pages if page not in listed)


def _nav_pages(entries: list[Any]) -> list[str]:
    """Every page a navigation (MkDocs' nested lists of {title: page or entries}) names."""
    found: list[str] = []
    for entry in entries:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            found += _nav_pages(value) if isinstance(value, list) else [value]
    return found


def site_url_of(project: Project) -> str:
    """site_url from mkdocs.yml as MkDocs reads it (a comment after it is no part of it), or "" where unset."""
    return (setting(project.root, "site_url") or "").strip()


def site_base(project: Project) -> str:
    """The path the site is served under: site_url's path (MkDocs links a 404 page's files from it), else "/"."""
    path = urlsplit(site_url_of(project)).path or "/"
    return path if path.endswith("/") else path + "/"


def build_site(project: Project, docs: Path, site_dir: Path, navigation: list[Any], dirty: bool = False,
               background_search: bool = False, builder: str = DEFAULT_SITE_BUILDER) -> Timings:
    """The site from `docs`: the pages by the chosen builder ("mkdocs", strict, or "zensical"), then the search
    index, a build step of its own that reads only docs and the built site. `dirty` (MkDocs only) rebuilds only
    changed pages and `background_search` lets the index finish after the pages are written, as `rulesc serve`
    does for a quick preview. Returns the time of the pages (under the builder's name) and of the index."""
    timings = Timings()
    with timings.stage(builder):
        if builder == "zensical":
            zensical_build(project.root, _checked_config(project, docs, site_dir)["theme"].custom_dir, docs,
                           site_dir, navigation)
        else:
            _mkdocs_build(project, docs, site_dir, navigation, dirty)
    with timings.stage("search_index"):
        if background_search:
            index_in_background(docs, site_dir)
        elif (docs / RECORDS).is_file():
            write_index(docs, site_dir)
        if not background_search:  # a preview keeps the worker that caches nothing, and its stylesheets
            inline_styles(site_dir, site_base(project))
            write_site_worker(site_dir)  # after the index and the styles: they are precached too
    return timings


def _checked_config(project: Project, docs: Path, site_dir: Path) -> Any:
    """The project's mkdocs.yml as MkDocs reads it: every setting it refuses is reported at its key (E0802)."""
    return load_site_config(project.root, docs_dir=str(docs), site_dir=str(site_dir))


def _mkdocs_build(project: Project, docs: Path, site_dir: Path, navigation: list[Any], dirty: bool) -> None:
    """MkDocs in-process and strict (not when dirty: MkDocs warns on every dirty build), with rulesc's theme."""
    from jinja2 import TemplateError
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    capture = _CaptureWarnings()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(capture)
    previous = logger.level
    logger.setLevel(logging.WARNING)
    try:
        config = load_site_config(project.root, docs_dir=str(docs), site_dir=str(site_dir), nav=navigation,
                                  not_in_nav=listed_by_their_section(docs, navigation), strict=not dirty)
        config["theme"].dirs = with_rulesc_theme(config["theme"].dirs, config["theme"].custom_dir)
        for plugin in config["plugins"].values():
            if isinstance(plugin, PagefindPlugin):
                plugin.indexing = False  # the index is build_site's own step, after whichever builder ran
        build(config, dirty=dirty)
    except (MkDocsException, SystemExit, TemplateError) as exc:  # a template error: the project's custom_dir
        detail = "; ".join(capture.messages) or _template_problem(exc)
        raise SiteBuildError(f"MkDocs could not build the site: {detail}") from exc
    finally:
        logger.removeHandler(capture)
        logger.setLevel(previous)


def _template_problem(exc: BaseException) -> str:
    where = getattr(exc, "filename", None) or getattr(exc, "name", None)
    line = getattr(exc, "lineno", None)
    return f"{exc} (in {where}:{line})" if where and line else str(exc)


class _CaptureWarnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


__all__ = ["BuildResult", "ContentError", "Diagnostic", "SiteBuildError", "build_project", "generate"]
