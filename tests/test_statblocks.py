"""Stat blocks: scores, attacks and dice by level read, shown, exported and diffed; each attack gets a calculator."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulesc.analyze.program import Program
from rulesc.diff.fields import rule_fields
from rulesc.pipeline import Project, build_project, compile_project

CASE = Path(__file__).resolve().parent / "cases" / "good" / "stat-blocks"


@pytest.fixture(scope="module")
def beasts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stat-blocks case built without the site (its Markdown pages and export)."""
    root = tmp_path_factory.mktemp("beasts")
    shutil.copytree(CASE / "content", root / "content")
    build_project(Project(root), site=False)
    return root


def _program(root: Path) -> Program:
    return compile_project(Project(root)).programs[0]


def test_scores_are_a_table_with_the_systems_modifier_and_attacks_a_list_escaped(beasts: Path) -> None:
    page = (beasts / "build/docs/beasts/beasts.md").read_text(encoding="utf-8")
    assert ('<div class="rulesc-stats__wide"><dt>Scores</dt><dd><table class="rulesc-statrow" aria-label="Scores">'
            '<thead><tr><th scope="col">Brawn</th><th scope="col">Wits</th></tr></thead><tbody><tr>'
            "<td>12 (+1)</td><td>3 (-4)</td></tr></tbody></table></dd></div>") in page
    assert ('<dt>Attacks</dt><dd><ul class="rulesc-attacks"><li>Bite: +3 to hit, 1d6+1 piercing '
            "(reach 5 ft. &lt;one target&gt;)</li></ul></dd>") in page
    assert "<li>Claws &amp; Teeth: -1 to hit, 2d4</li>" in page
    assert "<dt>Defence</dt><dd>12 (thick fur)</dd>" in page


def test_dice_by_level_are_a_two_row_table(beasts: Path) -> None:
    page = (beasts / "build/docs/beasts/beasts.md").read_text(encoding="utf-8")
    assert ('<table class="rulesc-statrow" aria-label="Damage by level"><thead><tr><th scope="row">Level</th>'
            '<th scope="col">1</th><th scope="col">2</th><th scope="col">5</th></tr></thead><tbody><tr>'
            '<th scope="row">Dice</th><td>1d6</td><td>2d6</td><td>4d6</td></tr></tbody></table>') in page


def test_each_attack_gets_a_calculator_by_the_systems_attack_formulas(beasts: Path) -> None:
    program = _program(beasts)
    bite = program.calculators["wolfling-bite"]
    assert (bite.title, [p.name for p in bite.inputs], bite.inputs[0].default) == ("Wolfling: Bite", ["defence"], 12)
    assert [o.expr.source for o in bite.outputs] == ["hits((3), defence)", "harm((3), (1d6+1), defence)"]
    assert program.calculate("wolfling-bite", {"defence": 12}) == {"hit": Fraction(3, 5), "damage": Fraction(23, 8)}
    assert program.calculate("wolfling-bite", {"defence": 30}) == {"hit": Fraction(1, 20),
                                                                    "damage": Fraction(2, 5)}
    assert program.calculate("old-bear-claws-teeth", {"defence": 1}) == {"hit": Fraction(19, 20),
                                                                          "damage": Fraction(5)}
    page = (beasts / "build/docs/beasts/beasts.md").read_text(encoding="utf-8")
    assert 'id="calc-beasts-wolfling-bite-out-hit">60.00%</output>' in page


def test_a_named_stat_is_a_value_formulas_use(beasts: Path) -> None:
    assert _program(beasts).call("bite_a_wolfling", [3]) == Fraction(3, 5)


def test_the_export_types_the_stat_block_and_fits_its_schema(beasts: Path) -> None:
    export = json.loads((beasts / "build/export/beasts.json").read_text(encoding="utf-8"))
    rules = {rule["id"]: rule for chapter in export["chapters"] for rule in chapter["rules"]}
    assert rules["wolfling"]["facts"] == {
        "defence": {"amount": 12, "scaling": None, "unit": None, "value": "wolfling_defence", "note": "thick fur",
                    "text": None},
        "scores": {"Brawn": 12, "Wits": 3},
        "attacks": [{"name": "Bite", "to_hit": 3, "damage": "1d6+1", "type": "piercing",
                     "note": "reach 5 ft. <one target>", "calculator": "wolfling-bite"}]}
    assert rules["spark"]["facts"] == {"by_level": [{"level": 1, "dice": "1d6"}, {"level": 2, "dice": "2d6"},
                                                    {"level": 5, "dice": "4d6"}]}
    schema = json.loads((beasts / "build/export/rulesc-export.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(export)


def test_diff_names_the_changed_attack_score_and_level(tmp_path: Path) -> None:
    shutil.copytree(CASE / "content", tmp_path / "content")
    before = _program(tmp_path)
    chapter = tmp_path / "content/beasts/beasts.yaml"
    text = chapter.read_text(encoding="utf-8")
    chapter.write_text(text.replace("{name: Bite, to_hit: 3,", "{name: Bite, to_hit: 4,")
                       .replace("Brawn: 12", "Brawn: 14").replace("5: 4d6", "5: 5d6"), encoding="utf-8")
    after = _program(tmp_path)
    wolf = rule_fields(before, after, before.rules["wolfling"], after.rules["wolfling"])[0]
    assert wolf == [("fact Scores", "Brawn 12, Wits 3", "Brawn 14, Wits 3"),
                    ("fact Attacks", "Bite: +3 to hit, 1d6+1 piercing (reach 5 ft. <one target>)",
                     "Bite: +4 to hit, 1d6+1 piercing (reach 5 ft. <one target>)")]
    spark = rule_fields(before, after, before.rules["spark"], after.rules["spark"])[0]
    assert spark == [("fact Damage by level", "1: 1d6, 2: 2d6, 5: 4d6", "1: 1d6, 2: 2d6, 5: 5d6")]
