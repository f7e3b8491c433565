"""`rulesc bench --phone`: every page's ready time and input latency on a slowed phone; figures, never asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.bench.phone import INPUT_TARGET_MS, READY_TARGET_MS
from generator.emit.site.errors_page import emit_errors_page
from generator.emit.site.links import url_of
from tests.conftest import REPO
from tests.test_site_offline import offline_project

ERRORS = sorted(url_of(path) for path in emit_errors_page())  # the error codes' landing page and its sections
PAGES = ["/", "dice-notation/", *ERRORS, "q-9/", "q-9/2nd-wind/", "q-9/glossary/", "q-9/gm-screen/",
         "q-9/tables/", "search/"]  # every page of the small project's site
WITH_CALCULATORS = {"q-9/2nd-wind/", "q-9/gm-screen/"}


def rulesc(root: Path, *args: str, prelude: str = "") -> subprocess.CompletedProcess[str]:
    """rulesc in a process of its own (Playwright's threads outlive the browser), after an optional prelude."""
    code = f"import sys\n{prelude}\nfrom generator.cli.main import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, "--root", str(root), *args], capture_output=True, text=True,
                          check=False, cwd=REPO)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    return rulesc(offline_project(tmp_path_factory.mktemp("phone") / "project"), "bench", "--phone", "--json")


@pytest.fixture(scope="module")
def figures(run: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    return dict(json.loads(run.stdout.splitlines()[-1]))


def test_every_page_gets_a_ready_time_and_each_calculator_page_an_input_time(figures: dict[str, Any]) -> None:
    pages = {p["page"]: p for p in figures["pages"]}
    assert list(pages) == PAGES
    for name, page in pages.items():
        assert page["ready_ms"] >= page["load_ms"] > 0, name
        assert all(start + ms <= page["ready_ms"] + 1 for start, ms in page["long_tasks"]), name
        assert [row["calculator"] for row in page["inputs"]] == (["q-9/rest"] if name in WITH_CALCULATORS else [])
        assert all(row["ms"] > 0 for row in page["inputs"]), name
    assert (figures["cpu_slowdown"], figures["viewport"]) == (4, {"width": 390, "height": 844})
    assert figures["worst_ready_ms"] == max(p["ready_ms"] for p in pages.values())
    assert figures["worst_input_ms"] == max(r["ms"] for p in pages.values() for r in p["inputs"])
    assert figures["inputs"] == 2


def test_the_table_prints_both_figures_per_page_and_judges_the_worst(run: subprocess.CompletedProcess[str],
                                                                     figures: dict[str, Any]) -> None:
    lines = run.stdout.splitlines()
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.split() and line.split()[0] in PAGES}
    assert list(rows) == PAGES
    for page in figures["pages"]:
        row = rows[page["page"]]
        assert float(row[0]) == page["ready_ms"]
        assert float(row[1]) == page["load_ms"]
        if page["inputs"]:
            assert row[-2:] == [f"{page['inputs'][0]['ms']:.1f}", "q-9/rest"]
        else:
            assert row[-1] == "-"
    met = figures["worst_ready_ms"] <= READY_TARGET_MS and figures["worst_input_ms"] <= INPUT_TARGET_MS
    assert run.returncode == (0 if met else 1), run.stderr  # the targets decide, whatever the machine
    assert lines[-3].startswith(f"{len(PAGES)} pages; worst ready {figures['worst_ready_ms']:.1f} ms")
    assert lines[-2].startswith(f"2 input changes; worst {figures['worst_input_ms']:.1f} ms")


def test_without_playwright_the_bench_says_what_to_install(tmp_path: Path) -> None:
    done = rulesc(offline_project(tmp_path / "project"), "bench", "--phone",
                  prelude="sys.modules['playwright'] = None  # as if it were not installed")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("rulesc: error: bench --phone drives Chromium with Playwright, which is not installed: "
                           "pip install 'rulesc[test]'\n")


def test_pages_picks_pages_as_the_table_names_them_and_refuses_an_unknown_one() -> None:
    from generator.bench.phone import PhoneBenchError, pick_pages

    pages = ["", "a-b/", "a-b/c/", "z/"]
    assert pick_pages(pages, None) == pages
    assert pick_pages(pages, ["z/", "/", "a-b/c"]) == ["", "a-b/c/", "z/"]  # site order, any slashes
    assert pick_pages(pages, ["/a-b/"]) == ["a-b/"]
    with pytest.raises(PhoneBenchError, match=r"no such page: a-b/d/, q/; the site's pages are /, a-b/, a-b/c/, z/"):
        pick_pages(pages, ["a-b/d", "q", "z"])


def test_pages_limits_the_run_to_the_named_pages_and_an_unknown_one_is_a_usage_error(tmp_path: Path) -> None:
    project = offline_project(tmp_path / "project")
    done = rulesc(project, "bench", "--phone", "--json", "--pages", "q-9/gm-screen", "/")
    assert [p["page"] for p in json.loads(done.stdout.splitlines()[-1])["pages"]] == ["/", "q-9/gm-screen/"]
    done = rulesc(project, "bench", "--phone", "--pages", "q-9/nowhere/")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("rulesc: error: no such page: q-9/nowhere/; the site's pages are /, dice-notation/")
