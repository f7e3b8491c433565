"""Search, phones and keyboard on the site (issue 17, items 6-8) in Debian's Chromium, at a phone's width (390 px,
320 px for the index tables) and a desktop's (1366 px), light and dark, and axe-core on the main page types.

Besides the bundled content, a small project of two systems of its own ("shelf") gives search cases with known
answers: a sub-sub-rule, a term named as its rule, 26 hits for one word, and the same word in the other system.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from rulesc.pipeline import Project, build_project
from tests.browser import (
    REPEATED_BLOCKS,
    Visit,
    axe_results,
    lay_out_everything,
    serious_violations,
    serve_site,
    switch_palette,
)
from tests.conftest import REPO
from tests.tabs import Tabs

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
SCHEMES = ("light", "dark")
LANTERNS = 26
ALPHA = "Alpha, First <Book>"


def _tab(tabs: Tabs, url: str, width: str = "desktop", scheme: str = "light",
         viewport: dict[str, int] | None = None) -> AbstractContextManager[Visit]:
    """The module's tab of a phone or a desktop at `url`, at the width's viewport unless given another."""
    phone = width == "phone"
    return tabs.use(url, viewport or WIDTHS[width], scheme, is_mobile=phone, has_touch=phone)


# ---- a project of our own: two systems with known search answers and an upgrade picker with clashing names ----

def _rule(rule_id: str, name: str, text: str, parent: str | None = None, kind: str = "general") -> str:
    lines = [f"  - id: {rule_id}", f"    name: '{name}'", f"    kind: {kind}"]
    lines += [f"    parent: {parent}"] if parent else []
    return "\n".join([*lines, f"    text: {text}", f"    provenance: {{source: src, section: '{name}'}}", ""])


def _system(root: Path, system: str, title: str, terms: str, chapter: str, rules: list[str]) -> None:
    folder = root / "content" / system
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(
        f"id: {system}\ntitle: '{title}'\nsummary: A test system.\nsources:\n  - {{id: src, file: s.txt, title: S}}\n"
        f"dice:\n  summary: Roll a d6.\nterms:\n{terms}")
    (folder / f"{chapter}.yaml").write_text(
        f"id: {chapter}\ntitle: {chapter.capitalize()}\norder: 1\nsummary: Rules.\nrules:\n" + "".join(rules))


ARMORY = """    calculators:
      - id: armory-builder
        title: Armory builder
        inputs:
          - {name: chosen, type: upgrades, label: Chosen gear}
        outputs:
          - {name: problems, label: Problems, expr: upgrade_problems(chosen)}
"""


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shelf") / "p"
    root.mkdir()
    for part in ("schema", "site_overrides"):
        shutil.copytree(REPO / part, root / part)
    shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
    term = ("  - {id: ember-stone-term, name: Ember Stone, abbreviations: [ES], rule: ember-stone,\n"
            "     definition: A coal that never cools.}\n")
    lanterns = [_rule(f"lantern-{i:02d}", f"Lantern {i:02d}", "This lantern burns with a steady flame.")
                for i in range(1, LANTERNS + 1)]
    armory = [_rule("armory", "Armory", "Gear for the road.") + ARMORY,
              _rule("sword", "Sword", "A blade.", "armory", "upgrade"),
              _rule("axe", "Axe", "A heavier blade.", "armory", "upgrade"),
              _rule("sword-edge", "Edge", "A keener sword.", "sword", "upgrade"),
              _rule("axe-edge", "Edge", "A keener axe.", "axe", "upgrade"),
              _rule("grip-a", "Grip", "A leather grip.", "armory", "upgrade"),
              _rule("grip-b", "Grip", "A corded grip.", "armory", "upgrade")]
    _system(root, "alpha", ALPHA, term, "lamps", [
        _rule("vault", "Vault", "A locked room."), _rule("vault-door", "Vault Door", "Its door.", "vault"),
        _rule("hinge", "Hinge", "It squeaks when opened.", "vault-door"),
        _rule("ember-stone", "Ember Stone", "Warms a room all night."), *lanterns, *armory])
    _system(root, "beta", "Beta", "  - {id: keeper, name: Keeper, definition: One who keeps.}\n", "keep",
            [_rule("lantern-keeper", "Lantern Keeper", "Keeps every lantern of the tower lit.")])
    build_project(Project(root))
    return root


@pytest.fixture(scope="module")
def shelf_site(shelf: Path) -> Any:
    with serve_site(shelf / "site") as url:
        yield url


# ---- 6. search ----

def test_records_carry_their_parents_and_a_term_named_as_its_rule_joins_it(shelf: Path) -> None:
    from rulesc.emit.site.search import RECORDS, coded, record_html, search_pages

    records = json.loads((shelf / "build/docs" / RECORDS).read_text())
    hinge = next(r for r in records if r["title"] == "Hinge")
    assert hinge["crumbs"] == [ALPHA, "Lamps", "Vault", "Vault Door"]
    term = next(r for r in records if r["kind"] == "term" and r["title"] == "Ember Stone")
    assert term["same_as"] == "alpha/lamps/vault/#ember-stone" and term["url"] == "alpha/glossary/#ember-stone-term"
    assert next(r for r in records if r["title"] == "Keeper")["same_as"] == ""  # no rule: a hit of its own
    pages = search_pages(records)
    assert len(pages) == len(records) - 1
    stone, terms = next((r, t) for r, t in pages if r["title"] == "Ember Stone")
    assert stone["kind"] == "general rule" and [t["url"] for t in terms] == [term["url"]]  # the kind's label
    html = record_html(stone, terms)
    assert ('<span data-pagefind-filter="kind:general rule"></span><span data-pagefind-filter="kind:term"></span>'
            in html)
    assert "Ember Stone|ES" in html and "Warms a room all night. A coal that never cools." in html
    crumbs = coded("Alpha, First <Book> \u203a Lamps")  # the whole place, kept out of search (coded)
    assert f'<p data-pagefind-meta="crumbs" data-pagefind-ignore hidden>{crumbs}</p>' in html
    assert base64.b64decode(crumbs).decode() == f"{ALPHA} \u203a Lamps"
    assert f'data-pagefind-meta="href" data-pagefind-ignore hidden>{coded(stone["url"])}<' in html
    assert "Book" not in html and stone["url"] not in html  # Pagefind would match a query in any metadata
    what = coded("General rule and glossary term")  # what the hit is, in words, coded as its place is
    assert f'<p data-pagefind-meta="what" data-pagefind-ignore hidden>{what}</p>' in html


def test_a_hit_says_what_it_is_in_words() -> None:
    from rulesc.emit.site.search import hit_what

    assert [hit_what(kinds) for kinds in (["maneuver"], ["calculator"], ["term"], ["general rule", "term"])] == \
        ["Maneuver", "Calculator", "Glossary term", "General rule and glossary term"]



def _page_results(page: Any) -> list[str]:
    page.wait_for_function("/results|No results/.test(document.querySelector('.rulesc-search__status').textContent)")
    return list(page.locator(".rulesc-search__results li .rulesc-hit__title").all_inner_texts())


def _quick(page: Any, query: str) -> list[str]:
    folded = page.locator(".rulesc-qs--open").count() == 0
    if folded and page.locator(".rulesc-qs-open").is_visible():  # a phone folds the header's box into a button
        page.click(".rulesc-qs-open")
    page.fill("#rulesc-qs-input", query)
    page.wait_for_selector("#rulesc-qs-results:not([aria-busy]) li.rulesc-qs__all")
    return list(page.locator("#rulesc-qs-results li:not(.rulesc-qs__all) .rulesc-hit__title").all_inner_texts())


@pytest.mark.parametrize("width", WIDTHS)
def test_a_sub_rule_shows_its_parents_and_a_snippet_with_the_words_marked(shelf_site: str, tabs: Tabs,
                                                                        width: str) -> None:
    with _tab(tabs, shelf_site + "search/?q=hinge", width) as visit:
        assert _page_results(visit.page)[0] == "Hinge"
        first = visit.page.locator(".rulesc-search__results li").first
        where = f"General rule \u00b7 {ALPHA} \u203a Lamps \u203a Vault \u203a Vault Door"
        assert first.locator(".rulesc-search__where").inner_text() == where
        assert first.locator(".rulesc-search__snippet").inner_text() == "It squeaks when opened."  # its own text only
        visit.page.fill("#rulesc-search-q", "squeaks")
        visit.page.wait_for_selector(".rulesc-search__results mark")
        assert visit.page.locator(".rulesc-search__results li").first.locator("mark").all_inner_texts() == ["squeaks"]
        assert visit.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_bundled_sub_rule_names_its_parent_maneuver(site: str, tabs: Tabs, width: str) -> None:
    with _tab(tabs, site + "search/?q=head", width) as visit:
        results = _page_results(visit.page)
        where = visit.page.locator(".rulesc-search__results li .rulesc-search__where").nth(results.index("Head"))
        assert where.inner_text().startswith("General rule \u00b7 Dragon Ball Universe \u203a ")
        assert where.inner_text().endswith("\u203a Called Shot")


def test_a_term_named_as_its_rule_is_one_hit_found_by_its_abbreviation(shelf_site: str, tabs: Tabs) -> None:
    with _tab(tabs, shelf_site + "search/?q=ember+stone") as visit:
        assert _page_results(visit.page).count("Ember Stone") == 1
        visit.page.fill("#rulesc-search-q", "ES")
        visit.page.wait_for_function(
            "document.querySelector('.rulesc-search__results .rulesc-hit__title')?.textContent === 'Ember Stone'")
        where = visit.page.locator(".rulesc-search__results li .rulesc-search__where").first.inner_text()
        assert where.startswith("General rule and glossary term \u00b7 ")
        visit.page.fill("#rulesc-search-q", "never cools")  # the term's definition is found on the rule's hit
        assert _page_results(visit.page) == ["Ember Stone"]
        href = visit.page.locator(".rulesc-search__results a").first.get_attribute("href")
        assert href == shelf_site + "alpha/lamps/vault/#ember-stone"  # its part of the split chapter


def test_the_system_being_read_comes_first(shelf_site: str, tabs: Tabs) -> None:
    """The same query from each system's chapter: its own lantern first (so the order is the boost, not the index)."""
    with _tab(tabs, shelf_site + "beta/keep/") as visit:
        assert _quick(visit.page, "lantern")[0] == "Lantern Keeper"
        link = visit.page.locator("#rulesc-qs-results li.rulesc-qs__all a")
        assert link.inner_text() == f"All {LANTERNS + 1} results and filters"
        assert link.get_attribute("href").endswith("search/?q=lantern&near=beta")
        link.click()
        visit.page.wait_for_url("**/search/?q=lantern&near=beta")
        assert _page_results(visit.page)[0] == "Lantern Keeper"
    with _tab(tabs, shelf_site + "alpha/lamps/") as visit:
        assert re.fullmatch(r"Lantern \d\d", _quick(visit.page, "lantern")[0])
        assert visit.errors == []
    with _tab(tabs, shelf_site + "search/?q=lantern") as visit:  # from no system: the index's own order
        assert re.fullmatch(r"Lantern \d\d", _page_results(visit.page)[0])
        # Words of a hit's place only match nothing: the system's title, the chapter's, the folder of a split
        # chapter's part (its first rule's id, lantern-16); Pagefind searches metadata, so the place and the address
        # are coded. The search page keeps nothing but its address: each query is a page load of its own.
        for query, found in (("book", []), ("first", []), ("16", ["Lantern 16"])):
            visit.go(f"{shelf_site}search/?q={query}")
            assert _page_results(visit.page) == found, query


@pytest.mark.parametrize(("width", "scheme"), [("phone", "dark"), ("desktop", "light")])
def test_filters_and_pages_live_in_the_address_and_go_past_twenty(shelf_site: str, tabs: Tabs, width: str,
                                                                  scheme: str) -> None:
    with _tab(tabs, shelf_site + "search/", width, scheme) as visit:
        page = visit.page
        page.fill("#rulesc-search-q", "lantern")
        assert len(_page_results(page)) == 20
        assert page.locator(".rulesc-search__status").inner_text() == f"{LANTERNS + 1} results, page 1 of 2 (1\u201320)"
        page.check('input[name="system"][value="alpha"]')
        page.wait_for_function("location.search === '?q=lantern&system=alpha'")
        page.wait_for_function(
            f"document.querySelector('.rulesc-search__status').textContent.startsWith('{LANTERNS} ')")
        page.click("button[data-page='2']")
        page.wait_for_function("location.search === '?q=lantern&system=alpha&page=2'")
        assert len(_page_results(page)) == LANTERNS - 20
        assert page.locator(".rulesc-search__results").get_attribute("start") == "21"
        url = page.url
    with _tab(tabs, url, width, scheme) as again:  # the address alone restores query, filter and page
        assert again.page.input_value("#rulesc-search-q") == "lantern"
        assert again.page.is_checked('input[name="system"][value="alpha"]')
        assert not again.page.is_checked('input[name="system"][value="beta"]')
        assert len(_page_results(again.page)) == LANTERNS - 20
        status = again.page.locator(".rulesc-search__status").inner_text()
        assert status == f"{LANTERNS} results, page 2 of 2 (21\u201326)"
        again.page.fill("#rulesc-search-q", "lantern keeper")  # a new query starts at page 1 again
        again.page.wait_for_function("!location.search.includes('page=')")
        assert again.errors == []


# ---- 8. keyboard: arrow keys through results, one tab stop per rule, visible focus ----

def _focused(page: Any) -> str:
    """The focused link's name: a hit's title, or the link's whole text."""
    return str(page.evaluate("(document.activeElement.querySelector('.rulesc-hit__title') || document.activeElement)"
                             ".textContent"))


@pytest.mark.parametrize("width", WIDTHS)
def test_arrow_keys_walk_every_header_result_and_enter_opens(shelf_site: str, tabs: Tabs, width: str) -> None:
    with _tab(tabs, shelf_site + "alpha/lamps/", width) as visit:
        page = visit.page
        _quick(page, "lantern")
        links = [*_quick(page, "lantern"), page.locator("#rulesc-qs-results li.rulesc-qs__all a").inner_text()]
        assert len(links) == 9  # 8 results and "All ... results"
        walked = []
        for _ in links:
            page.keyboard.press("ArrowDown")
            walked.append(_focused(page))
        assert walked == links
        page.keyboard.press("ArrowDown")  # stays on the last
        assert _focused(page) == links[-1]
        page.keyboard.press("Home")
        assert _focused(page) == links[0]
        page.keyboard.press("ArrowUp")  # back to the box
        assert page.evaluate("document.activeElement.id") == "rulesc-qs-input"
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        href = page.evaluate("document.activeElement.href")
        page.keyboard.press("Enter")
        page.wait_for_url(href)
        assert re.fullmatch(re.escape(shelf_site) + r"alpha/lamps/[a-z0-9-]+/#lantern-\d\d", href)  # on its part


def test_arrow_keys_reach_all_twenty_results_of_the_search_page(shelf_site: str, tabs: Tabs) -> None:
    with _tab(tabs, shelf_site + "search/?q=lantern") as visit:
        page = visit.page
        names = _page_results(page)
        page.focus("#rulesc-search-q")
        walked = []
        for _ in names:
            page.keyboard.press("ArrowDown")
            walked.append(_focused(page))
        assert walked == names and len(names) == 20
        href = page.evaluate("document.activeElement.href")
        page.keyboard.press("Enter")
        page.wait_for_url(href)


def test_each_rule_heading_is_one_tab_stop(site: str, tabs: Tabs) -> None:
    """Tab from the chapter's title over its first five rules: each heading's Copy link button is a stop, the
    pilcrow permalink beside it is not."""
    with _tab(tabs, site + "dbu/core-rules/tier-of-power-section/") as visit:
        page = visit.page
        page.evaluate("(() => { const h = document.querySelector('.md-content h1'); h.tabIndex = -1; h.focus(); })()")
        stops: list[tuple[str, str]] = []
        while len({heading for heading, _ in stops if heading}) < 6:
            page.keyboard.press("Tab")
            stops.append(tuple(page.evaluate("[document.activeElement.closest('[data-kind][id]')?.id || '',"
                                             " document.activeElement.classList[0] || '']")))
        in_headings = [(h, cls) for h, cls in stops if h]
        headings = list(dict.fromkeys(h for h, _ in in_headings))[:5]
        assert [cls for h, cls in in_headings if h in headings] == ["rulesc-copy"] * 5
        assert headings[:2] == ["tier-of-power-section", "tier-of-power"]
        assert page.locator(".md-content [data-kind][id] a.headerlink").first.get_attribute("tabindex") == "-1"


CONTRAST = """(el) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => [r, g, b]
    .map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let node = el.parentElement, bg = [255, 255, 255];
  while (node) {
    const c = rgb(getComputedStyle(node).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) { bg = c; break; }
    node = node.parentElement;
  }
  const style = getComputedStyle(el), a = lum(rgb(style.outlineColor)), b = lum(bg);
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  return [style.outlineStyle, style.outlineWidth, style.outlineColor, ratio];
}"""
CONTROLS = {"checkbox": ".md-content .rulesc-calc input[type=checkbox]", "number": ".md-content input[type=number]",
            "select": ".md-content .rulesc-calc select", "button": ".md-content .rulesc-calc__reset",
            "link": ".md-content p a.rulesc-ref", "copy": ".md-content .rulesc-copy", "summary": ".md-content summary",
            "header search": "#rulesc-qs-input"}
FOCUS = {"light": "rgb(26, 58, 158)", "dark": "rgb(255, 213, 79)"}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_kind_of_control_shows_a_clear_focus_outline(site: str, tabs: Tabs, width: str, scheme: str) -> None:
    with _tab(tabs, site + "dbu/core-rules/combat-rolls/", width, scheme) as visit:  # every kind of control
        page = visit.page
        outlines = {}
        for name, selector in CONTROLS.items():
            if name == "header search" and width == "phone":
                page.click(".rulesc-qs-open")  # a phone folds the header's box into a button
            control = page.locator(selector).first
            control.focus()
            page.keyboard.press("Shift+Tab")  # arrive by keyboard, as :focus-visible asks
            page.keyboard.press("Tab")
            assert page.evaluate("(el) => el === document.activeElement", control.element_handle()), name
            outlines[name] = page.evaluate(CONTRAST, control.element_handle())
        for name, (style, thickness, colour, ratio) in outlines.items():
            expected = "rgb(255, 255, 255)" if name == "header search" else FOCUS[scheme]
            assert (style, thickness, colour) == ("solid", "3px", expected), name
            assert ratio >= 3, (name, ratio)


# ---- 7. phones: index tables as cards and the attack set builder (the table of contents: test_site_phone.py) ----

@pytest.mark.parametrize("scheme", SCHEMES)
def test_index_tables_are_cards_without_sideways_scroll_at_320_px(site: str, tabs: Tabs, scheme: str) -> None:
    with _tab(tabs, site + "dbu/tables/maneuver/", "phone", scheme, {"width": 320, "height": 700}
              ) as visit:  # a kind's page: the system's index tables are split by kind
        page = visit.page
        sizes = page.evaluate("""[document.documentElement.scrollWidth, document.documentElement.clientWidth,
            ...Array.from(document.querySelectorAll('[data-index-table]'), (b) => b.scrollWidth - b.clientWidth)]""")
        assert sizes[0] <= sizes[1] == 320 and set(sizes[2:]) == {0}
        card = page.locator("[data-index-table] tbody tr").first
        cells = card.locator("td")
        shown = [c for c in cells.all() if c.is_visible()]
        labels = [c.get_attribute("data-label") for c in shown]
        assert labels[:3] == ["Name", "Under", "Chapter"] and len(shown) < cells.count()  # its empty cells are hidden
        assert all(c.inner_text().strip() for c in shown)
        assert page.evaluate("getComputedStyle(document.querySelector('[data-index-table] td'), '::before').content") \
            == '"Name"'
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 320
        table = page.locator("[data-index-table]").first
        table.locator("th button").nth(1).click()  # the headings stay: a row of sort buttons
        assert table.locator("th").nth(1).get_attribute("aria-sort") == "ascending"
        assert visit.errors == []


def test_index_tables_keep_no_column_empty_for_every_row(site: str, tabs: Tabs) -> None:
    headings = 0
    with _tab(tabs, "about:blank") as visit:  # one tab reads the system's tables, a page each
        for kind in ("maneuver", "action", "keyword", "general", "table", "list"):
            visit.go(site + f"dbu/tables/{kind}/")
            empty = visit.page.evaluate("""Array.from(document.querySelectorAll('[data-index-table] table')).flatMap(
                (t) => Array.from(t.tHead.rows[0].cells, (th, i) => [t.id, th.textContent, Array.from(t.tBodies[0].rows)
                  .every((r) => !r.cells[i].textContent.trim())]).filter((x) => x[2]))""")
            assert empty == [], kind
            headings += visit.page.locator("[data-index-table] th").count()
            # a wide screen keeps the table: no cards
            assert visit.page.evaluate(
                "getComputedStyle(document.querySelector('[data-index-table] tbody tr')).display") == "table-row"
    assert headings > 20


def _builder(page: Any) -> Any:
    return page.locator('[data-calculator="annulus/attack-set-builder"]')


@pytest.mark.parametrize("width", WIDTHS)
def test_the_attack_set_builder_lists_its_picks_as_removable_chips(site: str, tabs: Tabs, width: str) -> None:
    with _tab(tabs, site + "annulus/attacks/general-upgrades/", width) as visit:
        visit.wait_until_calculators_are_ready("annulus/attack-set-builder")
        box = _builder(visit.page)
        groups = box.locator("details.rulesc-calc__group")
        assert [g.evaluate("(d) => d.open") for g in groups.all()] == [width == "desktop"] * groups.count()
        assert groups.count() == 3
        labels = box.locator("[data-upgrade]").evaluate_all("(els) => els.map((e) => e.dataset.label)")
        assert len(labels) == len(set(labels)) > 100 and "Intense Core (Spray)" in labels  # none reads as another
        choices = box.locator(".rulesc-calc__choices").first
        assert choices.evaluate("(u) => [getComputedStyle(u).overflowY, getComputedStyle(u).maxHeight]") \
            == ["visible", "none"]  # no nested scroll box
        assert box.locator(".rulesc-calc__chosen").inner_text() == "Chosen: none yet."
        box.locator(".rulesc-calc__filter").fill("damage")
        box.locator('[data-upgrade="toughness-damage"]').check()
        box.locator(".rulesc-calc__filter").fill("blast")
        box.locator('[data-upgrade="blast-piercing"]').check()
        chips = box.locator(".rulesc-calc__chip")
        assert chips.all_inner_texts() == ["Piercing (Blast) \u2715", "Toughness Damage \u2715"] or \
            chips.all_inner_texts() == ["Toughness Damage \u2715", "Piercing (Blast) \u2715"]
        assert box.locator(".rulesc-calc__chosen-title").inner_text() == "Chosen (2):"
        assert box.locator('output[name="picks"]').inner_text() == "2"
        box.locator('.rulesc-calc__chip[aria-label="Remove Toughness Damage"]').click()
        assert not box.locator('[data-upgrade="toughness-damage"]').is_checked()
        assert chips.all_inner_texts() == ["Piercing (Blast) \u2715"]
        assert box.locator('output[name="picks"]').inner_text() == "1"  # the calculator recomputed
        assert "the set needs" in box.locator('output[name="problems"]').inner_text()
        box.locator(".rulesc-calc__reset").click()
        visit.page.wait_for_function("document.querySelectorAll('.rulesc-calc__chip').length === 0")
        assert box.locator(".rulesc-calc__chosen").inner_text() == "Chosen: none yet."
        assert visit.errors == []


def test_a_shared_builder_link_shows_its_picks_as_chips(site: str, tabs: Tabs) -> None:
    url = site + "annulus/attacks/general-upgrades/?attack-set-builder.chosen=flashy,improved-stealth,improved-stealth"
    with _tab(tabs, url, "phone") as visit:
        visit.wait_until_calculators_are_ready("annulus/attack-set-builder")
        chips = _builder(visit.page).locator(".rulesc-calc__chip").all_inner_texts()
        assert sorted(chips) == ["Flashy \u2715", "Improved Stealth \u00d72 \u2715"]


def test_upgrades_with_one_name_get_their_parent_or_their_id(shelf_site: str, tabs: Tabs) -> None:
    with _tab(tabs, shelf_site + "alpha/lamps/lantern-16/") as visit:  # the chapter's part with the Armory
        labels = visit.page.locator("[data-upgrade]").evaluate_all("(els) => els.map((e) => e.dataset.label)")
        grips = ["Grip (Armory) [grip-a]", "Grip (Armory) [grip-b]"]
        assert sorted(labels) == ["Axe", "Edge (Axe)", "Edge (Sword)", *grips, "Sword"]
        assert visit.page.locator("details.rulesc-calc__group summary").all_inner_texts() == ["Armory (6)"]


# ---- axe-core: no serious or critical violation on the main page types ----

GM_PART = "dbu/gm-screen/keywords-clashes/"  # the GM screen's page with Clash odds (charts, choices, checkboxes)
AXE_PAGES = {"home": "", "system landing": "dbu/", "chapter with calculators": "dbu/core-rules/tier-of-power-section/",
             "split chapter's landing page": "dbu/core-rules/", "index tables' landing page": "dbu/tables/",
             "a kind's index table": "dbu/tables/maneuver/", "error codes of a section": "errors/formulas/",
             "GM screen": "dbu/gm-screen/", "GM screen part": GM_PART, "search with results": "search/?q=dice",
             "dice notation (wide tables)": "dice-notation/", "glossary": "dbu/glossary/",
             "error codes": "errors/"}
# The What changed page needs a project with history, which the session's build (a copy) has not:
# tests/test_variants_browser.py runs axe on it.


# Two texts of the glossary made faint by a rule of a stylesheet added to the page (so their elements' tags, classes
# and attributes stay as they were), far down the longest page, whose colours are all that is new: the text of the
# last block in the article that axe would leave out as repeated (tests/browser.py's REPEATED_BLOCKS), and the last
# text outside those blocks that color-contrast would pass over as one of a key an earlier text had (TEXTS_ONCE).
# axe must find both in every layout.
PLANT = """() => {
  document.getElementById("rulesc-planted")?.remove();  // the other scheme's, on the same page
  const shown = (el) => el.getClientRects().length > 0;
  const left = window.__rulescRepeated.filter((block) => block.closest(".md-content"));
  const faint = left.flatMap((block) => [block, ...block.querySelectorAll("*")]).filter((el) =>
    el.childElementCount === 0 && el.textContent.trim() && shown(el)).pop();
  const cut = new Set(window.__rulescRepeated.flatMap((block) => [block, ...block.querySelectorAll("*")]));
  const texts = Array.from(document.body.querySelectorAll("*")).filter((el) => !cut.has(el) && shown(el)
    && Array.from(el.childNodes).some((node) => node.nodeType === Node.TEXT_NODE && node.data.trim()));
  const seen = new Set(), echoes = texts.filter((el) => seen.size === seen.add(window.__rulescTextKey(el)).size);
  const echo = echoes.filter((el) => el.closest(".md-content")).pop();
  const path = (el) => el === document.documentElement ? "html" : path(el.parentElement)
    + ` > :nth-child(${Array.from(el.parentElement.children).indexOf(el) + 1})`;
  const style = Object.assign(document.createElement("style"), {id: "rulesc-planted"});
  style.textContent = `${path(faint)} { color: rgb(119, 119, 119); background: rgb(136, 136, 136) }
    ${path(echo)} { color: rgb(118, 118, 118); background: rgb(135, 135, 135) }`;  // two keys, not one
  document.head.append(style);
  window.__rulescPlanted = [faint, echo];
}"""
PLANTED = "(target) => window.__rulescPlanted.includes(document.querySelector(target))"


def _planted_found(page: Any, results: dict[str, Any]) -> int:
    """How many of the planted texts axe reported as too faint; the planted nodes leave the results."""
    found = 0
    for violation in results["violations"]:
        planted = [n for n in violation["nodes"] if violation["id"] == "color-contrast"
                   and len(n["target"]) == 1 and page.evaluate(PLANTED, n["target"][0])]
        violation["nodes"] = [n for n in violation["nodes"] if n not in planted]
        found += len(planted)
    results["violations"] = [v for v in results["violations"] if v["nodes"]]
    return found


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_no_serious_or_critical_violation(site: str, axe_url: str, tabs: Tabs, width: str) -> None:
    """axe-core as axe-playwright-python bundles it (no download): the page types at each width, each page loaded
    once and checked light, then dark (switched in place, as the header's toggle does), each block that shows
    nothing an earlier one did left out (and a faint text planted on the glossary found in both schemes)."""
    found = []
    with _tab(tabs, "about:blank", width) as visit:  # one tab goes from page type to page type
        for name, path in AXE_PAGES.items():
            visit.page.emulate_media(color_scheme="light")
            visit.go(site + path)
            assert visit.status == 200, name  # a page type that is missing would have axe check the 404 page
            if path.startswith("search/"):
                _page_results(visit.page)
            for scheme in SCHEMES:
                if scheme != "light":
                    switch_palette(visit.page, scheme)
                violations = _axe_violations(visit.page, name, axe_url if scheme == "light" else None)
                found += [f"{name} ({scheme}): {violation}" for violation in violations]
    assert found == []


def _axe_violations(page: Any, name: str, axe_url: str | None) -> list[str]:
    """axe's serious or critical violations on the page as shown now, blocks that repeat others left out; axe is
    put in the page from `axe_url` first unless None (it is there already)."""
    if name == "glossary":  # where axe would skip a block once everything is laid out, as it runs
        lay_out_everything(page)
        page.evaluate(REPEATED_BLOCKS)
        page.evaluate(PLANT)
    results = axe_results(page, None, repeated="left out", url=axe_url)
    assert name != "glossary" or _planted_found(page, results) == 2, "axe skipped a faint text"
    assert re.match(r"\d+\.\d+", results["testEngine"]["version"])
    return serious_violations(results)
