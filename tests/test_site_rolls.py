"""Rolling on the site: Roll buttons on calculators, the roll log on the device, offline and from files, no network."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.build.staging import build_project
from generator.pipeline import Project
from tests.browser import Visit, serve_site
from tests.conftest import REPO

SYSTEM = """\
id: skirmish
title: Skirmish
summary: A small game for the roll tests.
sources:
  - {id: notes, file: notes.txt, title: Table notes}
dice:
  summary: Roll d6s.
terms:
  - id: edge
    name: Edge
    definition: What an attacker adds to a blow.
"""
CHAPTER = """\
id: fights
title: Fights
order: 1
summary: Blows and luck.
rules:
  - id: blows
    name: Blows
    kind: general
    text: A blow deals 2d6 plus the attacker's edge; a 10 or more is a clean hit.
    provenance: {source: notes, section: Blows}
    formulas:
      - id: blow
        summary: What a blow deals.
        params:
          - {name: edge, type: int, min: 0, max: 5}
        returns: dist
        expr: roll(2d6 + edge)
        examples:
          - {args: {edge: 0}, expect: 2d6}
    calculators:
      - id: strike
        title: Strike
        inputs:
          - {name: edge, type: int, label: Edge, min: 0, max: 5, default: 1}
        outputs:
          - {name: dealt, label: Damage, expr: blow(edge)}
          - {name: verdict, label: Verdict, expr: 'if 1d6 >= 5 then "clean" else "glancing"'}
          - {name: lucky, label: Lucky, expr: 1d6 == 6}
          - {name: most, label: Most damage, expr: 12 + edge}
"""
STRIKE = '[data-calculator="skirmish/strike"]'
WIDTHS = (390, 1366)


def roll_project(root: Path) -> Path:
    """A small project of our own with the repository's schema, theme and mkdocs.yml."""
    for folder in ("schema", "site_overrides"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
    for relative, text in {"skirmish/system.yaml": SYSTEM, "skirmish/fights.yaml": CHAPTER}.items():
        (root / "content" / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / relative).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = roll_project(tmp_path_factory.mktemp("rolls") / "project")
    build_project(Project(root))
    return root


@pytest.fixture(scope="module")
def served(project: Path) -> Iterator[str]:
    with serve_site(project / "site") as url:
        yield url


# Counts every call of Math.random and of crypto.getRandomValues, before any of the page's scripts runs.
COUNT_RANDOMNESS = """
window.__calls = {random: 0, crypto: 0};
const random = Math.random, values = crypto.getRandomValues.bind(crypto);
Math.random = () => { window.__calls.random++; return random(); };
crypto.getRandomValues = (array) => { window.__calls.crypto++; return values(array); };
"""


def open_strike(browser: Any, url: str, width: int, **context: Any) -> Visit:
    visit = Visit(browser, "about:blank", viewport={"width": width, "height": 800}, **context)
    visit.page.add_init_script(COUNT_RANDOMNESS)
    visit.go(url)
    visit.wait_until_calculators_are_ready("skirmish/strike")
    return visit


def roll(page: Any, label: str) -> str:
    """Select the Roll button of the output `label` and return what it says came up."""
    button = page.get_by_role("button", name=f"Roll {label}", exact=True)
    result = button.locator("xpath=following-sibling::*[@role='status']")
    result.evaluate("el => { el.textContent = ''; }")  # the same result twice would change nothing to wait for
    button.click()
    page.wait_for_function("el => el.textContent !== ''", arg=result.element_handle())
    return str(result.inner_text())


def log_items(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#rulesc-roll-log li").all_inner_texts()]


@pytest.mark.parametrize("width", WIDTHS)
def test_each_roll_or_outcome_has_a_roll_button_that_rolls_on_the_device(served: str, browser: Any,
                                                                          width: int) -> None:
    with open_strike(browser, served + "skirmish/fights/", width) as visit:
        page = visit.page
        box = page.locator(STRIKE)
        buttons = box.get_by_role("button", name=re.compile("^Roll "))
        assert [b.get_attribute("aria-label") for b in buttons.all()] == ["Roll Damage", "Roll Verdict", "Roll Lucky"]
        for b in buttons.all():
            size = b.bounding_box()
            assert size is not None and size["width"] >= 44 and size["height"] >= 44, size
            assert b.evaluate("el => el.tagName + ' ' + el.type") == "BUTTON button"
        requests = len(visit.requests)
        seen: set[str] = set()
        for _ in range(30):
            shown = roll(page, "Damage")
            assert re.fullmatch(r"Damage: ([3-9]|1[0-3])", shown), shown
            seen.add(shown)
        assert len(seen) > 3  # 30 rolls of 2d6+1 show at least four different totals but once in 10^20
        assert re.fullmatch(r"Verdict: (clean|glancing)", roll(page, "Verdict"))
        assert re.fullmatch(r"Lucky: (yes|no)", roll(page, "Lucky"))
        calls = page.evaluate("window.__calls")
        assert calls["random"] == 0 and calls["crypto"] >= 32, calls  # a draw past the total draws again
        assert visit.requests[requests:] == []  # a roll never leaves the device
        assert page.locator(f"{STRIKE} .rulesc-roll__result").first.get_attribute("aria-live") == "polite"
        assert visit.errors == []


def test_a_roll_follows_the_inputs_and_the_keyboard_rolls(served: str, browser: Any) -> None:
    with open_strike(browser, served + "skirmish/fights/", 1366) as visit:
        page = visit.page
        page.fill(f'{STRIKE} input[name="edge"]', "5")
        page.wait_for_function(f"document.querySelector('{STRIKE} output[name=\"most\"]').textContent === '17'")
        button = page.get_by_role("button", name="Roll Damage", exact=True)
        button.focus()
        page.keyboard.press("Enter")
        result = page.locator(f"{STRIKE} .rulesc-roll__result").first
        page.wait_for_function("el => el.textContent !== ''", arg=result.element_handle())
        assert re.fullmatch(r"Damage: ([7-9]|1[0-7])", result.inner_text())
        page.keyboard.press("Space")
        page.fill(f'{STRIKE} input[name="edge"]', "9")  # out of range: no roll of stale results
        button.click()
        page.wait_for_function("el => el.textContent.startsWith('No roll')", arg=result.element_handle())
        assert result.inner_text() == "No roll: the results above are out of date."
        assert len(log_items(page)) == 2


def test_the_roll_log_survives_a_reload_keeps_twenty_and_clears(served: str, browser: Any) -> None:
    with open_strike(browser, served + "skirmish/fights/", 390) as visit:
        page = visit.page
        assert log_items(page) == []
        assert page.get_by_role("button", name="Clear the log").is_disabled()
        shown = [roll(page, "Verdict") for _ in range(22)]
        items = log_items(page)
        assert len(items) == 20
        assert items == [f"Strike · {s}" for s in reversed(shown)][:20]
        link = page.locator("#rulesc-roll-log li a").first
        assert link.get_attribute("href") == served + "skirmish/fights/#calc-skirmish-strike"
        page.reload()
        visit.wait_until_calculators_are_ready("skirmish/strike")
        assert log_items(page) == items
        page.get_by_role("button", name="Clear the log").click()
        assert log_items(page) == []
        page.reload()
        visit.wait_until_calculators_are_ready("skirmish/strike")
        assert log_items(page) == []
        assert visit.errors == []


def test_rolling_works_when_storage_is_refused(served: str, browser: Any) -> None:
    with open_strike(browser, served + "skirmish/fights/", 1366) as visit:
        page = visit.page
        page.evaluate("""() => { Object.defineProperty(window, "localStorage", {get() {
                           throw new DOMException("denied", "SecurityError"); }}); }""")
        first, second = roll(page, "Lucky"), roll(page, "Verdict")
        assert log_items(page) == [f"Strike · {second}", f"Strike · {first}"]
        assert visit.errors == []


def test_rolls_work_offline_after_one_visit(served: str, browser: Any) -> None:
    with open_strike(browser, served + "skirmish/fights/", 390, service_workers="allow") as visit:
        page = visit.page
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        visit.context.set_offline(True)
        page.goto(served + "skirmish/gm-screen/")
        visit.wait_until_calculators_are_ready("skirmish/strike")
        assert re.fullmatch(r"Damage: ([3-9]|1[0-3])", roll(page, "Damage"))
        assert page.evaluate("window.__calls.random") == 0
        assert visit.errors == []


def test_rolls_work_from_files(project: Path, browser: Any) -> None:
    with open_strike(browser, (project / "site/skirmish/fights/index.html").as_uri(), 1366) as visit:
        page = visit.page
        assert re.fullmatch(r"Verdict: (clean|glancing)", roll(page, "Verdict"))
        assert len(log_items(page)) == 1
        assert all(r.startswith("file://") for r in visit.requests)
        assert visit.errors == []
