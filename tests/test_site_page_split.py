"""The error codes by section and a big system's index tables by kind: landing pages, their pages, and old links."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesc.build.navigation import nav_entry
from rulesc.diagnostics.catalog import SECTIONS, Entry
from rulesc.emit.site.errors_page import PAGE, emit_errors_page, section_path
from rulesc.emit.site.links import href, rule_page, table_kind_path, tables_path, url_of
from rulesc.emit.site.table_plan import BUDGET, split_tables, table_cells
from rulesc.emit.site.tables import plural, table_kinds
from rulesc.pipeline import Project, build_project, compile_project
from tests.browser import serve_site
from tests.tabs import Tab

REPO = Path(__file__).resolve().parent.parent
BIG, SMALL = "heap-of-odds-3", "tiny-1"
BIG_TITLE = 'Heap & "Odds" <beta>'
KINDS = ["keyword", "condition", "general"]  # the big system's kinds, in the tables' fixed order
HEAPED = 240  # general rules in the big system: with Name, Under, Chapter and Values, well over the budget


def _rule(rule_id: str, name: str, kind: str, parent: str | None = None, height: int | None = None) -> str:
    value = f"height_{rule_id.replace('-', '_')}"  # value names are the system's: one each
    text = f"Stack {{{{{value}}}}} crates for {name}." if height is not None else f"A note on {name}."
    lines = [f"  - id: {rule_id}", f"    name: {json.dumps(name)}", f"    kind: {kind}",
             f"    text: {json.dumps(text)}", f"    provenance: {{source: src, section: {json.dumps(name)}}}"]
    lines += [f"    parent: {parent}"] if parent else []
    lines += ["    values:", f"      {value}: {height}"] if height is not None else []
    return "\n".join(lines) + "\n"


def _system(folder: Path, system_id: str, title: str, chapter: str) -> None:
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(
        f"id: {system_id}\ntitle: {json.dumps(title)}\nsummary: A made-up book.\n"
        "sources:\n  - {id: src, file: heap.txt, title: The heap}\ndice:\n  summary: Roll a d6.\n"
        "terms:\n  - {id: crate, name: Crate, definition: A box on the heap.}\n", encoding="utf-8")
    (folder / "heap.yaml").write_text("id: heap\ntitle: The Heap\norder: 1\nsummary: Rules on a heap.\nrules:\n"
                                      + chapter, encoding="utf-8")


def _project(root: Path) -> Path:
    big = [_rule("kw-only", "Lone <keyword>", "keyword"), _rule("cond-a", "Wobbly & Tall", "condition"),
           _rule("cond-b", "Soggy", "condition", "cond-a")]
    big += [_rule(f"pile-{i:03d}", f"Pile {i:03d}", "general", "cond-a" if i % 3 == 0 else None, i)
            for i in range(HEAPED)]
    _system(root / "content" / BIG, BIG, BIG_TITLE, "".join(big))
    _system(root / "content" / SMALL, SMALL, "Tiny", _rule("small-a", "Small A", "general", height=1) +
            _rule("small-b", "Small B", "condition"))
    for part in ("schema", "site_overrides"):
        shutil.copytree(REPO / part, root / part)
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text("site_url: https://example.org/heap/\n" + config, encoding="utf-8")  # a sitemap
    return root


@pytest.fixture(scope="module")
def heap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _project(tmp_path_factory.mktemp("page-split") / "p")
    build_project(Project(root))  # MkDocs strict: a page neither listed nor left to its landing page fails it
    return root


def _programs(root: Path) -> dict[str, Any]:
    return {program.system.id: program for program in compile_project(Project(root)).programs}


def _html(root: Path, url: str) -> str:
    return (root / "site" / url / "index.html").read_text(encoding="utf-8")


def _moved(html: str) -> dict[str, str]:
    found = re.search(r"var m=(\{.*?\}),here=", html)
    assert found, "the landing page carries its map of moved anchors"
    return dict(json.loads(found.group(1)))


def _steps(html: str) -> list[tuple[str, str, str]]:
    """The Previous/Next links at the foot of a page: (href, rel, label)."""
    steps = re.search(r'<nav class="rulesc-part-steps".*?</nav>', html, re.S)
    assert steps, "the page ends with links to its neighbours"
    return re.findall(r'<a href="([^"]+)" rel="(prev|next)">([^<]+)</a>', steps.group(0))


# ---- index tables ----

def test_a_big_systems_tables_go_on_a_page_per_kind_and_a_small_one_keeps_one_page(heap: Path) -> None:
    programs = _programs(heap)
    big, small = programs[BIG].system, programs[SMALL].system
    assert table_cells(big) > BUDGET >= table_cells(small)
    assert [kind for kind, _ in table_kinds(programs[BIG])] == KINDS
    assert table_cells(big) == 1 * 2 + 2 * 3 + HEAPED * 4  # Name and Chapter; Under; Under and Values
    assert tables_path(big) == f"{BIG}/tables/index.md" and tables_path(small) == f"{SMALL}/tables.md"
    assert {kind: table_kind_path(big, kind) for kind in KINDS} == {k: f"{BIG}/tables/{k}.md" for k in KINDS}
    assert table_kind_path(small, "general") == f"{SMALL}/tables.md"  # the one page holds every kind's table
    assert sorted(p.name for p in (heap / "site" / BIG / "tables").iterdir()) == sorted([*KINDS, "index.html"])
    assert [p.name for p in (heap / "site" / SMALL / "tables").iterdir()] == ["index.html"]
    one = _html(heap, f"{SMALL}/tables/")
    assert 'id="index-general"' in one and 'id="index-condition"' in one and "var m=" not in one
    cells = table_cells(big)  # a page of exactly the budget stays whole; one cell over splits
    assert split_tables(big, budget=cells) is False and split_tables(big, budget=cells - 1) is True
    assert split_tables(small, budget=1) is True


def test_the_tables_landing_page_lists_each_kind_and_sends_old_anchors_to_its_page(heap: Path) -> None:
    program = _programs(heap)[BIG]
    landing = _html(heap, f"{BIG}/tables/")
    listed = re.findall(r'<li><a href="([^"]+)"><strong>([^<]+)</strong></a> <span class="rulesc-muted">\(([^)]+)\)',
                        landing)
    assert listed == [(f"{kind}/", plural(program.system, kind), f"{len(rules)} rule{'s' * (len(rules) != 1)}")
                      for kind, rules in table_kinds(program)]
    assert listed[0][2] == "1 rule" and listed[-1][2] == f"{HEAPED} rules"
    assert "data-index-table" not in landing and "<table" not in landing  # the tables are on their pages only
    moved = _moved(landing)
    assert moved == {anchor: f"{kind}/" for kind in KINDS for anchor in (kind, f"index-{kind}")}
    for anchor, folder in moved.items():
        assert f'id="{anchor}"' in _html(heap, f"{BIG}/tables/{folder}"), anchor
    assert '<p>Every rule of Heap &amp; "Odds" &lt;beta&gt; by kind' in landing  # the title as written, escaped


def test_each_kinds_page_holds_its_table_linking_every_rule(heap: Path) -> None:
    program = _programs(heap)[BIG]
    for kind, rules in table_kinds(program):
        page = table_kind_path(program.system, kind)
        html = _html(heap, url_of(page))
        assert html.count("data-index-table=") == 1 and f'data-index-table="{kind}"' in html
        table = html.split(f'id="index-{kind}"', 1)[1].split("</table>", 1)[0]
        assert table.count("<tr>") == len(rules) + 1, kind
        for rule in rules:
            assert f'href="{href(page, rule_page(program.system, rule), rule.id)}"' in table, rule.id
    general = _html(heap, f"{BIG}/tables/general/")
    assert '<td data-label="Values">height pile 159 = 159</td>' in general  # the Values column, as on the one page
    system = program.system
    under = href(table_kind_path(system, "general"), rule_page(system, program.rules["cond-a"]), "cond-a")
    assert general.count(f'<td data-label="Under"><a href="{under}"') == len(range(0, HEAPED, 3))
    assert "Lone &lt;keyword&gt;" in _html(heap, f"{BIG}/tables/keyword/")


def test_each_kinds_page_links_the_kinds_before_and_after(heap: Path) -> None:
    pages = [_html(heap, f"{BIG}/tables/{kind}/") for kind in KINDS]
    assert _steps(pages[0]) == [("../condition/", "next", "Next table: Conditions")]
    assert _steps(pages[1]) == [("../keyword/", "prev", "Previous table: Keywords"),
                                ("../general/", "next", "Next table: General rules")]
    assert _steps(pages[2]) == [("../condition/", "prev", "Previous table: Conditions")]
    assert 'Table 2 of 3 of the <a href="../">index tables</a>' in pages[1]


def test_the_navigation_lists_the_tables_once_and_the_worker_and_sitemap_every_page(heap: Path) -> None:
    program = _programs(heap)[BIG]
    entries = next(iter(nav_entry(program).values()))
    assert {"Index tables": f"{BIG}/tables/index.md"} in entries
    assert not [e for e in entries if any(f"/tables/{kind}" in str(v) for kind in KINDS for v in e.values())]
    page = _html(heap, f"{BIG}/tables/general/")
    nav = re.findall(r'<a href="([^"]+)" class="md-nav__link', page)
    assert "../" in nav and not [link for link in nav if link.rstrip("/").endswith(tuple(KINDS))]
    sitemap, worker = (heap / "site/sitemap.xml").read_text(), (heap / "site/sw.js").read_text()
    for url in [f"{BIG}/tables/{kind}/" for kind in KINDS] + [url_of(p) for p in emit_errors_page()]:
        assert url in sitemap and url in worker, url


def test_the_bundled_small_systems_and_every_good_case_keep_one_tables_page() -> None:
    roots = [REPO, *sorted((REPO / "tests/cases/good").iterdir())]
    systems = [program.system for root in roots for program in compile_project(Project(root)).programs]
    small = [system for system in systems if not split_tables(system)]
    assert {s.id for s in small} >= {"action-dice", "focus-stunts"} and len(small) >= len(roots) + 1
    assert [s.id for s in systems if split_tables(s)] == ["annulus", "dbu"]  # only the two big bundled systems
    assert all(tables_path(s) == f"{s.id}/tables.md" for s in small)


# ---- error codes ----

def test_the_error_codes_landing_page_lists_each_sections_codes_and_maps_their_old_anchors(heap: Path) -> None:
    landing = _html(heap, "errors/")
    for title, intro, entries in SECTIONS:
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower())  # the section's anchor on the one page, kept here
        section = landing.split(f'<h2 id="{slug}">', 1)[1].split("<h2", 1)[0]
        assert intro.split("`")[0] in section, title
        folder = url_of(section_path(title)).removeprefix("errors/")
        for entry in entries:
            assert f'<li><a href="{folder}#{entry.code.lower()}">{entry.code}: ' in section, entry.code
    assert "**Bad:**" not in landing and "<pre" not in landing  # the examples are on the section pages
    moved = _moved(landing)
    assert moved == {e.code.lower(): url_of(section_path(t)).removeprefix("errors/") for t, _, es in SECTIONS
                     for e in es}
    for anchor, folder in moved.items():
        assert f'id="{anchor}"' in _html(heap, f"errors/{folder}"), anchor


def test_each_section_page_links_the_sections_before_and_after(heap: Path) -> None:
    titles = [title for title, _, _ in SECTIONS]
    folders = [url_of(section_path(title)).removeprefix("errors/") for title in titles]
    for number, folder in enumerate(folders):
        html = _html(heap, f"errors/{folder}")
        expected = [(f"../{folders[number - 1]}", "prev", f"Previous section: {titles[number - 1]}")] if number else []
        if number + 1 < len(folders):
            expected.append((f"../{folders[number + 1]}", "next", f"Next section: {titles[number + 1]}"))
        assert _steps(html) == expected, folder
        assert f'Section {number + 1} of {len(folders)} of <a href="../">Error codes</a>' in html


def test_sections_with_awkward_titles_get_their_own_pages() -> None:
    entry = Entry("E9999", "a made-up <code>", "Made up & odd.", {"a.yaml": "x: 1\n"}, {"a.yaml": "x: 2\n"})
    sections = [("Odd & Ends / Misc.", "First `one`.", [entry]), ("2nd: Last!", "Second.", [])]
    pages = emit_errors_page(sections)
    assert list(pages) == [PAGE, "errors/odd-ends-misc.md", "errors/2nd-last.md"]
    assert '<a href="odd-ends-misc/#e9999">E9999: a made-up &lt;code&gt;</a>' in pages[PAGE]
    assert '"e9999":"odd-ends-misc/"' in pages[PAGE]
    first = pages["errors/odd-ends-misc.md"]
    assert 'description: "First one."' in first and "## E9999: a made-up <code> {#e9999}" in first
    assert "# Odd &amp; Ends / Misc\\.\n" in first
    assert 'rel="next">Next section: 2nd: Last!</a>' in first and 'rel="prev"' not in first
    assert 'rel="prev">Previous section: Odd &amp; Ends / Misc.</a>' in pages["errors/2nd-last.md"]
    assert ('data-rulesc-parts="[[&quot;./&quot;, &quot;Odd &amp; Ends / Misc.&quot;], '
            '[&quot;../2nd-last/&quot;, &quot;2nd: Last!&quot;]]">') in first  # every section, for the drawer
    only = emit_errors_page(sections[:1])["errors/odd-ends-misc.md"]
    assert ('<nav class="rulesc-part-steps" aria-label="Sections of the error codes" '
            'data-rulesc-parts="[[&quot;./&quot;, &quot;Odd &amp; Ends / Misc.&quot;]]"></nav>') in only


# ---- old links, in Chromium ----

@pytest.mark.parametrize("scheme", ["http", "file"])
def test_old_anchors_go_on_to_the_page_that_has_them(heap: Path, tab: Tab, scheme: str) -> None:
    if scheme == "http":
        with serve_site(heap / "site") as base:
            _follow(tab, base, "")
    else:
        _follow(tab, (heap / "site").as_uri() + "/", "index.html")


def _follow(tab: Tab, base: str, index: str) -> None:
    """Old links to the one page land on the page that now has the anchor, query kept; an unknown anchor stays."""
    errors, tables = f"{base}errors/{index}", f"{base}{BIG}/tables/{index}"
    with tab.use(errors + "?from=old#e0402") as visit:
        visit.page.wait_for_url(f"{base}errors/formulas/{index}?from=old#e0402")
        assert visit.page.locator("#e0402").is_visible()
        visit.page.goto(tables + "?q=pile#index-general")
        visit.page.wait_for_url(f"{base}{BIG}/tables/general/{index}?q=pile#index-general")
        table = visit.page.locator('[data-index-table="general"]')
        table.locator("input[type=search]").fill("pile 15")  # the filter box works on the kind's page
        shown = sum("15" in f"{i:03d}" for i in range(HEAPED))  # Pile 015, 115, 150 to 159 and 215
        assert table.locator("[role=status]").inner_text() == f"{shown} of {HEAPED} shown"
        visit.page.goto(tables + "#keyword")
        visit.page.wait_for_url(f"{base}{BIG}/tables/keyword/{index}#keyword")
        visit.page.goto(errors + "#not-a-code")
        visit.page.wait_for_load_state("load")
        assert visit.page.url == errors + "#not-a-code"
        assert visit.errors == []
