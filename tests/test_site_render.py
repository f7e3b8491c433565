"""The site renders only what is near the screen on a phone (content-visibility), yet anchors, wide tables' tab stops,
calculators, printing and the light/dark switch all still work, in system Chromium. (Find-in-page is Chromium's own:
window.find() does not search skipped content, so it cannot be driven from here.)"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from tests.browser import TIMEOUT_MS, Visit, calculators_bound, two_frames

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _pages_of_rules(built: Path) -> list[tuple[str, list[str], int]]:
    """Every page holding rules: its path, its rule headings' ids in page order, and its calculators."""
    found = []
    for html in sorted((built / "site").rglob("index.html")):
        text = html.read_text(encoding="utf-8")
        if 'class="rulesc-rule"' in text:
            ids = re.findall(r'<h[2-6] data-kind="[^"]+" id="([^"]+)"', text)
            found.append((html.parent.relative_to(built / "site").as_posix() + "/", ids,
                          text.count("data-calculator=")))
    return found


@pytest.fixture(scope="module")
def chapter(built: Path) -> tuple[str, list[str]]:
    """The page of rules with the most rules among those with a calculator (long chapters are split into parts, so
    this is the longest part)."""
    path, ids, _ = max((page for page in _pages_of_rules(built) if page[2]), key=lambda page: len(page[1]))
    assert len(ids) >= 20, "the bundled content has a page of rules long enough to test with"
    return path, ids


@pytest.fixture(scope="module")
def tabled(built: Path) -> str:
    """The page of rules holding the table with the longest row of text: the one most likely too wide for a phone."""
    def longest_row(html: Path) -> int:
        rows = re.findall(r"<tr.*?</tr>", html.read_text(encoding="utf-8"), re.S)
        return max((len(" ".join(unescape(re.sub(r"<[^>]+>", "", row)).split())) for row in rows), default=0)
    path = max(_pages_of_rules(built), key=lambda page: longest_row(built / "site" / page[0] / "index.html"))[0]
    assert longest_row(built / "site" / path / "index.html") > 300, "the bundled content has a table too wide"
    return path


def test_rules_off_screen_are_skipped_on_screen_but_not_calculators_and_all_are_printed(
        site: str, browser: Any, chapter: tuple[str, list[str]]) -> None:
    path, ids = chapter
    with Visit(browser, site + path, **PHONE) as visit:
        page = visit.page
        states = page.evaluate("Array.from(document.querySelectorAll('.md-typeset .rulesc-rule'), (r) => ["
                               "r.querySelector('[data-calculator]') !== null, getComputedStyle(r).contentVisibility,"
                               "r.getBoundingClientRect().top < innerHeight])")
        assert {cv for calc, cv, _ in states if calc} == {"visible"}  # its results read at once, as text
        # the first screen's are laid out at once: skipped at a guessed height, each would move what is below it
        assert {cv for _, cv, shown in states if shown} == {"visible"}
        assert [cv for calc, cv, _ in states if not calc][-10:] == ["auto"] * 10
        page.emulate_media(media="print")
        assert page.evaluate("getComputedStyle(document.querySelector('.rulesc-rule')).contentVisibility") == "visible"


@pytest.mark.parametrize("page", ["dbu/core-rules/tier-of-power-section/", "dbu/maneuvers/counter-maneuvers/",
                                  "dbu/glossary/"])
def test_the_first_screens_rules_and_terms_are_laid_out_at_once(site: str, browser: Any, page: str) -> None:
    """A rule or term the parser adds after the first paint would start skipped at its guessed 24rem and, on screen,
    be laid out at its own height a frame later, moving everything below it (a layout shift)."""
    with Visit(browser, site + page, **PHONE) as visit:
        states = visit.page.evaluate("Array.from(document.querySelectorAll('.md-typeset :is(.rulesc-rule, "
                                     ".rulesc-term)'), (r) => [getComputedStyle(r).contentVisibility,"
                                     "r.getBoundingClientRect().top < innerHeight])")
        assert [cv for cv, shown in states if shown] == ["visible"] * sum(shown for _, shown in states) != []


# Resolves once every calculator on the screen has computed (they compute as they near it, a few at a time, after
# their scripts bind them), then two frames more: what a late step lays out has been laid out. A page whose
# calculators never compute fails after `bound` ms.
ON_SCREEN_COMPUTED = """(bound) => new Promise((done, failed) => {
  const shown = () => Array.from(document.querySelectorAll("[data-calculator]")).filter((box) => {
    const rect = box.getBoundingClientRect();
    return rect.bottom > 0 && rect.top < innerHeight;
  });
  const frames = () => requestAnimationFrame(() => requestAnimationFrame(done));
  if (shown().every((box) => box.dataset.computed === "1")) return frames();
  const watch = new MutationObserver(() => {
    if (shown().every((box) => box.dataset.computed === "1")) { watch.disconnect(); frames(); }
  });
  watch.observe(document, {attributes: true, attributeFilter: ["data-computed"], childList: true, subtree: true});
  setTimeout(() => { watch.disconnect(); failed(new Error(`not computed after ${bound} ms`)); }, bound);
})"""


def settle(page: Any) -> None:
    """Until the page's scripts have all come and run and the calculators on the screen have computed."""
    page.wait_for_load_state("networkidle")
    calculators_bound(page)
    page.evaluate(ON_SCREEN_COMPUTED, TIMEOUT_MS)


@pytest.mark.parametrize("where", [-1, -12])
def test_a_link_to_a_far_rule_lands_on_its_heading(site: str, browser: Any, chapter: tuple[str, list[str]],
                                                  where: int) -> None:
    path, ids = chapter
    with Visit(browser, f"{site}{path}#{ids[where]}", **PHONE) as visit:
        page = visit.page
        settle(page)  # the heading must stay put once everything that lays out late has
        top, header, bottom = page.evaluate(
            "(id) => [document.getElementById(id).getBoundingClientRect().top,"
            " document.querySelector('.md-header').getBoundingClientRect().bottom,"
            " Math.abs(scrollY + innerHeight - document.documentElement.scrollHeight) < 2]", ids[where])
        # under the header and the back-to-top pill (site.css: a target's scroll margin is 5.6rem), or as near as
        # the end of the page lets it come
        assert 0 <= top <= header + 64 or (bottom and top < 844), (ids[where], top, header)
        assert visit.errors == []


def test_a_wide_table_gets_a_tab_stop_and_a_name_once_laid_out_and_a_narrow_one_none(
        site: str, browser: Any, tabled: str) -> None:
    path = tabled
    with Visit(browser, site + path, **PHONE) as visit:
        page = visit.page
        count = page.locator(".md-typeset__scrollwrap").count()
        wide = narrow = 0
        for index in range(count):
            box = page.locator(".md-typeset__scrollwrap").nth(index)
            box.evaluate("(b) => { const group = b.closest('details'); if (group) group.open = true; }")  # sources
            box.scroll_into_view_if_needed()
            if box.evaluate("(b) => b.scrollWidth > b.clientWidth"):
                wide += 1
                page.wait_for_function("(b) => b.getAttribute('role') === 'region'", arg=box.element_handle())
                assert box.get_attribute("tabindex") == "0" and box.get_attribute("aria-label"), index
            else:
                narrow += 1
                assert box.get_attribute("role") is None and box.get_attribute("tabindex") is None, index
        assert wide and narrow, (wide, narrow)


def test_a_calculator_far_down_computes_once_scrolled_to(site: str, browser: Any,
                                                       chapter: tuple[str, list[str]]) -> None:
    path, _ = chapter
    with Visit(browser, site + path, **PHONE) as visit:
        last = visit.page.locator("[data-calculator]").last
        last.scroll_into_view_if_needed()
        visit.page.wait_for_function("() => { const all = document.querySelectorAll('[data-calculator]');"
                                     " return all[all.length - 1].dataset.state === 'ok'; }")
        assert last.locator("output").first.inner_text() not in ("", "\u2014")


def test_the_palette_choice_holds_on_the_next_page_and_material_never_marks_the_body_switching(
        site: str, browser: Any, chapter: tuple[str, list[str]]) -> None:
    path, _ = chapter
    with Visit(browser, site, color_scheme="light") as visit:
        page = visit.page
        assert page.locator("form[data-md-component='palette']").count() == 0
        page.locator("label.md-header__button[for^='__palette']:visible").first.click()
        assert page.get_attribute("body", "data-md-color-scheme") == "slate"
        page.goto(site + path)
        page.wait_for_load_state("networkidle")
        assert page.get_attribute("body", "data-md-color-scheme") == "slate"
        assert page.get_attribute("body", "data-md-color-switching") is None
        visible = page.locator("label.md-header__button[for^='__palette']:visible")
        assert visible.count() == 1 and visible.get_attribute("for") == "__palette_0"  # the way back to light
        visible.click()
        assert page.get_attribute("body", "data-md-color-scheme") == "default"
        page.reload()
        assert page.get_attribute("body", "data-md-color-scheme") == "default"
        assert visit.errors == []


def test_a_dark_screen_gets_the_dark_palette_until_the_reader_picks_one(site: str, browser: Any) -> None:
    with Visit(browser, site, color_scheme="dark") as visit:
        page = visit.page
        assert page.get_attribute("body", "data-md-color-scheme") == "slate"
        assert page.locator("label.md-header__button[for^='__palette']:visible").get_attribute("for") == "__palette_0"
        page.focus("#__palette_1")
        page.keyboard.press("Enter")
        assert page.get_attribute("body", "data-md-color-scheme") == "default"


# The current page's link in the navigation, whether its box is rendered (not in a skipped subtree), and its text.
DRAWER_LINK = """() => { const link = document.querySelector('.md-nav--primary a.md-nav__link--active');
  return [getComputedStyle(document.querySelector('.md-nav--primary')).contentVisibility,
          link.checkVisibility({contentVisibilityAuto: true}), link.textContent.trim()]; }"""


def test_the_closed_drawer_is_not_laid_out_until_opened_and_a_desktop_sidebar_always_is(
        site: str, browser: Any, chapter: tuple[str, list[str]]) -> None:
    path, _ = chapter
    with Visit(browser, site + path, **PHONE) as visit:
        page = visit.page
        page.wait_for_load_state("networkidle")
        two_frames(page)
        state, shown, title = page.evaluate(DRAWER_LINK)
        assert (state, shown) == ("auto", False) and title  # skipped, yet marked as the page being read
        page.click("label.md-header__button[for=__drawer]")
        page.wait_for_function("() => document.querySelector('.md-nav--primary a.md-nav__link--active')"
                               ".checkVisibility({contentVisibilityAuto: true})")
        page.wait_for_function("() => document.querySelector('.md-sidebar--primary').getBoundingClientRect().x >= 0")
        # the drawer's sections slide to the page's own: until every transition in it has ended
        page.wait_for_function("() => document.querySelector('.md-sidebar--primary')"
                               ".getAnimations({subtree: true}).length === 0")
        shown = page.evaluate("() => { const at = document.elementFromPoint(100, 300).closest('.md-nav__item');"
                              " return at && at.closest('.md-nav--primary') ? at.innerText.trim() : null; }")
        assert shown and title in page.locator(".md-nav--primary").inner_text()
        assert visit.errors == []
    with Visit(browser, site + path, viewport={"width": 1366, "height": 900}) as visit:
        assert visit.page.evaluate(DRAWER_LINK)[:2] == ["visible", True]
