"""Fixes from a line-by-line audit of the bundled content against its sources, each tied to the source line it
follows (provenance lines)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.analyze.program import Program
from generator.model import ANY_TIMES
from generator.pipeline import Project, compile_project

REPO = Path(__file__).resolve().parent.parent
# Annulus upgrades its source says "can be taken multiple times", with the line of the source that says so.
MANY_TIMES = {"blowback": "30", "giant": "92", "precise": "119", "range": "127", "point-blank": "130",
              "slayer": "149", "blast-radius-up": "182", "brutal": "218", "push-further": "334",
              "spray-radius-up": "369"}


@pytest.fixture(scope="module")
def programs() -> dict[str, Program]:
    return {p.system.id: p for p in compile_project(Project(REPO)).programs}


def test_upgrades_the_source_lets_you_take_again_and_again_have_no_cap(programs: dict[str, Program]) -> None:
    annulus = programs["annulus"]
    for rule_id, line in MANY_TIMES.items():
        assert annulus.upgrades()[rule_id].max_times == ANY_TIMES, rule_id
        assert annulus.rules[rule_id].provenance.lines == line, rule_id
    assert annulus.upgrades()["improved-stealth"].max_times == 3  # a capped upgrade keeps its cap


def test_the_attack_set_builder_accepts_a_second_pick_of_a_repeatable_upgrade(programs: dict[str, Program]) -> None:
    annulus = programs["annulus"]
    chosen = ["agility-damage", "blowback", "blowback", "giant", "giant", "giant", "improved-stealth"]
    problems = annulus.calculate("attack-set-builder", {"chosen": chosen})["problems"]
    assert problems == ["Improved Stealth requires Stealth"]
    twice = annulus.calculate("attack-set-builder", {"chosen": ["agility-damage", "toughness-damage"]})["problems"]
    assert twice == ["Agility Damage cannot be taken with Toughness Damage"]


def test_the_assumed_success_face_and_the_flat_damage_bonuses_are_marked(programs: dict[str, Program]) -> None:
    annulus = programs["annulus"]
    gaps = {g.what: g for rule in ("flashy", "blowback") for g in annulus.rules[rule].provenance.unstated}
    assert len(gaps) == 2 and all("defense" in what and "miss" in what for what in gaps)
    assert {g.lines for g in gaps.values()} == {"76", "30"}
    (success,) = annulus.rules["die-success"].provenance.unstated
    assert "no formula" not in success.reasoning.lower() and "Four formulas roll with it" in success.reasoning
    assert "ASSUMPTION" not in success.reasoning  # editors' notes live in YAML comments


def test_the_tier_of_power_text_does_not_claim_equal_bands(programs: dict[str, Program]) -> None:
    rule = programs["dbu"].rules["tier-of-power"]
    assert "band of five" not in rule.text.source and "not all" in rule.text.source
    assert rule.provenance.lines == "36-44"
    keys = rule.table.keys if rule.table else ()
    assert [high - low + 1 for low, high in keys] == [4, 5, 5, 5, 5, 5, 1]  # why the text may not say "five"


def test_every_dbu_term_cites_its_source_and_claims_nothing_beyond_it(programs: dict[str, Program]) -> None:
    dbu = programs["dbu"]
    sources = {s.id for s in dbu.system.sources}
    for term in dbu.system.terms:
        assert term.provenance is not None and term.provenance.source in sources, term.id
        assert term.provenance.lines, term.id
    terms = {t.id: t.definition.source for t in dbu.system.terms}
    assert "lift" not in terms["might"].lower()  # Terrain Lift compares the Force Modifier, not Might
    assert "adjacent" not in terms["melee-range"].lower() and "squares next to you" not in terms["melee-range"]
    assert "open" not in terms["guard-down"].lower()


def test_the_might_entry_names_the_maneuver_that_moves_a_feature(programs: dict[str, Program]) -> None:
    dbu = programs["dbu"]
    might = next(t for t in dbu.system.terms if t.id == "might")
    assert "Terrain Push" not in might.definition.source and "Feature Thrust" in might.definition.source
    assert dbu.rules["feature-thrust"].name == "Feature Thrust"  # the maneuver it names is a rule of the system
    assert might.provenance is not None and might.provenance.section == "Empower; Feature Thrust; Might Clash"


@pytest.mark.parametrize("rule", ["instantaneous-control", "basic-attack-maneuver", "called-shot",
                                  "absorbing-attack-maneuver"])
def test_effect_is_not_linked_inside_area_of_effect(programs: dict[str, Program], rule: str) -> None:
    from generator.emit.site.markup import Markup, Section

    dbu = programs["dbu"]
    html = Markup(dbu).block(dbu.rules[rule].text, Section("maneuvers/", rule))
    assert "Area of Effect" in html and "Area of <a" not in html


def test_the_export_and_the_pages_carry_the_source_lines(tmp_path: Path) -> None:
    from generator.build.staging import build_project
    from tests.conftest import copy_project

    root = copy_project(tmp_path / "p")
    build_project(Project(root), site=False)
    annulus = json.loads((root / "build/export/annulus.json").read_text())
    rules = {r["id"]: r for c in annulus["chapters"] for r in c["rules"]}
    assert rules["brutal"]["provenance"]["lines"] == "218" and rules["brutal"]["facts"]["times"] == "any"
    page = (root / "build/docs/annulus/attacks/general-upgrades.md").read_text()  # the part with Blowback
    assert "section \u201cBlowback\u201d, line 30." in page
    dbu = json.loads((root / "build/export/dbu.json").read_text())
    might = next(t for t in dbu["terms"] if t["id"] == "might")
    assert might["provenance"]["source"] == "maneuvers" and might["provenance"]["lines"] == "58, 72-73"
    assert "section \u201cGrapple Maneuver\u201d, line 78." in (root / "build/docs/dbu/glossary.md").read_text()
