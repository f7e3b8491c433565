"""Hardening: failed or interrupted builds change nothing, bugs become one-line reports, hostile input fails fast."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesc import compile as pipeline
from rulesc import pipeline as build_module
from rulesc.build.builders import SiteBuildError
from rulesc.build.site_config import Settings
from rulesc.pipeline import Project, build_project
from tests.run_case import run_rulesc
from tests.test_build import digest

CASES = Path(__file__).resolve().parent / "cases"
INTERNAL = "rulesc: internal error: this is a bug in rulesc; please report it"


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    """A private copy of the built bundled project: content, site/ and build/ from a successful build."""
    root = tmp_path / "project"
    shutil.copytree(built, root, symlinks=True)
    return root


def _half_built_site(site_dir: str) -> None:
    """What MkDocs leaves behind when it stops halfway: some pages written."""
    Path(site_dir).mkdir(parents=True, exist_ok=True)
    (Path(site_dir) / "index.html").write_text("<p>half a site</p>")


def test_a_failure_inside_mkdocs_leaves_site_and_build_as_they_were(project: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from mkdocs.commands import build as mkdocs_build
    from mkdocs.exceptions import Abort

    before = digest(project)

    def failing_build(config: Any, **_: Any) -> None:
        _half_built_site(config["site_dir"])
        raise Abort("Aborted with a theme error")

    monkeypatch.setattr(mkdocs_build, "build", failing_build)
    with pytest.raises(SiteBuildError, match="Aborted with a theme error"):
        build_project(Project(project))
    assert digest(project) == before
    assert not list(project.glob(".rulesc-tmp-*"))


def test_an_interrupt_during_the_site_build_leaves_everything_as_it_was(project: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    before = digest(project)

    def interrupted(settings: Settings, docs: Path, site_dir: Path, navigation: Any, **_: Any) -> None:
        _half_built_site(str(site_dir))
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "build_site", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_project(Project(project))
    assert digest(project) == before
    assert not list(project.glob(".rulesc-tmp-*"))


def test_an_interrupt_while_swapping_outputs_in_puts_the_old_ones_back(project: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    before = digest(project)
    real_replace = os.replace
    calls = []

    def replace_then_interrupt(src: Any, dst: Any) -> None:
        calls.append((src, dst))
        if len(calls) == 5:  # build/docs and build/engine are swapped; build/export is half way
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace_then_interrupt)  # the os module staging swaps outputs with
    with pytest.raises(KeyboardInterrupt):
        build_project(Project(project), site=False)
    assert len(calls) >= 5
    assert digest(project) == before
    assert not list(project.glob(".rulesc-tmp-*"))


def test_the_cli_reports_an_interrupt_in_one_line(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*_: Any, **__: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "build_site", interrupted)
    before = digest(project)
    assert run_rulesc("--root", str(project), "build") == (130, "", "rulesc: interrupted; nothing was written\n")
    assert digest(project) == before


def _broken_stage(*_: Any) -> None:
    raise RuntimeError("boom in analyze")


def test_an_internal_error_is_one_line_asking_for_a_report(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "analyze_system", _broken_stage)
    status, out, err = run_rulesc("--root", str(CASES / "good/minimal"), "check")
    assert (status, out) == (2, "")
    assert err == INTERNAL + " (run again with --debug for details)\n"


def test_debug_shows_the_details_of_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "analyze_system", _broken_stage)
    status, out, err = run_rulesc("--debug", "--root", str(CASES / "good/minimal"), "check")
    assert (status, out) == (2, "")
    first, *details = err.splitlines()
    assert first == INTERNAL
    assert details[0] == "Traceback (most recent call last):"
    assert details[-1] == "RuntimeError: boom in analyze"


def test_runaway_recursion_in_a_stage_is_an_internal_error_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    def recurse(*args: Any) -> None:
        recurse(*args)

    monkeypatch.setattr(pipeline, "analyze_system", recurse)
    assert run_rulesc("--root", str(CASES / "good/minimal"), "check")[::2] == (
        2, INTERNAL + " (run again with --debug for details)\n")


MINIMAL = CASES / "good/minimal/content/mini"
BASICS = (MINIMAL / "basics.yaml").read_text()


def _nasty_project(tmp_path: Path, chapter: str | bytes) -> Path:
    root = tmp_path / "nasty"
    shutil.copytree(MINIMAL.parent.parent, root)
    target = root / "content/mini/basics.yaml"
    target.write_bytes(chapter if isinstance(chapter, bytes) else chapter.encode("utf-8"))
    return root


NASTY: dict[str, str | bytes] = {
    "10,000 nested [": BASICS.replace("order: 1\n", "order: 1\nnotes: " + "[" * 10_000 + "]" * 10_000 + "\n"),
    "10,000 nested {": BASICS.replace("order: 1\n", "order: 1\nnotes: " + "{a: " * 10_000 + "}" * 10_000 + "\n"),
    "3,000 nested block mappings": BASICS + "".join(" " * i + "a:\n" for i in range(3_000)),
    "10,000 nested block lists": BASICS.replace("order: 1\n", "order: 1\nnotes:\n" + "- " * 10_000 + "x\n"),
    "a billion laughs": "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 30)) + BASICS,
    "a file over the size limit": BASICS + "# " + "x" * (8 * 1024 * 1024) + "\n",
    "a 5,000-digit number": BASICS.replace("factor: 2", "factor: " + "7" * 5_000),
    "a formula of 10,000 minus signs": BASICS.replace("expr: n * factor", "expr: " + "-" * 10_000 + "n"),
    "a formula 10,000 parentheses deep": BASICS.replace("expr: n * factor", "expr: " + "(" * 10_000 + "n"
                                                        + ")" * 10_000),
    "a formula of 5,000 additions": BASICS.replace("expr: n * factor", "expr: n" + " + n" * 5_000),
    "a formula of 3,000 powers": BASICS.replace("expr: n * factor", "expr: " + "n ^ " * 3_000 + "n"),
    "a 5,000-digit number in a formula": BASICS.replace("expr: n * factor", "expr: n * " + "7" * 5_000),
    "binary garbage": bytes(range(256)) * 64,
}


@pytest.mark.parametrize("name", NASTY)
def test_hostile_input_is_a_located_error_in_a_real_process(name: str, tmp_path: Path) -> None:
    """rulesc as users run it: exit 1, a path:line:col: error[CODE] line, no traceback, no hang."""
    root = _nasty_project(tmp_path, NASTY[name])
    done = subprocess.run([sys.executable, "-m", "rulesc.cli", "--root", str(root), "check"],
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent)
    assert done.returncode == 1, done.stderr[-2000:]
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith("content/mini/basics.yaml:") and ": error[E0" in first, first[:300]
    assert done.stderr.endswith(" error(s); nothing was written\n")
