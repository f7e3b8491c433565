"""The site builders: MkDocs (the default) or Zensical, both given the navigation and rulesc's theme overrides."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

from generator.build.site_config import CONFIG
from generator.emit.site.theme import packaged_overrides, same_folder

SITE_BUILDERS = ("mkdocs", "zensical")
DEFAULT_SITE_BUILDER = "mkdocs"
ZENSICAL_CONFIG = ".rulesc-zensical.yml"
MERGED_OVERRIDES = ".rulesc-overrides"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
LOCATION = re.compile(r"─\[ (\S+:\d+:\d+) \]")  # Zensical marks a warning's place as ╭─[ file:line:col ]


class SiteBuildError(Exception):
    """The site builder refused the generated pages (a rulesc bug or a bad mkdocs.yml)."""


def missing_builder(builder: str) -> str | None:
    """Why `builder` cannot run here (its package is not installed), or None when it can."""
    if builder == "zensical" and importlib.util.find_spec("zensical") is None:
        return "the zensical site builder is not installed; install rulesc with it: pip install 'rulesc[zensical]'"
    return None


def zensical_build(root: Path, custom_dir: str | None, docs: Path, site_dir: Path, navigation: list[Any]) -> None:
    """Zensical over `docs` into `site_dir`, reading the project's mkdocs.yml with the generated navigation.

    Zensical silently drops MkDocs plugins (rulesc-search among them); its own full-text search is turned off,
    as rulesc indexes the site with Pagefind itself after the build. The generated configuration, the merged
    theme overrides and Zensical's .cache folder live beside docs and site and are removed afterwards.
    """
    home = Path(os.path.commonpath([docs.resolve(), site_dir.resolve()]))
    made = [home / name for name in (ZENSICAL_CONFIG, MERGED_OVERRIDES, ".cache") if not (home / name).exists()]
    try:
        theme = _zensical_theme(home / MERGED_OVERRIDES, custom_dir)
        config = {"INHERIT": str((root / CONFIG).resolve()), "docs_dir": docs.resolve().relative_to(home).as_posix(),
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
