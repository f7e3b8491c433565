"""Every worked example and every calculator default gives the same answer in Python and in JavaScript."""

from __future__ import annotations

import json
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.analyze.program import Program, matches
from rulesc.model import default_of
from rulesc.pipeline import Project, compile_project
from rulesc.runtime import rulesc_runtime as R
from tests.backends import agree, encode, import_engine, node, run_js
from tests.scripts import require_scripts


@pytest.fixture(scope="module")
def programs(built: Path) -> tuple[Program, ...]:
    return compile_project(Project(built)).programs


def _example_calls(programs: tuple[Program, ...]) -> list[tuple[dict[str, Any], Any]]:
    calls = []
    for program in programs:
        for formula in program.formulas.values():
            types = {p.name: p.type for p in formula.params}
            for example in formula.examples:
                args = {k: str(v) if types[k] == "dice" else v for k, v in example.args}
                call = {"system": program.system.id, "formula": formula.id, "args": args, "types": types,
                        "order": [p.name for p in formula.params]}
                calls.append((call, example.expect))
    return calls


def _python_results(engine_dir: Path, calls: list[tuple[dict[str, Any], Any]]) -> list[Any]:
    """Each call run through the generated Python engine (each system's module imported once)."""
    engines: dict[str, Any] = {}
    results = []
    for call, _ in calls:
        if call["system"] not in engines:
            engines[call["system"]] = import_engine(engine_dir, call["system"].replace("-", "_"))
        engine = engines[call["system"]]
        args = [engine.R.parse_dice(call["args"][n]) if call["types"][n] == "dice" else call["args"][n]
                for n in call["order"]]
        results.append(getattr(engine, call["formula"])(*args))
    return results


def _meets(value: Any, expected: Any) -> bool:
    """Whether an engine's answer is the worked example's, by the rule `rulesc check` applies (program.matches);
    the engine ships its own Dice and Dist classes, so those are compared by what they hold."""
    kind = type(value).__name__
    if kind == "Dist":
        return matches(R.Dist(value.offset, value.weights, value.total), expected)
    if kind == "Dice":
        return isinstance(expected, R.Dice) and str(value) == str(expected)
    if kind == "Outcomes":  # named outcomes: no bundled formula returns them, the examples' moves do
        return matches(R.Outcomes(value.labels, value.weights, value.total), expected)
    return matches(value, expected)


def _failures(calls: list[tuple[dict[str, Any], Any]], python: list[Any],
              js: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The calls where Python disagrees with the worked example's answer or with JavaScript."""
    return [(call["formula"], call["args"], expected, py_value, js_result)
            for (call, expected), py_value, js_result in zip(calls, python, js, strict=True)
            if not (_meets(py_value, expected) and agree(encode(py_value), js_result.get("value")))]


def test_every_example_runs_the_same_in_python_and_javascript(built: Path, programs: tuple[Program, ...]) -> None:
    calls = _example_calls(programs)
    assert len(calls) >= 60  # the DBU core rules alone have 68 worked examples
    js = run_js(built / "build/docs", [c for c, _ in calls])
    assert _failures(calls, _python_results(built / "build/engine", calls), js) == []


def test_calculator_defaults_agree_in_python_and_javascript(built: Path, programs: tuple[Program, ...]) -> None:
    calls, expected = [], []
    for program in programs:
        for calc in program.calculators.values():
            inputs = {p.name: default_of(p) for p in calc.inputs}
            types = {p.name: p.type for p in calc.inputs}
            calls.append({"system": program.system.id, "calculator": calc.id, "types": types,
                          "args": {k: str(v) if types[k] == "dice" else v for k, v in inputs.items()}})
            expected.append(encode(program.calculate(calc.id, inputs)))
    assert calls
    results = [r.get("value", r) for r in run_js(built / "build/docs", calls)]
    assert len(results) == len(expected)
    assert [c["calculator"] for c, r, e in zip(calls, results, expected, strict=True) if not agree(r, e)] == []


TIER_OF_12 = {"system": "dbu", "formula": "tier_of_power", "args": {"power_level": 12},
              "types": {"power_level": "int"}, "order": ["power_level"]}


def test_a_wrong_formula_would_be_caught(built: Path) -> None:
    """The comparison the examples test uses reports a wrong engine, a wrong JavaScript or a wrong expectation."""
    calls = [(TIER_OF_12, 3)]
    python, js = _python_results(built / "build/engine", calls), run_js(built / "build/docs", [TIER_OF_12])
    assert (python, js) == ([3], [{"value": 3}])
    half = {"exact": "1/2"}
    assert _failures(calls, python, js) == []
    assert _failures(calls, [4], js) != []  # the Python engine is wrong
    assert _failures(calls, python, [{"value": 4}]) != []  # the JavaScript is wrong
    assert _failures(calls, python, [{"error": "RulesError: no"}]) != []  # the JavaScript failed
    assert _failures([(TIER_OF_12, 4)], python, js) != []  # both agree, but not with the worked example
    assert _failures([(TIER_OF_12, 1)], [True], [{"value": True}]) != []  # a flag is not the number 1
    assert _failures([(TIER_OF_12, 0.5)], [Fraction(1, 2)], [{"value": half}]) == []
    assert _failures([(TIER_OF_12, 0.5)], [Fraction(1, 2)], [{"value": {"float": 0.5}}]) != []  # a float is not 1/2
    assert _failures([(TIER_OF_12, 0.5)], [Fraction(1, 2)], [{"value": {"exact": "2/4"}}]) != []  # not in lowest terms


def test_runtime_errors_surface_as_rules_errors_in_javascript(built: Path) -> None:
    js = run_js(built / "build/docs", [{"system": "dbu", "formula": "tier_of_power", "args": {"power_level": 31},
                                        "types": {"power_level": "int"}, "order": ["power_level"]}])
    assert js == [{"error": "RulesError: 31 is not in the table"}]


def test_upgrade_sets_are_judged_the_same_in_python_and_javascript(built: Path) -> None:
    annulus = import_engine(built / "build/engine", "annulus")
    sets = [["blast-trigger", "spray-trigger", "stealth", "flashy"], ["stealth"] + ["improved-stealth"] * 5,
            ["burn-trigger-max", "burn-trigger-up"], list(annulus.UPGRADES)[:40]]
    script = (require_scripts(built / "build/docs") +
              f"console.log(JSON.stringify({json.dumps(sets)}.map(RulesSystems.annulus.formulas.check_upgrades)))")
    done = subprocess.run([node(), "-e", script], cwd=built / "build/docs", capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [annulus.check_upgrades(s) for s in sets]
    seedless = "the set needs Agility Damage, Toughness Damage or Insight Damage"
    assert json.loads(done.stdout)[0] == ["Blast cannot be taken with Spray", "Flashy cannot be taken with Stealth",
                                          seedless]
    with_seed = json.loads(subprocess.run(
        [node(), "-e", script.replace(json.dumps(sets), json.dumps([["insight-damage", "stealth"], []]))],
        cwd=built / "build/docs", capture_output=True, text=True, check=True).stdout)
    assert with_seed == [[], []] == [annulus.check_upgrades(["insight-damage", "stealth"]), annulus.check_upgrades([])]
