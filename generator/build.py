"""Stage 5, build: emit every output into a staging folder, build the site there, then swap it all in."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .diagnostics import ContentError, Diagnostic
from .emit.dice_page import DICE_PAGE, emit_dice_page
from .emit.engine import emit_engine
from .emit.errors_page import emit_errors_page
from .emit.export import emit_export
from .emit.links import SEARCH_PAGE, glossary_path, landing_path, page_path, tables_path
from .emit.pages import emit_pages
from .emit.scripts import emit_scripts
from .emit.search import emit_search_records
from .pipeline import Compiled, Project, compile_project

OUTPUTS = ("build/docs", "build/engine", "build/export")
SITE = "site"
FIXED_EPOCH = "1700000000"  # MkDocs stamps sitemap dates with SOURCE_DATE_EPOCH; fixed, builds stay byte-identical


class SiteBuildError(Exception):
    """MkDocs refused the generated pages (a rulesc bug or a bad mkdocs.yml)."""


@dataclass(frozen=True)
class BuildResult:
    compiled: Compiled
    files: int


def generate(project: Project, compiled: Compiled) -> dict[str, dict[str, str]]:
    """Every generated file, by output folder: {folder: {relative path: text}}."""
    site_url = site_url_of(project)
    programs = compiled.programs
    return {
        "build/docs": {**emit_pages(programs), **emit_scripts(programs), **emit_errors_page(), **emit_search_records(programs),
                       **emit_dice_page()},
        "build/engine": emit_engine(programs, site_url),
        "build/export": emit_export(programs, site_url, project.schema),
    }


def build_project(project: Project, site: bool = True) -> BuildResult:
    compiled = compile_project(project)
    trees = generate(project, compiled)
    staging = Path(tempfile.mkdtemp(prefix=".rulesc-tmp-", dir=project.root))
    try:
        for folder, files in trees.items():
            _write_tree(staging / folder, files)
        if site:
            build_site(project, staging / "build/docs", staging / SITE, nav(compiled))
        _swap(project.root, staging, list(trees) + ([SITE] if site else []))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return BuildResult(compiled, sum(len(files) for files in trees.values()))


PREVIEW_OUTPUTS = ("build/docs",)


def refresh_outputs(project: Project, folders: tuple[str, ...] = OUTPUTS) -> int:
    """Rewrite only the changed files of build/ in place (for `rulesc serve`); returns how many changed.

    Unchanged files keep their modification time, so MkDocs' dirty build rebuilds only the pages that changed.
    """
    trees = generate(project, compile_project(project))
    changed = 0
    for folder, files in ((f, trees[f]) for f in folders):
        for relative, text in sorted(files.items()):
            target = project.root / folder / relative
            if target.is_file() and target.read_text(encoding="utf-8") == text:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
            changed += 1
    return changed


def _write_tree(folder: Path, files: dict[str, str]) -> None:
    for relative, text in sorted(files.items()):
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")


def _swap(root: Path, staging: Path, folders: list[str]) -> None:
    """Move each staged folder into place; the old ones go into staging and are removed with it."""
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


def nav(compiled: Compiled) -> list[Any]:
    """The site navigation: home, search, then per system its landing page, chapters, glossary and index tables."""
    entries: list[Any] = [{"Home": "index.md"}, {"Search": SEARCH_PAGE}]
    for program in compiled.programs:
        system = program.system
        pages: list[Any] = [{"Overview": landing_path(system)}]
        pages += [{c.title: page_path(system, c.id)} for c in system.chapters]
        pages += [{"Glossary": glossary_path(system)}, {"Index tables": tables_path(system)}]
        entries.append({system.title: pages})
    entries.append({"Dice notation": DICE_PAGE})
    entries.append({"Error codes": "errors.md"})
    return entries


def site_url_of(project: Project) -> str:
    config = project.root / "mkdocs.yml"
    if not config.is_file():
        return ""
    for line in config.read_text(encoding="utf-8").splitlines():
        if line.startswith("site_url:"):
            return line.split(":", 1)[1].strip().strip("'\"")
    return ""


def build_site(project: Project, docs: Path, site_dir: Path, navigation: list[Any], dirty: bool = False,
               background_search: bool = False) -> None:
    """MkDocs in-process and strict; `dirty` rebuilds only changed pages and `background_search` lets the
    search index finish after the pages are written, as `rulesc serve` does for a quick preview."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    os.environ.setdefault("SOURCE_DATE_EPOCH", FIXED_EPOCH)
    capture = _CaptureWarnings()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(capture)
    previous = logger.level
    logger.setLevel(logging.WARNING)
    try:
        config = load_config(config_file=str(project.root / "mkdocs.yml"), docs_dir=str(docs),
                             site_dir=str(site_dir), nav=navigation, strict=not dirty)  # MkDocs warns on every dirty build
        for plugin in config["plugins"].values():
            if hasattr(plugin, "background"):
                plugin.background = background_search
        build(config, dirty=dirty)
    except (MkDocsException, SystemExit) as exc:
        detail = "; ".join(capture.messages) or str(exc)
        raise SiteBuildError(f"MkDocs could not build the site: {detail}") from exc
    finally:
        logger.removeHandler(capture)
        logger.setLevel(previous)


class _CaptureWarnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


__all__ = ["BuildResult", "ContentError", "Diagnostic", "SiteBuildError", "build_project", "generate"]
