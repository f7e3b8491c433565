"""`rulesc calc`: JSON for every result type, and inputs refused outside their type, range or choices."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.model import default_of
from rulesc.pipeline import Project, compile_project
from tests.run_case import run_rulesc

REPO = Path(__file__).resolve().parent.parent
SYSTEM = """\
id: zz-9
title: Odd Dice
summary: A tiny rulebook for calc tests.
sources:
  - {id: notes, file: notes.txt, title: House notes}
dice:
  summary: Roll d6 pools.
facts:
  - {id: excludes, label: Excludes, type: excludes}
terms:
  - {id: six, name: Six, definition: The best face.}
"""
ODDS = """\
id: odds
title: Odds
order: 1
summary: Odd formulas.
rules:
  - id: hit-roll
    name: Hit roll
    kind: general
    text: Count each [[six]]; half of a number may be a fraction.
    provenance: {source: notes, section: Hits}
    formulas:
      - id: sixes_roll
        summary: How many sixes a pool shows.
        params:
          - {name: pool_x, type: dice}
        returns: dist
        expr: successes(pool_x, 6)
        examples:
          - {args: {pool_x: 1d6}, expect: {0: 5/6, 1: 1/6}}
      - id: some_six
        summary: The chance of at least one six.
        params:
          - {name: pool_x, type: dice}
        returns: num
        expr: p_at_least(successes(pool_x, 6), 1)
        examples:
          - {args: {pool_x: 2d6}, expect: 11/36}
      - id: wobble
        summary: The spread of a pool.
        params:
          - {name: pool_x, type: dice}
        returns: num
        expr: sd(pool_x)
      - id: halve
        summary: Half a number, exactly.
        params:
          - {name: n_1, type: int, min: -7, max: 7}
        returns: num
        expr: n_1 / 2
        examples:
          - {args: {n_1: -3}, expect: -3/2}
      - id: grow
        summary: A pool with one more d4.
        params:
          - {name: pool_x, type: dice}
        returns: dice
        expr: pool_x + 1d4
        examples:
          - {args: {pool_x: 2d6}, expect: 2d6+1d4}
      - id: is_low
        summary: Whether a pick is the low one.
        params:
          - name: pick
            type: int
            options:
              - {value: -1, label: Low}
              - {value: 9, label: High}
        returns: bool
        expr: pick < 0
        examples:
          - {args: {pick: -1}, expect: true}
      - id: triple
        summary: Three times a number of any size.
        params:
          - {name: big, type: int}
        expr: big * 3
        examples:
          - {args: {big: -4}, expect: -12}
    calculators:
      - id: six-odds
        title: Six odds
        inputs:
          - {name: pool_x, type: dice, label: Pool, default: 2d6}
          - {name: n_1, type: int, label: N, min: -7, max: 7, default: 1}
          - {name: careful, type: bool, label: Careful, default: false}
        outputs:
          - {name: roll, label: Sixes, expr: sixes_roll(pool_x)}
          - {name: chance, label: Some six, expr: some_six(pool_x), format: percent}
          - {name: spread, label: Spread, expr: wobble(pool_x)}
          - {name: half, label: Half, expr: halve(n_1)}
          - {name: bigger, label: Bigger, expr: grow(pool_x)}
          - {name: flag, label: Careful, expr: careful}
  - id: quick
    name: Quick
    kind: upgrade
    text: Move first.
    provenance: {source: notes, section: Upgrades}
    facts: {excludes: [slow-ish]}
  - id: slow-ish
    name: Slow-ish
    kind: upgrade
    text: Move last.
    provenance: {source: notes, section: Upgrades}
    calculators:
      - id: picks
        title: Picks
        inputs:
          - {name: chosen, type: upgrades, label: Upgrades}
        outputs:
          - {name: problems, label: Problems, expr: upgrade_problems(chosen)}
          - {name: count, label: Count, expr: upgrade_count(chosen)}
"""


@pytest.fixture(scope="module")
def rulebook(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small rulebook of odd names and edge values: a system id with a digit, inputs below zero, options."""
    root = tmp_path_factory.mktemp("calc")
    (root / "content" / "zz-9").mkdir(parents=True)
    (root / "content" / "zz-9" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "content" / "zz-9" / "odds.yaml").write_text(ODDS, encoding="utf-8")
    return str(root)


def calc_json(root: str, *argv: str) -> Any:
    status, out, err = run_rulesc("--root", root, "calc", *argv, "--json")
    assert (status, err) == (0, "")
    return json.loads(out)


def test_calculator_json_gives_every_type_exactly(rulebook: str) -> None:
    sd_2d6 = math.sqrt(Fraction(35, 6))  # two d6: variance 2 * 35/12
    assert calc_json(rulebook, "zz-9/six-odds") == {
        "id": "zz-9/six-odds", "inputs": {"pool_x": "2d6", "n_1": 1, "careful": False},
        "types": {"roll": "dist", "chance": "num", "spread": "num", "half": "num", "bigger": "dice", "flag": "bool"},
        "outputs": {
            "roll": [{"outcome": 0, "exact": "25/36", "float": 25 / 36},
                     {"outcome": 1, "exact": "5/18", "float": 5 / 18},
                     {"outcome": 2, "exact": "1/36", "float": 1 / 36}],
            "chance": {"exact": "11/36", "float": 11 / 36},
            "spread": {"exact": None, "float": pytest.approx(sd_2d6, abs=1e-12)},
            "half": {"exact": "1/2", "float": 0.5}, "bigger": "2d6+1d4", "flag": False}}


def test_calculator_json_at_the_edges_of_its_inputs(rulebook: str) -> None:
    answer = calc_json(rulebook, "zz-9/six-odds", "pool_x=-", "n_1=-7", "careful=yes")
    assert answer["inputs"] == {"pool_x": "0", "n_1": -7, "careful": True}
    assert answer["outputs"]["roll"] == [{"outcome": 0, "exact": "1", "float": 1.0}]
    assert answer["outputs"]["half"] == {"exact": "-7/2", "float": -3.5}
    assert answer["outputs"]["bigger"] == "1d4" and answer["outputs"]["flag"] is True


def test_text_and_upgrades_are_strings(rulebook: str) -> None:
    assert calc_json(rulebook, "zz-9/picks", "chosen=quick, slow-ish") == {
        "id": "zz-9/picks", "inputs": {"chosen": ["quick", "slow-ish"]}, "types": {"problems": "list", "count": "int"},
        "outputs": {"problems": ["Quick cannot be taken with Slow-ish"], "count": 2}}
    assert calc_json(rulebook, "zz-9/picks")["outputs"] == {"problems": [], "count": 0}


@pytest.mark.parametrize(("argv", "type_name", "result"), [
    (("zz-9.sixes_roll", "pool_x=1d6"), "dist",
     [{"outcome": 0, "exact": "5/6", "float": 5 / 6}, {"outcome": 1, "exact": "1/6", "float": 1 / 6}]),
    (("zz-9.some_six", "pool_x=3d6"), "num", {"exact": "91/216", "float": 91 / 216}),
    (("zz-9.halve", "n_1=4"), "num", {"exact": "2", "float": 2.0}),  # a whole num is still a num
    (("zz-9.halve", "n_1=-3"), "num", {"exact": "-3/2", "float": -1.5}),
    (("zz-9.grow", "pool_x=1d10+2"), "dice", "1d10+1d4+2"),
    (("zz-9.is_low", "pick=-1"), "bool", True),
])
def test_formula_json_has_the_same_shape(rulebook: str, argv: tuple[str, ...], type_name: str, result: Any) -> None:
    answer = calc_json(rulebook, *argv)
    assert (answer["id"], answer["type"], answer["result"]) == (argv[0], type_name, result)


def test_a_float_without_exact_form_says_so(rulebook: str) -> None:
    answer = calc_json(rulebook, "zz-9.wobble", "pool_x=1d6")
    assert answer["result"]["exact"] is None
    assert answer["result"]["float"] == pytest.approx(math.sqrt(Fraction(35, 12)), abs=1e-12)


def _exact(value: Any) -> Any:
    """What a script reads back from the JSON: Fractions for num, {outcome: Fraction} for dist."""
    if isinstance(value, dict) and "exact" in value:
        assert float(Fraction(value["exact"])) == value["float"]
        return Fraction(value["exact"])
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return {item["outcome"]: _exact(item) for item in value}
    return value


@pytest.mark.parametrize("calculator", ["dbu/clash-odds", "annulus/attack-damage-odds"])
def test_bundled_calculators_with_odds_give_exact_json(calculator: str) -> None:
    system_id, calc_id = calculator.split("/")
    answer = calc_json(str(REPO), calculator)
    program = next(p for p in compile_project(Project(REPO)).programs if p.system.id == system_id)
    expected = program.calculate(calc_id, {p.name: default_of(p) for p in program.calculators[calc_id].inputs})
    assert {"num", "dist"} <= set(answer["types"].values())
    for name, value in answer["outputs"].items():
        shown = _exact(value)
        assert shown == (dict(expected[name].items()) if answer["types"][name] == "dist" else expected[name])
        if answer["types"][name] == "dist":
            assert sum(shown.values()) == 1


def test_bundled_formula_json_reads_back_exactly() -> None:
    answer = calc_json(str(REPO), "action-dice.parry_left_roll", "attack_dice=3", "parry_dice=2")
    assert answer["type"] == "dist" and answer["inputs"] == {"attack_dice": 3, "parry_dice": 2}
    odds = _exact(answer["result"])
    assert sum(odds.values()) == 1 and all(p > 0 for p in odds.values())


POOL = "pool_x takes a dice pool such as 1d10+1d4 (0 or - for no dice)"


@pytest.mark.parametrize(("argv", "message"), [
    (("zz-9/six-odds", "pool_x="), f"zz-9/six-odds: {POOL}; got ''"),
    (("zz-9/six-odds", "pool_x=   "), f"zz-9/six-odds: {POOL}; got ''"),
    (("zz-9.grow", "pool_x=2x6"), f"zz-9.grow: {POOL}; got '2x6'"),
    (("zz-9/six-odds", "n_1=8"), "zz-9/six-odds: n_1 takes a whole number from -7 to 7; got '8'"),
    (("zz-9.halve", "n_1=-8"), "zz-9.halve: n_1 takes a whole number from -7 to 7; got '-8'"),
    (("zz-9.halve", "n_1=1.5"), "zz-9.halve: n_1 takes a whole number from -7 to 7; got '1.5'"),
    (("zz-9.halve", "n_1=\u0663"), "zz-9.halve: n_1 takes a whole number from -7 to 7; got '\u0663'"),
    (("zz-9/six-odds", "careful=maybe"), "zz-9/six-odds: careful takes true or false (also yes/no, 1/0); got 'maybe'"),
    (("zz-9.is_low", "pick=0"), "zz-9.is_low: pick takes one of -1 (Low), 9 (High); got '0'"),
    (("zz-9/picks", "chosen=quick,quik"), "zz-9/picks: chosen takes a comma-separated list of the system's upgrade "
                                          "ids (empty for none); got unknown upgrade 'quik'; did you mean 'quick'?"),
])
def test_inputs_outside_their_type_range_or_choices_are_usage_errors(rulebook: str, argv: tuple[str, ...],
                                                                     message: str) -> None:
    for extra in ((), ("--json",)):
        assert run_rulesc("--root", rulebook, "calc", *argv, *extra) == (2, "", f"rulesc: error: {message}\n")


def test_a_whole_number_without_bounds_stops_where_exactness_does(rulebook: str) -> None:
    top = 2**53 - 1  # the largest whole number JavaScript's calculators keep exact
    assert calc_json(rulebook, "zz-9.triple", f"big={-(top // 3)}")["result"] == -(top // 3) * 3
    assert run_rulesc("--root", rulebook, "calc", "zz-9.triple", f"big={top + 1}") == (
        2, "", f"rulesc: error: zz-9.triple: big takes a whole number from {-top} to {top}; got '{top + 1}'\n")


def test_a_formulas_answer_is_charted_or_bounded_in_the_terminal() -> None:
    """A distribution is charted as `rulesc dice` charts it; a fraction of 600 digits is shown by its size."""
    hoard = str(REPO / "tests/cases/good/large-pools")
    status, out, err = run_rulesc("--root", hoard, "calc", "hoard.best_three", "n=3")
    lines = out.splitlines()
    assert (status, err, len(lines)) == (0, "", 2 + 298)
    assert lines[:3] == ["hoard.best_three(n=3): average 151.5000, standard deviation 49.9975",
                         "       exactly   at least", "  3    0.0001%  100.0000%  \u2588"]
    assert lines[-1] == "300    0.0001%    0.0001%  \u2588"
    assert run_rulesc("--root", hoard, "calc", "hoard.hundreds_at_least", "n=300") == (
        0, "~0.618243 (n/d of 600 and 600 digits)\n", "")
    assert run_rulesc("--root", hoard, "calc", "hoard.average_hoard", "n=3") == (0, "303/2 (~151.5)\n", "")
    status, out, _ = run_rulesc("--root", hoard, "calc", "hoard.hundreds_at_least", "n=300", "--json")
    assert len(json.loads(out)["result"]["exact"]) == 600 + 1 + 600  # --json keeps it exact
