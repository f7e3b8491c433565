"""The site builders: MkDocs (the default) or Zensical, both given the navigation and rulesc's theme overrides."""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from rulesc.build import DEFAULT_SITE_BUILDER
from rulesc.build.navigation import listed_by_their_section
from rulesc.build.site_config import Settings, mkdocs_config
from rulesc.build.source_links import copy_for_zensical
from rulesc.emit.site.search import PagefindPlugin
from rulesc.emit.site.theme import packaged_overrides, same_folder, with_rulesc_theme

ZENSICAL_CONFIG = ".rulesc-zensical.yml"
MERGED_OVERRIDES = ".rulesc-overrides"
ZENSICAL_DOCS = ".rulesc-zensical-docs"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOCATION = re.compile(r"─\[ (\S+:\d+:\d+) \]")  # Zensical marks a warning's place as ╭─[ file:line:col ]
FIXED_EPOCH = "1700000000"  # MkDocs stamps sitemap dates with SOURCE_DATE_EPOCH; fixed, builds stay byte-identical


class SiteBuildError(Exception):
    """The site builder refused the generated pages (a rulesc bug or a bad mkdocs.yml)."""


def missing_builder(builder: str) -> str | None:
    """Why `builder` cannot run here (its package is not installed), or None when it can."""
    if builder == "zensical" and importlib.util.find_spec("zensical") is None:
        return "the zensical site builder is not installed; install rulesc with it: pip install 'rulesc[zensical]'"
    return None


def site_pages(settings: Settings, docs: Path, site_dir: Path, navigation: list[Any],
               builder: str = DEFAULT_SITE_BUILDER, dirty: bool = False) -> None:
    """The site's pages from `docs` by the chosen builder: MkDocs (strict, or `dirty`: only changed pages) or
    Zensical; a SiteBuildError says what the builder refused, a ContentError what mkdocs.yml gets wrong."""
    if builder == "zensical":
        custom_dir = mkdocs_config(settings, docs_dir=str(docs), site_dir=str(site_dir))["theme"].custom_dir
        zensical_build(settings, custom_dir, docs, site_dir, navigation)
    else:
        mkdocs_build(settings, docs, site_dir, navigation, dirty)


def mkdocs_build(settings: Settings, docs: Path, site_dir: Path, navigation: list[Any], dirty: bool = False) -> None:
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
        build(_mkdocs_config(settings, docs, site_dir, navigation, dirty), dirty=dirty)
    except (MkDocsException, SystemExit, TemplateError) as exc:  # a template error: the project's custom_dir
        detail = "; ".join(capture.messages) or _template_problem(exc)
        raise SiteBuildError(f"MkDocs could not build the site: {detail}") from exc
    finally:
        logger.removeHandler(capture)
        logger.setLevel(previous)


def _mkdocs_config(settings: Settings, docs: Path, site_dir: Path, navigation: list[Any], dirty: bool) -> Any:
    """MkDocs' configuration for this build: the navigation, rulesc's theme under the project's, no search index
    (build_site indexes the site itself, after whichever builder ran)."""
    config = mkdocs_config(settings, docs_dir=str(docs), site_dir=str(site_dir), nav=navigation,
                           not_in_nav=listed_by_their_section(docs, navigation), strict=not dirty)
    config["theme"].dirs = with_rulesc_theme(config["theme"].dirs, config["theme"].custom_dir)
    for plugin in config["plugins"].values():
        if isinstance(plugin, PagefindPlugin):
            plugin.indexing = False
    return config


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


def serve_site(settings: Settings, docs: Path, navigation: list[Any], dev_addr: str) -> None:
    """MkDocs' live preview of the built docs, rebuilding dirty pages as they change (not strict: `build` is)."""
    from mkdocs.commands.serve import serve

    serve(config_file=str(settings.path), livereload=True, dev_addr=dev_addr, nav=navigation,
          not_in_nav=listed_by_their_section(docs, navigation), build_type="dirty", strict=False)


def zensical_build(settings: Settings, custom_dir: str | None, docs: Path, site_dir: Path,
                   navigation: list[Any]) -> None:
    """Zensical over `docs` into `site_dir`, reading the project's mkdocs.yml with the generated navigation.

    Zensical silently drops MkDocs plugins (rulesc-search among them); its own full-text search is turned off,
    as rulesc indexes the site with Pagefind itself after the build. Zensical reads a copy of the pages with their
    links restated for it (source_links.py). That copy, the generated configuration, the merged theme overrides and
    Zensical's .cache folder live beside docs and site and are removed afterwards.
    """
    home = Path(os.path.commonpath([docs.resolve(), site_dir.resolve()]))
    made = [home / name for name in (ZENSICAL_CONFIG, MERGED_OVERRIDES, ".cache") if not (home / name).exists()]
    made.append(home / ZENSICAL_DOCS)  # rulesc's own: a copy left by a build that was killed is replaced
    try:
        theme = _zensical_theme(home / MERGED_OVERRIDES, custom_dir)
        copy_for_zensical(docs, home / ZENSICAL_DOCS)
        config = {"INHERIT": str(settings.path.resolve()), "docs_dir": ZENSICAL_DOCS,
                  "site_dir": site_dir.resolve().relative_to(home).as_posix(), "nav": navigation,
                  "theme": {"custom_dir": str(theme)}, "plugins": [{"search": {"enabled": False}}]}
        (home / ZENSICAL_CONFIG).write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        _run_zensical(home)
    finally:
        for path in made:
            if path.is_dir():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def _zensical_theme(merged: Path, custom_dir: str | None) -> Path:
    """One folder for Zensical's single custom_dir: rulesc's overrides, with the project's own on top if any."""
    ours = packaged_overrides()
    if not custom_dir or same_folder(Path(custom_dir), ours):
        return ours
    shutil.copytree(ours, merged)
    shutil.copytree(custom_dir, merged, dirs_exist_ok=True)
    return merged


def _run_zensical(home: Path) -> None:
    command = [sys.executable, "-m", "zensical", "build", "--config-file", ZENSICAL_CONFIG]
    done = subprocess.run(command, cwd=home, capture_output=True, text=True, check=False,
                          env={**os.environ, "NO_COLOR": "1"})
    if done.returncode != 0:
        raise SiteBuildError(f"Zensical could not build the site: {zensical_problem(done.stdout + done.stderr)}")


def zensical_problem(output: str) -> str:
    """What Zensical's failed build reported (each warning at its file:line:col and their count, or the error it
    stopped on), without colours or its traceback."""
    text = ANSI.sub("", output)
    before, traceback, after = text.partition("Traceback (most recent call last)")
    said: list[str] = []
    for line in (raw.strip() for raw in before.splitlines()):
        where = LOCATION.search(line)
        if where and said:
            said[-1] += f" at {where.group(1)}"
        elif line.startswith(("Warning", "Error")) or (line.endswith("found") and line != "No issues found"):
            said.append(line)
    last = (after if traceback else text).strip().splitlines()
    stopped = last[-1].split(": ", 1)[-1] if last and traceback else ""
    if stopped and not stopped.startswith("Aborted because --strict"):
        said.append(stopped)
    return "; ".join(said) or (last[-1] if last else "no output")
