"""The site built by Zensical (`rulesc build --site-builder zensical`): byte-identical rebuilds, the same search
index, scripts and calculators as MkDocs' build, and in Chromium the pages, calculators, previews, index tables and
search all work."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulesc.analyze.program import Program
from rulesc.build.site_config import read_settings
from rulesc.model import Calculator
from rulesc.pipeline import Compiled, Project, build_project, build_site, compile_project, compiled_nav
from tests import test_browser as calculator_checks
from tests import test_site_browser as site_checks
from tests.browser import preview_of, serve_site
from tests.conftest import copy_project
from tests.tabs import Tab
from tests.test_build import digest
from tests.test_site import broken_links

PAGES = ("", "dbu/core-rules/tier-of-power-section/", "dbu/glossary/", "search/", "errors/", "errors/formulas/")
# One page of each kind that holds calculators: a chapter's part (every rule's calculator is on one) and a part of a
# GM screen.
DRIVEN = ("dbu/core-rules/tier-of-power-section/", "dbu/gm-screen/keywords-clashes/")


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


@pytest.fixture(scope="module")
def compiled(zensical_built: Path) -> Compiled:
    return compile_project(Project(zensical_built))


@pytest.fixture(scope="module")
def programs(compiled: Compiled) -> tuple[Program, ...]:
    return compiled.programs


def test_a_zensical_rebuild_is_byte_identical(zensical_built: Path, built: Path, compiled: Compiled,
                                             tmp_path: Path) -> None:
    """Two Zensical builds give the same bytes, shown in two halves. build/ (the engine, the export and the pages'
    Markdown) is written before the site and whatever the builder: the Zensical build's is the bytes of the shared
    MkDocs build's, a compile of the same content of its own (often in another process). The site is built again
    from a copy of that Markdown by the build's site step, with the navigation the build gives it. A whole second
    build also compiled and emitted every system again (about 2 CPU-seconds), which the shared build has done."""
    first = digest(zensical_built)
    assert sum(name.startswith("site/") for name in first) > 50
    assert _without_site(first) == _without_site(digest(built))
    again = _site_rebuilt(zensical_built, compiled, tmp_path / "again")
    assert digest(again) == first


def _without_site(files: dict[str, str]) -> dict[str, str]:
    return {name: sha for name, sha in files.items() if not name.startswith("site/")}


def _site_rebuilt(project: Path, compiled: Compiled, root: Path) -> Path:
    """A copy of the built `project` without its site, whose site build_project's site step then builds again."""
    shutil.copytree(project, root, ignore=lambda folder, _: ["site"] if Path(folder) == project else [])
    build_site(read_settings(root), root / "build/docs", root / "site", compiled_nav(compiled), builder="zensical")
    return root


def test_zensical_gets_the_same_search_index_and_scripts_as_mkdocs(zensical_built: Path, built: Path) -> None:
    """The index is rulesc's own build step: the same bytes whichever builder wrote the pages around it; and the
    generated Markdown is the same for either builder (Zensical reads a copy with its links restated)."""
    def files(root: Path, folder: str) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / folder).rglob("*"))
                if p.is_file()}
    for folder in ("site/pagefind", "site/assets/rulesc", "build/docs"):
        assert len(files(built, folder)) > 3
        assert files(zensical_built, folder) == files(built, folder), folder
    page = zensical_built / "site/dbu/core-rules/tier-of-power-section/index.html"
    assert "rulesc-qs-input" in page.read_text(encoding="utf-8")
    assert not list(zensical_built.glob(".rulesc-*")) and not (zensical_built / ".cache").exists()


def test_every_internal_link_and_anchor_resolves(zensical_built: Path) -> None:
    """Zensical reads a relative link in a page as relative to its Markdown file, not to the page's address: the
    links rulesc writes reach their pages and anchors all the same (rulesc/build/source_links.py)."""
    broken, checked = broken_links(zensical_built / "site")
    assert broken == []
    assert checked > 1000


def test_every_page_loads_with_rulesc_scripts_and_no_error(zensical_site: str, tab: Tab) -> None:
    with tab.use("about:blank") as visit:  # one tab reads the pages, a load each
        for path in PAGES:
            visit.go(zensical_site + path)
            assert visit.page.locator("#rulesc-qs-input").is_visible(), path
            assert visit.page.locator("h1").count() == 1, path
            assert any(r.endswith("assets/rulesc/site.js") for r in visit.requests), path
            assert not any("search.json" in r or "/workers/" in r for r in visit.requests), path  # Zensical's own
            assert [r for r in visit.requests if not r.startswith(zensical_site)] == [], path
            assert visit.errors == [], path


class _Scripted(HTMLParser):
    """What the calculators' scripts read of a page, as written: each calculator and roll table whole, the address of
    a part's landing page, and each tag that loads a script or holds the first paint (link); and the calculators'
    keys in their order."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.text, self.found, self.calculators = text, list[str](), list[str]()
        self.open: list[tuple[str, int | None]] = []  # each element open, with its offset if it is kept whole
        self.starts = [0]
        for line in text.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.feed(text)
        self.close()

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        self.calculators += [names["data-calculator"] or ""] if "data-calculator" in names else []
        self.found += [f"landing {names['data-rulesc-landing']}"] if "data-rulesc-landing" in names else []
        if tag == "link" or (tag == "script" and "src" in names):
            self.found.append(self.get_starttag_text() or "")
        if tag not in self.VOID:
            whole = "data-calculator" in names or "data-roll-table" in names
            self.open.append((tag, self._offset() if whole else None))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            name, start = self.open.pop()
            if start is not None:
                self.found.append(self.text[start:self._offset() + len(f"</{tag}>")])
            if name == tag:
                return


def _scripted(page: Path) -> _Scripted:
    return _Scripted(page.read_text(encoding="utf-8"))


def test_every_calculator_page_gives_the_scripts_what_mkdocs_gives_them(zensical_built: Path, built: Path,
                                                                       programs: tuple[Program, ...]) -> None:
    """Each page with calculators holds, in the Zensical build, the MkDocs build's calculators (each element as
    written), roll tables, landing page and script tags, and the scripts are the same bytes (above): the MkDocs site,
    where tests/test_browser.py drives every calculator, tells how each behaves here. What only Zensical writes, the
    page around them, is checked in the browser on a page of each kind (below)."""
    pages = calculator_checks._pages(programs)
    assert sum(map(len, pages.values())) >= 80  # the bundled systems have 91 calculators
    for path, calcs in pages.items():
        ours = _scripted(zensical_built / "site" / path / "index.html")
        assert ours.found == _scripted(built / "site" / path / "index.html").found, path
        assert ours.calculators == [f"{program.system.id}/{calc.id}" for program, calc in calcs], path
        assert sum(block.startswith("<div") and "data-calculator=" in block for block in ours.found) == len(calcs), path
        assert sum(block.startswith("<script src=") for block in ours.found) == 3, path  # theme, offline, site.js


def test_calculators_compute_as_the_engine_does_on_each_kind_of_page(zensical_built: Path, zensical_site: str,
                                                                     tab: Tab, programs: tuple[Program, ...]) -> None:
    """On a page of each kind that holds calculators, every one binds, shows its defaults and follows a change to
    each of its inputs as the engine computes them, as tests/test_browser.py drives every calculator of MkDocs'."""
    problems: list[str] = []
    with tab.use("about:blank") as visit:
        for path in DRIVEN:
            calcs = _calculators_on(zensical_built / "site" / path / "index.html", programs)
            assert len(calcs) >= 3, path
            problems += calculator_checks.drive_page(visit, zensical_site, path, calcs)
    assert problems == []


def _calculators_on(page: Path, programs: tuple[Program, ...]) -> list[tuple[Program, Calculator]]:
    """The calculators a built page holds, in its order, with their programs."""
    known = {f"{program.system.id}/{calc.id}": (program, calc)
             for program in programs for calc in program.calculators.values()}
    return [known[key] for key in _scripted(page).calculators]


def test_previews_and_index_tables_work(zensical_site: str, tab: Tab) -> None:
    with tab.use(zensical_site + "dbu/core-rules/tier-of-power-section/") as visit:
        link, tip = visit.page.locator("a.rulesc-ref--term").first, visit.page.locator("#rulesc-preview")
        assert not tip.is_visible()
        link.focus()
        assert tip.is_visible() and tip.inner_text() == preview_of(link)
        visit.go(zensical_site + "dbu/tables/maneuver/")  # a kind's page of the split tables
        table = visit.page.locator("[data-index-table]").first
        total = table.locator("tbody tr").count()
        table.locator("input[type=search]").fill("zzz-no-such-rule")
        assert total > 3 and table.locator("[role=status]").inner_text() == f"0 of {total} shown"
        assert visit.errors == []


def test_search_page_and_header_search_find_rules(zensical_site: str, tab: Tab) -> None:
    with tab.use(zensical_site + "search/") as visit:
        assert site_checks._results(visit.page, "Tier of Power Extra Dice")[0] == "Tier of Power Extra Dice"
        assert site_checks._results(visit.page, "KP")[0] == "Ki Points"
        visit.page.check('input[name="kind"][value="term"]')
        assert site_checks._results(visit.page, "dice") and all("term" in t for t in site_checks._facets(visit.page))
    with tab.use(zensical_site) as visit:
        visit.page.fill("#rulesc-qs-input", "Botch Range")
        visit.page.wait_for_selector("#rulesc-qs-results li a")
        visit.page.press("#rulesc-qs-input", "Enter")
        visit.page.wait_for_url("**/dbu/core-rules/category-increase-limit/#botch-range")
        assert visit.errors == []
