"""A rule's permalink is its chapter's page and its id: adding, removing or reordering other rules, and the
resplitting that follows, never move it; and every permalink lands on its rule, over http and from file://."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulesc.emit.site.links import permalink, rule_page
from rulesc.emit.site.split import plans
from rulesc.model import System
from rulesc.pipeline import Project, compile_project
from tests.browser import serve_site
from tests.conftest import REPO
from tests.run_case import run_rulesc
from tests.tabs import Tabs

FILLER = "Words that only make the rule long enough to need room of its own on a phone's page. "
SYSTEM = {"id": "perma", "title": "Permalinks", "summary": "Rules whose addresses must not move.",
          "sources": [{"id": "src", "title": "The book", "license": "CC0-1.0"}],
          "dice": {"summary": "Roll a d6."}, "terms": [{"id": "pool", "name": "Pool", "definition": "The dice."}]}


CALCULATOR = {"id": "twice", "title": "Twice", "outputs": [{"name": "out", "label": "Twice k", "expr": "k * 2"}],
              "inputs": [{"name": "k", "type": "int", "label": "K", "min": 0, "max": 9, "default": 1}]}
"""On rule-15, in a later part of the split chapter: its Share button copies a link to the chapter's page."""


def _rule(name: str, long: int) -> dict[str, Any]:
    return {"id": name, "name": name.title(), "kind": "general", "text": f"The [[pool]] rule {name}. "
            + FILLER * long, "provenance": {"source": "src", "section": name.title(), "page": 1},
            **({"calculators": [CALCULATOR]} if name == "rule-15" else {})}


def _project(root: Path, names: list[str], long: int = 20) -> Path:
    """A one-chapter system of the rules `names`, each with `long` sentences of filler (with 20, a part page holds
    a dozen or so of them)."""
    shutil.rmtree(root, ignore_errors=True)
    (root / "content/perma").mkdir(parents=True)
    (root / "content/perma/system.yaml").write_text(json.dumps(SYSTEM))
    chapter = {"id": "rules", "title": "Rules", "order": 1, "summary": "All of them.",
               "rules": [_rule(name, long) for name in names]}
    (root / "content/perma/rules.yaml").write_text(json.dumps(chapter))
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


def _system(root: Path) -> System:
    return compile_project(Project(root)).programs[0].system


def _links(system: System) -> dict[str, str]:
    return {rule.id: permalink(system, rule) for rule in system.rules()}


BASE = [f"rule-{n:02d}" for n in range(40)]
CHANGES = {
    "a rule added first": ["added-first", *BASE],
    "rules removed": [name for n, name in enumerate(BASE) if n % 3],
    "rules reordered": BASE[::-1],
    "rules added, removed and reordered": [*BASE[30:], "new-one", *BASE[:20:3], "new-two"],
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_other_rules_and_resplitting_never_move_a_permalink(tmp_path: Path, change: str) -> None:
    before = _system(_project(tmp_path / "p", BASE, long=20))
    after = _system(_project(tmp_path / "p", CHANGES[change], long=20))
    kept = set(BASE) & set(CHANGES[change])
    assert {i: link for i, link in _links(after).items() if i in kept} == \
        {i: link for i, link in _links(before).items() if i in kept}
    assert _links(before)["rule-10"] == "perma/rules/#rule-10"
    assert len(plans(before)["rules"].parts) > 1  # split: the rules sit on part pages, which the change moves
    pages = {(rule.id, rule_page(system, rule)) for system in (before, after) for rule in system.rules()}
    assert len({page for page in pages if page[0] in kept}) > len(kept)  # ... and some rule did change part page


def test_a_chapter_that_splits_or_joins_keeps_its_permalinks(tmp_path: Path) -> None:
    split = _system(_project(tmp_path / "p", BASE[:8], long=60))
    whole = _system(_project(tmp_path / "p", BASE[:8], long=0))
    assert plans(split)["rules"].parts and not plans(whole)["rules"].parts
    assert _links(split) == _links(whole)
    assert _links(split)["rule-00"] == "perma/rules/#rule-00"
    assert permalink(whole, whole.rules()[3], "https://example.org/game") == \
        "https://example.org/game/perma/rules/#rule-03"


def test_the_export_and_the_engine_carry_the_permalink(tmp_path: Path) -> None:
    root = _project(tmp_path / "p", BASE, long=20)
    status, _, err = run_rulesc("--root", str(root), "build", "--no-site")
    assert (status, err) == (0, "")
    export = json.loads((root / "build/export/perma.json").read_text())
    links = [rule["permalink"] for rule in export["chapters"][0]["rules"]]
    assert links == [f"perma/rules/#{name}" for name in BASE]


@pytest.fixture(scope="module")
def split_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _project(tmp_path_factory.mktemp("perma") / "p", BASE[:20], long=20)  # four parts
    shutil.copytree(REPO / "site_overrides", root / "site_overrides")
    status, _, err = run_rulesc("--root", str(root), "build")
    assert (status, err) == (0, "")
    return root


@pytest.mark.parametrize("scheme", ["http", "file"])
def test_every_permalink_lands_on_its_rule(split_site: Path, tabs: Tabs, scheme: str) -> None:
    """The first rule of each part lands there whole: the chapter's page sends its link on, the part shows the rule
    and every other rule it holds. The chapter's page is then loaded once more and told each rule's id in turn (the
    hashchange its script also listens to): the part page it asks for is answered "204 No Content", so the browser
    stays and the next id is told to the same page: 9 page loads, not a landing and a part per rule (40)."""
    system = _system(split_site)
    index = "" if scheme == "http" else "index.html"
    with serve_site(split_site / "site") as served, tabs.use("about:blank") as visit:  # pages loaded in the loop
        base = served if scheme == "http" else (split_site / "site").as_uri() + "/"
        parts = _rules_by_part(system, base, index)
        for part, rules in parts.items():
            visit.page.goto(base + permalink(system, rules[0]).replace("/#", f"/{index}#"))
            visit.page.wait_for_url(f"{part}#{rules[0].id}")
            assert [rule.id for rule in rules if not visit.page.locator(f"#{rule.id}").is_visible()] == [], part
        chapter = base + permalink(system, system.rules()[0]).split("#")[0] + index
        visit.page.goto(chapter)  # no id in its address: it stays
        sent = _sent_on(visit.page, [rule.id for rule in system.rules()], set(parts))
        assert sent == {rule.id: part for part, rules in parts.items() for rule in rules}
        assert visit.errors == []


def _rules_by_part(system: System, base: str, index: str) -> dict[str, list[Any]]:
    """Each part page's address (from `base`, `index` at its end) and the rules it holds, in order: every rule of
    the split chapter is on a part, none on its landing page."""
    parts: dict[str, list[Any]] = {}
    for rule in system.rules():
        page = rule_page(system, rule).removesuffix(".md")
        assert not page.endswith("index"), rule.id
        parts.setdefault(f"{base}{page}/{index}", []).append(rule)
    return parts


def _sent_on(page: Any, ids: list[str], parts: set[str]) -> dict[str, str]:
    """The part page that the chapter's page, loaded in `page`, asks for when told each id as its hash; every part
    is answered with no content, so the chapter's page stays for the next id."""
    def nothing(route: Any) -> None:
        route.fulfill(status=204)

    def asked_for(url: str) -> bool:
        return url in parts

    sent, chapter = {}, page.url
    page.route(asked_for, nothing)
    try:
        for rule in ids:
            with page.expect_request(lambda request: asked_for(request.url)) as asked:
                page.evaluate("(id) => { location.hash = id; }", rule)
            sent[rule] = str(asked.value.url)
            assert page.url == f"{chapter}#{rule}"  # the chapter's page, the browser left there
    finally:
        page.unroute(asked_for, nothing)
    return sent


def test_share_copies_a_link_to_the_chapter_that_restores_the_inputs(split_site: Path, tabs: Tabs) -> None:
    system = _system(split_site)
    part = rule_page(system, next(rule for rule in system.rules() if rule.id == "rule-15")).removesuffix(".md")
    calc = '[data-calculator="perma/twice"]'
    with serve_site(split_site / "site") as base, \
            tabs.use(f"{base}{part}/", permissions=("clipboard-read", "clipboard-write")) as visit:
        visit.wait_until_calculators_are_ready("perma/twice")
        visit.page.fill(f'{calc} input[name="k"]', "4")
        visit.page.click(f"{calc} .rulesc-calc__share")
        visit.page.wait_for_function(f"document.querySelector('{calc} .rulesc-calc__shared').textContent !== ''")
        shared = visit.page.evaluate("navigator.clipboard.readText()")
        assert shared == f"{base}perma/rules/?twice.k=4#calc-perma-twice"
        visit.page.goto(shared)
        visit.page.wait_for_url(f"{base}{part}/?twice.k=4#calc-perma-twice")
        visit.wait_until_calculators_are_ready("perma/twice")
        assert visit.page.input_value(f'{calc} input[name="k"]') == "4"
        assert visit.page.inner_text(f'{calc} output[name="out"]') == "8"
        assert visit.errors == []
