"""Long chapters split into a landing page and part pages: the plan, every address that follows it, and old links."""

from __future__ import annotations

import functools
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesc.emit.site.links import page_path, rule_page, url_of
from rulesc.emit.site.split import BUDGET, plan_chapter, plans, split_estimate
from rulesc.pipeline import Project, build_project, compile_project
from tests.tabs import Tab

REPO = Path(__file__).resolve().parent.parent
SYSTEM = "q-ledger-2"
# Prose long enough that a handful of rules fill a page (in our own words, no numbers, so no lint fires).
LONG = " ".join(["The quartermaster counts each crate twice before the caravan leaves the gate at dawn."] * 60)
SHORT = "A short note for the table."
SITE_URL = "https://example.org/ledger/"


def _rule(rule_id: str, name: str, text: str, parent: str | None = None, extra: str = "") -> str:
    lines = [f"  - id: {rule_id}", f"    name: {json.dumps(name)}", "    kind: general",
             f"    text: {json.dumps(text)}", f"    provenance: {{source: src, section: {json.dumps(name)}}}"]
    lines += [f"    parent: {parent}"] if parent else []
    return "\n".join(lines) + "\n" + extra


CALCULATOR = """    aliases: [old-tally]
    formulas:
      - id: tally
        summary: A crate count doubled.
        params:
          - {name: crates, type: int, min: 0, max: 40}
        expr: crates * 2
        examples:
          - {args: {crates: 3}, expect: 6}
    calculators:
      - id: tally-board
        title: Tally board
        inputs:
          - {name: crates, type: int, label: Crates, min: 0, max: 40, default: 5}
        outputs:
          - {name: total, label: Total, expr: tally(crates)}
"""


def _long_chapter() -> str:
    """A small section that fits whole, then one huge section of twelve long rules (split at its children)."""
    rules = [_rule("small-sec", "Small & Sundry", SHORT), _rule("small-kid", "Sundry kid", SHORT, "small-sec"),
             _rule("huge-sec", "The Huge One", SHORT)]
    rules += [_rule(f"kid-{i:02d}", f"Kid <{i}>", LONG + (" See [[brief-rule]]." if i == 1 else ""), "huge-sec",
                    CALCULATOR if i == 7 else "") for i in range(12)]
    return "id: long-haul\ntitle: Long Haul\norder: 1\nsummary: A chapter too long for one page.\nrules:\n" + \
        "".join(rules)


def _brief_chapter() -> str:
    rule = _rule("brief-rule", "Brief rule", "Tally with [[kid-07]], or see [[old-tally]] and [[huge-sec]].")
    return "id: brief\ntitle: Brief\norder: 2\nsummary: A chapter that fits.\nrules:\n" + rule


def _project(root: Path) -> Path:
    folder = root / "content" / SYSTEM
    folder.mkdir(parents=True)
    (folder / "system.yaml").write_text(
        f"id: {SYSTEM}\ntitle: Quartermaster's Ledger\nsummary: A made-up book of crates.\n"
        "sources:\n  - {id: src, file: ledger.txt, title: The ledger}\ndice:\n  summary: Roll a d6.\n"
        "terms:\n  - {id: crate, name: Crate, definition: A box the caravan carries.}\n")
    (folder / "long-haul.yaml").write_text(_long_chapter())
    (folder / "brief.yaml").write_text(_brief_chapter())
    for part in ("schema", "site_overrides"):
        shutil.copytree(REPO / part, root / part)
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text(f"site_url: {SITE_URL}\n" + config, encoding="utf-8")  # absolute permalinks
    return root


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _project(tmp_path_factory.mktemp("split") / "p")
    build_project(Project(root))
    return root


@functools.cache
def _system(root: Path) -> Any:
    """The built project's system, compiled once: no test changes the project (the module's build)."""
    return compile_project(Project(root)).programs[0].system


def test_a_long_chapter_splits_by_sections_and_a_huge_section_at_its_children(ledger: Path) -> None:
    system = _system(ledger)
    chapters = plans(system)
    assert chapters["brief"].parts == ()
    parts = chapters["long-haul"].parts
    assert [part.id for part in parts][:2] == ["small-sec", "huge-sec"]
    assert parts[0].title == "Small & Sundry" and [u.rule.id for u in parts[0].units] == ["small-sec"]
    assert [(u.rule.id, u.whole) for u in parts[1].units][0] == ("huge-sec", False)  # alone: its kids follow
    kids = [part.id for part in parts[1:]]
    assert len(kids) >= 3 and all(kid == "huge-sec" or kid.startswith("kid-") for kid in kids)
    placed = [u.rule.id for part in parts for u in part.units]
    assert placed == ["small-sec", "huge-sec", *(f"kid-{i:02d}" for i in range(12))]  # page order is book order
    sizes = {rule.id: split_estimate(rule) for rule in system.rules()}
    for part in parts:
        ids = [rule for rule, owner in chapters["long-haul"].part_of.items() if owner == part.id]
        assert sum(sizes[i] for i in ids) <= BUDGET or len(part.units) == 1, part.id
    assert chapters["long-haul"].part_of["small-kid"] == "small-sec"


def test_the_plan_follows_the_budget_and_never_splits_a_chapter_that_fits(ledger: Path) -> None:
    chapter = next(c for c in _system(ledger).chapters if c.id == "long-haul")
    assert plan_chapter(chapter, budget=10**9).parts == ()
    one_each = plan_chapter(chapter, budget=1)  # every rule alone on a page of its own, in the book's order
    assert [part.id for part in one_each.parts] == [rule.id for rule in chapter.rules]


def test_no_part_holds_a_rule_above_its_first_and_each_fits_the_budget(built: Path) -> None:
    """A part's headings start at its first rule's level (an even cut may start a part inside a section, and a rule
    above it would get a heading above the page's own): the bundled chapters, as outside content would be."""
    for program in compile_project(Project(built)).programs:
        upgrades = sum(1 for rule in program.system.rules() if rule.upgrade is not None)
        for plan in plans(program.system).values():
            for part in plan.parts:
                assert all(unit.depth >= part.units[0].depth for unit in part.units), part.id
            sizes = [sum(split_estimate(r, upgrades) for r in plan.chapter.rules if plan.part_of.get(r.id) == p.id)
                     for p in plan.parts]
            assert all(size <= BUDGET for size in sizes) or not sizes, plan.chapter.id


def test_every_rule_is_on_its_part_page_and_links_to_it_land_there(ledger: Path) -> None:
    system, site = _system(ledger), ledger / "site"
    for rule in system.rules():
        url = url_of(rule_page(system, rule))
        expected = f"{SYSTEM}/brief/" if rule.chapter == "brief" else f"{SYSTEM}/long-haul/{_part_of(system, rule.id)}/"
        assert url == expected, rule.id
        html = (site / url / "index.html").read_text(encoding="utf-8")
        assert f'id="{rule.id}"' in html, rule.id
    brief = (site / SYSTEM / "brief/index.html").read_text(encoding="utf-8")
    kid = _part_of(system, "kid-07")
    assert f'href="../long-haul/{kid}/#kid-07"' in brief
    assert 'href="../long-haul/huge-sec/#huge-sec"' in brief
    landing = (site / SYSTEM / "long-haul/index.html").read_text(encoding="utf-8")
    for rule in system.rules():
        if rule.chapter == "long-haul":  # the landing page lists every rule by name, linked to its part
            assert f'href="{_part_of(system, rule.id)}/#{rule.id}"' in landing, rule.id
    assert "Kid &lt;3&gt;" in landing and 'id="kid-03"' not in landing


def _part_of(system: Any, rule_id: str) -> str:
    return str(plans(system)["long-haul"].part_of[rule_id])


def _moved(landing: str) -> dict[str, str]:
    found = re.search(r"var m=(\{.*?\}),here=", landing)
    assert found, "the landing page carries its map of moved anchors"
    return dict(json.loads(found.group(1)))


def test_the_landing_page_maps_every_old_anchor_to_the_part_page_that_has_it(ledger: Path) -> None:
    system, site = _system(ledger), ledger / "site"
    moved = _moved((site / SYSTEM / "long-haul/index.html").read_text(encoding="utf-8"))
    kid = _part_of(system, "kid-07")
    assert moved["kid-07"] == moved["old-tally"] == moved[f"calc-{SYSTEM}-tally-board"] == f"{kid}/"
    assert set(moved) == {r.id for r in system.rules() if r.chapter == "long-haul"} | {
        "old-tally", f"calc-{SYSTEM}-tally-board"}
    for anchor, folder in moved.items():
        assert f'id="{anchor}"' in (site / SYSTEM / "long-haul" / folder / "index.html").read_text(), anchor


def test_nav_search_sitemap_worker_export_and_engine_follow_the_parts(ledger: Path) -> None:
    system, site = _system(ledger), ledger / "site"
    parts = [part.id for part in plans(system)["long-haul"].parts]
    landing = (site / SYSTEM / "long-haul/index.html").read_text(encoding="utf-8")
    nav = re.findall(r'<a href="([^"]+)" class="md-nav__link', landing)
    assert "./" in nav and not [href for href in nav if href.rstrip("/") in parts]  # the nav: the chapter, once
    listed = re.findall(r'<li><a href="([^"]+)"><strong>', landing)
    assert listed == [f"{p}/" for p in parts]  # the landing page lists every part, in order
    for number, part in enumerate(parts):
        page = (site / SYSTEM / "long-haul" / part / "index.html").read_text(encoding="utf-8")
        steps = re.search(r'<nav class="rulesc-part-steps".*?</nav>', page, re.S)
        assert steps, part
        found = re.findall(r'href="\.\./([^"/]+)/" rel="(prev|next)"', steps.group(0))
        expected = [(parts[number - 1], "prev")] if number else []
        expected += [(parts[number + 1], "next")] if number + 1 < len(parts) else []
        assert found == expected, part  # the parts before and after, as Material's footer would for listed pages
    records = {r["url"]: r for r in json.loads((ledger / "build/docs/.search/records.json").read_text())}
    kid = _part_of(system, "kid-07")
    assert records[f"{SYSTEM}/long-haul/{kid}/#kid-07"]["crumbs"] == ["Quartermaster's Ledger", "Long Haul",
                                                                     "The Huge One"]
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    worker = (site / "sw.js").read_text(encoding="utf-8")
    for part in parts:
        assert f"{SYSTEM}/long-haul/{part}/" in sitemap and f"{SYSTEM}/long-haul/{part}/" in worker, part
    export = json.loads((ledger / f"build/export/{SYSTEM}.json").read_text(encoding="utf-8"))
    permalinks = {rule["id"]: rule["permalink"] for rule in _export_rules(export)}
    assert permalinks["kid-07"] == f"{SITE_URL}{SYSTEM}/long-haul/#kid-07"  # the chapter, which sends it on
    assert permalinks["brief-rule"] == f"{SITE_URL}{SYSTEM}/brief/#brief-rule"
    engine = (ledger / f"build/engine/rules_engine/{SYSTEM.replace('-', '_')}.py").read_text(encoding="utf-8")
    assert f"Permalink: {SITE_URL}{SYSTEM}/long-haul/#kid-07" in engine


def _export_rules(export: dict[str, Any]) -> list[dict[str, Any]]:
    rules = export.get("rules")
    if rules is None:
        rules = [rule for chapter in export["chapters"] for rule in chapter["rules"]]
    return list(rules)


def test_the_gm_screen_links_each_calculator_to_its_rule_on_its_part_page(ledger: Path) -> None:
    system, site = _system(ledger), ledger / "site"
    screen = (site / SYSTEM / "gm-screen/index.html").read_text(encoding="utf-8")
    kid = _part_of(system, "kid-07")
    assert screen.count(f'href="../long-haul/{kid}/#kid-07"') >= 2  # its rule, and the rules its formulas use
    assert 'href="../long-haul/#' not in screen


def test_a_chapter_that_fits_keeps_its_single_page(ledger: Path) -> None:
    system = _system(ledger)
    assert page_path(system, "brief") == f"{SYSTEM}/brief.md"
    assert page_path(system, "long-haul") == f"{SYSTEM}/long-haul/index.md"
    assert not (ledger / "site" / SYSTEM / "brief" / "brief-rule").exists()


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_old_anchors_go_on_to_the_rules_part_page(ledger: Path, tab: Tab, scheme: str) -> None:
    system = _system(ledger)
    kid = _part_of(system, "kid-07")
    if scheme == "http":
        from tests.browser import serve_site
        with serve_site(ledger / "site") as base:
            _follow(tab, f"{base}{SYSTEM}/long-haul/", f"{base}{SYSTEM}/long-haul/{kid}/")
    else:
        landing = (ledger / "site" / SYSTEM / "long-haul/index.html").as_uri()
        _follow(tab, landing.replace("index.html", ""), landing.replace("index.html", f"{kid}/index.html"))


def _follow(tab: Tab, landing: str, part: str) -> None:
    """Old links to the landing page land on the part page: a rule, an old id of it, a calculator with inputs."""
    file = landing.startswith("file:")
    start = landing + ("index.html" if file else "")
    with tab.use(start + "#kid-07") as visit:
        visit.page.wait_for_url(part + "#kid-07")
        assert visit.page.locator("#kid-07").is_visible()
        visit.page.goto(start + "#old-tally")
        visit.page.wait_for_url(part + "#old-tally")
        visit.page.goto(start + f"?tally-board.crates=9#calc-{SYSTEM}-tally-board")
        visit.page.wait_for_url(part + f"?tally-board.crates=9#calc-{SYSTEM}-tally-board")
        visit.wait_until_calculators_are_ready(f"{SYSTEM}/tally-board")
        box = visit.page.locator(f'[data-calculator="{SYSTEM}/tally-board"]')
        assert box.locator('[name="crates"]').input_value() == "9"  # the shared inputs came along
        assert box.locator("output[name=total]").text_content() == "18"
        box.locator('[name="crates"]').fill("11")
        visit.page.wait_for_function("(box) => box.querySelector('output[name=total]').textContent === '22'",
                                     arg=box.element_handle())
        visit.page.goto(start + "#not-a-rule")  # an anchor the chapter never had: the landing page stays
        visit.page.wait_for_load_state("load")
        assert visit.page.url == start + "#not-a-rule"
        assert visit.errors == []
