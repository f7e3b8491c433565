"""Declared kinds and structured rules in Debian's Chromium: the index filter and search speak the system's words, and
the calculator of a rule with outcomes answers with what happens on each."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesc.pipeline import Project, build_project
from tests.browser import serve_site
from tests.conftest import REPO
from tests.tabs import Tab

CASE = Path(__file__).resolve().parent / "cases" / "good" / "declared-kinds"


@pytest.fixture(scope="module")
def oathbound_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("oathbound-site")
    shutil.copytree(CASE / "content", root / "content")
    shutil.copy2(REPO / "rulesc/scaffold/mkdocs.yml", root / "mkdocs.yml")
    build_project(Project(root))
    with serve_site(root / "site") as url:
        yield url


def test_each_index_table_is_filtered_by_its_declared_plural(oathbound_site: str, tab: Tab) -> None:
    with tab.use(oathbound_site + "oathbound/tables/") as visit:
        labels = visit.page.locator(".rulesc-filter > label[for]").all_inner_texts()
        assert labels == ["Filter moves", "Filter 型", "Filter oracles"]
        visit.page.fill("#index-move-filter", "strike")
        assert visit.page.locator("#index-move-filter ~ span").inner_text() == "0 of 1 shown"
        assert visit.errors == []


def test_search_names_a_hit_by_its_kind_and_filters_by_the_declared_words(oathbound_site: str, tab: Tab) -> None:
    with tab.use(oathbound_site + "search/?q=danger") as visit:
        page = visit.page
        page.wait_for_function("/results/.test(document.querySelector('.rulesc-search__status').textContent)")
        where = page.locator(".rulesc-search__results li .rulesc-search__where").all_inner_texts()
        assert "Move \u00b7 Oathbound \u203a Moves" in where
        boxes = page.locator("fieldset.rulesc-search__facet:nth-of-type(2) label").all_inner_texts()
        assert [box.strip() for box in boxes] == ["calculators", "moves", "oracles", "型", "terms"]
        assert visit.errors == []


def test_the_calculator_answers_with_each_outcomes_text_and_chance(oathbound_site: str, tab: Tab) -> None:
    with tab.use(oathbound_site + "oathbound/moves/") as visit:
        page = visit.page
        output = page.locator("#calc-oathbound-face-danger-odds-out-result")
        assert output.inner_text() == ("Strong hit 23.17%: You do it. Take +1 momentum. Weak hit 43.67%: You do it "
                                       "at a cost. Miss 33.17%: It goes wrong; pay the price.")
        page.fill("#calc-oathbound-face-danger-odds-stat", "3")
        page.fill("#calc-oathbound-face-danger-odds-adds", "1")
        page.wait_for_function("document.querySelector('#calc-oathbound-face-danger-odds-out-result')"
                               ".textContent.startsWith('Strong hit 45.17%')")
        assert output.inner_text() == ("Strong hit 45.17%: You do it. Take +1 momentum. Weak hit 39.67%: You do it "
                                       "at a cost. Miss 15.17%: It goes wrong; pay the price.")
        row = page.locator("table[data-rulesc-chances] tbody tr").nth(1)  # Stat 2, the page's own chances
        assert row.inner_text().split() == ["2", "23.17%", "43.67%", "33.17%"]  # stay as the page was built
        assert visit.errors == []
