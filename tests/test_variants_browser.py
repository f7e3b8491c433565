"""A site built with a variant and a tagged history, in system Chromium: the markers, the base rule beside a
replaced one, each rule's history and the What changed page are readable, pass axe and stay on the site."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

from tests.browser import serve_site
from tests.conftest import REPO
from tests.run_case import run_rulesc
from tests.tabs import Tab
from tests.test_diff import tag_an_edit
from tests.test_site_browser import _axe
from tests.test_site_browser import axe_source as axe_source  # noqa: F401 - the fixture
from tests.test_variants import HOMEBREW


@pytest.fixture(scope="module")
def variant_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The outside-author rulebook tagged v1.0, one text change tagged v1.1, built with its homebrew variant."""
    root = tmp_path_factory.mktemp("variant-site")
    shutil.copytree(HOMEBREW / "content", root / "content")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site_overrides", root / "site_overrides")
    tag_an_edit(root, ("v1.0", "v1.1"), root / "content/q9-odd/ch-0.yaml", "Your [[tilt]]", "Every [[tilt]]")
    status, _, err = run_rulesc("--root", str(root), "build", "--variant", "no-tilt")
    assert (status, err) == (0, "")
    with serve_site(root / "site") as url:
        yield url


def test_markers_base_rule_and_history_open_and_pass_axe(variant_site: str, tab: Tab, axe_source: str) -> None:
    with tab.use(variant_site + "q9-odd/ch-0/") as visit:
        page = visit.page
        assert page.locator(".rulesc-variant .admonition-title").all_inner_texts() == ["Homebrew: No tilt"] * 4
        base = page.locator("details.rulesc-base")
        assert not base.locator("p").is_visible()
        base.locator("summary").click()
        assert base.locator("p").inner_text() == "Nothing in the zine rounds."
        history = page.locator('[data-rule="lift"] details.rulesc-history')
        history.locator("summary").click()
        assert history.locator("li").all_inner_texts() == ["text reworded: Your Every tilt starts at tilt. "
                                                          "in v1.1"]  # links and values as words
        assert history.locator("del").inner_text() == "Your" and history.locator("ins").inner_text() == "Every"
        assert _axe(page, axe_source) == []
        assert [r for r in visit.requests if not r.startswith(variant_site)] == [] and visit.errors == []


def test_what_changed_page_lists_the_version_and_passes_axe(variant_site: str, tab: Tab, axe_source: str) -> None:
    with tab.use(variant_site + "q9-odd/what-changed/") as visit:
        page = visit.page
        assert page.locator("h2").first.inner_text().startswith("v1.1 (")
        assert page.locator(".rulesc-changes li").all_inner_texts() == [
            "Lift: text reworded: Your Every tilt starts at tilt."]
        assert _axe(page, axe_source) == []
        assert visit.errors == []
