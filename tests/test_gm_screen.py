"""The GM screen: every calculator of a system on one page, found by search, shared by a link that lands on it."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from generator.analyze.program import Program
from generator.build.staging import nav_entry
from generator.emit.site.calculators import display
from generator.emit.site.changes_page import changes_path
from generator.emit.site.gm_screen import gm_screen
from generator.emit.site.links import glossary_path, gm_screen_path, landing_path, tables_path
from generator.emit.site.markup import Markup
from generator.model import SYSTEM_PAGES, default_of
from generator.pipeline import Project, compile_project
from tests.browser import Visit
from tests.conftest import REPO

MINI = REPO / "tests/cases/good/minimal/content"
# A chapter of an outside author's: a calculator three rules deep, one at the top, awkward names and ids.
ODD_CHAPTER = """\
id: odd-bits
title: "Odds <&> Ends"
order: 2
summary: Edge cases.
rules:
  - id: outer
    name: "Outer *section* <b>"
    kind: general
    text: A section.
    provenance: {source: src, section: Outer}
  - id: inner
    name: Inner
    kind: general
    parent: outer
    text: Nested.
    provenance: {source: src, section: Inner}
  - id: innermost
    name: Innermost
    kind: general
    parent: inner
    text: Deeper.
    provenance: {source: src, section: Innermost}
    calculators:
      - id: calc-1
        title: "Twice <i> & more"
        inputs:
          - {name: n, type: int, label: "N", min: 0, max: 10, default: 3}
        outputs:
          - {name: out, label: Twice, expr: "double(n)"}
  - id: lone
    name: Lone
    kind: general
    text: On its own.
    provenance: {source: src, section: Lone}
    calculators:
      - id: lone
        title: Lone doubling
        inputs:
          - {name: n, type: int, label: "N", min: 0, max: 10, default: 1}
        outputs:
          - {name: out, label: Twice, expr: "double(n)"}
"""


def _programs(root: Path) -> list[Program]:
    return compile_project(Project(root)).programs


def _odd_project(root: Path, with_chapter: bool) -> Path:
    shutil.copytree(MINI, root / "content")
    shutil.copytree(REPO / "schema", root / "schema")
    if with_chapter:
        (root / "content/mini/odd-bits.yaml").write_text(ODD_CHAPTER)
    return root


def _headings(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


def test_calculators_are_grouped_under_their_chapter_and_outermost_section(tmp_path: Path) -> None:
    [program] = _programs(_odd_project(tmp_path, with_chapter=True))
    page = gm_screen(program, Markup.of(program))
    assert _headings(page) == [
        "# GM screen",
        r"## Odds &lt;&amp;&gt; Ends {#chapter-odd-bits}",  # the chapter without calculators has no heading
        r"### Outer \*section\* &lt;b&gt; {#section-outer}",
        r"#### Twice &lt;i&gt; &amp; more {#calc-calc-1}",
        "### Lone {#section-lone}",
        "#### Lone doubling {#calc-lone}"]
    assert "All 2 calculators of this system" in page
    assert 'data-anchor="calc-calc-1"' in page and 'id="gm-mini-calc-1-n"' in page
    assert 'Rule: <a href="../odd-bits/#innermost"' in page


def test_a_system_without_calculators_says_so(tmp_path: Path) -> None:
    [program] = _programs(_odd_project(tmp_path, with_chapter=False))
    page = gm_screen(program, Markup.of(program))
    assert _headings(page) == ["# GM screen"]
    assert "This system has no calculators." in page


def _calculators(program: Program) -> list[str]:
    return [calc.id for rule in program.system.rules() for calc in rule.calculators]


def test_each_systems_gm_screen_has_every_calculator_under_its_anchor_and_is_linked(built: Path) -> None:
    programs = _programs(built)
    for program in programs:
        system = program.system.id
        markdown = (built / f"build/docs/{system}/gm-screen.md").read_text()
        assert re.findall(r"\{#calc-([a-z0-9-]+)\}", markdown) == _calculators(program), system
        html = (built / f"site/{system}/gm-screen/index.html").read_text()
        assert html.count("data-calculator=") == len(_calculators(program)) > 0, system
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids)), system  # the headings' anchors and the calculators' own ids never clash
        landing = (built / f"site/{system}/index.html").read_text()
        assert 'class="md-button md-button--primary" href="gm-screen/">GM screen</a>' in landing
        assert {"GM screen": f"{system}/gm-screen.md"} in nav_entry(program)[program.system.title]
    home = (built / "site/index.html").read_text()
    assert home.count(">GM screen</a>") == len(programs)


def test_each_calculator_is_a_search_record_pointing_at_its_anchor(built: Path) -> None:
    records = json.loads((built / "build/docs/.search/records.json").read_text())
    programs = _programs(built)
    calculators = [r for r in records if r["kind"] == "calculator"]
    assert len(calculators) == sum(len(_calculators(p)) for p in programs)
    clash = next(r for r in calculators if r["title"] == "Clash odds")
    assert clash["url"] == "dbu/gm-screen/#calc-clash-odds" and clash["names"] == ["Clash odds"]
    assert clash["text"].startswith("Calculator for Clash") and clash["system"] == "dbu"


# ---- in the browser: one visit per width, each checking the page, a computation, Share and search ----

CLASH = "dbu/clash-odds"


def _expected(program: Program, calc_id: str, changes: dict[str, int], output: str) -> str:
    calc = next(c for rule in program.system.rules() for c in rule.calculators if c.id == calc_id)
    inputs = {p.name: default_of(p) for p in calc.inputs} | changes
    out = next(o for o in calc.outputs if o.name == output)
    assert out.expr.node is not None
    return display(program.calculate(calc_id, inputs)[output], out.format, program.types.get(id(out.expr.node)))


def _open(browser: Any, url: str, width: int, **context: Any) -> Visit:
    visit = Visit(browser, url, viewport={"width": width, "height": 800}, **context)
    visit.wait_until_calculators_are_ready()
    return visit


@pytest.mark.parametrize("width", [390, 1366])
def test_gm_screen_computes_shares_a_link_that_restores_and_lands_and_search_finds_it(
        site: str, browser: Any, built: Path, width: int) -> None:
    dbu = next(p for p in _programs(built) if p.system.id == "dbu")
    calc = f'[data-calculator="{CLASH}"]'
    expected = _expected(dbu, "clash-odds", {"attacker_bonus": 37}, "attacker_wins")
    assert expected != _expected(dbu, "clash-odds", {}, "attacker_wins")  # the change shows
    with _open(browser, site + "dbu/gm-screen/", width, permissions=["clipboard-read", "clipboard-write"]) as visit:
        page = visit.page
        assert page.locator("[data-calculator]").count() == len(_calculators(dbu))
        page.fill(f'{calc} input[name="attacker_bonus"]', "37")
        assert page.inner_text(f'{calc} output[name="attacker_wins"]') == expected
        page.click(f"{calc} .rulesc-calc__share")
        page.wait_for_function(f"document.querySelector('{calc} .rulesc-calc__shared').textContent !== ''")
        assert page.inner_text(f"{calc} .rulesc-calc__shared") == "Link copied."
        shared = page.evaluate("navigator.clipboard.readText()")
        assert visit.errors == []
    parts = urlsplit(shared)
    assert parts.fragment == "calc-clash-odds" and parse_qs(parts.query) == {"clash-odds.attacker_bonus": ["37"]}
    with _open(browser, shared, width) as visit:
        page = visit.page
        assert page.input_value(f'{calc} input[name="attacker_bonus"]') == "37"
        assert page.inner_text(f'{calc} output[name="attacker_wins"]') == expected
        assert page.evaluate("document.querySelector(':target').id") == "calc-clash-odds"
        top = page.evaluate("document.getElementById('calc-clash-odds').getBoundingClientRect().top")
        assert page.evaluate("window.scrollY") > 0 and 0 <= top < 200  # the heading at the top, below the header
        assert visit.errors == []


def test_share_without_a_clipboard_shows_the_link_selected_and_search_ranks_the_calculator_first(
        site: str, browser: Any) -> None:
    calc = f'[data-calculator="{CLASH}"]'
    with Visit(browser, site + "dbu/core-rules/priority-section/") as visit:  # on the rule's page the link lands there
        page = visit.page
        page.add_init_script("delete Navigator.prototype.clipboard")
        page.reload()
        visit.wait_until_calculators_are_ready(CLASH)
        page.click(f"{calc} .rulesc-calc__share")
        field = page.locator(f"{calc} .rulesc-calc__link")
        assert urlsplit(field.input_value()).fragment == "calc-dbu-clash-odds"
        assert page.evaluate("document.getElementById('calc-dbu-clash-odds').dataset.calculator") == CLASH
        assert page.evaluate("document.activeElement.className") == "rulesc-calc__link"
        assert page.evaluate("[document.activeElement.selectionStart, document.activeElement.selectionEnd]") == \
            [0, len(field.input_value())]
    with Visit(browser, site + "search/") as visit:
        for query, system, anchor in (("clash odds", "dbu", "calc-clash-odds"),
                                      ("parry odds", "action-dice", "calc-parry-odds"),
                                      ("Attack set builder", "annulus", "calc-attack-set-builder")):
            first = _first_result(visit.page, query)
            assert (first.inner_text().lower(), first.get_attribute("href")) == \
                (query.lower(), f"{site}{system}/gm-screen/#{anchor}")


def _first_result(page: Any, query: str) -> Any:
    page.fill("#rulesc-search-q", query)
    page.wait_for_function("(q) => document.querySelector('.rulesc-search__status').textContent.indexOf('results') > 0"
                           " && document.querySelector('#rulesc-search-q').value === q", arg=query)
    return page.locator(".rulesc-search__results li > a").first


def test_the_pages_every_system_gets_are_the_ids_no_chapter_may_take() -> None:
    system = compile_project(Project(REPO / "tests/cases/good/minimal")).programs[0].system
    stems = {Path(path(system)).stem for path in (landing_path, glossary_path, tables_path, gm_screen_path,
                                                 changes_path)}
    assert stems == set(SYSTEM_PAGES)
