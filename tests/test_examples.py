"""The ports under examples/: each checks with --strict, builds, and runs its worked examples and calculator defaults
the same in Python and JavaScript; the D&D SRD port's stat blocks and attacks hold the SRD's numbers (the Ironsworn
port's rolls and oracles: test_example_ironsworn.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulesc.analyze.program import Program
from rulesc.pipeline import Project, build_project, compile_project
from tests.backends import agree, encode, run_js
from tests.conftest import REPO, copy_example
from tests.run_case import run_rulesc
from tests.test_backends import _example_calls, _failures, _python_results

EXAMPLES = REPO / "examples"
SUMMARIES = {
    "dnd-srd": "rulesc: ok: 1 system(s), 48 rules, 4 formulas, 14 examples passed, 17 calculators\n",
    "dungeon-world": "rulesc: ok: 1 system(s), 14 rules, 5 formulas, 15 examples passed, 3 calculators\n",
    "ironsworn": "rulesc: ok: 1 system(s), 26 rules, 4 formulas, 8 examples passed, 2 calculators\n",
}


@pytest.fixture(scope="module", params=sorted(SUMMARIES))
def example(request: pytest.FixtureRequest, built_example: Callable[[str], Path]) -> tuple[str, Path]:
    """Each example built whole (site, engine, export), once a run for every file that reads it."""
    return request.param, built_example(request.param)


def test_every_example_is_listed() -> None:
    assert sorted(p.name for p in EXAMPLES.iterdir() if (p / "content").is_dir()) == sorted(SUMMARIES)


@pytest.mark.parametrize("name", sorted(SUMMARIES))
def test_each_example_checks_strict(name: str) -> None:
    assert run_rulesc("--root", str(EXAMPLES / name), "check", "--strict") == (0, SUMMARIES[name], "")


def test_each_example_builds_its_site_and_an_export_that_fits_its_schema(example: tuple[str, Path]) -> None:
    _, root = example
    assert (root / "site/index.html").is_file() and (root / "build/engine").is_dir()
    program = compile_project(Project(root)).programs[0]
    export = json.loads((root / f"build/export/{program.system.id}.json").read_text(encoding="utf-8"))
    schema = json.loads((root / "build/export/rulesc-export.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(export)


def test_each_examples_worked_examples_run_the_same_in_python_and_javascript(example: tuple[str, Path]) -> None:
    _, root = example
    programs = compile_project(Project(root)).programs
    calls = _example_calls(programs)
    assert calls
    js = run_js(root / "build/docs", [c for c, _ in calls])
    assert _failures(calls, _python_results(root / "build/engine", calls), js) == []


def test_each_examples_calculators_agree_in_python_and_javascript(example: tuple[str, Path]) -> None:
    _, root = example
    program = compile_project(Project(root)).programs[0]
    calls = [{"system": program.system.id, "calculator": calc.id, "types": {p.name: p.type for p in calc.inputs},
              "args": {p.name: p.default for p in calc.inputs}} for calc in program.calculators.values()]
    expected = [encode(program.calculate(c["calculator"], c["args"])) for c in calls]
    results = [r.get("value", r) for r in run_js(root / "build/docs", calls)]
    assert [c["calculator"] for c, r, e in zip(calls, results, expected, strict=True) if not agree(r, e)] == []


def _srd() -> Program:
    return compile_project(Project(EXAMPLES / "dnd-srd")).programs[0]


def test_the_srd_slice_has_what_the_issue_asks_for() -> None:
    rules = list(_srd().rules.values())
    kinds = {kind: [r.id for r in rules if r.kind == kind] for kind in ("condition", "spell", "monster", "table")}
    assert [len(kinds[k]) for k in ("condition", "spell", "monster", "table")] == [15, 20, 10, 1]
    weapons = _srd().rules["weapons"].table
    assert weapons is not None and len(weapons.rows) == 37


def test_a_monsters_attacks_hit_and_hurt_by_the_srds_attack_roll() -> None:
    program = _srd()
    assert program.calculate("goblin-scimitar", {"ac": 15}) == {"hit": Fraction(1, 2), "damage": Fraction(117, 40)}
    assert program.calculate("minotaur-greataxe", {"ac": 30}) == {"hit": Fraction(1, 20), "damage": Fraction(3, 2)}
    assert program.calculate("owlbear-claws", {"ac": 1}) == {"hit": Fraction(19, 20), "damage": Fraction(55, 4)}


def test_a_spells_damage_by_slot_level_and_a_monsters_attacks_are_exported(tmp_path: Path) -> None:
    root = copy_example("dnd-srd", tmp_path)
    build_project(Project(root), site=False)
    export = json.loads((root / "build/export/srd.json").read_text(encoding="utf-8"))
    rules = {rule["id"]: rule for chapter in export["chapters"] for rule in chapter["rules"]}
    assert rules["fireball"]["facts"]["damage_by_slot"] == [{"level": n, "dice": f"{n + 5}d6"} for n in range(3, 10)]
    assert rules["goblin"]["facts"]["actions"][0] == {"name": "Scimitar", "to_hit": 4, "damage": "1d6+2",
                                                      "type": "slashing", "note": None,
                                                      "calculator": "goblin-scimitar"}


def _dw() -> Program:
    return compile_project(Project(EXAMPLES / "dungeon-world")).programs[0]


def test_every_basic_move_has_a_trigger_and_the_three_outcomes_of_its_roll() -> None:
    program = _dw()
    moves = [r for r in program.rules.values() if r.kind == "move" and r.parent is None]
    assert [m.id for m in moves] == ["hack-and-slash", "volley", "defy-danger", "defend", "spout-lore",
                                     "discern-realities", "parley", "aid-or-interfere"]
    assert all(m.trigger is not None and m.roll is not None and m.roll.formula == "move_roll" for m in moves)
    assert {tuple(o.name for o in m.outcomes) for m in moves} == {("strong hit", "weak hit", "miss")}
    assert dict(program.call("move_roll", [2]).items()) == {"strong hit": Fraction(5, 12), "weak hit": Fraction(5, 12),
                                                            "miss": Fraction(1, 6)}


def test_the_fighters_stat_block_names_its_moves_and_feeds_its_formulas() -> None:
    program = _dw()
    fighter = program.rules["fighter"]
    facts = {fact.kind.id: fact for fact in fighter.facts}
    assert facts["damage_die"].words == "1d10"
    assert dict(facts["stats"].scores) == {"STR": 16, "DEX": 13, "CON": 15, "INT": 8, "WIS": 12, "CHA": 9}
    assert facts["starting_moves"].ids == ("bend-bars-lift-gates", "armored", "signature-weapon")
    assert program.calculate("fighter-numbers", {"constitution": 15, "strength": 16}) == {"hp": 25, "load": 14}
