"""A static server for site/ on loopback, a Playwright-driven system Chromium, and a page visit that records."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rulesc.bench.calculators import serve_static
from rulesc.bench.needs import CHROMIUM_ARGS

CHROMIUM = Path("/usr/bin/chromium")
# The switches the benches launch Chromium with (rulesc/bench/needs.py): Playwright's own --disable-features list
# repeated (tests/test_browser.py checks it against the installed Playwright's) and the address bar's popup off,
# whose renderer each browser context started: four contexts of six pages each cost 25.3 CPU-seconds of the
# process tree with it and 30.7 without (medians of three).
VIEWPORT = {"width": 1280, "height": 900}
# How long a page may take to load or an awaited change to show before the test fails: a bound for a machine
# busy with other work, never a measurement (a passing test waits only as long as the page takes).
TIMEOUT_MS = 120_000


@contextmanager
def serve_site(site: Path) -> Iterator[str]:
    """site/ served on a free loopback port, as the benches serve it (a browser hanging up mid-request is not an
    error to print); yields its base URL."""
    with serve_static(site) as url:
        yield url


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, launched once by Playwright (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), "browser tests need Debian's chromium at /usr/bin/chromium (.ci/run installs it)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Visit:
    """A page in a browser context of its own (so no storage is shared), with its console errors and requests.

    The site's service worker is blocked unless a test asks for it (`service_workers="allow"`): on every first
    visit it would precache the whole site in the background, work for the server and the browser that only the
    offline tests are about. A test that reads many pages and changes nothing they keep goes from one to the next
    with go(), in the same context, so the pages' styles and scripts come from its cache as a reader's would."""

    def __init__(self, browser: Any, url: str, **context: Any):
        self.context = browser.new_context(**{"viewport": VIEWPORT, "service_workers": "block", **context})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.status: int | None = None
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.go(url)

    def go(self, url: str) -> None:
        """Load `url` in this visit's page and wait for its load event; errors and requests start afresh."""
        self.errors.clear()
        self.requests.clear()
        response = self.page.goto(url)
        self.status = response.status if response else None  # None for about:blank and same-page anchors

    def __enter__(self) -> Visit:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.context.close()

    def wait_until_calculators_are_ready(self, *keys: str) -> None:
        """wait_until_calculators_are_ready() in this visit's page."""
        wait_until_calculators_are_ready(self.page, *keys)

    def calculators_bound(self) -> int:
        """calculators_bound() in this visit's page."""
        return calculators_bound(self.page)


def two_frames(page: Any) -> None:
    """Until the page has drawn two more frames: what the last task changed is laid out and painted."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def calculators_bound(page: Any) -> int:
    """Wait until every calculator on the page answers input (its scripts have bound it: they are asked for after
    the first paint, so the load event does not mean they have run); how many there are."""
    return int(page.evaluate(BOUND, TIMEOUT_MS))


def wait_until_calculators_are_ready(page: Any, *keys: str) -> None:
    """Wait until every calculator on the page answers input and each named one has computed (a calculator
    computes and draws its charts when it comes near the viewport: a named one is brought there first)."""
    calculators_bound(page)
    for key in keys:
        box = page.locator(f'[data-calculator="{key}"]')
        box.scroll_into_view_if_needed()
        page.wait_for_function("(box) => box.dataset.computed === '1'", arg=box.element_handle())


# Resolves with the number of calculators once the page has some and each is bound (has a data-state), looked at
# again as their attributes change or elements come: one evaluate. Playwright's wait_for_function puts its injected
# script into each new page (35 ms of the renderer's main thread, medians of 12 loads on a loaded machine) and polls
# on every animation frame, and a locator's count puts another into a world of its own (52 ms): over the 41 pages
# with calculators, 88-219 ms of main thread a page from the load to the count, 23-30 ms this way. A page that
# never binds fails after `bound` ms.
BOUND = """(bound) => new Promise((done, failed) => {
  const boxes = () => Array.from(document.querySelectorAll("[data-calculator]"));
  const ready = () => boxes().length > 0 && boxes().every((box) => box.dataset.state);
  if (ready()) return done(boxes().length);
  const watch = new MutationObserver(() => { if (ready()) { watch.disconnect(); done(boxes().length); } });
  watch.observe(document, {attributes: true, attributeFilter: ["data-state"], childList: true, subtree: true});
  setTimeout(() => { watch.disconnect(); failed(new Error(`calculators not bound after ${bound} ms`)); }, bound);
})"""


# The site lays out a rule, glossary term or GM-screen calculator only as it nears the screen (content-visibility),
# with a size guessed until then. axe's color-contrast check measures an element, scrolls to it and measures again:
# rules above it laid out in between move it, and axe reads the colour of whatever now sits there. Every block
# laid out first (as a reader scrolling through would leave them), axe sees the page as it is shown. Transitions
# under way (the drawer opening the sections above the page being read, colours after the palette's switch) are
# jumped to their end, round by round (a text that inherits its colour starts its own transition when its
# parent's ends): axe would read the colour of text still fading in. Nothing here waits for a frame: a full
# run once hung for five minutes awaiting the end of transitions that never ended (after the palette's switch on a
# phone), and a page evaluate has no timeout.
LAY_OUT_EVERYTHING = """
() => {
  const style = document.createElement("style");
  style.textContent = ".md-typeset .rulesc-rule, .md-typeset .rulesc-term, .md-typeset .rulesc-gm__calc, "
    + ".md-typeset tbody tr { content-visibility: visible !important; }";
  document.head.appendChild(style);
  for (let round = 0; round < 100; round++) {  // a transition's end starts those of the elements inheriting from it
    document.documentElement.getBoundingClientRect();  // style and layout of the whole page, now
    const finite = document.getAnimations().filter((a) => a.effect.getComputedTiming().endTime !== Infinity);
    if (!finite.length) return round;
    finite.forEach((animation) => animation.finish());
  }
  throw new Error("transitions still start after 100 rounds of ending them");
}
"""


def lay_out_everything(page: Any) -> None:
    """Every block of the page laid out, before a check that measures positions across the page (axe)."""
    page.evaluate(LAY_OUT_EVERYTHING)


# color-contrast checks one text of each key (REPEATED_BLOCKS' key, with the opacities of all its ancestors, which axe
# multiplies into the text's colour) of those it would check, in the order it checks them: a text whose key an
# earlier one had shows axe nothing new, as a repeated block does. The first text of a key is one axe itself chose
# (its matches), so a text it would not check never stands for one it would; a first text axe could not judge (a
# background image, a pseudo-element, text of only symbols) has the texts of its key checked after all, in a second
# run over those alone. Inside the function AXE_RUN runs: rule.matches and check.evaluate are put back after.
TEXTS_ONCE = """
  const rule = axe._audit.rules.find((candidate) => candidate.id === "color-contrast");
  const check = axe._audit.checks["color-contrast"];
  const matches = rule.matches, evaluate = check.evaluate, first = new Map(), skipped = new Map(), unsure = [];
  rule.matches = function (node, ...rest) {
    if (!matches.call(this, node, ...rest)) return false;
    const key = window.__rulescTextKey(node);
    if (!first.has(key)) return Boolean(first.set(key, node));
    skipped.set(key, [...(skipped.get(key) || []), node]);
    return false;
  };
  check.evaluate = function (node, ...rest) {
    const verdict = evaluate.call(this, node, ...rest);
    if (verdict !== true && verdict !== false) unsure.push(node);
    return verdict;
  };
  return () => {
    Object.assign(rule, {matches});
    Object.assign(check, {evaluate});
    window.__rulescTexts = [first.size, [...skipped.values()].flat().length];
    return unsure.flatMap((node) => skipped.get(window.__rulescTextKey(node)) || []);
  };
"""

# The tests fail on a serious or critical violation only. axe gives each node of a rule's result the rule's own
# impact (axe-core's lib/core/utils/aggregate-result.js), so a rule of minor or moderate impact can never report one:
# those rules stay off and every rule that can still runs (a third of axe's time on the bundled site's page types,
# most of it region, heading-order and landmark-unique; color-contrast is most of the rest).
AXE_RUN = """
async (context) => {
  const seeTextsOnce = () => {TEXTS_ONCE};
  const off = axe._audit.rules.filter((rule) => rule.enabled && ["minor", "moderate"].includes(rule.impact));
  const cut = context === "cut", again = cut ? seeTextsOnce() : () => [];
  const results = await axe.run(cut ? {exclude: window.__rulescRepeated} : document, {
    resultTypes: ["violations"], rules: Object.fromEntries(off.map((rule) => [rule.id, {enabled: false}]))});
  const unsure = again();
  if (unsure.length) results.violations.push(...(await axe.run({include: unsure}, {
    resultTypes: ["violations"], runOnly: {type: "rule", values: ["color-contrast"]}})).violations);
  const ran = ["violations", "passes", "incomplete", "inapplicable"].flatMap((kind) => results[kind]);
  const left = axe._audit.rules.filter((rule) => rule.enabled && !off.includes(rule)
    && !rule.tags.some((tag) => ["experimental", "deprecated"].includes(tag))).map((rule) => rule.id);
  return {...results, ran: [...new Set(ran.map((rule) => rule.id))].sort(), left: left.sort(),
          texts: cut ? [...window.__rulescTexts, unsure.length] : []};
}
""".replace("TEXTS_ONCE", TEXTS_ONCE)
# A long page repeats a few kinds of block (a glossary's terms, an index table's rows, the error codes' list items)
# shown in the same few colours, and axe's time grows with each node it checks, color-contrast's most (on the
# glossary 6.7 of 7.7 s went to 214 terms and list items that showed nothing the others did not). A block that
# holds no other block (a list item, a table row, a term, a rule, a child of the article) is left out of axe's run
# when everything in it is of a key that an earlier block, or the page outside the blocks, already shows. A key is
# what axe's rules read of an element: its tag, its parent's tag and role (a list item outside a list), classes, its
# attributes (the value of those whose value axe judges: role, tabindex, type, lang, aria-hidden, aria-level...; of a
# text or a reference, alt, title, aria-label, href, id, data-*, only whether it is empty), whether it has no text or
# scrolls (scrollable-region-focusable), an id that another element has too, and what color-contrast weighs:
# colour, size, weight, shadow, stroke, filter and the backgrounds and opacities on the way up to the first opaque
# background. So every (element kind, colour, background) the page shows is still checked, once; a faint text
# anywhere (a colour no block showed) has a key of its own, and its block is checked. What this cannot see: an
# element laid over a text that is not its ancestor.
REPEATED_BLOCKS = """
() => {
  const BLOCKS = "li, tr, dt, dd, .rulesc-term, .rulesc-rule, .md-typeset > *";
  const leaves = Array.from(document.querySelectorAll(BLOCKS)).filter((block) => !block.querySelector(BLOCKS));
  const ids = new Map();
  document.querySelectorAll("[id]").forEach((el) => ids.set(el.id, (ids.get(el.id) || 0) + 1));
  const below = new Map();
  const behind = (el) => {
    if (!el) return "";
    if (!below.has(el)) {
      const style = getComputedStyle(el), own = [style.backgroundImage, style.backgroundColor, style.opacity];
      const opaque = /^rgb\\(/.test(style.backgroundColor) && style.opacity === "1";
      below.set(el, own.join(" ") + (opaque ? "" : " / " + behind(el.parentElement)));
    }
    return below.get(el);
  };
  const FREE = new RegExp("^(id|class|style|href|src|srcset|for|name|value|placeholder|content|datetime|alt|title|"
    + "data-.*|aria-(label|labelledby|describedby|controls|owns|activedescendant|details|errormessage|flowto|"
    + "valuetext|roledescription|placeholder|keyshortcuts))$");
  const attribute = (a) => FREE.test(a.name) ? a.name + (a.value.trim() ? "" : "=") : a.name + "=" + a.value;
  const key = (el) => {
    const style = getComputedStyle(el), names = Array.from(el.attributes, attribute).sort();
    const scrolls = el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight;
    const up = el.parentElement, parent = up ? up.localName + "[" + up.getAttribute("role") + "]" : "";
    return [el.localName, parent, Array.from(el.classList).sort().join("."), names.join(","), !el.textContent.trim(),
            scrolls,
            el.id && ids.get(el.id) > 1 ? el.id : "", style.color, style.fontSize, style.fontWeight, style.textShadow,
            style.webkitTextStrokeWidth, style.webkitTextStrokeColor, style.filter, behind(el)].join("|");
  };
  const keys = new Map(), faded = new Map(), known = new Map();
  const keyOf = (el) => {
    if (!known.has(el)) known.set(el, key(el));
    return known.get(el);
  };
  const opacity = (el) => {  // what axe multiplies a text's colour by: the opacities of it and all its ancestors
    if (!el) return 1;
    if (!faded.has(el)) faded.set(el, Number(getComputedStyle(el).opacity) * opacity(el.parentElement));
    return faded.get(el);
  };
  window.__rulescTextKey = (el) => {
    if (!keys.has(el)) keys.set(el, keyOf(el) + "|" + opacity(el));
    return keys.get(el);
  };
  const inside = new Set(leaves.flatMap((leaf) => [leaf, ...leaf.querySelectorAll("*")]));
  const shown = new Set(Array.from(document.querySelectorAll("*")).filter((el) => !inside.has(el)).map(keyOf));
  window.__rulescRepeated = leaves.filter((leaf) => {
    const own = [leaf, ...leaf.querySelectorAll("*")].map(keyOf);
    const repeated = own.every((k) => shown.has(k));
    own.forEach((k) => shown.add(k));
    return repeated;
  });
  return [leaves.length, window.__rulescRepeated.length];
}
"""


def axe_results(page: Any, source: str | None, repeated: str = "checked", url: str | None = None) -> dict[str, Any]:
    """axe-core's results on the page as laid out now, every rule that can report a serious or critical violation
    having run; with `repeated="left out"`, over every block but those REPEATED_BLOCKS finds repeated. axe is put in
    the page from `source`, or by a script element from `url` (serve_axe()), unless both are None: it is there
    already."""
    lay_out_everything(page)
    if source is not None:
        page.evaluate(source)
    if url is not None:
        page.add_script_tag(url=url)
    cut = repeated == "left out"
    if cut:
        page.evaluate(REPEATED_BLOCKS)
    results: dict[str, Any] = page.evaluate(AXE_RUN, "cut" if cut else "whole")
    assert results["ran"] == results["left"] and "color-contrast" in results["ran"]
    return results


@contextmanager
def serve_axe() -> Iterator[str]:
    """The address of axe-core's script as axe-playwright-python bundles it (the text of its AXE_SCRIPT), served on
    loopback while the block runs.

    A page given axe by this address, as a script element, takes it from the browser's cache and compiles it in
    less than half the renderer's time (0.31-0.43 against 0.76-1.06 s over the thirteen axe page types), where
    page.evaluate(AXE_SCRIPT) sends its 570 KB from Python through Playwright's driver into every page."""
    from axe_playwright_python.base import AXE_FILE_PATH

    with serve_static(AXE_FILE_PATH.parent) as url:
        yield url + AXE_FILE_PATH.name


def serious_violations(results: dict[str, Any]) -> list[str]:
    """Each serious or critical violation in axe's results, in a line: rule, impact, help and its first nodes."""
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results["violations"] if v["impact"] in ("serious", "critical")]


# The header's light/dark toggle switched where the page stands, and the scheme its media queries see with it: every
# element's attributes and computed colours, and every result of every axe rule, come out as a load in that scheme
# gives them (compared on the axe tests' thirteen page types at both widths), so one load serves both schemes. The
# choice the toggle keeps is forgotten: the next page loads in the scheme its media queries see. The phone tests'
# measurements were compared the same way (every element's box, at both widths). The radio already chosen is left
# alone: a page loaded light is "switched" to light without a click.
SWITCH_PALETTE = """(scheme) => {
  const media = `(prefers-color-scheme: ${scheme})`;
  const input = document.querySelector(`.rulesc-palette input[data-md-color-media="${media}"]`);
  if (!input.checked) input.click();
  localStorage.removeItem(__md_scope.pathname + ".__palette");
  return document.body.dataset.mdColorScheme;
}"""
PALETTES = {"light": "default", "dark": "slate"}
"""Material's colour scheme for each of the media's, as mkdocs.yml's palette pairs them."""


def switch_palette(page: Any, scheme: str) -> None:
    """The page shown in `scheme` ("light" or "dark") as the header's toggle shows it, without a reload."""
    page.emulate_media(color_scheme=scheme)
    assert page.evaluate(SWITCH_PALETTE, scheme) == PALETTES[scheme]


# The preview a link shows, from its page's list (rulesc/emit/site/preview_table.py), which a built page with
# previews always has: a page without it fails here.
PREVIEW_OF = """(link) => JSON.parse(document.getElementById("rulesc-previews").textContent)[
  Number(link.getAttribute("data-rulesc-preview"))]"""


def preview_of(link: Any) -> str:
    """The preview text of a link (a Playwright locator) on a built page."""
    return str(link.evaluate(PREVIEW_OF))
