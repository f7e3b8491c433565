"""Each page's styles inline in its head (#35): the rules it can use, parsed and cut exactly, and shown the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesc.build.styles import inline_styles
from rulesc.emit.site import css
from rulesc.emit.site.page_styles import LivePages, served_under
from tests.browser import switch_palette
from tests.tabs import Tabs

SHEET = """@charset "UTF-8";
/* a comment */
:root{--used:1px;--unused:2px;--chain:var(--used);--icon:url("data:x;a{b}c")}
.a, .b:hover {color: red; margin: var(--chain)}
.x:not(.never) > [data-kind=move] {top: 0}
[data-kind=spell]{top: 1px}
@media screen and (min-width: 10em) {.b{animation: spin 1s} .nope{left: 0}}
@keyframes spin{from{opacity:0}to{opacity:1}}
@keyframes idle{from{opacity:0}}
@page{margin:1cm}
"""


MINIFIED = ('@charset "UTF-8";:root{--used:1px;--unused:2px;--chain:var(--used);--icon:url("data:x;a{b}c")}'
            ".a,.b:hover{color:red;margin:var(--chain)}.x:not(.never)>[data-kind=move]{top:0}[data-kind=spell]{top:1px}"
            "@media screen and (min-width:10em){.b{animation:spin 1s}.nope{left:0}}"
            "@keyframes spin{from{opacity:0}to{opacity:1}}@keyframes idle{from{opacity:0}}@page{margin:1cm}")


def test_a_minified_sheet_parses_into_rules_that_write_it_back_unchanged() -> None:
    assert css.minify(SHEET) == MINIFIED
    rules = css.parse(MINIFIED)
    assert [type(rule).__name__ for rule in rules] == ["Other", "Style", "Style", "Style", "Style", "Group", "Other",
                                                       "Other", "Other"]
    root = rules[1]
    assert isinstance(root, css.Style)
    assert [d.text for d in root.declarations][-1] == '--icon:url("data:x;a{b}c")'  # `;`, `{` inside a string
    everything = css.words(['class="a b x nope" data-kind="move spell" --icon --unused'])
    assert css.used(rules, everything) == MINIFIED.replace("@keyframes idle{from{opacity:0}}", "")


def test_a_page_gets_only_the_rules_its_words_may_match() -> None:
    rules = css.parse(MINIFIED)
    assert css.used(rules, css.words(['<p class="a">'])) == (
        '@charset "UTF-8";:root{--used:1px;--chain:var(--used)}.a{color:red;margin:var(--chain)}@page{margin:1cm}')
    assert css.used(rules, css.words(['<b class="b">'])) == (
        '@charset "UTF-8";:root{--used:1px;--chain:var(--used)}.b:hover{color:red;margin:var(--chain)}'
        "@media screen and (min-width:10em){.b{animation:spin 1s}}@keyframes spin{from{opacity:0}to{opacity:1}}"
        "@page{margin:1cm}")
    assert css.used(rules, css.words(['<p class="x" data-kind="move">'])) == (
        '@charset "UTF-8";.x:not(.never)>[data-kind=move]{top:0}@page{margin:1cm}')  # no custom property read


def _page(links: str, body: str = '<p class="a">') -> str:
    return f"<!doctype html>\n<html>\n<head>\n{links}<title>t</title>\n</head>\n<body>{body}</body>\n</html>\n"


def test_each_page_gets_its_rules_inline_and_a_page_linking_elsewhere_is_left_alone(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "assets/rulesc").mkdir(parents=True)
    (site / "sub").mkdir()
    (site / "assets/one.css").write_text(SHEET, encoding="utf-8")
    (site / "assets/rulesc/site.js").write_text('el.className = "x"; el.setAttribute("data-kind", "move");',
                                                   encoding="utf-8")
    own = '  <link rel="stylesheet" href="assets/one.css">\n'
    (site / "index.html").write_text(_page(own), encoding="utf-8")
    (site / "sub/index.html").write_text(_page(own.replace("assets/", "../assets/"), "<i>"), encoding="utf-8")
    (site / "404.html").write_text(_page(own.replace("assets/", "/rules/assets/")), encoding="utf-8")
    elsewhere = _page(own + '  <link rel="stylesheet" href="https://cdn.invalid/x.css">\n')
    (site / "other.html").write_text(elsewhere, encoding="utf-8")
    assert inline_styles(site, "/rules/") == ["assets/one.css"]
    home = (site / "index.html").read_text(encoding="utf-8")
    assert home == _page('<style>:root{--used:1px;--chain:var(--used)}.a{color:red;margin:var(--chain)}'
                         ".x:not(.never)>[data-kind=move]{top:0}@page{margin:1cm}</style>\n")
    assert (site / "404.html").read_text(encoding="utf-8") == home  # its absolute links were the site's own too
    sub = (site / "sub/index.html").read_text(encoding="utf-8")
    assert sub == _page("<style>.x:not(.never)>[data-kind=move]{top:0}@page{margin:1cm}</style>\n",
                        "<i>")  # the script's class and attribute, none of the page's
    assert (site / "other.html").read_text(encoding="utf-8") == elsewhere


def test_a_closing_style_tag_inside_a_rule_cannot_end_the_inline_style(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "x.css").write_text('.a:after{content:"</style><script>alert(1)</script>"}', encoding="utf-8")
    (site / "index.html").write_text(_page('<link rel="stylesheet" href="x.css">\n'), encoding="utf-8")
    inline_styles(site)
    page = (site / "index.html").read_text(encoding="utf-8")
    assert page.count("</style>") == 1 and '.a:after{content:"<\\/style><script>alert(1)</script>"}' in page


def test_serve_inlines_each_page_as_written_and_again_all_of_them_after_a_sheet_changes(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "sub").mkdir(parents=True)
    (site / "sheet.css").write_text(".a{color:red}.zed{top:0}", encoding="utf-8")
    home, sub = site / "index.html", site / "sub/index.html"
    live = LivePages()
    first = live.page(site, "/", home, _page('<link rel="stylesheet" href="sheet.css">\n'))
    assert first == _page("<style>.a{color:red}</style>\n")
    home.write_text(first, encoding="utf-8")
    live.built(site, "/")
    assert home.read_text(encoding="utf-8") == first  # nothing changed: nothing written again
    (site / "sheet.css").write_text(".a{color:blue}", encoding="utf-8")  # a rebuild for sub/ only, the sheet edited
    sub.write_text(live.page(site, "/", sub, _page('<link rel="stylesheet" href="../sheet.css">\n', '<i class="zed">')),
                   encoding="utf-8")
    live.built(site, "/")
    assert home.read_text(encoding="utf-8") == _page("<style>.a{color:blue}</style>\n")
    assert sub.read_text(encoding="utf-8") == _page("<style></style>\n", '<i class="zed">')


def test_a_site_is_served_under_its_site_urls_path() -> None:
    assert [served_under(url) for url in ("", None, "https://x.org", "https://x.org/rules", "https://x.org/a/b/")] \
        == ["/", "/", "/", "/rules/", "/a/b/"]


def test_no_built_page_fetches_a_stylesheet(built: Path) -> None:
    pages = sorted((built / "site").rglob("*.html"))
    assert len(pages) > 100
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert 'rel="stylesheet"' not in text and text.count("<style>") == 2, page  # the rules, content-visibility


SETTLED = "() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)))"
PAGES = ["", "dbu/core-rules/", "dbu/glossary/", "dbu/gm-screen/keywords-clashes/", "dbu/tables/maneuver/",
         "search/", "errors/formulas/", "404.html"]
THEME_SHEETS = ["assets/stylesheets/main", "assets/stylesheets/palette", "assets/rulesc/rulesc",
                "assets/rulesc/site"]


# The page's own rules (its first <style>) replaced where they stand by links to the theme's four stylesheets, as
# the site builder wrote the page. The links go in first and the rules leave once every sheet has loaded (a page
# without either for a moment would start its colour transitions), then the body is laid out and painted afresh as a
# load would: repainted only where styles changed, a button's anti-aliased edge came out one shade off at times.
LINK_THE_SHEETS = """(hrefs) => new Promise((done, failed) => {
  const inline = document.head.querySelector("style");
  const links = hrefs.map((href) => Object.assign(document.createElement("link"), {rel: "stylesheet", href}));
  let left = links.length;
  links.forEach((link) => {
    link.onerror = () => failed(new Error("no stylesheet at " + link.href));
    link.onload = () => {
      left -= 1;
      if (left) return;
      inline.remove();
      document.body.style.display = "none";
      document.body.offsetHeight;  // laid out without the body: all of it is laid out and painted again
      document.body.style.removeProperty("display");
      done();
    };
  });
  inline.before(...links);
})"""


# Once the page's fonts have loaded, each animation or transition under way brought to its end (one that never ends
# cancelled), as Playwright's screenshots (with animations="disabled") do; the body laid out and painted afresh (a
# shot of tiles painted earlier had anti-aliased edges a shade off at times); then the size of the whole page.
STILL = """async () => {
  await document.fonts.ready;
  document.getAnimations().forEach((animation) =>
    animation.effect.getComputedTiming().endTime === Infinity ? animation.cancel() : animation.finish());
  document.body.style.display = "none";
  document.body.offsetHeight;
  document.body.style.removeProperty("display");
  return [document.documentElement.scrollWidth, document.documentElement.scrollHeight];
}"""


def _shot(visit: Any, cdp: Any) -> tuple[str, int]:
    """The whole page shot once laid out and settled (a PNG, in base64), and how many stylesheets it links.

    Chromium's own capture, as Playwright's full-page screenshot asks for it, but encoded for speed: still lossless,
    so two shots are equal exactly when every pixel is, and compared as the base64 text they come in."""
    visit.page.evaluate(SETTLED)
    width, height = visit.page.evaluate(STILL)
    shot = cdp.send("Page.captureScreenshot", {
        "format": "png", "optimizeForSpeed": True, "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    return shot["data"], visit.page.evaluate("document.querySelectorAll('link[rel=\"stylesheet\"]').length")


# Each page is shot light as built, then dark (switched in place as the header's toggle does), then, with the theme's
# sheets linked in place of its rules, dark and light again: both schemes from one load. A page switched in place is
# the page a load in that scheme shows, pixel for pixel: compared on the eight pages at both widths, a dark load's
# shot with a light load's switched to dark, and a light load's with one switched to dark and back (32 pairs equal).
@pytest.mark.parametrize("width", [390, 1366])
def test_every_page_type_looks_exactly_as_with_the_themes_stylesheets(tabs: Tabs, built: Path, site: str,
                                                                     width: int) -> None:
    """Each page shot as built, then once its inline rules are swapped, in place, for the theme's four stylesheets
    linked as the site builder wrote them, in both colour schemes: one load shows all four, and nothing is written
    in the built site (which both workers share)."""
    sheets = [site + next((built / "site").glob(f"{name}*.css")).relative_to(built / "site").as_posix()
              for name in THEME_SHEETS]
    with tabs.use("about:blank", {"width": width, "height": 844}) as visit:  # each page loaded once, below
        cdp = visit.context.new_cdp_session(visit.page)
        try:
            for page in PAGES:
                visit.go(site + page)
                visit.page.add_style_tag(content="* { content-visibility: visible !important; "
                                                 "caret-color: transparent !important }")  # hidden as Playwright does
                if visit.page.evaluate("document.querySelector('[data-calculator]') !== null"):
                    visit.calculators_bound()  # what a calculator shows once bound is the page's too
                inline = {scheme: _shot_in(visit, cdp, scheme) for scheme in ("light", "dark")}
                visit.page.evaluate(LINK_THE_SHEETS, sheets)
                linked = {scheme: _shot_in(visit, cdp, scheme) for scheme in ("dark", "light")}
                for scheme in inline:
                    assert linked[scheme][1] == inline[scheme][1] + len(THEME_SHEETS), page  # the linked page shown
                    assert inline[scheme][0] == linked[scheme][0], (page, scheme)
        finally:
            cdp.detach()


def _shot_in(visit: Any, cdp: Any, scheme: str) -> tuple[str, int]:
    """The page shot as _shot() shoots it, shown in `scheme` as the header's toggle shows it."""
    switch_palette(visit.page, scheme)
    return _shot(visit, cdp)


# The computed style of an element in a colour transition is the colour of the moment: the contrast is read once the
# button's transitions have ended (asking for them brings its style up to date, so the hover's or focus's has begun).
TRANSITIONS_DONE = """(element) => Promise.all(element.getAnimations({subtree: true})
  .map((animation) => animation.finished.catch(() => null)))"""
CONTRAST = """(element) => {
  const channels = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (colour) => channels(colour).map((c) => c / 255)
    .map((c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const style = getComputedStyle(element);
  const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
  return Math.round((a + 0.05) / (b + 0.05) * 100) / 100;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1366])
def test_a_hovered_or_focused_button_keeps_its_text_legible(tabs: Tabs, site: str, width: int, scheme: str) -> None:
    with tabs.use(site + "dbu/gm-screen/keywords-clashes/", {"width": width, "height": 844}, scheme) as visit:
        visit.wait_until_calculators_are_ready()
        for name in ("rulesc-calc__reset", "rulesc-calc__share", "rulesc-roll__button"):
            button = visit.page.locator(f".{name}:visible").first
            button.hover()
            button.evaluate(TRANSITIONS_DONE)  # Material's colour transition, 125 ms
            assert visit.page.evaluate(CONTRAST, button.element_handle()) == 6.86, name
            visit.page.mouse.move(0, 0)
            button.focus()
            button.evaluate(TRANSITIONS_DONE)
            assert visit.page.evaluate(CONTRAST, button.element_handle()) == 6.86, name
