"""The game's own site: the home page titled and introduced by the project's mkdocs.yml, a browser title that names
the site once, and the pages for authors linked from the home page's end but left out of the players' navigation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.run_case import run_rulesc

CASE = REPO / "tests/cases/good/publications"


def _build(root: Path, config: str) -> Path:
    shutil.copytree(CASE / "content", root / "content")
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    status, _, err = run_rulesc("--root", str(root), "build")
    assert (status, err) == (0, "")
    return root / "site"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one-system publications case, its mkdocs.yml naming and describing the game."""
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"(?m)^site_name: .*$", "site_name: The Open Game", config)
    config = re.sub(r"(?m)^site_description: .*$", "site_description: 'Rules & <b>odds</b> of the Open Game.'", config)
    return _build(tmp_path_factory.mktemp("home"), config.replace("  custom_dir: site_overrides\n", ""))


def _title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html)
    return found.group(1) if found else ""


def test_the_home_page_is_the_games(site: Path) -> None:
    home = (site / "index.html").read_text(encoding="utf-8")
    assert _title(home) == "The Open Game"  # once: not "The Open Game - The Open Game"
    assert re.search(r'<h1 id="[^"]*">The Open Game<', home)
    assert "<p>Rules &amp; &lt;b&gt;odds&lt;/b&gt; of the Open Game.</p>" in home
    assert '<meta name="description" content="Rules &amp; &lt;b&gt;odds&lt;/b&gt; of the Open Game.">' in home
    assert "<h2>Systems</h2>" not in home
    assert '<a class="rulesc-systems__name" href="open/"><strong>Open Game</strong></a>' in home
    assert "look rules up during play" not in home  # rulesc's own words are gone


def test_other_pages_name_the_site_once_after_their_own_title(site: Path) -> None:
    assert _title((site / "open/basics/index.html").read_text(encoding="utf-8")) == "Basics - The Open Game"
    assert _title((site / "errors/index.html").read_text(encoding="utf-8")) == "Error codes - The Open Game"


def test_pages_for_authors_are_linked_from_the_home_page_and_not_the_navigation(site: Path) -> None:
    home = (site / "index.html").read_text(encoding="utf-8")
    authors = re.findall(r'<p class="rulesc-muted rulesc-for-authors">(.*?)</p>', home)
    assert re.findall(r'href="([^"]*)"', authors[0]) == ["dice-notation/", "errors/"]
    assert (site / "dice-notation/index.html").is_file() and (site / "errors/formulas/index.html").is_file()
    for page in ("index.html", "open/basics/index.html", "errors/index.html"):
        navigation = (site / page).read_text(encoding="utf-8").split('<nav class="md-nav md-nav--primary"')[1]
        links = re.findall(r'class="md-nav__link[^"]*"[^>]*>\s*<span class="md-ellipsis">\s*([^<]*?)\s*<',
                           navigation.split("</nav>")[0])
        if page == "errors/index.html":  # a page out of the navigation shows its own contents in the drawer
            assert links[:3] == ["Error codes", "Error codes", "Layout"] and "Dice notation" not in links
        else:
            assert "Error codes" not in links and "Dice notation" not in links and "Basics" in links, page
