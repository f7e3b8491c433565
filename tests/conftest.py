"""Shared fixtures: the repository, a built copy of the bundled project, and a browser."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesc.pipeline import Project, build_project
from tests.browser import chromium, serve_axe, serve_site
from tests.tabs import Tab, Tabs
from tests.template_cache import compiled_once

REPO = Path(__file__).resolve().parent.parent
PROJECT_PARTS = ("content", "schema", "site_overrides", "mkdocs.yml")
WHEEL_SOURCES = ("pyproject.toml", "README.md", "rulesc", "schema", "site_overrides", "frontend")
Copy = Callable[[Path], Path]
"""Writes a project into an empty folder and returns its root."""


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
SLOW_FIXTURES = {"built", "built_example", "wheel", "zensical_built"}
"""Fixtures that build a whole project, rulesc's wheel or a Zensical site: their tests are marked `slow`. A test that
asks for one by name as it runs (request.getfixturevalue) carries the mark itself, as test_generated_code's does."""
LONGEST_FIRST = ("test_site_table.py", "test_site_zensical.py", "test_site_styles.py", "test_site_phone.py",
                 "test_site_rolls.py", "test_site_reading.py", "test_site_browser.py", "test_browser.py",
                 "test_site_theme.py", "test_site_hostile.py", "test_site_offline.py", "test_gm_screen.py",
                 "test_permalinks.py")
"""The files that run last and take longest, longest first: they start first among the files that run last, so the
two workers end together instead of one running a long file alone. By the last whole run's durations
(`pytest --durations=0`, summed per file: 62, 35, 31, 30, 21, 20, 18, 17, 15, 14, 12, 12 and 8 s)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that use the browser are marked `browser`, and those that use a whole build (SLOW_FIXTURES) `slow`:
    `pytest -m "not browser and not slow"` is the fast lane. A test that launches Chromium through a bench, or
    that computes for seconds on its own, carries its mark itself.

    Tests that use the browser or the served site run last. Both live for the whole session and keep a thread
    running (Playwright's child watcher, the HTTP server), and a build never forks while another thread runs, so
    the tests before them see builds share their systems between processes as a user's build does."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    threaded = {item.path for item in items if SESSION_THREADS & set(getattr(item, "fixturenames", ()))}
    # Whole files move, not single tests: with --dist loadfile a worker takes a file at once, at the place of its
    # first test, so a file that mixed the two kinds would start the session's threads early in that worker.
    # Among those, the longest files go first (LONGEST_FIRST); a file's tests keep their order.
    items.sort(key=lambda item: (item.path in threaded, rank(item.path) if item.path in threaded else 0,
                                 bool(SESSION_THREADS & set(getattr(item, "fixturenames", ())))))


def rank(path: Path) -> int:
    """Where a file that runs last starts: the longest in LONGEST_FIRST's order, then the others."""
    return LONGEST_FIRST.index(path.name) if path.name in LONGEST_FIRST else len(LONGEST_FIRST)


@pytest.fixture(scope="session", autouse=True)
def theme_templates() -> Iterator[None]:
    """The builds of a test process compile MkDocs' theme templates once between them (tests/template_cache.py): a
    build in a test, like a user's, compiled them every time. The sites come out byte-identical either way."""
    with compiled_once():
        yield


@pytest.fixture(scope="session")
def shared_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str, Copy], Path]]:
    """Projects built whole once a run: `shared_builds(name, copy)` is the root of the project `copy(root)` writes,
    built by the first worker to ask for `name`. Every worker of the run reads the same folder, so no test writes
    in it (one that writes copies what it writes to); each worker checks at its end that no file in one changed."""
    handed: set[Path] = set()

    def build(name: str, copy: Copy) -> Path:
        folder = shared(tmp_path_factory, name, lambda staging: build_whole(copy, staging))
        handed.add(folder)
        return folder / "project"

    yield build
    changed = {folder.name: changed_files(folder) for folder in sorted(handed)}
    assert changed == {name: [] for name in changed}, "a test wrote into a shared build; copy what you write to"


@pytest.fixture(scope="session")
def built(shared_builds: Callable[[str, Copy], Path]) -> Path:
    """The bundled project built once a run: site/, build/docs, build/engine, build/export (see shared_builds)."""
    return shared_builds("built", copy_project)


@pytest.fixture(scope="session")
def built_example(shared_builds: Callable[[str, Copy], Path]) -> Callable[[str], Path]:
    """`built_example(name)`: examples/<name> built whole once a run (see shared_builds)."""
    return lambda name: shared_builds(f"example-{name}", lambda target: copy_example(name, target))


def copy_example(name: str, target: Path) -> Path:
    """An example's own rulebook (its content and mkdocs.yml), copied so a build writes nothing in the checkout."""
    shutil.copytree(REPO / "examples" / name / "content", target / "content")
    shutil.copy2(REPO / "examples" / name / "mkdocs.yml", target / "mkdocs.yml")
    return target


def build_whole(copy: Copy, folder: Path) -> None:
    """Build the project `copy` writes to folder/project; note each file's digest in folder/files.json."""
    root = copy(folder / "project")
    build_project(Project(root))
    (folder / "files.json").write_text(json.dumps(tree_digest(root)), encoding="utf-8")


def changed_files(folder: Path) -> list[str]:
    """The files of folder/project added, removed or changed since build_whole() noted them."""
    noted, now = json.loads((folder / "files.json").read_text(encoding="utf-8")), tree_digest(folder / "project")
    return sorted(name for name in noted.keys() | now.keys() if noted.get(name) != now.get(name))


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under root by its relative path, with the SHA-256 of its bytes."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def site(built: Path) -> Iterator[str]:
    """The built site served on loopback for the whole session, for the browser tests."""
    with serve_site(built / "site") as url:
        yield url


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Tab]:
    """The tab a test file's browser tests take turns in, reset to a new tab's state between them (a file that needs
    one set up otherwise defines its own, as test_site_rolls does)."""
    with Tab(browser) as shared:
        yield shared


@pytest.fixture(scope="module")
def tabs(browser: Any) -> Iterator[Tabs]:
    """The tabs a test file's browser tests take turns in, one per kind of device they ask for (tests/tabs.py)."""
    with Tabs(browser) as pool:
        yield pool


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, launched once per session; each test opens contexts of its own."""
    with chromium() as instance:
        yield instance


@pytest.fixture(scope="session")
def axe_url() -> Iterator[str]:
    """The address axe-core's script is served at for the session's axe tests (tests/browser.py's serve_axe)."""
    with serve_axe() as url:
        yield url


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """rulesc's wheel, built once a run from a copy of the sources as pip builds it for an installation or a hook."""
    out = shared(tmp_path_factory, "wheel", lambda folder: build_wheel(tmp_path_factory.mktemp("source"), folder))
    (found,) = out.glob("rulesc-*.whl")
    return found


def shared(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """run_folder()/name, made once a run: the first worker to ask fills an empty folder with `make` under a lock,
    the others wait for it and reuse it. The folder takes its name only once whole."""
    run = run_folder(tmp_path_factory)
    out = run / name
    with open(run / f"{name}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, even if making fails
        if not out.is_dir():
            staging = run / f"{name}.staging"
            shutil.rmtree(staging, ignore_errors=True)  # left by a worker whose attempt failed
            staging.mkdir()
            make(staging)
            staging.rename(out)
    return out


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this run that every xdist worker's own temporary folder is in (this process's without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_wheel(source: Path, out: Path) -> None:
    """Build the wheel from a copy of the sources (in `source`) into the folder `out`."""
    for part in WHEEL_SOURCES:
        if (REPO / part).is_dir():
            shutil.copytree(REPO / part, source / part, ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
        else:
            shutil.copy2(REPO / part, source / part)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                    "-q", "-w", str(out), str(source)], check=True, capture_output=True)
