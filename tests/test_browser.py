"""Calculators in a real browser (system Chromium via Playwright): results on load, on every change, no errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from generator.analyze.program import Program
from generator.emit.site.calculators import display
from generator.model import Param, default_of
from generator.pipeline import Project, compile_project
from generator.runtime.rulesc_runtime import parse_dice


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


def _set(page: Any, control: Any, param: Param, value: Any) -> None:
    if param.type == "bool":
        control.set_checked(bool(value))
    elif param.type == "upgrades":
        for box in control.locator("input[type=checkbox]").all():
            box.set_checked(box.get_attribute("data-upgrade") in value)
    elif param.options:
        control.select_option(str(value))
    else:
        control.fill(str(value))


def _outputs(page: Any, box: Any, names: list[str]) -> dict[str, str]:
    return {name: box.locator(f'output[name="{name}"]').inner_text() for name in names}


NUMBER = re.compile(r"-?\d+\.\d+")


def _same_shown(browser_text: dict[str, str], python_text: dict[str, str]) -> bool:
    """Equal text, except that rounded decimals may differ by one unit in the last place (ties round differently)."""
    if browser_text.keys() != python_text.keys():
        return False
    for key, shown in browser_text.items():
        expected = python_text[key]
        if NUMBER.sub("#", shown) != NUMBER.sub("#", expected):
            return False
        pairs = zip(NUMBER.findall(shown), NUMBER.findall(expected))
        if any(abs(float(a) - float(b)) > 0.0101 for a, b in pairs):
            return False
    return True


def _expected(program: Program, calc: Any, values: dict[str, Any]) -> dict[str, str]:
    results = program.calculate(calc.id, values)
    return {o.name: display(results[o.name], o.format) for o in calc.outputs}


def _open(browser: Any, url: str) -> tuple[Any, list[str], list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    return page, errors, requests


def test_every_calculator_computes_on_load_and_on_every_change(site: str, browser: Any,
                                                                programs: tuple[Program, ...]) -> None:
    checked = 0
    for program in programs:
        for calc in program.calculators.values():
            rule = program.rules[calc.rule]
            page, errors, requests = _open(browser, f"{site}{program.system.id}/{rule.chapter}/")
            box = page.locator(f'[data-calculator="{program.system.id}/{calc.id}"]')
            box.wait_for(state="attached")
            page.wait_for_function(
                f"document.querySelector('[data-calculator=\"{program.system.id}/{calc.id}\"]').dataset.state === 'ok'")
            names = [o.name for o in calc.outputs]
            values = {p.name: default_of(p) for p in calc.inputs}
            assert _same_shown(_outputs(page, box, names), _expected(program, calc, values)), calc.id
            for param in calc.inputs:
                values[param.name] = _changed_value(param, values[param.name])
                _set(page, box.locator(f'[name="{param.name}"]'), param, values[param.name])
                assert _same_shown(_outputs(page, box, names), _expected(program, calc, values)), (calc.id, param.name)
            assert errors == [], calc.id
            assert all(r.startswith(site) for r in requests), [r for r in requests if not r.startswith(site)]
            page.close()
            checked += 1
    assert checked >= 5


def test_bad_input_shows_a_message_and_keeps_the_last_result(site: str, browser: Any) -> None:
    page, errors, _ = _open(browser, f"{site}dbu/core-rules/")
    box = page.locator('[data-calculator="dbu/tier-of-power"]')
    page.wait_for_function("document.querySelector('[data-calculator=\"dbu/tier-of-power\"]').dataset.state === 'ok'")
    field = box.locator('[name="power_level"]')
    field.fill("25")
    assert box.locator('output[name="tier"]').inner_text() == "6"
    for bad, message in (("", "Enter a whole number."), ("31", "At most 30."), ("1.5", "Not a whole number.")):
        field.fill(bad)
        assert box.locator(".rulesc-calc__msg").first.inner_text() == message
        assert field.get_attribute("aria-invalid") == "true"
        assert box.locator('output[name="tier"]').inner_text() == "6"
    field.fill("5")
    assert box.locator('output[name="tier"]').inner_text() == "2"
    assert field.get_attribute("aria-invalid") == "false"
    assert errors == []
    page.close()


def test_calculator_state_lives_in_the_url_and_reset_restores_defaults(site: str, browser: Any) -> None:
    page, errors, _ = _open(browser, f"{site}dbu/core-rules/?tier-of-power.power_level=30")
    box = page.locator('[data-calculator="dbu/tier-of-power"]')
    page.wait_for_function("document.querySelector('[data-calculator=\"dbu/tier-of-power\"]').dataset.state === 'ok'")
    assert box.locator('output[name="tier"]').inner_text() == "7"
    box.locator('[name="power_level"]').fill("5")
    page.wait_for_function("location.search === '?tier-of-power.power_level=5'")
    box.locator("button[type=reset]").click()
    page.wait_for_function("document.querySelector('#calc-dbu-tier-of-power-out-tier').textContent === '3'")
    page.wait_for_function("location.search === ''")
    assert errors == []
    page.close()


def test_an_input_with_no_answer_shows_the_reason_and_keeps_the_last_result(site: str, browser: Any) -> None:
    page, errors, _ = _open(browser, f"{site}dbu/core-rules/")
    box = page.locator('[data-calculator="dbu/dice-category"]')
    page.wait_for_function("document.querySelector('[data-calculator=\"dbu/dice-category\"]').dataset.state === 'ok'")
    before = box.locator('output[name="raised"]').inner_text()
    box.locator('[name="dice"]').fill("2d6")
    assert box.get_attribute("data-state") == "invalid"
    assert "2d6 is not on the dice category progression" in box.locator(".rulesc-calc__form").inner_text()
    assert box.locator('output[name="raised"]').inner_text() == before == "1d10+1d4"
    assert errors == []
    page.close()


def test_attack_set_builder_reports_requirements_exclusions_and_repeat_limits(site: str, browser: Any) -> None:
    page, errors, _ = _open(browser, f"{site}annulus/attacks/")
    box = page.locator('[data-calculator="annulus/attack-set-builder"]')
    page.wait_for_function(
        "document.querySelector('[data-calculator=\"annulus/attack-set-builder\"]').dataset.state === 'ok'")
    problems = box.locator('output[name="problems"]')
    assert problems.inner_text() == "none"
    box.locator('[data-upgrade="flashy"]').check()
    box.locator('[data-upgrade="stealth"]').check()
    assert problems.inner_text() == "Flashy cannot be taken with Stealth"
    box.locator('[data-upgrade="improved-stealth"]').fill("3")
    assert problems.inner_text() == "Flashy cannot be taken with Stealth"
    assert box.locator('output[name="picks"]').inner_text() == "5"
    box.locator('[data-upgrade="flashy"]').uncheck()
    box.locator('[data-upgrade="stealth"]').uncheck()
    assert problems.inner_text() == "Improved Stealth requires Stealth"
    box.locator('[data-upgrade="improved-stealth"]').fill("4")
    assert box.locator(".rulesc-calc__picker .rulesc-calc__msg").inner_text() == "Counts go from 0 to 3."
    box.locator(".rulesc-calc__filter").fill("trigger max")
    visible = box.locator(".rulesc-calc__choices li:not([hidden])")
    assert visible.count() > 20 and all("Trigger Max" in t for t in visible.all_inner_texts())
    assert errors == []
    page.close()


def test_calculators_work_when_the_site_is_opened_from_files(built: Path, browser: Any) -> None:
    page, errors, _ = _open(browser, (built / "site/dbu/core-rules/index.html").as_uri())
    page.wait_for_function(
        "document.querySelector('[data-calculator=\"dbu/tier-of-power\"]').dataset.state === 'ok'")
    box = page.locator('[data-calculator="dbu/tier-of-power"]')
    box.locator('[name="power_level"]').fill("30")
    assert box.locator('output[name="tier"]').inner_text() == "7"
    page.close()


def test_index_tables_show_tier_scaled_costs(built: Path, browser: Any) -> None:
    page, errors, _ = _open(browser, (built / "site/dbu/tables/index.html").as_uri())
    box = page.locator('[data-index-table="maneuver"]')
    row = box.locator("tbody tr", has_text="Energy Charge Maneuver")
    assert "2(bT)" in row.inner_text() and "6 (2(bT))" not in row.inner_text()
    box.locator('[data-tier="bT"]').fill("3")
    assert "6 (2(bT))" in row.inner_text()
    box.locator('[data-tier="bT"]').fill("")
    assert "6 (2(bT))" not in row.inner_text() and "2(bT)" in row.inner_text()
    assert errors == []
    page.close()
