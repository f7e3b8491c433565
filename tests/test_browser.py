"""Calculators in a real browser (system Chromium via Playwright): results on load, on every change, no errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rulesc.analyze.program import Program
from rulesc.bench.needs import CHROMIUM_ARGS, PLAYWRIGHT_DISABLED_FEATURES, UNSHOWN_FEATURES
from rulesc.emit.site.calculators import show_output
from rulesc.emit.site.links import rule_page, url_of
from rulesc.model import Calculator, Param, default_of
from rulesc.pipeline import Project, compile_project
from rulesc.runtime.rulesc_runtime import parse_dice
from tests.browser import Visit
from tests.tabs import Tab


@pytest.fixture(scope="module")
def programs(built: Path) -> tuple[Program, ...]:
    return compile_project(Project(built)).programs


def _changed_value(param: Param, current: Any) -> Any:
    """Another valid value for an input, so the calculator must recompute."""
    if param.type == "bool":
        return not current
    if param.type == "upgrades":
        return ("blast-trigger", "spray-trigger") if not current else ()
    if param.type == "dice":
        return parse_dice("1d8") if str(current) != "1d8" else parse_dice("1d4")
    if param.options:
        return next(o.value for o in param.options if o.value != current)
    high = param.max if param.max is not None else current + 5
    return high if current != high else (param.min if param.min is not None else current - 1)


# Sets each step's input on the calculator as a person's edit would (value, then input and change events) and
# reads every output after it: one round trip per calculator instead of one per control.
DRIVE = """([key, steps]) => {
  const box = document.querySelector(`[data-calculator="${key}"]`);
  const form = box.querySelector("form");
  const read = () => [box.dataset.state, Object.fromEntries(
    Array.from(box.querySelectorAll("output[name]"), (o) => [o.name, o.innerText]))];
  const fire = (el) => ["input", "change"].forEach((type) => el.dispatchEvent(new Event(type, {bubbles: true})));
  const set = (control, value) => {
    if (control.dataset.type === "upgrades") {
      for (const el of control.querySelectorAll("[data-upgrade]")) {
        const times = value.filter((id) => id === el.dataset.upgrade).length;
        if (el.type === "checkbox" ? el.checked === (times > 0) : el.value === String(times)) continue;
        if (el.type === "checkbox") el.checked = times > 0; else el.value = String(times);
        fire(el);
      }
    } else {
      if (control.type === "checkbox") control.checked = value; else control.value = value;
      fire(control);
    }
  };
  const shown = [read()];
  for (const [name, value] of steps) { set(form.elements.namedItem(name), value); shown.push(read()); }
  return shown;
}"""


def _typed(param: Param, value: Any) -> Any:
    """An input's value as the page's control holds it: a flag, a list of upgrade ids, or the text of a field."""
    if param.type == "bool":
        return bool(value)
    if param.type == "upgrades":
        return list(value)
    return str(value)


NUMBER = re.compile(r"-?\d+\.\d+")


def _same_shown(browser_text: dict[str, str], python_text: dict[str, str]) -> bool:
    """Equal text, except that rounded decimals may differ by one unit in the last place (ties round differently)."""
    if browser_text.keys() != python_text.keys():
        return False
    for key, shown in browser_text.items():
        expected = python_text[key]
        if NUMBER.sub("#", shown) != NUMBER.sub("#", expected):
            return False
        pairs = zip(NUMBER.findall(shown), NUMBER.findall(expected), strict=True)
        if any(abs(float(a) - float(b)) > 0.0101 for a, b in pairs):
            return False
    return True


def _expected(program: Program, calc: Calculator, values: dict[str, Any]) -> dict[str, str]:
    results = program.calculate(calc.id, values)
    return {o.name: show_output(program, o, results) for o in calc.outputs}


def _pages(programs: tuple[Program, ...]) -> dict[str, list[tuple[Program, Calculator]]]:
    """Every calculator, grouped by the page that shows it (its chapter's, or its part's of a split chapter)."""
    pages: dict[str, list[tuple[Program, Calculator]]] = {}
    for program in programs:
        for calc in program.calculators.values():
            page = url_of(rule_page(program.system, program.rules[calc.rule]))
            pages.setdefault(page, []).append((program, calc))
    return pages


def _mismatches(visit: Visit, program: Program, calc: Calculator) -> list[str]:
    """Drive one calculator from its defaults through a change to each input; every result shown against Python's."""
    values = {p.name: default_of(p) for p in calc.inputs}
    expected, steps = [_expected(program, calc, values)], []
    for param in calc.inputs:
        values[param.name] = _changed_value(param, values[param.name])
        steps.append([param.name, _typed(param, values[param.name])])
        expected.append(_expected(program, calc, values))
    shown = visit.page.evaluate(DRIVE, [f"{program.system.id}/{calc.id}", steps])
    after = ["defaults"] + [name for name, _ in steps]
    return [f"{calc.id} after {step}: {state} {got} != {want}"
            for step, (state, got), want in zip(after, shown, expected, strict=True)
            if state != "ok" or not _same_shown(got, want)]


def drive_every_calculator(browser: Any, site: str, programs: tuple[Program, ...]) -> list[str]:
    """Every calculator of every page driven as _mismatches() does; one browser context goes from page to page,
    as a reader's tab would (each page loads fresh; its styles and scripts come from the cache)."""
    pages, problems = _pages(programs), []
    assert sum(map(len, pages.values())) >= 80  # the bundled systems have 91 calculators
    with Visit(browser, "about:blank") as visit:  # each page loaded once, in the loop
        for path, calcs in pages.items():
            problems += drive_page(visit, site, path, calcs)
    return problems


def drive_page(visit: Visit, site: str, path: str, calcs: list[tuple[Program, Calculator]]) -> list[str]:
    """The page at `path` loaded and each of its calculators, `calcs` (all it has), driven as _mismatches() does;
    the page must show no error and load nothing from outside the site."""
    visit.go(site + path)
    assert visit.calculators_bound() == len(calcs), path
    problems = [problem for program, calc in calcs for problem in _mismatches(visit, program, calc)]
    assert visit.errors == [], path
    assert [r for r in visit.requests if not r.startswith(site)] == [], path
    return problems


def test_every_calculator_computes_on_load_and_on_every_change(site: str, browser: Any,
                                                                programs: tuple[Program, ...]) -> None:
    assert drive_every_calculator(browser, site, programs) == []


def test_bad_input_shows_a_message_and_keeps_the_last_result(site: str, tab: Tab) -> None:
    with tab.use(f"{site}dbu/core-rules/tier-of-power-section/") as visit:
        visit.wait_until_calculators_are_ready("dbu/tier-of-power")
        box = visit.page.locator('[data-calculator="dbu/tier-of-power"]')
        field = box.locator('[name="power_level"]')
        field.fill("25")
        assert box.locator('output[name="tier"]').inner_text() == "6"
        for bad, message in (("", "Enter a whole number."), ("31", "At most 30."), ("1.5", "Not a whole number.")):
            field.fill(bad)
            assert box.locator(".rulesc-calc__msg").first.inner_text() == message
            assert field.get_attribute("aria-invalid") == "true"
            assert box.get_attribute("data-state") == "invalid"
            assert box.locator('output[name="tier"]').inner_text() == "6"
        field.fill("5")
        assert box.locator('output[name="tier"]').inner_text() == "2"
        assert box.locator(".rulesc-calc__msg").first.inner_text() == ""
        assert field.get_attribute("aria-invalid") == "false"
        assert visit.errors == []


def test_calculator_state_lives_in_the_url_and_reset_restores_defaults(site: str, tab: Tab) -> None:
    with tab.use(f"{site}dbu/core-rules/tier-of-power-section/?tier-of-power.power_level=30") as visit:
        page = visit.page
        visit.wait_until_calculators_are_ready("dbu/tier-of-power")
        box = page.locator('[data-calculator="dbu/tier-of-power"]')
        assert box.locator('output[name="tier"]').inner_text() == "7"
        box.locator('[name="power_level"]').fill("5")
        page.wait_for_function("location.search === '?tier-of-power.power_level=5'")
        box.locator("button[type=reset]").click()
        page.wait_for_function("document.querySelector('#calc-dbu-tier-of-power-out-tier').textContent === '3'")
        page.wait_for_function("location.search === ''")
        assert box.locator('[name="power_level"]').input_value() == "12"
        assert visit.errors == []


def test_an_input_with_no_answer_shows_the_reason_and_keeps_the_last_result(site: str, tab: Tab) -> None:
    with tab.use(f"{site}dbu/core-rules/dice-section/") as visit:
        visit.wait_until_calculators_are_ready("dbu/dice-category")
        box = visit.page.locator('[data-calculator="dbu/dice-category"]')
        before = box.locator('output[name="raised"]').inner_text()
        box.locator('[name="dice"]').fill("2d6")
        assert box.get_attribute("data-state") == "invalid"
        assert "2d6 is not on the dice category progression" in box.locator(".rulesc-calc__form").inner_text()
        assert before == "1d10+1d4"
        assert box.locator('output[name="raised"]').inner_text() == before
        assert visit.errors == []


def test_a_shared_pool_past_the_roll_budget_is_refused_at_its_input_at_once(site: str, tab: Tab) -> None:
    """A share link may carry any pool: one whose roll passes the roll budget is refused before any output works on
    it (the runtime would refuse it too, after seconds of rolling the dice it can)."""
    pool = "1000d100%2B1000d99"  # the + of 1000d100+1000d99, as a share link carries it
    with tab.use(f"{site}dbu/core-rules/dice-section/?dice-category.dice={pool}") as visit:
        visit.wait_until_calculators_are_ready()  # this one never computes: its only input is refused
        box = visit.page.locator('[data-calculator="dbu/dice-category"]')
        box.scroll_into_view_if_needed()
        assert box.locator('[name="dice"]').input_value() == "1000d100+1000d99"
        assert box.get_attribute("data-state") == "invalid"
        assert box.locator("#calc-dbu-dice-category-dice-msg").inner_text() == "Too many dice to work out exactly."
        assert box.locator('[name="dice"]').get_attribute("aria-invalid") == "true"
        box.locator('[name="dice"]').fill("1d8")
        assert box.get_attribute("data-state") != "invalid"
        assert visit.errors == []


def test_attack_set_builder_reports_requirements_exclusions_and_repeat_limits(site: str, tab: Tab) -> None:
    with tab.use(f"{site}annulus/attacks/general-upgrades/") as visit:
        visit.wait_until_calculators_are_ready("annulus/attack-set-builder")
        box = visit.page.locator('[data-calculator="annulus/attack-set-builder"]')
        problems = box.locator('output[name="problems"]')
        assert problems.inner_text() == "none"
        box.locator('[data-upgrade="flashy"]').check()
        box.locator('[data-upgrade="stealth"]').check()
        seedless = "the set needs Agility Damage, Toughness Damage or Insight Damage"
        assert problems.inner_text() == f"Flashy cannot be taken with Stealth; {seedless}"
        box.locator('[data-upgrade="toughness-damage"]').check()  # every attack set starts with a Damage seed
        assert problems.inner_text() == "Flashy cannot be taken with Stealth"
        box.locator('[data-upgrade="improved-stealth"]').fill("3")
        assert problems.inner_text() == "Flashy cannot be taken with Stealth"
        assert box.locator('output[name="picks"]').inner_text() == "6"
        box.locator('[data-upgrade="flashy"]').uncheck()
        box.locator('[data-upgrade="stealth"]').uncheck()
        assert problems.inner_text() == "Improved Stealth requires Stealth"
        assert box.locator('output[name="picks"]').inner_text() == "4"
        box.locator('[data-upgrade="improved-stealth"]').fill("4")
        assert box.locator(".rulesc-calc__picker .rulesc-calc__msg").inner_text() == "Counts go from 0 to 3."
        assert problems.inner_text() == "Improved Stealth requires Stealth"
        box.locator(".rulesc-calc__filter").fill("trigger max")
        visible = box.locator(".rulesc-calc__choices li:not([hidden])")
        assert visible.count() > 20 and all("Trigger Max" in t for t in visible.all_inner_texts())
        assert box.locator(".rulesc-calc__choices li[hidden]").count() > 0
        assert visit.errors == []


def test_calculators_work_when_the_site_is_opened_from_files(built: Path, tab: Tab) -> None:
    with tab.use((built / "site/dbu/core-rules/tier-of-power-section/index.html").as_uri()) as visit:
        visit.wait_until_calculators_are_ready("dbu/tier-of-power")
        box = visit.page.locator('[data-calculator="dbu/tier-of-power"]')
        box.locator('[name="power_level"]').fill("30")
        assert box.locator('output[name="tier"]').inner_text() == "7"
        assert visit.errors == []


def test_index_tables_show_tier_scaled_costs(built: Path, tab: Tab) -> None:
    with tab.use((built / "site/dbu/tables/maneuver/index.html").as_uri()) as visit:  # the kind's page
        box = visit.page.locator('[data-index-table="maneuver"]')
        row = box.locator("tbody tr", has_text="Energy Charge Maneuver")
        assert "2(bT)" in row.inner_text() and "6 (2(bT))" not in row.inner_text()
        box.locator('[data-tier="bT"]').fill("3")
        assert "6 (2(bT))" in row.inner_text()
        box.locator('[data-tier="bT"]').fill("")
        assert "6 (2(bT))" not in row.inner_text() and "2(bT)" in row.inner_text()
        assert visit.errors == []


def test_the_launch_keeps_every_feature_playwright_turns_off() -> None:
    """CHROMIUM_ARGS' --disable-features replaces Playwright's own: it repeats Playwright's list, read from its
    bundle (a new Playwright that turns off one more feature fails here, not in a browser test)."""
    import playwright

    bundle = (Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js").read_text(encoding="utf-8")
    block = re.search(r"\bdisabledFeatures = \[(.*?)\]\.filter\(Boolean\)", bundle, re.S)
    assert block, "Playwright's chromiumSwitches changed shape: read its disabledFeatures by hand"
    theirs = re.findall(r'"([^"]*)"', re.sub(r"//[^\n]*", "", block.group(1)))
    assert sorted(theirs) == sorted(PLAYWRIGHT_DISABLED_FEATURES)
    assert CHROMIUM_ARGS[-1] == "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNSHOWN_FEATURES)
