"""The site in system Chromium: no outside requests, axe-core, search, previews, index tables, phone and print."""

from __future__ import annotations

import subprocess
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from tests.browser import Visit, axe_results, lay_out_everything, preview_of, serious_violations
from tests.conftest import REPO
from tests.tabs import Tabs

AXE_DIR = REPO / "tests/js"
AXE = AXE_DIR / "node_modules/axe-core/axe.min.js"
PAGE_TYPES = {"home": "", "system landing": "dbu/", "chapter with calculators": "dbu/core-rules/tier-of-power-section/",
              "split chapter's landing page": "dbu/core-rules/", "GM screen": "dbu/gm-screen/",
              "GM screen part": "dbu/gm-screen/keywords-clashes/",
              "glossary": "dbu/glossary/", "index tables": "dbu/tables/",
              "a kind's index table": "dbu/tables/maneuver/", "search": "search/"}
DESKTOP = {"width": 1366, "height": 900}

# Every control a reader can tap, with its size: a link, button, field, summary, or a label standing in for a
# hidden checkbox (the drawer's arrows); a checkbox with a visible label counts as big as the label. Left out:
# what is not shown (no area, hidden, visually hidden for screen readers), search results (whose layout search
# owns) and links inside a sentence, which WCAG 2.5.8 exempts: an inline link whose paragraph, item or cell holds
# other words.
UNDERSIZED_CONTROLS = """() => {
  const words = (node) => node.textContent.replace(/\\s+/g, " ").trim();
  const inSentence = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    const block = el.parentElement.closest("p, li, td, th, dd, dt, div");
    return Boolean(block) && words(block).length > words(el).length + 1;
  };
  const area = (el) => { const box = el.getBoundingClientRect(); return box.width * box.height; };
  const shown = (el) => area(el) > 0 && getComputedStyle(el).visibility !== "hidden"
    && !el.closest(".rulesc-sr-only, [hidden], .rulesc-search__results, .rulesc-qs__results");
  const size = (el) => {
    const box = el.getBoundingClientRect();
    const label = el.labels && el.labels.length && (el.type === "checkbox" || el.type === "radio")
      ? el.labels[0].getBoundingClientRect() : null;
    return label && label.height > box.height ? [label.width + box.width, label.height] : [box.width, box.height];
  };
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary, label[for]";
  return Array.from(document.querySelectorAll(controls)).filter((el) => {
    if (!shown(el) || inSentence(el)) return false;
    if (el.tagName === "LABEL") {
      const control = document.getElementById(el.htmlFor);
      if (control && shown(control) && getComputedStyle(control).opacity !== "0") return false;
    }
    const [width, height] = size(el);
    return width < 24 || height < 24;
  }).map((el) => {
    const [width, height] = size(el);
    const name = `${el.tagName.toLowerCase()}.${el.classList[0] || ""} "${words(el).slice(0, 24)}"`;
    return `${name} ${Math.round(width)}x${Math.round(height)}`;
  });
}"""
TAP_PAGES = {**PAGE_TYPES, "part page": "dbu/maneuvers/counter-maneuvers/"}


def _tab(tabs: Tabs, url: str, viewport: dict[str, int], phone: bool) -> AbstractContextManager[Visit]:
    """The module's phone tab (touch) or its desktop one, at `url` and `viewport`."""
    return tabs.use(url, viewport, is_mobile=True, has_touch=True) if phone else tabs.use(url, viewport)


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core, pinned by tests/js/package-lock.json, installed with npm ci the first time."""
    if not AXE.is_file():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", str(AXE_DIR)], check=True,
                       capture_output=True)
    return AXE.read_text(encoding="utf-8")


def _axe(page: Any, axe_source: str) -> list[str]:
    return serious_violations(axe_results(page, axe_source))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_type_stays_on_the_site_and_logs_no_error(site: str, tabs: Tabs, scheme: str) -> None:
    """One visit per page type and colour scheme at 1366 px: no request leaves the site (the search page's after a
    search has loaded its index), the console shows no error, and no control is too small to tap (as the page
    loaded: test_site_phone.py measures a phone's). axe-core runs on the same page types at both widths and in both
    schemes in test_site_table.py."""
    undersized = {}
    with tabs.use("about:blank", DESKTOP, scheme) as visit:  # one tab goes from page type to page type
        for name, path in TAP_PAGES.items():
            visit.go(site + path)
            expected = "slate" if scheme == "dark" else "default"
            assert visit.page.get_attribute("body", "data-md-color-scheme") == expected, name
            assert visit.page.locator("a[href], button").count() > 5, name
            lay_out_everything(visit.page)
            undersized[name] = visit.page.evaluate(UNDERSIZED_CONTROLS)
            if name == "search":
                visit.page.fill("#rulesc-search-q", "tier")
                visit.page.wait_for_selector(".rulesc-search__results li")
            assert [r for r in visit.requests if not r.startswith(site)] == [], name
            assert visit.errors == [], name
            assert len(visit.requests) > 3, name
    assert undersized == {name: [] for name in TAP_PAGES}


def _results(page: Any, query: str) -> list[str]:
    page.fill("#rulesc-search-q", query)
    page.wait_for_function("document.querySelector('.rulesc-search__status').textContent.indexOf('results') > 0"
                           " || document.querySelector('.rulesc-search__status').textContent === 'No results'")
    return list(page.locator(".rulesc-search__results li .rulesc-hit__title").all_inner_texts())


def _facets(page: Any) -> list[str]:
    """The system and kind line under each search result."""
    return list(page.locator(".rulesc-search__results li .rulesc-search__where").all_inner_texts())


def test_search_ranks_exact_names_first_and_finds_abbreviations_and_text(site: str, tabs: Tabs) -> None:
    with tabs.use(site + "search/") as visit:
        page = visit.page
        assert _results(page, "Tier of Power Extra Dice")[0] == "Tier of Power Extra Dice"
        assert _results(page, "critical target")[0] == "Critical Target"
        assert _results(page, "KP")[0] == "Ki Points"
        assert _results(page, "ToP")[0] == "Tier of Power"
        assert "Botch Range" in _results(page, "botch")
        _results(page, "dice")
        unfiltered = _facets(page)
        assert any("term" not in t for t in unfiltered) and any("Dragon Ball Universe" not in t for t in unfiltered)
        page.check('input[name="kind"][value="term"]')
        assert _results(page, "dice") and all("term" in t for t in _facets(page))
        page.uncheck('input[name="kind"][value="term"]')
        page.check('input[name="system"][value="dbu"]')
        assert _results(page, "dice") and all("Dragon Ball Universe" in t for t in _facets(page))
        assert visit.errors == []


@pytest.mark.parametrize("width", [390, 1366])
def test_a_rule_outranks_its_calculator_and_each_hit_is_one_link_saying_what_and_where(
        site: str, tabs: Tabs, width: int) -> None:
    """"called shot": the rule first, then its calculator of the same name, told apart by the line under the name;
    every hit is one link at least 24 px tall, and a tap on its snippet follows it."""
    phone = width == 390
    with _tab(tabs, site + "search/", {"width": width, "height": 844}, phone) as visit:
        page = visit.page
        assert _results(page, "called shot")[:2] == ["Called Shot", "Called Shot"]
        where = _facets(page)
        chapter = "Dragon Ball Universe \u203a Actions and Maneuvers"
        assert where[:2] == [f"Maneuver \u00b7 {chapter} \u203a Modifier Maneuvers",
                             "Calculator \u00b7 Dragon Ball Universe \u203a GM screen \u203a Actions and Maneuvers"]
        top = list(zip(_results(page, "called shot"), _facets(page), strict=True))[:5]
        assert len(set(top)) == len(top) == 5  # no two top hits look the same
        boxes = page.evaluate("[...document.querySelectorAll('.rulesc-search__results li')].map((li) => "
                              "[li.children.length, li.firstElementChild.tagName, "
                              "li.firstElementChild.getBoundingClientRect().height, "
                              "li.firstElementChild.getBoundingClientRect().width])")
        assert all(n == 1 and tag == "A" and h >= 24 and w >= 24 for n, tag, h, w in boxes), boxes
        snippet = page.locator(".rulesc-search__results li .rulesc-search__snippet").first
        snippet.tap() if phone else snippet.click()
        page.wait_for_url(site + "dbu/maneuvers/modifier-maneuvers/#called-shot")
        assert visit.errors == []


def test_header_search_lands_on_the_rule_with_enter(site: str, tabs: Tabs) -> None:
    with tabs.use(site) as visit:
        page = visit.page
        page.fill("#rulesc-qs-input", "Botch Range")
        page.wait_for_selector("#rulesc-qs-results li a")
        assert page.locator("#rulesc-qs-results li .rulesc-hit__title").first.inner_text() == "Botch Range"
        page.press("#rulesc-qs-input", "Enter")
        page.wait_for_url("**/dbu/core-rules/category-increase-limit/#botch-range")
        assert visit.errors == []


def test_previews_show_on_keyboard_focus_and_on_first_tap(site: str, tabs: Tabs) -> None:
    with tabs.use(site + "dbu/core-rules/tier-of-power-section/") as visit:
        link = visit.page.locator("a.rulesc-ref--term").first
        tip = visit.page.locator("#rulesc-preview")
        assert not tip.is_visible()
        link.focus()
        assert tip.is_visible() and tip.inner_text() == preview_of(link)
        assert link.get_attribute("aria-describedby") == "rulesc-preview"
        visit.page.keyboard.press("Escape")
        assert not tip.is_visible()
    with _tab(tabs, site + "dbu/core-rules/tier-of-power-section/", {"width": 390, "height": 844}, True) as touch:
        link = touch.page.locator(".md-content a.rulesc-ref--rule").first
        href = link.get_attribute("href")
        link.tap()
        assert touch.page.locator("#rulesc-preview").is_visible()
        assert touch.page.evaluate("location.hash") != "#" + href.split("#")[1]  # the first tap only previews
        link.tap()
        touch.page.wait_for_function(f"location.hash === {href.split('#')[1]!r}.replace(/^/, '#')")


def test_copy_link_copies_the_rules_permalink(site: str, browser: Any) -> None:
    with Visit(browser, site + "dbu/core-rules/category-increase-limit/",
               permissions=["clipboard-read", "clipboard-write"]) as visit:
        button = visit.page.locator("#botch-range .rulesc-copy")
        assert button.get_attribute("aria-label") == "Copy link to Botch Range"
        button.click()
        copied = visit.page.evaluate("navigator.clipboard.readText()")
        assert copied == site + "dbu/core-rules/#botch-range"  # the chapter's page, which sends it on to the part


def test_index_tables_filter_and_sort_without_a_server(built: Path, tabs: Tabs) -> None:
    with tabs.use((built / "site/dbu/tables/maneuver/index.html").as_uri()) as visit:  # a kind's page
        table = visit.page.locator("[data-index-table]").first
        total = table.locator("tbody tr").count()
        assert total > 3
        table.locator("input[type=search]").fill("zzz-no-such-rule")
        assert table.locator("tbody tr:not([hidden])").count() == 0
        assert table.locator("[role=status]").inner_text() == f"0 of {total} shown"
        table.locator("input[type=search]").fill("")
        assert table.locator("tbody tr:not([hidden])").count() == total
        header = table.locator("th").first
        header.locator("button").click()
        names = table.locator("tbody tr td:first-child").all_inner_texts()
        assert header.get_attribute("aria-sort") == "ascending" and names == sorted(names, key=str.lower)
        header.locator("button").click()
        names = table.locator("tbody tr td:first-child").all_inner_texts()
        assert header.get_attribute("aria-sort") == "descending"
        assert names == sorted(names, key=str.lower, reverse=True) != sorted(names, key=str.lower)
        assert visit.errors == []


def test_phone_layout_has_no_sideways_scroll(site: str, tabs: Tabs, tmp_path: Path) -> None:
    with _tab(tabs, "about:blank", {"width": 360, "height": 740}, True) as visit:
        for path in ("", "dbu/core-rules/tier-of-power-section/", "dbu/tables/", "dbu/tables/general/",
                     "errors/formulas/"):  # one tab reads them in turn, each a page load of its own
            visit.go(site + path)
            width = visit.page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert width[0] <= width[1] == 360, path
            shot = tmp_path / f"phone-{path.replace('/', '_') or 'home'}.png"
            visit.page.screenshot(path=str(shot), full_page=False)
            assert shot.stat().st_size > 5000
            assert visit.page.locator(".rulesc-qs-open").is_visible()  # the header's search box, folded


PRINT_HIDDEN = (".md-header", ".md-sidebar--primary", ".rulesc-copy", ".md-footer")


def test_print_shows_the_chapter_without_the_chrome(site: str, tabs: Tabs) -> None:
    with tabs.use(site + "dbu/core-rules/tier-of-power-section/") as visit:
        page = visit.page
        assert [s for s in PRINT_HIDDEN if not page.locator(s).first.is_visible()] == []  # all shown on screen
        page.emulate_media(media="print")
        try:
            assert [s for s in PRINT_HIDDEN if page.locator(s).first.is_visible()] == []
            assert page.locator("h1").is_visible() and page.locator("#tier-of-power").is_visible()
            assert len(page.pdf()) > 20000
        finally:
            page.emulate_media(media="null")  # no print emulation left for the tab's next test


def test_palette_toggle_switches_between_light_and_dark(site: str, tabs: Tabs) -> None:
    with tabs.use(site, color_scheme="light") as visit:
        assert visit.page.get_attribute("body", "data-md-color-scheme") == "default"
        visit.page.locator("label.md-header__button[for^='__palette']:visible").first.click()
        assert visit.page.get_attribute("body", "data-md-color-scheme") == "slate"
