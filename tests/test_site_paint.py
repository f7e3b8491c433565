"""A page's first frame: drawn once the page is parsed (the header alone, then the text, cost a layout of the page
at each frame and put the largest paint late), and a calculator's scripts asked for only after it (#35)."""

from __future__ import annotations

from typing import Any

from tests.browser import Visit

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Before the page's own scripts: what the parser had added by the first animation frame, which runs just before
# the first frame is drawn (no frame is drawn while rendering is blocked).
FIRST_FRAME = """
requestAnimationFrame(() => {
  window.__rulescFirstFrame = {parsed: document.getElementById("__config") !== null,
                               blocks: document.querySelectorAll(".rulesc-rule, .rulesc-term").length};
});
"""

# The first contentful paint, and when the page asked for each of the calculators' scripts (ms after navigation).
TIMES = """
() => ({paint: performance.getEntriesByName("first-contentful-paint")[0].startTime,
        scripts: Object.fromEntries(performance.getEntriesByType("resource")
          .filter((e) => /\\/assets\\/rulesc\\/(runtime|calculators|formulas\\/\\w+)\\.js$/.test(e.name))
          .map((e) => [e.name.split("/assets/rulesc/")[1], e.startTime]))})
"""


def _first_visit(browser: Any, url: str) -> Visit:
    """A fresh phone-sized visit to `url` with the CPU 4x slower (a long page then takes several of the parser's
    turns), recording the first frame."""
    visit = Visit(browser, "about:blank", **PHONE)
    visit.context.new_cdp_session(visit.page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    visit.page.add_init_script(FIRST_FRAME)
    visit.go(url)
    visit.page.wait_for_function("window.__rulescFirstFrame")
    return visit


def test_the_first_frame_waits_for_the_whole_page(site: str, browser: Any) -> None:
    for path, blocks in (("dbu/glossary/", 50), ("dbu/maneuvers/counter-maneuvers/", 8)):  # terms, rules
        with _first_visit(browser, site + path) as visit:
            first = visit.page.evaluate("window.__rulescFirstFrame")
            assert first == {"parsed": True, "blocks": blocks}, path
            assert visit.errors == [], path


def test_a_calculators_scripts_are_asked_for_after_the_first_paint(site: str, browser: Any) -> None:
    with _first_visit(browser, site + "dbu/maneuvers/counter-maneuvers/") as visit:
        visit.wait_until_calculators_are_ready()
        times = visit.page.evaluate(TIMES)
        assert sorted(times["scripts"]) == ["calculators.js", "formulas/dbu.js", "runtime.js"]
        assert min(times["scripts"].values()) > times["paint"], times
        assert visit.errors == []
