"""rulesc from its wheel alone: installed into a clean virtual environment, it starts a rulebook that checks,
builds and calculates at once, in a folder with no repository around it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def rulesc(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulesc command of a fresh venv (no system site-packages) with the wheel and its dependencies installed
    from the package index, by uv, the installer the README sets up beside the tests: pip resolving from its index
    took 14 CPU seconds (and on a loaded machine two minutes) where uv takes one."""
    venv = tmp_path_factory.mktemp("venv") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    subprocess.run([uv(), "pip", "install", "--quiet", "--python", str(venv / "bin/python"), str(wheel)], check=True,
                   capture_output=True)
    return venv / "bin/rulesc"


def uv() -> str:
    """The uv beside this interpreter (the README's venv), else the one on PATH (a nox session's)."""
    found = shutil.which("uv", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    assert found, "the wheel test installs with uv: .venv/bin/pip install uv (see the README)"
    return found


def run(rulesc: Path, folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(rulesc), *args], cwd=folder, capture_output=True, text=True, env=env, check=False)


def test_the_wheel_starts_a_rulebook_that_checks_builds_and_calculates(rulesc: Path, tmp_path: Path) -> None:
    where = run(rulesc.parent / "python", tmp_path, "-c", "import rulesc; print(rulesc.__file__)")
    assert where.stdout.startswith(str(rulesc.parent.parent / "lib")), where.stdout  # not the checkout's sources
    started = run(rulesc, tmp_path, "init")
    assert (started.returncode, started.stderr) == (0, "")
    assert started.stdout.startswith("rulesc: started a rulebook in . (8 files)")
    checked = run(rulesc, tmp_path, "check", "--strict")
    assert (checked.returncode, checked.stdout) == (0, "rulesc: ok: 1 system(s), 1 rules, 2 formulas, 4 examples "
                                                       "passed, 1 calculators\n"), checked.stderr
    built = run(rulesc, tmp_path, "build")
    assert built.returncode == 0, built.stderr
    for page in ("site/my-game/basics/index.html", "site/assets/rulesc/calculators.js", "site/pagefind/pagefind.js",
                 "build/schema/chapter.schema.json", "build/engine/rules_engine/my_game.py"):
        assert (tmp_path / page).is_file(), page
    assert 'id="rulesc-qs-input"' in (tmp_path / "site/index.html").read_text(encoding="utf-8")  # the theme overrides
    calc = run(rulesc, tmp_path, "calc", "--json", "my-game/hold-the-line-odds", "grit=6")
    assert json.loads(calc.stdout)["outputs"] == {"dice": 7, "chance": {"exact": "179/243", "float": 179 / 243}}


def test_without_the_extra_zensical_is_a_usage_error_naming_it(rulesc: Path, tmp_path: Path) -> None:
    assert run(rulesc, tmp_path, "init").returncode == 0
    done = run(rulesc, tmp_path, "build", "--site-builder", "zensical")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("rulesc: error: the zensical site builder is not installed; install rulesc with it: "
                           "pip install 'rulesc[zensical]'\n")
    assert not (tmp_path / "site").exists() and not (tmp_path / "build").exists()
