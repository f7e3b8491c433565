"""rulesc's theme script (assets/rulesc/theme.js, joined from frontend/src/theme/) in place of Material's bundle:
which sites get it, and that it does on the bundled site what Material's script did, at 1366 and 390 px, light and
dark."""

from __future__ import annotations

import json
import re
import shutil
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from rulesc.build.offline import precache
from rulesc.pipeline import Project, build_project
from tests.browser import Visit, serve_site, switch_palette
from tests.conftest import REPO
from tests.tabs import Tabs

MINI = REPO / "tests/cases/good/minimal/content"
BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js"')
THEME = re.compile(r'<script src="[^"]*assets/rulesc/theme\.js" defer>')
LOADED_LATER = re.compile(r'var SCRIPTS = (\[[^\]]*\])')
"""The 404 page of a site without site_url loads its scripts once it has found the site's root, in this order."""
DESKTOP, PHONE = {"width": 1366, "height": 800}, {"width": 390, "height": 844}
SCHEMES = ("light", "dark")
PART = "dbu/maneuvers/modifier-maneuvers/"  # a long page with a table of contents and plain tables
CHAPTER = "dbu/glossary/"  # a page in the navigation: its table of contents sits in the phone's drawer too


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_every_bundled_page_loads_rulesc_theme_script_before_site_js_and_no_material_bundle(built: Path) -> None:
    pages = _pages(built / "site")
    assert len(pages) > 100
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not BUNDLE.search(html), page
        later = LOADED_LATER.search(html)
        if later:  # only the 404 page
            scripts = json.loads(later.group(1))
            assert page.name == "404.html" and scripts.index("assets/rulesc/theme.js") < scripts.index(
                "assets/rulesc/site.js"), page
        else:
            theme, site_js = THEME.search(html), html.find("assets/rulesc/site.js")
            assert theme and 0 < theme.start() < site_js, page  # it wraps the tables before site.js looks for them
        assert 'html.setAttribute("data-rulesc-theme", "lean")' in html, page
    # no page fetches the bundle, so the offline copy leaves it out (Material still ships the file)
    assert list((built / "site/assets/javascripts").glob("bundle.*.min.js"))
    assert not [url for url in precache(built / "site") if url.startswith("assets/javascripts/bundle.")]


def _mini(root: Path, edit: Any, before_build: Any = None) -> Path:
    """The minimal golden project with the bundled schema, theme and MkDocs configuration as `edit` changes it."""
    shutil.copytree(MINI, root / "content")
    for part in ("schema", "site_overrides"):
        shutil.copytree(REPO / part, root / part, dirs_exist_ok=True)
    if before_build:
        before_build()
    (root / "mkdocs.yml").write_text(edit((REPO / "mkdocs.yml").read_text(encoding="utf-8")), encoding="utf-8")
    build_project(Project(root))
    return root / "site"


def _after(line: str, added: str) -> Any:
    """An edit of mkdocs.yml that adds a line after one the bundled configuration has."""
    return lambda config: config.replace(line, line + added)


NEEDS_MATERIAL = {
    "asked-for": lambda config: config + "extra:\n  rulesc_theme_script: material\n",
    "content-tabs": _after("  - pymdownx.details\n", "  - pymdownx.tabbed\n"),
    "uncovered-feature": _after("    - toc.follow\n", "    - content.code.copy\n"),
}


@pytest.mark.parametrize("edit", NEEDS_MATERIAL.values(), ids=NEEDS_MATERIAL.keys())
def test_a_site_that_needs_materials_script_keeps_it(tmp_path: Path, edit: Any) -> None:
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert edit(config) != config  # the edit applies to the bundled configuration
    site = _mini(tmp_path, edit)
    pages = _pages(site)
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert BUNDLE.search(html) and not THEME.search(html) and "data-rulesc-theme" not in html, page
    assert [url for url in precache(site) if url.startswith("assets/javascripts/bundle.")]


def test_a_sites_own_script_following_document_dollar_runs_once_a_page_with_rulesc_theme_script(
        tmp_path: Path, browser: Any) -> None:
    root = tmp_path / "own-script"
    (root / "site_overrides/assets").mkdir(parents=True)
    site = _mini(root, lambda config: config + "extra_javascript:\n  - assets/heard.js\n", before_build=lambda: (
        root / "site_overrides/assets/heard.js").write_text(HEARD, encoding="utf-8"))
    html = (site / "mini/basics/index.html").read_text(encoding="utf-8")
    assert THEME.search(html) and not BUNDLE.search(html) and "assets/heard.js" in html
    with serve_site(site) as url, Visit(browser, url + "mini/basics/", viewport=DESKTOP) as visit:
        visit.page.wait_for_function("document.body.dataset.heard")
        assert visit.page.evaluate("document.body.dataset.heard") == "1 true"  # once, with the page
        assert visit.errors == []


HEARD = """document$.subscribe(function (page) {
  var times = Number(document.body.dataset.heardTimes || 0) + 1;
  document.body.dataset.heardTimes = times;
  document.body.dataset.heard = times + " " + (page === document);
});
"""


# ---- in the browser, on the bundled site ----

def _visit(tabs: Tabs, url: str, viewport: dict[str, int], scheme: str = "light") -> AbstractContextManager[Visit]:
    phone = viewport["width"] < 600
    return tabs.use(url, viewport, scheme, is_mobile=phone, has_touch=phone)


ACTIVE = "Array.from(document.querySelectorAll('.md-sidebar--secondary .md-nav__link--active'), (a) => a.hash)"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_on_a_desktop_the_contents_follow_the_reader_and_the_chrome_answers_as_materials_did(
        site: str, tabs: Tabs, scheme: str) -> None:
    with _visit(tabs, site + PART, DESKTOP, scheme) as visit:
        page = visit.page
        assert page.evaluate("document.documentElement.className") == "js"
        plain = page.evaluate("document.querySelectorAll('.md-typeset table:not([class])').length")
        wrapped = page.evaluate(
            "document.querySelectorAll('.md-typeset__scrollwrap > .md-typeset__table > table:not([class])').length")
        assert plain == wrapped > 0  # every plain table in Material's scroll box, once
        page.wait_for_function("document.querySelector('.md-sidebar--secondary .md-nav__link')")
        assert page.evaluate(ACTIVE) == []  # at the top, no section is being read yet
        title = page.locator("[data-md-component=header-title]")
        assert "md-header__title--active" not in (title.get_attribute("class") or "")
        third = page.evaluate("document.querySelectorAll('.md-sidebar--secondary a.md-nav__link')[3].hash")
        page.evaluate("(hash) => document.getElementById(decodeURIComponent(hash.slice(1))).scrollIntoView()", third)
        page.wait_for_function(f"{ACTIVE}.length === 1 && {ACTIVE}[0] === {third!r}")
        page.wait_for_function("document.querySelector('[data-md-component=header-title]')"
                               ".classList.contains('md-header__title--active')")  # the page's title in the header
        hidden = "document.querySelector('.md-top').hidden"  # Material fades it out: [hidden] keeps its box
        page.mouse.move(700, 400)
        page.mouse.wheel(0, 300)
        page.wait_for_function(hidden)  # scrolling down: no back-to-top button
        page.mouse.wheel(0, -200)
        page.wait_for_function(f"!{hidden}")  # scrolling up shows it
        page.click(".md-top")
        page.wait_for_function(f"window.scrollY === 0 && {hidden}")
        boxes = page.evaluate("""Array.from(document.querySelectorAll('.md-sidebar__scrollwrap'),
            (box) => [box.getBoundingClientRect().bottom, getComputedStyle(box).overflowY])""")
        assert boxes and all(bottom <= 800 and overflow == "auto" for bottom, overflow in boxes)  # each scrolls itself
        assert visit.errors == []


def test_the_keyboard_goes_to_the_next_and_previous_page_but_not_while_typing(site: str, tabs: Tabs) -> None:
    with _visit(tabs, site + CHAPTER, DESKTOP) as visit:
        page = visit.page
        following = page.evaluate("document.querySelector('link[rel=next]').href")
        page.focus("#rulesc-qs-input")
        page.keyboard.press("n")  # typed into the search box: no page change
        assert page.input_value("#rulesc-qs-input") == "n" and page.url == site + CHAPTER
        page.evaluate("document.activeElement.blur()")
        with page.expect_navigation():
            page.keyboard.press("n")
        assert page.url == following
        with page.expect_navigation():
            page.keyboard.press("p")
        assert page.url == site + CHAPTER
        assert visit.errors == []
    with _visit(tabs, site + PART, DESKTOP) as visit:  # a part page: its own links to the parts around it
        page = visit.page
        following = page.evaluate("document.querySelector('.rulesc-part-steps a[rel=next]').href")
        with page.expect_navigation():
            page.keyboard.press("n")
        assert page.url == following != site + PART


def test_on_a_phone_a_link_in_the_drawers_contents_closes_the_drawer(site: str, tabs: Tabs) -> None:
    """Light, then dark in place: the second pass starts from an address without a hash (history.replaceState, no
    hashchange), so following the same link changes it again; the contents, once shown, stay open."""
    with _visit(tabs, site + CHAPTER, PHONE, "light") as visit:
        page = visit.page
        for scheme in SCHEMES:
            switch_palette(page, scheme)
            page.evaluate("history.replaceState(null, '', location.pathname + location.search)")
            page.click(".md-header label[for=__drawer]")
            page.wait_for_function("document.getElementById('__drawer').checked")
            if not page.is_checked("#__toc"):
                page.click(".md-nav--primary label[for=__toc]")
            link = page.locator(".md-nav--primary .md-nav--secondary a.md-nav__link").nth(2)
            hash_ = link.evaluate("(a) => a.hash")
            link.click()
            page.wait_for_function("!document.getElementById('__drawer').checked")
            assert page.url.endswith(hash_), scheme
        assert visit.errors == []


def test_a_link_to_something_inside_a_closed_disclosure_opens_it_and_printing_opens_them_all(
        site: str, tabs: Tabs) -> None:
    with _visit(tabs, site + PART, DESKTOP) as visit:
        page = visit.page
        page.wait_for_function("document.querySelector('details[data-rulesc-sources]:not([open])')")
        page.evaluate("document.querySelector('details[data-rulesc-sources]:not([open])').lastElementChild.id = "
                      "'zz-inside'")  # the bundled content links into none: give one box a target
        page.evaluate("location.hash = 'zz-inside'")
        page.wait_for_function("document.getElementById('zz-inside').closest('details').open")
        closed = page.evaluate("document.querySelectorAll('details:not([open])').length")
        assert closed > 0
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        assert page.evaluate("document.querySelectorAll('details:not([open])').length") == 0
        page.evaluate("window.dispatchEvent(new Event('afterprint'))")
        assert page.evaluate("document.querySelectorAll('details:not([open])').length") == closed
        assert visit.errors == []


def test_the_light_and_dark_toggle_shows_its_keyboard_focus(site: str, tabs: Tabs) -> None:
    with _visit(tabs, site + CHAPTER, DESKTOP, "light") as visit:  # read light, then shown dark in place
        page = visit.page
        for scheme in SCHEMES:
            switch_palette(page, scheme)
            page.focus("#rulesc-qs-input")
            page.keyboard.press("Shift+Tab")  # the toggle sits just before the search box
            focused = page.evaluate("document.activeElement.id")
            assert focused == ("__palette_0" if scheme == "light" else "__palette_1"), scheme
            outline = page.evaluate("""(() => { const label = document.activeElement.nextElementSibling;
                const style = getComputedStyle(label); return [label.tagName, label.hidden, style.outlineStyle,
                style.outlineWidth]; })()""")  # the label beside the checked radio is the one shown
            assert outline == ["LABEL", False, "solid", "3px"], scheme


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_page_the_navigation_does_not_list_marks_the_page_it_belongs_to(
        site: str, tabs: Tabs, viewport: dict[str, int]) -> None:
    for page, owner, title in ((PART, "dbu/maneuvers/", "Actions and Maneuvers"),  # a part of a long chapter
                               ("dbu/gm-screen/counter-maneuvers/", "dbu/gm-screen/", "GM screen")):  # a GM screen part
        # (the error codes' sections are out of the players' navigation with the error codes themselves)
        with _visit(tabs, site + page, viewport) as visit:
            marked = visit.page.locator(".md-nav--primary a.md-nav__link--active")
            assert marked.count() == 1, page
            # its text, not innerText: the phone's closed drawer is not laid out (content-visibility)
            assert (marked.evaluate("(a) => a.href"), " ".join(str(marked.text_content()).split())) == (site + owner,
                                                                                                     title)
            assert marked.get_attribute("aria-current") == "true"
            if viewport is PHONE:
                visit.page.click(".md-header label[for=__drawer]")
            marked.wait_for(state="visible")  # the drawer opens at its section; the desktop sidebar shows it
            assert visit.errors == []
    with _visit(tabs, site + CHAPTER, viewport) as visit:  # a listed page keeps Material's own mark alone
        assert visit.page.locator(".md-nav--primary [aria-current=true]").count() == 0
