"""The site at the table, in system Chromium on a phone (390 px) and a desktop (1366 px), light and dark: each
calculator's answer beside the input being changed, every page's contents, controls big enough to tap, term
cards, the header, the home page and the offline state."""

from __future__ import annotations

import re
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from tests.browser import Visit, lay_out_everything, preview_of, switch_palette
from tests.tabs import Tabs
from tests.test_site_browser import TAP_PAGES, UNDERSIZED_CONTROLS

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
LAYOUTS = [pytest.param(PHONE, "light", id="phone-light"), pytest.param(PHONE, "dark", id="phone-dark"),
           pytest.param(DESKTOP, "light", id="desktop-light"), pytest.param(DESKTOP, "dark", id="desktop-dark")]
SCHEMES = ("light", "dark")
SCREENS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
"""For the tests that only measure: each page is loaded light, measured, shown dark in place and measured again."""
CALCULATOR_PAGES = ["dbu/core-rules/combat-rolls/", "dbu/core-rules/priority-section/",
                    "dbu/gm-screen/adventurous-uses/"]


def _visit(tabs: Tabs, url: str, viewport: dict[str, int], scheme: str) -> AbstractContextManager[Visit]:
    phone = viewport["width"] < 500
    return tabs.use(url, viewport, scheme, is_mobile=phone, has_touch=phone)


# Each input of each calculator brought to the middle of the screen, as a reader scrolls to change it: where its
# calculator's results in words are then, and whether they come before the calculator's charts.
ANSWER_BESIDE_EACH_INPUT = """() => {
  const found = [];
  for (const box of document.querySelectorAll("[data-calculator]")) {
    const results = box.querySelector(".rulesc-calc__results"), chart = box.querySelector("[data-chart]");
    const first = !chart || Boolean(results.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING);
    for (const input of box.querySelectorAll("form input:not([type=hidden]), form select")) {
      if (input.closest(".rulesc-calc__results") || !input.getClientRects().length) continue;
      input.scrollIntoView({block: "center"});
      const answer = results.getBoundingClientRect(), field = input.getBoundingClientRect();
      const shown = answer.top >= 0 && answer.bottom <= innerHeight;
      const covers = answer.top < field.bottom && field.top < answer.bottom;
      found.push([box.dataset.calculator, input.name, shown, !covers, first]);
    }
  }
  return found;
}"""


@pytest.mark.parametrize("viewport", SCREENS)
def test_every_calculator_shows_its_answer_beside_the_input_being_changed(site: str, tabs: Tabs,
                                                                           viewport: dict[str, int]) -> None:
    with _visit(tabs, "about:blank", viewport, "light") as visit:  # each page loaded once, in the loop
        checked = 0
        for path in CALCULATOR_PAGES:
            visit.page.emulate_media(color_scheme="light")
            visit.go(site + path)
            visit.wait_until_calculators_are_ready()
            for scheme in SCHEMES:
                switch_palette(visit.page, scheme)
                found = visit.page.evaluate(ANSWER_BESIDE_EACH_INPUT)
                assert [f for f in found if f[2:] != [True, True, True]] == [], (path, scheme)
                checked += len(found)
        assert checked >= 2 * 20
        assert visit.errors == []


# Each input of each calculator brought just under its calculator's answers at the bottom of the screen, as scrolling
# up leaves it, then moved to as a reader does (focus): how far its bottom then is above the answers' top.
FOCUSED_FIELD_CLEAR = """async () => {
  const found = [];
  for (const box of document.querySelectorAll("[data-calculator]")) {
    const results = box.querySelector(".rulesc-calc__results");
    for (const input of box.querySelectorAll("form input:not([type=hidden]), form select")) {
      if (input.closest(".rulesc-calc__results") || !input.getClientRects().length) continue;
      input.blur();
      input.scrollIntoView({block: "end"});
      const under = input.getBoundingClientRect().bottom - results.getBoundingClientRect().top;
      input.focus();
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const room = results.getBoundingClientRect().top - input.getBoundingClientRect().bottom;
      found.push([box.dataset.calculator, input.name, under > 0, Math.round(room)]);
      input.blur();
    }
  }
  return found;
}"""


@pytest.mark.parametrize("viewport", SCREENS)
def test_a_field_moved_to_under_the_answers_is_scrolled_clear_of_them(site: str, tabs: Tabs,
                                                                      viewport: dict[str, int]) -> None:
    with _visit(tabs, site + CALCULATOR_PAGES[0], viewport, "light") as visit:
        visit.wait_until_calculators_are_ready()
        for scheme in SCHEMES:
            switch_palette(visit.page, scheme)
            found = visit.page.evaluate(FOCUSED_FIELD_CLEAR)
            covered = [f for f in found if f[2]]
            assert len(covered) >= 3, scheme  # scrolling up leaves these fields under the answers
            assert [f for f in found if f[3] < 8] == [], (scheme, found)  # each one moved to: 8 px or more above
        assert visit.errors == []


def test_a_phone_lays_calculator_inputs_out_two_to_a_row(site: str, tabs: Tabs) -> None:
    with _visit(tabs, site + CALCULATOR_PAGES[0], PHONE, "light") as visit:
        boxes = visit.page.locator('[data-calculator="dbu/combat-roll-odds"] .rulesc-calc__field').evaluate_all(
            "fields => fields.map((f) => Math.round(f.getBoundingClientRect().left))")
        assert len(boxes) == 9 and len(set(boxes)) == 2 and boxes[0] < boxes[1] and boxes[0] == boxes[2]


def test_no_control_is_too_small_to_tap_on_any_page_type(site: str, tabs: Tabs) -> None:
    """On a phone; test_site_browser.py measures the same page types at 1366 px, where it loads each in each scheme."""
    with _visit(tabs, "about:blank", PHONE, "light") as visit:  # each page loaded once, in the loop
        measured = {}
        for name, path in TAP_PAGES.items():
            visit.page.emulate_media(color_scheme="light")
            visit.go(site + path)
            assert visit.page.locator("a[href], button").count() > 5, name
            for scheme in SCHEMES:
                switch_palette(visit.page, scheme)
                lay_out_everything(visit.page)
                measured[name, scheme] = visit.page.evaluate(UNDERSIZED_CONTROLS)
        assert measured == {(name, scheme): [] for name in TAP_PAGES for scheme in SCHEMES}


# ---- every page's contents: the phone's drawer, the desktop's sidebar ----

CONTENTS_PAGES = {"part page": "dbu/maneuvers/modifier-maneuvers/", "GM screen part": "dbu/gm-screen/adventurous-uses/",
                  "listed page": "dbu/glossary/"}
# the page's own headings; the roll log's, which the page's script adds at its end once a roll is possible, is not
# one of its contents
HEADINGS = "document.querySelectorAll('.md-content :is(h2, h3, h4)[id]:not(.rulesc-roll-log *)').length"


def test_a_phone_reaches_every_page_s_headings_from_the_drawer(site: str, tabs: Tabs) -> None:
    """Each page loaded light and gone through from the drawer, then shown dark in place and gone through again."""
    with _visit(tabs, "about:blank", PHONE, "light") as visit:  # each page loaded once, in the loop
        for name, path in CONTENTS_PAGES.items():
            visit.page.emulate_media(color_scheme="light")
            visit.go(site + path)
            for scheme in SCHEMES:
                switch_palette(visit.page, scheme)
                _reach_the_last_heading(visit.page, f"{name} ({scheme})")
            assert visit.errors == [], name


def _reach_the_last_heading(page: Any, name: str) -> None:
    """The drawer opened, its table of contents shown (the first time; it stays open), every heading listed, the
    last one followed; the drawer closes on the way. The address loses its hash first (without a hashchange), so
    a second pass shows that following the link changed it."""
    page.evaluate("history.replaceState(null, '', location.pathname + location.search)")
    page.click("label.md-header__button[for=__drawer]")
    if not page.is_checked("#__toc"):
        page.locator(".md-nav--primary label.md-nav__link[for=__toc]").click()
    links = page.locator(".md-nav--primary .md-nav--secondary a.md-nav__link")
    page.wait_for_function("(link) => link.getBoundingClientRect().left >= 0", arg=links.first.element_handle())
    assert links.count() == page.evaluate(HEADINGS) > 3, name
    last = links.last.bounding_box()
    assert last is not None and 0 <= last["x"] < PHONE["width"], name
    links.last.click()
    page.wait_for_function("(href) => location.hash === new URL(href, location.href).hash",
                           arg=links.last.get_attribute("href"))
    page.wait_for_function("() => !document.getElementById('__drawer').checked")


ERROR_SECTIONS = ["Layout", "Reading files", "Schema", "Values", "Formulas", "Worked examples", "References",
                  "Variants", "Site configuration", "Warnings"]

# Each link's box as Playwright's bounding_box() gives it (x, y, width, height in the viewport) and its text; a link
# not shown has no size.
BOXES = """(links) => links.map((a) => { const r = a.getBoundingClientRect();
                                         return [r.x, r.y, r.width, r.height, a.innerText]; })"""
# Each system's card on the home page: the texts of its buttons, and the boxes of its name and buttons.
CARDS = f"""(cards) => cards.map((card) => {{
  const buttons = Array.from(card.querySelectorAll(".rulesc-systems__go a"));
  const targets = [...card.querySelectorAll("a.rulesc-systems__name"), ...buttons];
  return [buttons.map((a) => a.innerText), ({BOXES})(targets)];
}})"""


@pytest.mark.parametrize("viewport", SCREENS)
def test_a_section_of_the_error_codes_reaches_every_other_section_from_the_drawer(site: str, tabs: Tabs,
                                                                                  viewport: dict[str, int]) -> None:
    """The section's links read light, then dark in place; the last one followed, from the dark page."""
    with _visit(tabs, site + "errors/formulas/", viewport, "light") as visit:
        page = visit.page
        if viewport is PHONE:
            page.click("label.md-header__button[for=__drawer]")
        parts = page.locator(".md-nav--primary .rulesc-nav__part a.md-nav__link")
        expected = [s for s in ERROR_SECTIONS if s != "Formulas"]
        page.wait_for_function("(link) => link.getBoundingClientRect().left >= 0", arg=parts.first.element_handle())
        for scheme in SCHEMES:
            switch_palette(page, scheme)
            assert sorted(parts.all_inner_texts()) == sorted(expected), scheme  # every other section, once
            boxes = parts.evaluate_all(BOXES)  # each link's box, in one call
            assert [b for b in boxes if not (b[3] >= 24 and 0 <= b[0] < viewport["width"])] == [], (scheme, boxes)
        parts.filter(has_text="Layout").click()
        page.wait_for_url(site + "errors/layout/")
        assert page.locator("h1").inner_text().startswith("Layout")
        assert visit.errors == []


# The table of contents' box, its title and its entries, measured: the box against what it holds, the first
# entry against the title above it, and which entries are shown and marked as being read.
CONTENTS_BOX = """() => {
  const box = document.querySelector(".md-sidebar--secondary .md-sidebar__scrollwrap");
  const title = box.querySelector(".md-nav__title").getBoundingClientRect();
  const links = Array.from(box.querySelectorAll("a.md-nav__link"));
  const shown = links.filter((a) => a.offsetHeight > 0);
  const within = (a) => { const r = a.getBoundingClientRect(), b = box.getBoundingClientRect();
                          return r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5; };
  const active = shown.filter((a) => a.classList.contains("md-nav__link--active"));
  return {short: box.scrollHeight - box.clientHeight, links: links.length, shown: shown.length,
          clear: shown[0].getBoundingClientRect().top - title.bottom,
          active: active.map((a) => [a.hash, within(a)])};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_desktop_contents_are_whole_and_mark_the_sub_rule_being_read(site: str, tabs: Tabs,
                                                                         scheme: str) -> None:
    with _visit(tabs, site + CONTENTS_PAGES["part page"], DESKTOP, scheme) as visit:
        page = visit.page
        box = page.evaluate(CONTENTS_BOX)
        assert box["short"] == 0 and box["clear"] >= 0  # a short table: whole, its first entry clear of the title
        assert box["shown"] == box["links"] == page.evaluate(HEADINGS)  # every level, the sub-rules' too
        sub_rule = page.locator(".md-content h4[id]").nth(2)
        sub_rule.evaluate("(h) => h.scrollIntoView()")  # its heading at the top, just under the header
        hash_ = "#" + str(sub_rule.get_attribute("id"))
        page.wait_for_function(f"() => document.querySelector('.md-sidebar--secondary a.md-nav__link--active')"
                               f"?.hash === {hash_!r}")
        assert page.evaluate(CONTENTS_BOX)["active"] == [[hash_, True]]
        visit.go(site + "dbu/glossary/")  # a table longer than the screen scrolls on its own, its last entry whole
        box = page.evaluate(CONTENTS_BOX)
        assert box["short"] > 0 and box["clear"] >= 0
        page.locator(".md-sidebar--secondary .md-sidebar__scrollwrap").evaluate("(b) => b.scrollTo(0, b.scrollHeight)")
        last = page.locator(".md-sidebar--secondary a.md-nav__link").last
        assert page.evaluate("""(a) => { const b = a.closest('.md-sidebar__scrollwrap').getBoundingClientRect();
                                         return a.getBoundingClientRect().bottom <= b.bottom; }""",
                             last.element_handle())
        assert visit.errors == []


NUMBER_FIELD = re.compile(r'<input type="number"([^>]*)>')


def test_a_field_that_takes_negative_numbers_brings_a_keypad_with_a_minus_key(built: Path) -> None:
    """iOS's inputmode="numeric" keypad has digits only; type="number" alone brings one with a minus key."""
    keypads: dict[tuple[bool, bool], int] = {}
    for page in (built / "site" / "dbu").rglob("index.html"):
        for attributes in NUMBER_FIELD.findall(page.read_text(encoding="utf-8")):
            low = re.search(r' min="(-?\d+)"', attributes)
            key = (low is not None and int(low.group(1)) >= 0, 'inputmode="numeric"' in attributes)
            keypads[key] = keypads.get(key, 0) + 1
    assert set(keypads) == {(True, True), (False, False)} and min(keypads.values()) > 10


# ---- the header and the home page ----

TRUNCATED = "(span) => span.scrollWidth > span.clientWidth"


@pytest.mark.parametrize(("viewport", "scheme"), LAYOUTS)
def test_the_header_keeps_the_page_title_whole_and_search_one_tap_away(site: str, tabs: Tabs,
                                                                       viewport: dict[str, int], scheme: str) -> None:
    with _visit(tabs, site + "dbu/core-rules/", viewport, scheme) as visit:
        page = visit.page
        phone = viewport is PHONE
        site_name = page.locator(".md-header__topic:first-child .md-ellipsis")
        assert site_name.inner_text() == "Rules reference" and not site_name.evaluate(TRUNCATED)
        page.mouse.wheel(0, 600)
        title = page.locator("[data-md-component=header-topic] .md-ellipsis")
        page.wait_for_function("() => document.querySelector('.md-header__title--active')")
        assert title.inner_text() == "Core Rules" and not title.evaluate(TRUNCATED)
        button, box = page.locator(".rulesc-qs-open"), page.locator("#rulesc-qs-input")
        assert (button.is_visible(), box.is_visible()) == (phone, not phone)
        if phone:
            size = button.bounding_box()
            assert size is not None and size["width"] >= 40 and size["height"] >= 40
            button.tap()
            assert box.is_visible() and page.evaluate("document.activeElement.id") == "rulesc-qs-input"
            assert button.get_attribute("aria-expanded") == "true"
        box.fill("botch range")
        page.wait_for_selector("#rulesc-qs-results li a")
        if phone:
            page.keyboard.press("Escape")
            assert not box.is_visible() and page.evaluate("document.activeElement.className").startswith(
                "rulesc-qs-open")
            assert button.get_attribute("aria-expanded") == "false"
        assert visit.errors == []


@pytest.mark.parametrize("viewport", SCREENS)
def test_the_home_page_opens_each_system_and_its_gm_screen_with_one_big_button(site: str, tabs: Tabs,
                                                                               viewport: dict[str, int]) -> None:
    """The cards and buttons read light, then dark in place; a GM screen's button followed, from the dark page."""
    with _visit(tabs, site, viewport, "light") as visit:
        page = visit.page
        screens = page.locator(".rulesc-home__gm a")
        for scheme in SCHEMES:
            switch_palette(page, scheme)
            cards = page.locator(".rulesc-systems > li").evaluate_all(CARDS)  # every card's buttons, in one call
            assert len(cards) == 4, scheme
            for buttons, boxes in cards:
                assert buttons == ["Glossary", "Index tables"]  # the GM screens are at the top, once
                assert len(boxes) == 3  # its name and two buttons
                assert [b for b in boxes if not (b[3] >= 36 and b[2] >= 80)] == [], (scheme, boxes)
            assert [t.split(": ")[0] for t in screens.all_inner_texts()] == ["GM screen"] * 4
            assert page.locator(".md-content a", has_text="GM screen").count() == 4
            boxes = screens.evaluate_all(BOXES)  # each on the first screen, a big target
            assert [b for b in boxes if not (b[1] + b[3] <= viewport["height"] and b[3] >= 36)] == [], (scheme, boxes)
        screens.nth(2).click()
        page.wait_for_url(site + "dbu/gm-screen/")
        assert visit.errors == []


# ---- a term's card ----

# The page has settled about a heading: loaded, and the heading still on the screen for 300 ms of the page's own
# time (blocks above it are laid out as they come near and may move it; the back-to-top pill keeps quiet for 250 ms
# after a jump to a link). Checked each frame: under load it waits as long as the page takes, and no longer.
SETTLED = """(id) => {
  const top = document.getElementById(id).getBoundingClientRect().top, now = performance.now();
  const seen = window.__settled;
  if (!seen || seen.id !== id || seen.top !== top) { window.__settled = {id, top, since: now}; return false; }
  return document.readyState === "complete" && now - seen.since >= 300;
}"""


def test_a_tapped_term_opens_a_card_one_tap_from_its_rule(site: str, tabs: Tabs) -> None:
    """The card opened and closed light, then dark in place; its rule followed from the dark page."""
    with _visit(tabs, site + "dbu/maneuvers/counter-maneuvers/", PHONE, "light") as visit:
        page = visit.page
        link = page.locator(".md-content .rulesc-rule > p a.rulesc-ref--term[data-rulesc-rule*='/']").first
        card = page.locator("#rulesc-preview")
        onward = card.locator("a.rulesc-preview__rule")
        for scheme in SCHEMES:
            switch_palette(page, scheme)
            link.tap()
            assert card.is_visible() and card.get_attribute("role") == "dialog", scheme
            assert card.locator("p").inner_text() == preview_of(link)
            assert onward.inner_text() == "Rule: " + str(link.get_attribute("data-rulesc-rule-name"))
            for control in (onward, card.locator("button.rulesc-preview__close")):
                size = control.bounding_box()
                assert size is not None and size["height"] >= 24 and size["width"] >= 24, scheme
            card.locator("button.rulesc-preview__close").tap()
            assert not card.is_visible()
        link.tap()
        target = page.evaluate("(a) => new URL(a.dataset.rulescRule, location.href).href", link.element_handle())
        onward.tap()  # one tap from the card to the rule
        page.wait_for_url(target)
        page.wait_for_function(SETTLED, arg=target.split("#")[1])
        heading = page.locator(f"[id='{target.split('#')[1]}']")
        top = page.locator(".md-top")
        page.mouse.wheel(0, -5)  # a reader's small scroll up brings the back-to-top button back
        page.wait_for_function("() => !document.querySelector('.md-top').hidden")
        below = heading.bounding_box()
        pill = top.bounding_box()
        assert below is not None and pill is not None and below["y"] >= pill["y"] + pill["height"]
        assert visit.errors == []


def test_a_desktop_keeps_the_plain_preview_on_hover(site: str, tabs: Tabs) -> None:
    """Hovered light, then shown dark in place, the mouse moved off, and hovered again."""
    with _visit(tabs, site + "dbu/maneuvers/counter-maneuvers/", DESKTOP, "light") as visit:
        link = visit.page.locator(".md-content .rulesc-rule > p a.rulesc-ref--term[data-rulesc-rule*='/']").first
        tip = visit.page.locator("#rulesc-preview")
        for scheme in SCHEMES:
            switch_palette(visit.page, scheme)
            visit.page.mouse.move(0, 0)
            tip.wait_for(state="hidden")
            link.hover()
            assert tip.is_visible() and tip.get_attribute("role") == "tooltip", scheme
            assert tip.inner_text() == preview_of(link)
            assert tip.locator("a, button").count() == 0
