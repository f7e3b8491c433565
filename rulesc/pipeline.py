"""The pipeline, content/ to site/: every stage chained, a line each, in the order STAGES names them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesc.build import DEFAULT_SITE_BUILDER
from rulesc.build.builders import site_pages
from rulesc.build.navigation import compiled_nav, nav
from rulesc.build.not_found import portable_404
from rulesc.build.offline import write_site_worker
from rulesc.build.outputs import Emitted, History, Inputs, Trees, assemble, compile_and_emit, emit_compiled
from rulesc.build.site_config import Settings, read_settings
from rulesc.build.staging import OUTPUTS, SITE, Refresh, staging_folder, swap, update_in_place, write_tree
from rulesc.build.styles import inline_styles
from rulesc.compile import Compiled, Project, Timings, check_variants, compile_project, discover
from rulesc.diff.site_history import site_history
from rulesc.emit.site.search import RECORDS, index_in_background, write_index

STAGES = ("read_settings", "site_history", "compile_and_emit", "assemble", "nav", "write_tree", "site_pages",
          "write_index", "inline_styles", "write_site_worker", "swap")
"""The stages of build_project() in the order it runs them (tests/test_architecture.py holds it to that):
mkdocs.yml read once into Settings; the change history (rulesc build's What changed pages); load, validate, model,
analyze and emit each system (engine module, pages, scripts, export), systems shared between processes; the files
all systems share; the navigation; build/ written to a staging folder; the MkDocs (or Zensical) call; the search
index; each page's styles put inline in its head; the offline worker, which precaches the index too; the staged
folders swapped in."""


@dataclass(frozen=True)
class BuildResult:
    """What a build made: how many systems and generated files, the site's navigation, and what it went by."""

    systems: int
    files: int
    nav: list[Any]
    timings: Timings  # where the build's time went, stage by stage
    settings: Settings  # mkdocs.yml as the build read it (`rulesc serve` points MkDocs' live preview at it)


def build_project(project: Project, site: bool = True, builder: str = DEFAULT_SITE_BUILDER,
                  history: bool = False) -> BuildResult:
    """Every output staged, then swapped in; the result says what was built and where the time went. With
    `history`, each system gets its What changed page and each rule its history lines."""
    timings, settings = Timings(), read_settings(project.root)
    inputs = Inputs(project, settings, changes(project, timings) if history else None)
    with staging_folder(project.root) as staging:
        emitted = compile_and_emit(inputs, staging, timings)
        trees = assemble(inputs, emitted, timings)
        navigation = nav([e.nav for e in emitted])
        with timings.stage("write"):
            for folder, files in trees.items():
                write_tree(staging / folder, files)
        if site:
            timings.merge(build_site(settings, staging / "build/docs", staging / SITE, navigation, builder=builder))
        with timings.stage("swap"):
            swap(project.root, staging, list(trees) + ([SITE] if site else []))
    written = sum(len(files) for files in trees.values()) + sum(e.written for e in emitted)
    return BuildResult(len(emitted), written, navigation, timings, settings)


def changes(project: Project, timings: Timings) -> History:
    """Each system's change history by id, from its versions (diff, a later stage than emit, as plain data)."""
    with timings.stage("history"):
        return site_history(project)


def build_site(settings: Settings, docs: Path, site_dir: Path, navigation: list[Any], dirty: bool = False,
               background_search: bool = False, builder: str = DEFAULT_SITE_BUILDER) -> Timings:
    """The site from `docs`: the pages by the chosen builder ("mkdocs", strict, or "zensical"), then the search
    index, a build step of its own that reads only docs and the built site, then the offline worker. `dirty` (MkDocs
    only) rebuilds only changed pages and `background_search` lets the index finish after the pages are written, as
    `rulesc serve` does for a quick preview. Returns the time of the pages (under the builder's name) and of the
    index."""
    timings = Timings()
    with timings.stage(builder):
        site_pages(settings, docs, site_dir, navigation, builder, dirty)
    with timings.stage("search_index"):
        if background_search:
            index_in_background(docs, site_dir)
        elif (docs / RECORDS).is_file():
            write_index(docs, site_dir)
        if not background_search:  # a preview keeps the worker that caches nothing, and its stylesheets
            if not settings.site_url:  # the 404 page's links start at the host's root: found at run time instead
                portable_404(site_dir)
            inline_styles(site_dir, settings.base)
            write_site_worker(site_dir)  # after the index and the styles: they are precached too
    return timings


def refresh_outputs(project: Project, folders: tuple[str, ...] = OUTPUTS,
                    before: dict[str, frozenset[str]] | None = None) -> Refresh:
    """`rulesc serve`'s refresh: the same stages as build_project up to the shared files, then only the changed
    files of `folders` rewritten in place (staging.update_in_place)."""
    inputs = Inputs(project, read_settings(project.root))
    return update_in_place(project.root, assemble(inputs, compile_and_emit(inputs)), folders, before)


def generate(project: Project, compiled: Compiled) -> Trees:
    """Every generated file of compiled programs, by output folder: {folder: {relative path: text}}."""
    inputs = Inputs(project, read_settings(project.root))
    return assemble(inputs, emit_compiled(inputs, compiled))


__all__ = ["STAGES", "BuildResult", "Compiled", "Emitted", "Project", "Refresh", "Timings", "build_project",
           "build_site", "check_variants", "compile_project", "compiled_nav", "discover", "generate",
           "refresh_outputs"]
