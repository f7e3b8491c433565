"""Shared fixtures: the repository, a built copy of the bundled project, and a browser."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesc.pipeline import Project, build_project
from tests.browser import chromium, serve_site

REPO = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("content", "schema", "site_overrides", "mkdocs.yml")
WHEEL_SOURCES = ("pyproject.toml", "README.md", "rulesc", "schema", "site_overrides", "frontend")


def copy_project(target: Path) -> Path:
    """A copy of the bundled project (content, schema, theme, config) to build without touching the checkout."""
    target.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, target / part)
        else:
            shutil.copy2(source, target / part)
    return target


SESSION_THREADS = {"browser", "site"}  # fixtures that keep a thread running until the session ends
LONGEST_FIRST = ("test_site_table.py", "test_site_browser.py", "test_site_reading.py", "test_site_hostile.py",
                 "test_browser.py", "test_site_zensical.py", "test_site_offline.py")
"""The files that run last and take longest, longest first (measured with `pytest -n 0 -m browser --durations=0`,
less the session's shared setup): they start first among the files that run last, so the two workers end
together instead of one running a long file alone."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that use the browser are marked `browser` (`pytest -m "not browser"` is the fast lane); a test that
    launches Chromium through a bench carries the mark itself.

    Tests that use the browser or the served site run last. Both live for the whole session and keep a thread
    running (Playwright's child watcher, the HTTP server), and a build never forks while another thread runs, so
    the tests before them see builds share their systems between processes as a user's build does."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    threaded = {item.path for item in items if SESSION_THREADS & set(getattr(item, "fixturenames", ()))}
    # Whole files move, not single tests: with --dist loadfile a worker takes a file at once, at the place of its
    # first test, so a file that mixed the two kinds would start the session's threads early in that worker.
    # Among those, the longest files go first (LONGEST_FIRST); a file's tests keep their order.
    items.sort(key=lambda item: (item.path in threaded, rank(item.path) if item.path in threaded else 0,
                                 bool(SESSION_THREADS & set(getattr(item, "fixturenames", ())))))


def rank(path: Path) -> int:
    """Where a file that runs last starts: the longest in LONGEST_FIRST's order, then the others."""
    return LONGEST_FIRST.index(path.name) if path.name in LONGEST_FIRST else len(LONGEST_FIRST)


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled project built once for the whole session: site/, build/docs, build/engine, build/export."""
    root = copy_project(tmp_path_factory.mktemp("built") / "project")
    build_project(Project(root))
    return root


@pytest.fixture(scope="session")
def site(built: Path) -> Iterator[str]:
    """The built site served on loopback for the whole session, for the browser tests."""
    with serve_site(built / "site") as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, launched once per session; each test opens contexts of its own."""
    with chromium() as instance:
        yield instance


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """rulesc's wheel, built once a run from a copy of the sources as pip builds it for an installation or a hook:
    the first worker to ask builds it under a lock, in the folder the run's workers share, the others reuse it."""
    shared = run_folder(tmp_path_factory)
    with open(shared / "wheel.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, even if the build fails
        out = shared / "wheel"
        if not out.is_dir():
            build_wheel(tmp_path_factory.mktemp("source"), out)
    (found,) = out.glob("rulesc-*.whl")
    return found


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this run that every xdist worker's own temporary folder is in (this process's without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_wheel(source: Path, out: Path) -> None:
    """Build the wheel from a copy of the sources into `out`, which appears only once the wheel is whole."""
    for part in WHEEL_SOURCES:
        if (REPO / part).is_dir():
            shutil.copytree(REPO / part, source / part, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
        else:
            shutil.copy2(REPO / part, source / part)
    staging = source.with_name(source.name + "-wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(staging), str(source)], check=True, capture_output=True)
    staging.rename(out)
