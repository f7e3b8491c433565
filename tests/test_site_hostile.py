"""Hostile text in every free-text field the schemas accept, built into every kind of page and read in system
Chromium: each page shows it as text, and no element, attribute or handler it spells out exists in the DOM."""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import TIMEOUT_MS, VIEWPORT, serve_site, wait_until_calculators_are_ready
from tests.hostile import PAYLOAD, case_strings, hostile_content
from tests.run_case import run_rulesc
from tests.tabs import Tab
from tests.test_diff import tag_an_edit

SCHEMA = Path(__file__).resolve().parent.parent / "schema"
NOT_TEXT = {"chapter": {"rules[].formulas[].expr", "rules[].calculators[].outputs[].expr",
                        "rules[].formulas[].examples[].args.*", "rules[].formulas[].examples[].expect",
                        "rules[].formulas[].params[].default", "rules[].calculators[].inputs[].default"}}
"""Strings that are formulas or values, not text: the schema accepts them, the formula checker reads them."""
EMBEDDED = (".rule.", ".formula.", ".calculator.", ".value", ".was")
"""A variant's rules, formulas and calculators are the chapter schema's, and its values and `was` are values or
formula sources: only its own fields (title, summary) are its text."""
SPY = "window.pwn = function () { window.__pwned = (window.__pwned || 0) + 1; };"
INJECTED = """() => {
  const found = [];
  for (const el of document.querySelectorAll("*")) {
    const names = el.getAttributeNames().filter((n) => n === "data-pwned" || n.startsWith("on"));
    if (names.length) found.push(el.tagName.toLowerCase() + "[" + names.join(" ") + "]");
  }
  if (window.__pwned) found.push("pwn() ran " + window.__pwned + " times");
  return found;
}"""
"""What content smuggled in: an element the payload spells out (each carries data-pwned), an event handler
attribute on any element (the clean site has none: its scripts add listeners), or a handler that ran."""


def _schema(name: str) -> Any:
    return json.loads((SCHEMA / name).read_text(encoding="utf-8"))


def free_text(node: Any, where: str, file: str, depth: int = 0) -> Iterator[str]:
    """Every path of a string the schema accepts with no pattern, enum or const: free text, `*` for any key."""
    if not isinstance(node, dict) or depth > 12:
        return
    if "$ref" in node:
        target, _, pointer = node["$ref"].partition("#")
        file, found = target or file, _schema(target or file)
        for part in pointer.strip("/").split("/"):
            found = found[part]
        yield from free_text(found, where, file, depth + 1)
    kinds = node.get("type")
    text = kinds == "string" or isinstance(kinds, list) and "string" in kinds
    if text and not {"pattern", "enum", "const"} & set(node):
        yield where
    for key, sub in node.get("properties", {}).items():
        yield from free_text(sub, f"{where}.{key}" if where else key, file, depth + 1)
    for key, step in (("items", "[]"), ("additionalProperties", ".*")):
        if isinstance(node.get(key), dict):
            yield from free_text(node[key], where + step, file, depth + 1)
    for sub in [*node.get("oneOf", []), *node.get("anyOf", []), *node.get("allOf", [])]:
        yield from free_text(sub, where, file, depth + 1)


def test_the_hostile_case_carries_the_payload_in_every_free_text_field_the_schemas_accept() -> None:
    strings = [(kind, where) for kind, where, value in case_strings() if PAYLOAD in value]
    missing = []
    for kind in ("system", "chapter", "variant"):
        for path in sorted(set(free_text(_schema(f"{kind}.schema.json"), "", f"{kind}.schema.json"))):
            if path in NOT_TEXT.get(kind, set()) or \
                    kind == "variant" and any(part in path for part in EMBEDDED):
                continue
            if not any(k == kind and fnmatch.fnmatchcase(w, path.replace("[]", "[[]]")) for k, w in strings):
                missing.append(f"{kind}: {path}")
    assert missing == []
    assert len(strings) == 76  # the case keeps every one of them (a publication's and an attack's among them)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The hostile case with a chapter long enough to split (and its GM screen), tagged v1 and, after one text
    change, v2 (the versions its system.yaml names), built with its house rule."""
    root = hostile_content(tmp_path_factory.mktemp("hostile"), long_chapter=True)
    tag_an_edit(root, ("v1", "v2"), root / "content/mini/basics.yaml", "rounded down.", "rounded down, always.")
    status, _, err = run_rulesc("--root", str(root), "build", "--variant", "loud")
    assert (status, err) == (0, "")
    with serve_site(root / "site") as url:
        yield root / "site", url


def site_pages(site: Path) -> list[str]:
    """Every page of the built site, as addresses relative to its root: each folder's page, and the 404 page."""
    return sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.rglob("index.html")) + ["404.html"]


def test_every_page_shows_the_payload_as_text_and_runs_none_of_it(hostile_site: tuple[Path, str],
                                                                     browser: Any) -> None:
    site, url = hostile_site
    pages = [page.removeprefix("./") for page in site_pages(site)]
    kinds = {"mini/long/long-0/", "mini/gm-screen/calc-0-0/", "mini/what-changed/", "mini/tables/", "dice-notation/",
             "errors/", "404.html", "search/", "mini/glossary/"}
    assert kinds <= set(pages)  # a part page, a GM screen's part, What changed, index tables, the fixed pages
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(SPY)
    tabs = [context.new_page() for _ in range(TABS)]
    try:
        found = {}
        for start in range(0, len(pages), TABS):
            batch = list(zip(tabs, pages[start:start + TABS], strict=False))
            for tab, address in batch:
                tab.goto(url + address, wait_until="commit")
            for tab, address in batch:
                found[address] = injected_once_quiet(tab, address)
        assert {address: bad for address, bad in found.items() if bad} == {}
    finally:
        context.close()


TABS = 8
"""Pages loaded side by side in one context: each waits for its network to go quiet while the others load."""


# What one page shows, read in one round trip: what content smuggled in (INJECTED), its title, whether its text shows
# the system's name with the payload, and whether its footer shows the sources' notices (which their licenses ask).
SHOWN = f"""(payload) => {{
  const footer = document.querySelector(".md-copyright").textContent;
  return [({INJECTED})(), document.title, document.body.textContent.includes(`Mini ${{payload}}`),
          footer.includes(`Changed ${{payload}}`) && footer.includes(`Notice ${{payload}}`)];
}}"""


def injected_once_quiet(tab: Any, address: str) -> list[str]:
    """What content smuggled into the page at `address` once its network is quiet, after checking that it shows
    the payload as text and the sources' notices in its footer."""
    tab.wait_for_load_state("load")
    tab.wait_for_load_state("networkidle")
    injected, title, shown, notices = tab.evaluate(SHOWN, PAYLOAD)
    assert "&lt;" not in title and shown, address
    assert notices == (address != "404.html"), address  # every page that shows rules (404 shows none)
    return list(injected)


@pytest.fixture(scope="module")
def spied(browser: Any) -> Iterator[Tab]:
    """The tab the file's tests of one page at a time take turns in, SPY in each of its pages."""
    with Tab(browser) as tab:
        tab.add_init_script(SPY)
        yield tab


def test_titles_navigation_and_description_read_as_written(hostile_site: tuple[Path, str], spied: Tab) -> None:
    _, url = hostile_site
    with spied.use(url + "mini/basics/") as visit:
        page = visit.page
        assert page.title() == f"Basics {PAYLOAD} - Rules reference"
        plain = PAYLOAD.replace("`x`", "x").replace("&amp;", "&")  # the summary is Markdown: code, an entity
        assert page.locator('meta[name="description"]').get_attribute("content") == f"The basic rules {plain}"
        links = page.locator(".md-sidebar--primary .md-nav__link").all_text_contents()
        assert {f"Mini {PAYLOAD}", f"Basics {PAYLOAD}", f"Long {PAYLOAD}"} <= {" ".join(t.split()) for t in links}
        page.goto(url + "mini/long/long-0/")
        assert page.title().startswith("Long rule 0 ") and page.title().endswith(f" (Long {PAYLOAD}) - Rules reference")
        assert page.evaluate(INJECTED) == []


def test_calculators_previews_and_search_write_the_payload_as_text(hostile_site: tuple[Path, str],
                                                                   spied: Tab) -> None:
    _, url = hostile_site
    with spied.use(url + "mini/basics/") as visit:
        page = visit.page
        wait_until_calculators_are_ready(page)  # this one is out of sight: a change before it binds is not read
        page.select_option("#calc-mini-double-calc-rung_of", "2")
        word = page.locator("#calc-mini-double-calc-out-word_out")
        page.wait_for_function("(el) => el.textContent.startsWith('high')", arg=word.element_handle())
        assert word.text_content() == f"high {PAYLOAD}"
        helps = page.locator(".rulesc-calc__help").all_text_contents()  # a calculator's input, an attack's target
        assert helps == [f"Any number {PAYLOAD}", f"The guard to beat {PAYLOAD}"]
        target = page.get_by_label(f"Guard {PAYLOAD}")
        assert target.get_attribute("aria-describedby") == f"{target.get_attribute('id')}-help " \
            f"{target.get_attribute('id')}-msg"
        page.locator('a.rulesc-ref--term[data-rulesc-preview]').first.hover()
        assert page.locator("#rulesc-preview").text_content().startswith(f"Pool {PAYLOAD}")
        assert page.evaluate(INJECTED) == []
        page.goto(url + "search/")
        page.fill("#rulesc-search-q", "Doubling")
        page.wait_for_selector(".rulesc-search__results li")
        titles = page.locator(".rulesc-search__results li .rulesc-hit__title").all_text_contents()
        assert f"Doubling {PAYLOAD}" in titles
        assert page.evaluate(INJECTED) == []
