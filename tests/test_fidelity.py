"""Fixes from a line-by-line audit of the bundled content against its sources, each tied to the source line it
follows (provenance lines)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesc.analyze.program import Program
from rulesc.model import ANY_TIMES
from rulesc.pipeline import Project, compile_project

REPO = Path(__file__).resolve().parent.parent
# Annulus upgrades its source says "can be taken multiple times", with the line of the source that says so.
MANY_TIMES = {"blowback": "30", "giant": "92", "precise": "119", "range": "127", "point-blank": "130",
              "slayer": "149", "blast-radius-up": "182", "brutal": "218", "push-further": "334",
              "spray-radius-up": "369"}

# Annulus sub-upgrades whose row in the source's Requirement column shows none ("-"), with that row's line: the
# requirement each keeps is marked as assumed (a note about its requires fact); two that work alone keep none.
UNSTATED_REQUIREMENTS = {
    "riposte": "49", "vengeful": "51", "crossfire": "52", "versatile-counter": "53", "flashy-versatile": "79",
    "point-blank": "130", "chestburster": "145, 231", "improved-stealth": "156", "berserk-trigger-up": "171",
    "blast-radius-up": "182", "blast-intense-core": "183", "blast-piercing": "184", "delayed-blast": "185",
    "blind-trigger-up": "192", "burn-trigger-up": "200", "choke-trigger-up": "208", "critical-trigger-up": "216",
    "brutal": "218", "daze-trigger-up": "225", "devour-trigger-up": "235", "flush": "237", "insatiable": "238",
    "metabolize": "239", "disarm-trigger-up": "246", "disrupt-trigger-up": "254", "escalator-trigger-up": "262",
    "fatigue-trigger-up": "270", "grab-trigger-up": "280", "hobble-trigger-up": "288",
    "immobilize-trigger-up": "296", "knockdown-trigger-up": "304", "pacify-trigger-up": "312",
    "petrify-trigger-up": "320", "softened": "322", "push-trigger-up": "332", "push-further": "334",
    "sap-trigger-up": "342", "setup-trigger-up": "350", "silence-trigger-up": "358", "spray-radius-up": "369",
    "spray-intense-core": "370", "spray-piercing": "371", "delayed-spray": "372", "terrorize-trigger-up": "379",
    "vampiric-trigger-up": "387", "weakness-trigger-up": "395",
}
WORK_ALONE = {"improved-blindfight": "21", "cleave": "111"}


@pytest.fixture(scope="module")
def programs() -> dict[str, Program]:
    return {p.system.id: p for p in compile_project(Project(REPO)).programs}


def test_upgrades_the_source_lets_you_take_again_and_again_have_no_cap(programs: dict[str, Program]) -> None:
    annulus = programs["annulus"]
    for rule_id, line in MANY_TIMES.items():
        assert annulus.upgrades[rule_id].max_times == ANY_TIMES, rule_id
        assert annulus.rules[rule_id].provenance.lines == line, rule_id
    assert annulus.upgrades["improved-stealth"].max_times == 3  # a capped upgrade keeps its cap


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
    from rulesc.emit.site.markup import Markup, Section

    dbu = programs["dbu"]
    html = Markup(dbu).block(dbu.rules[rule].text, Section("maneuvers/", rule))
    assert "Area of Effect" in html and "Area of <a" not in html


def test_every_annulus_requirement_the_source_does_not_state_is_marked_as_assumed(
        programs: dict[str, Program]) -> None:
    annulus = programs["annulus"]
    marked = {rule.id: gap.lines for rule in annulus.rules.values() for gap in rule.provenance.unstated
              if gap.fact == "requires"}
    assert marked == UNSTATED_REQUIREMENTS
    for rule_id in UNSTATED_REQUIREMENTS:
        rule = annulus.rules[rule_id]
        assert rule.upgrade is not None and rule.upgrade.requires == (rule.parent,), rule_id
    # every other requirement is one a row of the Requirement column names: the 24 Trigger Max rows and these
    others = {"perfect-blindfight", "preempt", "ultimate-counter", "improved-demolitions", "legendary-demolitions",
              "greatly-softened", "paralysis", "shuffleboard"}
    stated = {r.id for r in annulus.rules.values() if r.upgrade and r.upgrade.requires} - set(marked)
    assert stated - others == {r.id for r in annulus.rules.values() if r.name.endswith(" Trigger Max")}
    assert len(stated - others) == 24 and others <= stated


def test_the_sub_upgrades_that_work_alone_require_nothing(programs: dict[str, Program]) -> None:
    annulus = programs["annulus"]
    for rule_id, line in WORK_ALONE.items():
        rule = annulus.rules[rule_id]
        assert rule.upgrade is None or rule.upgrade.requires == (), rule_id
        (gap,) = rule.provenance.unstated
        assert gap.fact is None and gap.lines == line and "works alone" in gap.reasoning
    section = annulus.rules["general-upgrades"].text.source
    assert "is only available to a set that has that upgrade" not in section and "assumed" in section


@pytest.mark.parametrize(("chosen", "problems"), [
    (["agility-damage", "cleave"], []),
    (["agility-damage", "improved-blindfight"], []),
    (["agility-damage", "improved-blindfight", "perfect-blindfight"], []),
    (["agility-damage", "perfect-blindfight"], ["Perfect Blindfight requires Improved Blindfight"]),
    (["agility-damage", "riposte"], ["Riposte requires Counter"]),
    (["agility-damage", "brutal", "push-further"], ["Brutal requires Critical", "Push Further requires Push"]),
])
def test_the_attack_set_builder_follows_the_requirements(programs: dict[str, Program], chosen: list[str],
                                                         problems: list[str]) -> None:
    assert programs["annulus"].calculate("attack-set-builder", {"chosen": chosen})["problems"] == problems


def test_the_export_and_the_pages_carry_the_source_lines(built: Path) -> None:
    root = built  # the bundled project built once a run (conftest), read only
    annulus = json.loads((root / "build/export/annulus.json").read_text())
    rules = {r["id"]: r for c in annulus["chapters"] for r in c["rules"]}
    assert rules["brutal"]["provenance"]["lines"] == "218" and rules["brutal"]["facts"]["times"] == "any"
    page = (root / "build/docs/annulus/attacks/general-upgrades.md").read_text()  # the part with Blowback
    assert "section \u201cBlowback\u201d, line 30." in page
    dbu = json.loads((root / "build/export/dbu.json").read_text())
    might = next(t for t in dbu["terms"] if t["id"] == "might")
    assert might["provenance"]["source"] == "maneuvers" and might["provenance"]["lines"] == "58, 72-73"
    assert "section \u201cGrapple Maneuver\u201d, line 78." in (root / "build/docs/dbu/glossary.md").read_text()
