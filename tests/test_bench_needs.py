"""What the benches need beyond rulesc: the bench extra's packages, and a Chromium found rather than assumed."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from rulesc.bench import needs
from rulesc.bench.needs import CHROMIUM_VARIABLE, Unavailable, find_chromium
from tests.run_case import run_rulesc

CASES = Path(__file__).resolve().parent / "cases"


def program(folder: Path, name: str) -> str:
    """An executable file called `name` in `folder` (never run: only found)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.fixture
def bare(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No RULESC_CHROMIUM, a PATH of one empty folder, and no browser of Playwright's own."""
    monkeypatch.delenv(CHROMIUM_VARIABLE, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setattr(needs, "playwrights_own", lambda: None)
    return tmp_path / "bin"


def test_the_variable_wins_over_path(bare: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    program(bare, "chromium")
    chosen = program(tmp_path / "elsewhere", "my-chrome")
    monkeypatch.setenv(CHROMIUM_VARIABLE, chosen)
    assert find_chromium() == chosen


def test_path_is_searched_in_order_of_the_names(bare: Path) -> None:
    google = program(bare, "google-chrome")
    assert find_chromium() == google
    debian = program(bare, "chromium-browser")
    assert find_chromium() == debian
    debian_named_so = program(bare, "chromium")
    assert find_chromium() == debian_named_so


def test_playwrights_own_browser_is_the_last_resort(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(needs, "playwrights_own", lambda: "/opt/ms-playwright/chrome")
    assert find_chromium() == "/opt/ms-playwright/chrome"


def test_no_chromium_anywhere_says_how_to_get_one(bare: Path) -> None:
    with pytest.raises(Unavailable) as missing:
        find_chromium()
    assert str(missing.value) == (
        "the benches drive Chromium, and none was found: install it (apt-get install chromium, or python -m "
        "playwright install chromium), or set RULESC_CHROMIUM to its path")


def test_a_variable_naming_no_program_is_refused(bare: Path, monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    program(bare, "chromium")
    for given in (str(tmp_path / "nothing"), str(tmp_path / "notes.txt"), str(tmp_path)):
        monkeypatch.setenv(CHROMIUM_VARIABLE, given)
        with pytest.raises(Unavailable) as refused:
            find_chromium()
        assert str(refused.value) == f"RULESC_CHROMIUM names {given}, which is no program this user can run"


def test_the_calculators_bench_without_playwright_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "playwright", None)  # as if it were not installed
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    assert run_rulesc("--root", str(CASES / "good/minimal"), "bench", "--calculators") == (1, "", (
        "rulesc: error: bench --calculators drives Chromium with Playwright, which is not installed: "
        "pip install 'rulesc[bench]'\n"))


def test_the_calculators_bench_without_chromium_says_how_to_get_one(bare: Path) -> None:
    status, out, err = run_rulesc("--root", str(CASES / "good/minimal"), "bench", "--calculators")
    assert (status, out) == (1, "")
    assert err.startswith("rulesc: error: the benches drive Chromium, and none was found:") and "Traceback" not in err
    assert os.environ["PATH"] == str(bare)

