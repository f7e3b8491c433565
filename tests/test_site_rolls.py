"""Rolling on the site: Roll buttons on calculators and roll tables (chains followed step by step), the roll log on
the device, offline and from files, no network; search finds a table's rows, and the GM screen lists the tables."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rulesc.emit.scripts import system_script
from rulesc.emit.site.gm_screen import gm_screen_pages
from rulesc.emit.site.markup import Markup
from rulesc.emit.site.search import record_html
from rulesc.pipeline import Project, build_project, compile_project
from tests.browser import Visit, axe_results, serious_violations, serve_site, switch_palette
from tests.conftest import REPO
from tests.site_pages import previews_inline
from tests.tabs import Tab

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
          - {name: pool, label: Pool, expr: (edge + 1)d6}
"""
ORACLES = """\
id: oracles
title: Oracles
order: 2
summary: Tables to roll on.
rules:
  - id: omens
    name: Omens
    kind: table
    text: Roll when the sky darkens; every omen brings weather.
    provenance: {source: notes, section: Omens}
    table:
      name: omens
      roll: 1d2
      columns:
        - {key: roll, label: d2, type: range}
        - {key: omen, label: Omen, type: text}
      rows:
        - {roll: 1, omen: "A crow with an [[edge]]", then: {table: weather, keep: true}}
        - {roll: 2, omen: A comet, then: {table: weather, keep: true}}
  - id: weather
    name: Weather
    kind: table
    text: The sky after an omen.
    provenance: {source: notes, section: Weather}
    table:
      name: weather
      roll: 1d6
      columns:
        - {key: roll, label: d6, type: range}
        - {key: sky, label: Sky, type: text}
      rows:
        - {roll: "1-3", sky: Rain}
        - {roll: "4-6", sky: "*Blazing* sun"}
  - id: spiral
    name: Spiral
    kind: table
    text: Nearly every turn of the spiral opens two more.
    provenance: {source: notes, section: Spiral}
    table:
      name: spiral
      roll: 1d20
      columns:
        - {key: roll, label: d20, type: range}
        - {key: turn, label: Turn, type: text}
      rows:
        - {roll: 1, turn: A way out}
        - {roll: "2-20", turn: Two more turns, then: {times: 2}}
"""
STRIKE = '[data-calculator="skirmish/strike"]'
WIDTHS = (390, 1366)


def roll_project(root: Path) -> Path:
    """A small project of our own with the repository's schema, theme and mkdocs.yml."""
    for folder in ("schema", "site_overrides"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
    files = {"skirmish/system.yaml": SYSTEM, "skirmish/fights.yaml": CHAPTER, "skirmish/oracles.yaml": ORACLES}
    for relative, text in files.items():
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


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Tab]:
    """The tab this file's browser tests take turns in, its calls of Math.random and crypto.getRandomValues
    counted."""
    with Tab(browser) as shared:
        shared.add_init_script(COUNT_RANDOMNESS)
        yield shared


@contextmanager
def open_strike(tab: Tab, url: str, width: int, wait: bool = True, color_scheme: str = "light") -> Iterator[Visit]:
    """The tab at `url`, its Strike calculator ready (unless `wait` is false: a page without it)."""
    with tab.use(url, {"width": width, "height": 800}, color_scheme) as visit:
        if wait:
            visit.wait_until_calculators_are_ready("skirmish/strike")
        yield visit


def counted_visit(browser: Any, url: str, width: int, **context: Any) -> Visit:
    """A page in a context of its own, its calls of Math.random and crypto.getRandomValues counted."""
    visit = Visit(browser, "about:blank", viewport={"width": width, "height": 800}, **context)
    visit.page.add_init_script(COUNT_RANDOMNESS)
    visit.go(url)
    return visit


def roll(page: Any, label: str) -> str:
    """Select the Roll button of the output `label` and return what it says came up."""
    button = page.get_by_role("button", name=f"Roll {label}", exact=True)
    result = button.locator("xpath=following-sibling::*[@role='status']")
    result.evaluate("el => { el.textContent = ''; }")  # the same result twice would change nothing to wait for
    button.click()
    page.wait_for_function("el => el.textContent !== ''", arg=result.element_handle())
    return str(result.inner_text())


# What the one button named `name` said came up on its last roll (if `current`, else nothing), then on each more
# click until there are `times`: its text, or for a roll table each step's text, indent, links and emphasis. A click's
# handler rolls as a tap's does, at once: many rolls in one round trip to the page instead of four or more each.
ROLL_AGAIN = """([name, times, current]) => {
  const named = Array.from(document.querySelectorAll("button")).filter((b) => b.getAttribute("aria-label") === name);
  if (named.length !== 1) throw new Error(`${named.length} buttons named ${name}`);
  let result = named[0].nextElementSibling;  // where the roll is said: its first sibling that is a status
  while (result && result.getAttribute("role") !== "status") result = result.nextElementSibling;
  const read = () => {
    const steps = Array.from(result.querySelectorAll("li"));
    return {text: result.innerText, steps: steps.map((li) => li.innerText),
            indents: steps.map((li) => li.style.marginLeft),
            links: Array.from(result.querySelectorAll("li a"), (a) => a.href),
            emphasis: Array.from(result.querySelectorAll("li em"), (em) => em.innerText)};
  };
  const taps = current ? [read()] : [];
  while (taps.length < times) { result.textContent = ""; named[0].click(); taps.push(read()); }
  return taps;
}"""


def rolls(page: Any, label: str, times: int) -> list[str]:
    """Select the Roll button of the output `label` `times` times, the first as a reader's tap (roll()), the rest
    in one go; what each roll said came up."""
    roll(page, label)
    return [tap["text"] for tap in page.evaluate(ROLL_AGAIN, [f"Roll {label}", times, True])]


def log_items(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#rulesc-roll-log li").all_inner_texts()]


# Each button's label, tag and type, and whether its box is 44 px or more each way; each box's size.
BUTTONS = """bs => bs.map((b) => { const box = b.getBoundingClientRect();
  return [b.getAttribute("aria-label"), b.tagName + " " + b.type, box.width >= 44 && box.height >= 44]; })"""
BUTTON_SIZES = "bs => bs.map((b) => { const box = b.getBoundingClientRect(); return [box.width, box.height]; })"


@pytest.mark.parametrize("width", WIDTHS)
def test_each_roll_or_outcome_has_a_roll_button_that_rolls_on_the_device(served: str, tab: Tab,
                                                                          width: int) -> None:
    with open_strike(tab, served + "skirmish/fights/", width) as visit:
        page = visit.page
        box = page.locator(STRIKE)
        buttons = box.get_by_role("button", name=re.compile("^Roll "))
        labels = ["Damage", "Verdict", "Lucky", "Pool"]
        assert buttons.evaluate_all(BUTTONS) == [[f"Roll {label}", "BUTTON button", True] for label in labels], \
            buttons.evaluate_all(BUTTON_SIZES)
        requests = len(visit.requests)
        shown = rolls(page, "Damage", 30)
        assert [s for s in shown if not re.fullmatch(r"Damage: ([3-9]|1[0-3])", s)] == [], shown
        assert len(set(shown)) > 3  # 30 rolls of 2d6+1 show at least four different totals but once in 10^20
        assert re.fullmatch(r"Verdict: (clean|glancing)", roll(page, "Verdict"))
        assert re.fullmatch(r"Lucky: (yes|no)", roll(page, "Lucky"))
        assert re.fullmatch(r"Pool: ([2-9]|1[0-2])", roll(page, "Pool"))  # a pool of dice rolls its total
        calls = page.evaluate("window.__calls")
        assert calls["random"] == 0 and calls["crypto"] >= 33, calls  # a draw past the total draws again
        assert visit.requests[requests:] == []  # a roll never leaves the device
        assert page.locator(f"{STRIKE} .rulesc-roll__result").first.get_attribute("aria-live") == "polite"
        assert visit.errors == []


def test_a_roll_follows_the_inputs_and_the_keyboard_rolls(served: str, tab: Tab) -> None:
    with open_strike(tab, served + "skirmish/fights/", 1366) as visit:
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


def test_the_roll_log_survives_a_reload_keeps_twenty_and_clears(served: str, tab: Tab) -> None:
    with open_strike(tab, served + "skirmish/fights/", 390) as visit:
        page = visit.page
        assert log_items(page) == []
        assert page.get_by_role("button", name="Clear the log").is_disabled()
        shown = rolls(page, "Verdict", 22)
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


REFUSE_STORAGE = {
    "private mode": """() => { Object.defineProperty(window, "localStorage", {get() {
                         throw new DOMException("denied", "SecurityError"); }}); }""",
    "over quota": """() => { Storage.prototype.setItem = () => {
                       throw new DOMException("full", "QuotaExceededError"); }; }""",
}


@pytest.mark.parametrize("refusal", REFUSE_STORAGE)
def test_rolling_works_when_storage_is_refused(served: str, tab: Tab, refusal: str) -> None:
    with open_strike(tab, served + "skirmish/fights/", 1366) as visit:
        page = visit.page
        earlier = roll(page, "Damage")  # stored
        page.evaluate(REFUSE_STORAGE[refusal])
        first, second = roll(page, "Lucky"), roll(page, "Verdict")
        assert log_items(page) == [f"Strike · {second}", f"Strike · {first}", f"Strike · {earlier}"]
        page.get_by_role("button", name="Clear the log").click()
        assert log_items(page) == []
        assert visit.errors == []


def test_rolls_work_offline_once_the_site_is_saved(served: str, browser: Any) -> None:
    with counted_visit(browser, served + "skirmish/fights/", 390, service_workers="allow") as visit:
        page = visit.page
        visit.wait_until_calculators_are_ready("skirmish/strike")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.click(".rulesc-offline__button")  # the reader's "Save for offline use"
        page.wait_for_selector('.rulesc-offline[data-saved="yes"]')
        page.wait_for_load_state("networkidle")  # the favicon asked for (after the load event) before going offline
        visit.context.set_offline(True)
        page.goto(served + "skirmish/gm-screen/")
        visit.wait_until_calculators_are_ready("skirmish/strike")
        assert re.fullmatch(r"Damage: ([3-9]|1[0-3])", roll(page, "Damage"))
        page.wait_for_selector('[data-roll-table="skirmish/weather"][data-ready="1"]')
        [step] = roll_table(page, "Weather").all_inner_texts()
        assert WEATHER_STEP.fullmatch(step), step
        page.goto(served + "skirmish/oracles/")  # never visited online
        page.wait_for_selector('[data-roll-table="skirmish/omens"][data-ready="1"]')
        assert len(roll_table(page, "Omens").all_inner_texts()) == 2
        assert page.evaluate("window.__calls.random") == 0
        assert visit.errors == []


def test_rolls_work_from_files(project: Path, tab: Tab) -> None:
    with open_strike(tab, (project / "site/skirmish/fights/index.html").as_uri(), 1366) as visit:
        page = visit.page
        assert re.fullmatch(r"Verdict: (clean|glancing)", roll(page, "Verdict"))
        assert len(log_items(page)) == 1
        visit.go((project / "site/skirmish/oracles/index.html").as_uri())
        page.wait_for_selector('[data-roll-table="skirmish/omens"][data-ready="1"]')
        first, second = roll_table(page, "Omens").all_inner_texts()
        assert OMEN_STEP.fullmatch(first) and WEATHER_STEP.fullmatch(second), (first, second)
        assert all(r.startswith("file://") for r in visit.requests)
        assert visit.errors == []


# --- roll tables: the pages, the search records, the scripts ------------------------------------------------------


def test_a_roll_table_has_an_anchor_per_row_in_a_box_its_roll_button_goes_in(project: Path) -> None:
    html = (project / "site/skirmish/oracles/index.html").read_text(encoding="utf-8")
    assert (
        '<div class="rulesc-roll-table" data-roll-table="skirmish/weather"><table id="table_weather" '
        'data-table="weather" data-roll="1d6"><caption>Roll 1d6</caption><thead><tr>'
        '<th scope="col">d6</th><th scope="col">Sky</th></tr></thead><tbody><tr id="row_weather_1" data-row="0">'
        '<th scope="row">1-3 · 50%</th><td>Rain</td></tr><tr id="row_weather_4" data-row="1">'
        '<th scope="row">4-6 · 50%</th><td><em>Blazing</em> sun</td></tr></tbody></table></div>') in html
    assert ('<tr id="row_omens_1" data-row="0"><th scope="row">1 · 50%</th><td>A crow with an '
            '<a href="../glossary/#edge" class="rulesc-ref rulesc-ref--term"') in html


def test_a_table_whose_rows_roll_again_lists_its_final_results_with_their_exact_chances(project: Path) -> None:
    html = previews_inline((project / "site/skirmish/oracles/index.html").read_text(encoding="utf-8"))
    assert ('</table></div>\n<details class="rulesc-roll-results"><summary>Final results (1d2, every roll followed)'
            '</summary><ul><li>A crow with an <a href="../glossary/#edge" class="rulesc-ref rulesc-ref--term" '
            'data-rulesc-preview="Edge: What an attacker adds to a blow.">edge</a> + Weather: Rain · 1/4 · 25%</li>'
            '<li>A crow with an <a href="../glossary/#edge" class="rulesc-ref rulesc-ref--term" '
            'data-rulesc-preview="Edge: What an attacker adds to a blow.">edge</a> + Weather: <em>Blazing</em> sun · '
            "1/4 · 25%</li><li>A comet + Weather: Rain · 1/4 · 25%</li><li>A comet + Weather: <em>Blazing</em> sun · "
            "1/4 · 25%</li></ul></details>") in html
    assert ('<details class="rulesc-roll-results"><summary>Final results (1d20, every roll followed)</summary><p>Not '
            "listed: with repeats allowed, a roll can go on without a bound, or it has too many results to list.</p>"
            "</details>") in html
    assert html.count("rulesc-roll-results") == 2  # weather's rows roll nothing more: its rows are its results
    gm_screen = (project / "site/skirmish/gm-screen/index.html").read_text(encoding="utf-8")
    assert "rulesc-roll-results" not in gm_screen  # the table's page has them; the GM screen stays light


def test_each_row_of_a_roll_table_is_a_search_record_named_by_its_table_key_and_text(project: Path) -> None:
    records = [json.loads(line.rstrip(",")) for line in
               (project / "build/docs/.search/records.json").read_text(encoding="utf-8").splitlines()[1:-1]]
    rows = [r for r in records if r["kind"] == "row"]
    assert [r["title"] for r in rows[4:]] == ["Spiral · 1 · A way out", "Spiral · 2-20 · Two more turns"]
    assert [(r["title"], r["names"], r["text"], r["url"], r["crumbs"]) for r in rows[:4]] == [
        ("Omens · 1 · A crow with an edge", ["A crow with an edge"], "A crow with an edge",
         "skirmish/oracles/#row_omens_1", ["Skirmish", "Oracles", "Omens"]),
        ("Omens · 2 · A comet", ["A comet"], "A comet", "skirmish/oracles/#row_omens_2",
         ["Skirmish", "Oracles", "Omens"]),
        ("Weather · 1-3 · Rain", ["Rain"], "Rain", "skirmish/oracles/#row_weather_1",
         ["Skirmish", "Oracles", "Weather"]),
        ("Weather · 4-6 · Blazing sun", ["Blazing sun"], "Blazing sun", "skirmish/oracles/#row_weather_4",
         ["Skirmish", "Oracles", "Weather"])]
    page = record_html(rows[3])
    assert '<h1 data-pagefind-weight="10">Blazing sun</h1>' in page  # found by its text, not by its table's name
    assert '<p data-pagefind-meta="title" data-pagefind-ignore hidden>Weather · 4-6 · Blazing sun</p>' in page
    rule = next(r for r in records if r["title"] == "Omens")
    assert '<h1 data-pagefind-weight="10" data-pagefind-meta="title">Omens</h1>' in record_html(rule)


def test_the_systems_script_holds_its_roll_tables_and_where_each_row_is(project: Path) -> None:
    script = (project / "site/assets/rulesc/formulas/skirmish.js").read_text(encoding="utf-8")
    assert """\
  var rolls = R.rollTables([
    [
      "omens",
      "1d2",
      ["1", "2"],
      [1, 1],
      ["A crow with an edge", "A comet"],
      [["weather", 1, true, false], ["weather", 1, true, false]],
      [[1, 1, 0], [2, 1, 1]]
    ],
    [
      "weather",
      "1d6",
      ["1-3", "4-6"],
      [3, 3],
      ["Rain", "Blazing sun"],
      [null, null],
      [[1, 1, 0], [2, 1, 0], [3, 1, 0], [4, 1, 1], [5, 1, 1], [6, 1, 1]]
    ],
    [
      "spiral",
""" in script  # each table as the engine's ROLL_TABLES has it: ..., chains, then [outcome, weight, row] each
    assert """\
  var places = Object.create(null);
  places["omens"] = {"page": "skirmish/oracles/", "title": "Omens", "rows": ["row_omens_1", "row_omens_2"]};
  places["weather"] = {"page": "skirmish/oracles/", "title": "Weather", "rows": ["row_weather_1", "row_weather_4"]};
  places["spiral"] = {"page": "skirmish/oracles/", "title": "Spiral", "rows": ["row_spiral_1", "row_spiral_2"]};
  return {formulas: F, calculators: calculators, constants: C, upgrades: U, rollTables: rolls, rollPlaces: places};
""" in script


def test_a_system_without_roll_tables_gets_the_script_it_had() -> None:
    [program] = compile_project(Project(REPO / "tests/cases/good/minimal")).programs
    lines = system_script(program)
    assert lines[-2:] == ["  return {formulas: F, calculators: calculators, constants: C, upgrades: U};", "})();"]
    assert not [line for line in lines if "roll" in line.lower()]


def test_the_gm_screen_lists_the_roll_tables_after_the_calculators(project: Path) -> None:
    page = (project / "build/docs/skirmish/gm-screen.md").read_text(encoding="utf-8")
    assert "Its 3 roll tables follow under Roll tables, each rolled with its Roll button." in page
    headings = [line for line in page.splitlines() if line.startswith("#")]
    assert headings[-5:] == ["#### Strike {#calc-strike}", "## Roll tables {#roll-tables}",
                             "#### Omens {#roll-table-omens}", "#### Weather {#roll-table-weather}",
                             "#### Spiral {#roll-table-spiral}"]
    assert page.count('data-roll-table="skirmish/') == 3
    assert '<p class="rulesc-gm__rule">Rule: <a href="../oracles/#omens"' in page


# --- roll tables in the browser -----------------------------------------------------------------------------------

OMEN_STEP = re.compile(r"Omens · (1: A crow with an edge|2: A comet)")
WEATHER_STEP = re.compile(r"Weather · (1-3: Rain|4-6: Blazing sun)")


def roll_table(page: Any, title: str) -> Any:
    """Select the Roll button of the table `title`; the list of the roll's steps."""
    button = page.get_by_role("button", name=f"Roll on {title}", exact=True)
    result = button.locator("xpath=following-sibling::*[@role='status']")
    result.evaluate("el => { el.textContent = ''; }")
    button.click()
    page.wait_for_function("el => el.textContent !== ''", arg=result.element_handle())
    return result.locator("li")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_roll_table_rolls_each_step_of_its_chain_linked_to_its_row(served: str, tab: Tab, width: int) -> None:
    with open_strike(tab, served + "skirmish/oracles/", width, wait=False) as visit:
        page = visit.page
        page.wait_for_selector('[data-roll-table="skirmish/omens"][data-ready="1"]')
        button = page.get_by_role("button", name="Roll on Omens", exact=True)
        size = button.bounding_box()
        assert size is not None and size["width"] >= 44 and size["height"] >= 44, size
        requests = len(visit.requests)
        roll_table(page, "Omens")
        taps = page.evaluate(ROLL_AGAIN, ["Roll on Omens", 40, True])  # a crow at least once but once in 10^12
        for tap in taps:
            first, second = tap["steps"]
            assert OMEN_STEP.fullmatch(first) and WEATHER_STEP.fullmatch(second), (first, second)
            assert tap["indents"][1] == "1em"  # the roll the omen led to
            row = "1" if "crow" in first else "2"
            sky = "1" if "Rain" in second else "4"
            crow_link = [served + "skirmish/glossary/#edge"] if row == "1" else []
            assert tap["links"] == [served + f"skirmish/oracles/#row_omens_{row}", *crow_link,
                                    served + f"skirmish/oracles/#row_weather_{sky}"]
        assert [tap for tap in taps if "crow" in tap["steps"][0]] != []
        assert tap["emphasis"] == (["Blazing"] if sky == "4" else [])
        assert log_items(page)[0] == f"Omens: {first.split(' · ')[1].replace(':', '')} → " \
                                     f"{second.split(' · ')[1].replace(':', '')}"
        assert page.evaluate("window.__calls.random") == 0 and page.evaluate("window.__calls.crypto") >= 80
        assert visit.requests[requests:] == []
        assert visit.errors == []


def test_search_finds_a_row_and_lands_on_it(served: str, tab: Tab) -> None:
    with tab.use(served + "search/?q=comet") as visit:
        page = visit.page
        page.wait_for_selector(".rulesc-search__results li")
        hit = page.locator(".rulesc-search__results li").first
        assert hit.locator(".rulesc-hit__title").inner_text() == "Omens · 2 · A comet"
        assert hit.locator(".rulesc-search__where").inner_text() == "Table row · Skirmish › Oracles › Omens"
        hit.locator("a").first.click()
        page.wait_for_url(served + "skirmish/oracles/#row_omens_2")
        assert page.evaluate("document.querySelector(':target').id") == "row_omens_2"
        assert visit.errors == []


def test_the_gm_screen_rolls_a_table_with_one_tap(served: str, tab: Tab) -> None:
    with open_strike(tab, served + "skirmish/gm-screen/", 390) as visit:
        page = visit.page
        page.wait_for_selector('[data-roll-table="skirmish/weather"][data-ready="1"]')
        [step] = roll_table(page, "Weather").all_inner_texts()
        assert WEATHER_STEP.fullmatch(step), step
        assert log_items(page) == [f"Weather: {step.split(' · ')[1].replace(':', '')}"]
        assert visit.errors == []


@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_no_serious_or_critical_violation_after_rolls(served: str, axe_url: str, tab: Tab,
                                                                width: int) -> None:
    """axe-core (as axe-playwright-python bundles it) on the pages with Roll buttons, their results and the log
    on show, each page checked light, then dark (switched in place, as the header's toggle does)."""
    found = []
    with open_strike(tab, served + "skirmish/fights/", width) as visit:
        roll(visit.page, "Damage")
        roll(visit.page, "Verdict")
        for path in ("skirmish/fights/", "skirmish/oracles/", "skirmish/gm-screen/"):
            if path != "skirmish/fights/":
                visit.page.emulate_media(color_scheme="light")
                visit.go(served + path)
                visit.page.wait_for_selector('[data-roll-table="skirmish/omens"][data-ready="1"]')
                roll_table(visit.page, "Omens")
            for scheme in ("light", "dark"):
                if scheme != "light":
                    switch_palette(visit.page, scheme)
                results = axe_results(visit.page, None, "left out", axe_url if scheme == "light" else None)
                found += [f"{path} ({scheme}): {violation}" for violation in serious_violations(results)]
    assert found == [], found


def test_a_roll_that_runs_on_says_so_and_logs_nothing(served: str, tab: Tab) -> None:
    with open_strike(tab, served + "skirmish/oracles/", 1366, wait=False) as visit:
        page = visit.page
        page.wait_for_selector('[data-roll-table="skirmish/spiral"][data-ready="1"]')
        button = page.get_by_role("button", name="Roll on Spiral", exact=True)
        result = button.locator("xpath=following-sibling::*[@role='status']")
        ended = 0
        for _ in range(12):  # a roll ends (and is logged) once in 19: all twelve end once in 10^15
            result.evaluate("el => { el.textContent = ''; }")
            button.click()
            page.wait_for_function("el => el.textContent !== ''", arg=result.element_handle())
            if result.locator("li").count():
                ended += 1
                continue
            assert result.inner_text() == "a roll on 'spiral' led to more than 500 rolls"
            break
        assert len(log_items(page)) == ended
        assert visit.errors == []


def test_a_split_gm_screen_lists_the_roll_tables_on_its_landing_page(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from rulesc.emit.site import split

    plan = split.plan_gm_screen
    monkeypatch.setattr(split, "plan_gm_screen", lambda system, upgrades=0: plan(system, upgrades, budget=1))
    [program] = compile_project(Project(roll_project(tmp_path / "project"))).programs
    pages = gm_screen_pages(program, Markup.of(program))
    # the part is named by its topic; strike/, named after its first calculator before, forwards to it
    assert sorted(pages) == ["skirmish/gm-screen/blows.md", "skirmish/gm-screen/index.md",
                             "skirmish/gm-screen/strike.md"]
    landing, part = pages["skirmish/gm-screen/index.md"], pages["skirmish/gm-screen/blows.md"]
    assert "data-roll-table" not in pages["skirmish/gm-screen/strike.md"]
    assert [line for line in landing.splitlines() if line.startswith("#### ")] == [
        "#### Omens {#roll-table-omens}", "#### Weather {#roll-table-weather}", "#### Spiral {#roll-table-spiral}"]
    assert '<a href="../oracles/#omens"' in landing  # served at skirmish/gm-screen/, as the one page is
    assert "data-roll-table" not in part and "data-calculator" in part
