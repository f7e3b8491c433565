"""The command line: exit statuses and exact output of check, list and calc."""

from __future__ import annotations

import json
from pathlib import Path

from tests.run_case import run_rulesc


def test_check_prints_a_one_line_summary(built: Path) -> None:
    status, out, err = run_rulesc("--root", str(built), "check")
    assert status == 0 and "error[" not in err  # warnings (W07xx) may be listed on stderr
    assert out.startswith("rulesc: ok: ") and out.count("\n") == 1


def test_calc_formula(built: Path) -> None:
    assert run_rulesc("--root", str(built), "calc", "dbu.tier_of_power", "power_level=12") == (0, "3\n", "")
    assert run_rulesc("--root", str(built), "calc", "dbu.raise_category", "dice=1d10", "steps=1") == (
        0, "1d10+1d4\n", "")


def test_calc_calculator_json(built: Path) -> None:
    status, out, _ = run_rulesc("--root", str(built), "calc", "dbu/tier-of-power", "power_level=25", "--json")
    assert status == 0
    assert json.loads(out) == {"id": "dbu/tier-of-power", "inputs": {"power_level": 25},
                               "types": {"tier": "int", "extra": "dice", "greater": "dice", "highest_tier": "int"},
                               "outputs": {"tier": 6, "extra": "1d10+1d4", "greater": "1d10+1d6", "highest_tier": 8}}


def test_calc_usage_errors(built: Path) -> None:
    assert run_rulesc("--root", str(built), "calc", "dbu.tier_of_powr", "power_level=1") == (
        2, "", "rulesc: error: unknown formula 'dbu.tier_of_powr'; did you mean 'tier_of_power'?\n")
    assert run_rulesc("--root", str(built), "calc", "dbu.tier_of_power", "power_level=31") == (
        2, "", "rulesc: error: dbu.tier_of_power: power_level takes a whole number from 1 to 30; got '31'\n")
    assert run_rulesc("--root", str(built), "calc", "dbu.tier_of_power") == (
        2, "", "rulesc: error: dbu.tier_of_power needs power_level=...\n")
    assert run_rulesc("--root", str(built), "calc", "dbu.tier_of_power", "power_level=x")[2] == (
        "rulesc: error: dbu.tier_of_power: power_level takes a whole number from 1 to 30; got 'x'\n")


def test_list_names_every_formula_and_calculator(built: Path) -> None:
    status, out, _ = run_rulesc("--root", str(built), "list", "--json")
    assert status == 0
    dbu = next(s for s in json.loads(out) if s["id"] == "dbu")
    formulas = {f["id"] for f in dbu["formulas"]}
    assert {"dbu.tier_of_power", "dbu.tier_extra_dice", "dbu.greater_dice", "dbu.critical_dice"} <= formulas
    assert "dbu/tier-of-power" in {c["id"] for c in dbu["calculators"]}


def test_missing_content_folder_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    status, out, err = run_rulesc("--root", str(tmp_path), "check")
    assert status == 1
    assert err.startswith("error[E0001]: no content folder at ")


def test_one_parser_serves_every_call_and_no_call_leaves_a_value_for_the_next() -> None:
    """main() builds its parser once a process (tests call it hundreds of times): a list one call appends to, or
    the dice expression it takes from the unparsed rest, is never the next call's."""
    from rulesc.cli.main import _arguments, _parser

    assert _parser() is _parser()
    first = _arguments(_parser(), ["--root", "book", "check", "--variant", "a", "--variant", "b"])
    minus = _arguments(_parser(), ["dice", "-1d6"])
    again = _arguments(_parser(), ["check"])
    assert (first.root, first.variant, again.root, again.variant) == ("book", ["a", "b"], ".", [])
    assert (minus.expression, _arguments(_parser(), ["dice"]).expression) == ("-1d6", None)
