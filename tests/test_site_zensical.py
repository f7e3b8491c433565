"""The site built by Zensical (`rulesc build --site-builder zensical`): byte-identical rebuilds, the same search
index as MkDocs' build, and in Chromium the pages, calculators, previews, index tables and search all work."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesc.pipeline import Project, build_project, compile_project
from tests import test_browser as calculator_checks
from tests import test_site_browser as site_checks
from tests.browser import Visit, serve_site
from tests.conftest import copy_project
from tests.test_build import digest

PAGES = ("", "dbu/core-rules/tier-of-power-section/", "dbu/glossary/", "search/", "errors/", "errors/formulas/")


def _zensical_build(root: Path) -> Path:
    build_project(Project(copy_project(root)), builder="zensical")
    return root


@pytest.fixture(scope="module")
def zensical_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _zensical_build(tmp_path_factory.mktemp("zensical") / "project")


@pytest.fixture(scope="module")
def zensical_site(zensical_built: Path) -> Iterator[str]:
    with serve_site(zensical_built / "site") as url:
        yield url


def test_a_zensical_rebuild_is_byte_identical(zensical_built: Path, tmp_path: Path) -> None:
    again = _zensical_build(tmp_path / "again")
    first, second = digest(zensical_built), digest(again)
    assert sum(name.startswith("site/") for name in first) > 50
    assert first == second


def test_zensical_gets_the_same_search_index_and_scripts_as_mkdocs(zensical_built: Path, built: Path) -> None:
    """The index is rulesc's own build step: the same bytes whichever builder wrote the pages around it."""
    def files(root: Path, folder: str) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / folder).rglob("*"))
                if p.is_file()}
    for folder in ("site/pagefind", "site/assets/rulesc"):
        assert len(files(built, folder)) > 3
        assert files(zensical_built, folder) == files(built, folder), folder
    page = zensical_built / "site/dbu/core-rules/tier-of-power-section/index.html"
    assert "rulesc-qs-input" in page.read_text(encoding="utf-8")
    assert not list(zensical_built.glob(".rulesc-*")) and not (zensical_built / ".cache").exists()


def test_every_page_loads_with_rulesc_scripts_and_no_error(zensical_site: str, browser: Any) -> None:
    for path in PAGES:
        with Visit(browser, zensical_site + path) as visit:
            assert visit.page.locator("#rulesc-qs-input").is_visible(), path
            assert visit.page.locator("h1").count() == 1, path
            assert any(r.endswith("assets/rulesc/site.js") for r in visit.requests), path
            assert not any("search.json" in r or "/workers/" in r for r in visit.requests), path  # Zensical's own
            assert [r for r in visit.requests if not r.startswith(zensical_site)] == [], path
            assert visit.errors == [], path


def test_every_calculator_computes_as_the_engine_does(zensical_built: Path, zensical_site: str, browser: Any) -> None:
    programs = compile_project(Project(zensical_built)).programs
    assert calculator_checks.drive_every_calculator(browser, zensical_site, programs) == []


def test_previews_and_index_tables_work(zensical_site: str, browser: Any) -> None:
    with Visit(browser, zensical_site + "dbu/core-rules/tier-of-power-section/") as visit:
        link, tip = visit.page.locator("a.rulesc-ref--term").first, visit.page.locator("#rulesc-preview")
        assert not tip.is_visible()
        link.focus()
        assert tip.is_visible() and tip.inner_text() == link.get_attribute("data-rulesc-preview")
    with Visit(browser, zensical_site + "dbu/tables/maneuver/") as visit:  # a kind's page of the split tables
        table = visit.page.locator("[data-index-table]").first
        total = table.locator("tbody tr").count()
        table.locator("input[type=search]").fill("zzz-no-such-rule")
        assert total > 3 and table.locator("[role=status]").inner_text() == f"0 of {total} shown"
        assert visit.errors == []


def test_search_page_and_header_search_find_rules(zensical_site: str, browser: Any) -> None:
    with Visit(browser, zensical_site + "search/") as visit:
        assert site_checks._results(visit.page, "Tier of Power Extra Dice")[0] == "Tier of Power Extra Dice"
        assert site_checks._results(visit.page, "KP")[0] == "Ki Points"
        visit.page.check('input[name="kind"][value="term"]')
        assert site_checks._results(visit.page, "dice") and all("term" in t for t in site_checks._facets(visit.page))
    with Visit(browser, zensical_site) as visit:
        visit.page.fill("#rulesc-qs-input", "Botch Range")
        visit.page.wait_for_selector("#rulesc-qs-results li a")
        visit.page.press("#rulesc-qs-input", "Enter")
        visit.page.wait_for_url("**/dbu/core-rules/category-increase-limit/#botch-range")
        assert visit.errors == []
