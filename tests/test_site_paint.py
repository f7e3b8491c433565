"""A page's first frame: drawn once the page is parsed (the header alone, then the text, cost a layout of the page
at each frame and put the largest paint late), no heading changed after it, and a calculator's scripts asked for
only after it (#35)."""

from __future__ import annotations

from typing import Any

from tests.browser import Visit, two_frames

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Before the page's own scripts: what the parser had added by the first animation frame, which runs just before
# the first frame is drawn (no frame is drawn while rendering is blocked).
FIRST_FRAME = """
requestAnimationFrame(() => {
  window.__rulescFirstFrame = {parsed: document.getElementById("__config") !== null,
                               blocks: document.querySelectorAll(".rulesc-rule, .rulesc-term").length};
});
"""

# Before the page's own scripts: every node added to or removed from a rule's heading once the page is parsed
# (readyState "interactive" comes before its deferred scripts run): another style and layout pass over the headings.
HEADING_CHANGES = """
window.__rulescHeadingChanges = [];
const watch = new MutationObserver((records) => {
  for (const record of records) {
    const heading = record.target.closest && record.target.closest(".md-content [data-kind][id]");
    if (heading) window.__rulescHeadingChanges.push(heading.id);
  }
});
document.addEventListener("readystatechange", () => {
  if (document.readyState === "interactive") watch.observe(document, {childList: true, subtree: true});
});
"""

# Each rule heading's buttons, and whether its button's name is the one site.js gives a button it adds: "Copy link
# to" and the heading's text without its pilcrow.
BUTTONS = """
() => Array.from(document.querySelectorAll(".md-content [data-kind][id]"), (heading) => {
  const text = heading.cloneNode(true);
  text.querySelectorAll(".rulesc-copy").forEach((button) => button.remove());
  const name = "Copy link to " + (text.textContent || "").replace(/[\u00b6\\s]+$/, "").trim();
  const buttons = heading.querySelectorAll(".rulesc-copy");
  return [buttons.length, buttons.length === 1 && buttons[0].getAttribute("aria-label") === name];
})
"""

# The first contentful paint, and when the page asked for each of the calculators' scripts (ms after navigation).
TIMES = """
() => ({paint: performance.getEntriesByName("first-contentful-paint")[0].startTime,
        scripts: Object.fromEntries(performance.getEntriesByType("resource")
          .filter((e) => /\\/assets\\/rulesc\\/(runtime|calculators|formulas\\/\\w+)\\.js$/.test(e.name))
          .map((e) => [e.name.split("/assets/rulesc/")[1], e.startTime]))})
"""

# A button's display on the page as a browser without scripts shows it (Material's `no-js`, not `js`, on <html>).
WITHOUT_SCRIPTS = """
() => {
  document.documentElement.classList.replace("js", "no-js");
  return getComputedStyle(document.querySelector(".md-content .rulesc-copy")).display;
}
"""


# Each image a stylesheet gives a box the first frame draws (not one in a subtree skipped by content-visibility, nor a
# ::before or ::after that is not displayed), once: the element, the pseudo-element and the first characters.
STYLESHEET_IMAGES = """
() => {
  const found = new Set();
  for (const element of document.querySelectorAll("body *")) {
    if (!element.checkVisibility({contentVisibilityAuto: true})) continue;
    for (const pseudo of [null, "::before", "::after"]) {
      const style = getComputedStyle(element, pseudo);
      if (pseudo && (style.content === "none" || style.display === "none")) continue;
      for (const value of [style.maskImage, style.webkitMaskImage, style.backgroundImage, style.listStyleImage,
                           style.borderImageSource]) {
        if (value.includes("url(")) found.add(`${element.tagName.toLowerCase()}${pseudo || ""} ${value.slice(0, 40)}`);
      }
    }
  }
  return Array.from(found).sort();
}
"""


# Before the page's own scripts: every layout shift the page reports, with the ids or classes of what moved.
LAYOUT_SHIFTS = """
window.__rulescShifts = [];
new PerformanceObserver((list) => {
  for (const shift of list.getEntries()) {
    window.__rulescShifts.push([shift.value, shift.sources.map((s) => s.node && (s.node.id || s.node.className))]);
  }
}).observe({type: "layout-shift", buffered: true});
"""

# How the first disclosure's chevron is drawn: its shape's kind and its colour.
CHEVRON = """
() => {
  const style = getComputedStyle(document.querySelector(".md-typeset summary"), "::after");
  return [style.clipPath.slice(0, 8), style.backgroundColor];
}
"""


def _first_visit(browser: Any, url: str) -> Visit:
    """A fresh phone-sized visit to `url` with the CPU 4x slower (a long page then takes several of the parser's
    turns), recording the first frame."""
    visit = Visit(browser, "about:blank", **PHONE)
    visit.context.new_cdp_session(visit.page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    visit.page.add_init_script(FIRST_FRAME + HEADING_CHANGES)
    visit.go(url)
    visit.page.wait_for_function("window.__rulescFirstFrame")
    return visit


def test_the_first_frame_waits_for_the_whole_page_and_no_heading_changes_after_it(site: str, browser: Any) -> None:
    """The headings' Copy link buttons are in the page as built (rulesc/emit/site/copy_buttons.py), so site.js adds
    none: each it added once cost a second style and layout pass over the headings on the way to the load event."""
    for path, blocks, headings in (("dbu/glossary/", 50, 50), ("dbu/maneuvers/counter-maneuvers/", 8, 8)):
        with _first_visit(browser, site + path) as visit:
            first = visit.page.evaluate("window.__rulescFirstFrame")
            assert first == {"parsed": True, "blocks": blocks}, path
            visit.page.wait_for_load_state("load")
            assert visit.page.evaluate("window.__rulescHeadingChanges") == [], path
            assert visit.page.evaluate(BUTTONS) == [[1, True]] * headings, path
            assert visit.page.evaluate(WITHOUT_SCRIPTS) == "none", path  # they copy nothing without site.js
            assert visit.errors == [], path


def test_a_calculators_scripts_are_asked_for_after_the_first_paint(site: str, browser: Any) -> None:
    with _first_visit(browser, site + "dbu/maneuvers/counter-maneuvers/") as visit:
        visit.wait_until_calculators_are_ready()
        times = visit.page.evaluate(TIMES)
        assert sorted(times["scripts"]) == ["calculators.js", "formulas/dbu.js", "runtime.js"]
        assert min(times["scripts"].values()) > times["paint"], times
        assert visit.errors == []


def test_the_first_frame_draws_no_image_from_a_stylesheet(site: str, tab: Any) -> None:
    """Every rule and term has a disclosure; Material draws its chevron as an SVG mask, which the browser makes into
    an image document in the first frame's style pass (19 ms of a phone's glossary at 4x; rulesc.css draws it as a
    polygon). Not the drawer's icons, which the phone skips until opened."""
    for width, height in ((390, 844), (1366, 768)):
        for path in ("dbu/glossary/", "dbu/maneuvers/counter-maneuvers/"):
            with tab.use(site + path, viewport={"width": width, "height": height}) as visit:
                assert visit.page.evaluate("document.querySelectorAll('.md-typeset summary').length") > 0, path
                assert visit.page.evaluate(STYLESHEET_IMAGES) == [], (width, path)
                assert visit.page.evaluate(CHEVRON) == ["polygon(", "rgba(0, 0, 0, 0.87)"], (width, path)


def test_nothing_moves_as_a_page_loads(site: str, browser: Any) -> None:
    """No layout shift from the navigation to two frames after the load event, on a phone and a desktop with the CPU 4x
    slower: a rule or term the first frame draws skipped would be laid out at its own height a frame later and move
    what is below it (rulesc-head.html lays out the first ten blocks of a page at once)."""
    for context in (PHONE, {"viewport": {"width": 1366, "height": 768}}):
        with Visit(browser, "about:blank", **context) as visit:
            visit.context.new_cdp_session(visit.page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
            visit.page.add_init_script(LAYOUT_SHIFTS)
            for path in ("dbu/glossary/", "dbu/maneuvers/counter-maneuvers/", "dbu/core-rules/tier-of-power-section/"):
                visit.go(site + path)
                two_frames(visit.page)
                assert visit.page.evaluate("window.__rulescShifts") == [], (context, path)
