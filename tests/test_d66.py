"""d66 without a trap: in content format 2 a multiplied roll is multiplied, repeat() repeats dice and d66 is tens
and units; format 1 keeps its meaning. Each answer is the same in the interpreter, the engine and the JavaScript."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.analyze.program import Program
from rulesc.emit.site.dice_page import emit_dice_page
from rulesc.formula.expression import roll_expression
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime.rulesc_runtime import RulesError, parse_dice
from tests.backends import Built, built_case, encode, run_js
from tests.browser import Visit, serve_site
from tests.conftest import REPO
from tests.run_case import run_rulesc
from tests.test_exact_runtimes import three_ways

CASES = Path(__file__).resolve().parent / "cases" / "good"
D66 = [10 * tens + units for tens, units in product(range(1, 7), repeat=2)]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "d66-format-2") as found:
        yield found


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "format-1-pool-repetition") as found:
        yield found


def _dist(found: Any) -> dict[int, Fraction]:
    return {outcome: Fraction(chance) for outcome, chance in found["value"]["dist"]}


def test_d66_is_36_outcomes_at_1_in_36_in_every_runtime(tables: tuple[Path, Program, ModuleType]) -> None:
    d66, tens_then_units = three_ways(tables, [("d66_roll", {}), ("tens_then_units", {})])
    assert _dist(d66) == _dist(tens_then_units) == {outcome: Fraction(1, 36) for outcome in D66}
    assert len(D66) == 36 and min(D66) == 11 and max(D66) == 66


def test_d666_a_die_of_66_sides_and_a_table_read_by_d66(tables: tuple[Path, Program, ModuleType]) -> None:
    mean, sides, sky = three_ways(tables, [("d666_mean", {}), ("many_sides", {}), ("sky", {})])
    assert (mean, sides) == ({"value": {"exact": "777/2"}}, {"value": {"exact": "1/66"}})
    assert sky == {"value": {"outcomes": [["clear", "1/2"], ["rain", "1/3"], ["storm", "1/6"]]}}


def test_repeat_repeats_and_a_doubled_roll_is_doubled(tables: tuple[Path, Program, ModuleType]) -> None:
    d6, d8 = parse_dice("1d6"), parse_dice("1d8+1")
    found = three_ways(tables, [("tiered", {"dice": d8, "tier": 2}), ("tiered", {"dice": d6, "tier": 0}),
                                ("doubled_roll", {"dice": d6}), ("doubled_roll", {"dice": parse_dice("2d6")})])
    assert found[:3] == [{"value": {"dice": "2d8+2"}}, {"value": {"dice": "0"}}, {"value": {"exact": "0"}}]
    assert found[3] == {"value": {"exact": "0"}}  # a doubled roll is even: 1d6 * 2 repeated (2d6) is 3 in 1/18


def test_format_1_keeps_repeating_a_multiplied_pool(old: tuple[Path, Program, ModuleType]) -> None:
    eleven, sides, tiered = three_ways(old, [("tens_then_units", {}), ("sixty_six_sides", {}),
                                              ("tiered", {"dice": parse_dice("1d6"), "tier": 3})])
    assert eleven == {"value": {"exact": "1/362797056"}}  # 11d6 rolling all ones: (1/6)**11
    assert sides == {"value": {"exact": "1/66"}}
    assert tiered == {"value": {"dice": "3d6"}}


def test_rulesc_dice_reads_the_newest_format() -> None:
    assert roll_expression("1d6 * 10 + 1d6").items() == roll_expression("d66").items()
    assert sorted(dict(roll_expression("d66").items())) == D66
    assert len(dict(roll_expression("1d(66)").items())) == 66


def test_the_dice_page_says_the_rule_with_a_d66_example() -> None:
    page = next(iter(emit_dice_page().values()))
    assert "| `d66` | tens and units: one d6 read as tens and one as units, 11 to 66, each of its 36 results 1 in 36 " \
           "(the same roll as 1d6 * 10 + 1d6) | `d66` | 11 to 66 | 38.5000 (77/2) |\n" in page
    assert "| `repeat(pool, N)` | the pool's dice N times over, its constant too (a power's 1d6+1 at tier 3) | " \
           "`repeat(1d6+1, 3)` | 6 to 21 | 13.5000 (27/2) |\n" in page
    assert "## Multiplying a roll, repeating dice\n\nMultiplying a roll multiplies its result" in page
    assert "`rulesc migrate` rewrites them to `repeat()`, `d66` to `1d(66)`" in page


def test_dice_typed_as_text_read_d66_as_the_formula_language_does(tables: tuple[Path, Program, ModuleType]) -> None:
    d66, sides, two = parse_dice("d66"), parse_dice("1d( 66 )"), parse_dice("2d666-1")
    assert (str(d66), str(sides), str(two)) == ("1d66", "1d(66)", "2d666-1")
    found = three_ways(tables, [("pool_mean", {"dice": d66}), ("pool_mean", {"dice": sides}),
                                ("pool_mean", {"dice": two}), ("tiered", {"dice": d66, "tier": 2}),
                                ("tiered", {"dice": sides, "tier": 2})])
    assert found == [{"value": {"exact": "77/2"}}, {"value": {"exact": "67/2"}}, {"value": {"exact": "776"}},
                     {"value": {"dice": "2d66"}}, {"value": {"dice": "2d(66)"}}]
    assert parse_dice(str(parse_dice("3d66+1d(66)!+d6"))) == parse_dice("1d6+1d(66)!+3d66")


def test_a_d66_that_explodes_is_refused_naming_the_die_of_66_sides() -> None:
    with pytest.raises(RulesError, match=r"^d66 is a roll read as tens and units, which cannot explode or be "
                                         r"rerolled: write 1d\(66\)! for a die of 66 sides$"):
        parse_dice("1d66!")
    assert run_rulesc("--root", str(CASES / "d66-format-2"), "calc", "tables/tiered-dice", "dice=d666r1") == (
        2, "", "rulesc: error: tables/tiered-dice: dice takes a dice pool such as 1d10+1d4 (0 or - for no dice); "
        "got 'd666r1' (d666 is a roll read as tens and units, which cannot explode or be rerolled: write 1d(666)r1 "
        "for a die of 666 sides)\n")


def test_rulesc_calc_reads_a_typed_d66_as_tens_and_units() -> None:
    status, out, _ = run_rulesc("--root", str(CASES / "d66-format-2"), "calc", "tables.pool_mean", "dice=d66",
                                "--json")
    assert status == 0 and json.loads(out)["result"] == {"exact": "77/2", "float": 38.5}


@pytest.fixture(scope="module")
def d66_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("d66-site") / "project"
    for folder in ("schema", "site_overrides"):
        shutil.copytree(REPO / folder, root / folder)
    shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(CASES / "d66-format-2" / "content", root / "content")
    build_project(Project(root))
    with serve_site(root / "site") as url:
        yield url


def test_a_calculator_s_dice_box_reads_d66_as_tens_and_units(d66_site: str, browser: Any) -> None:
    key = "tables/tiered-dice"
    with Visit(browser, f"{d66_site}tables/rolls/?tiered-dice.tier=1") as visit:
        visit.wait_until_calculators_are_ready(key)
        box = visit.page.locator(f'[data-calculator="{key}"]')
        pool = box.locator('output[name="pool"]')
        assert box.locator('[name="dice"]').input_value() == "1d66"  # the default, written as it reads back
        assert pool.inner_text() == "1d66"
        box.locator('[name="dice"]').fill("d(66)")
        visit.page.wait_for_function("el => el.textContent === '1d(66)'", arg=pool.element_handle())
        box.locator('[name="dice"]').fill("d66!")
        visit.page.wait_for_function("box => box.dataset.state === 'invalid'", arg=box.element_handle())
        assert box.locator("#calc-tables-tiered-dice-dice-msg").inner_text() == (
            "D66 is a roll read as tens and units, which cannot explode or be rerolled: write 1d(66)! for a die of "
            "66 sides.")
        assert visit.errors == []


def _stat_block_case(root: Path, version: int) -> Path:
    """The d66-facts-format-1 case under root, in content format `version` (2: the same text with format: 2)."""
    shutil.copytree(CASES / "d66-facts-format-1" / "content", root / "content")
    if version == 2:
        system = root / "content/mini/system.yaml"
        system.write_text(system.read_text(encoding="utf-8").replace("sources:", "format: 2\nsources:"), "utf-8")
    return root


@pytest.mark.parametrize(("version", "sides", "damage"), [(1, "(66)", "69/4"), (2, "66", "79/4")])
def test_stat_blocks_read_d66_as_their_format_does(tmp_path: Path, version: int, sides: str, damage: str) -> None:
    """Format 1's d66 is a die of 66 sides (mean 67/2), format 2's tens and units (mean 77/2): in a dice fact, an
    attack's damage (its calculator, in the interpreter and the JavaScript) and dice by level alike."""
    root = _stat_block_case(tmp_path, version)
    build_project(Project(root), site=False)
    program = compile_project(Project(root)).programs[0]
    facts = {fact.kind.id: fact for fact in program.rules["ogre"].facts}
    assert facts["hit_dice"].words == f"1d{sides}"
    assert [a.damage for a in facts["attacks"].attacks] == [f"d{sides}+1"]
    assert facts["by_level"].levels == ((1, f"d{sides}"), (2, f"2d{sides}"))
    expected = {"hit": {"exact": "1/2"}, "damage": {"exact": damage}}
    assert encode(program.calculate("ogre-club", {"defence": 11})) == expected
    call = {"system": "mini", "calculator": "ogre-club", "types": {"defence": "int"}, "args": {"defence": 11}}
    assert run_js(root / "build/docs", [call]) == [{"value": expected}]
    exported = json.loads((root / "build/export/mini.json").read_text(encoding="utf-8"))
    assert exported["chapters"][0]["rules"][1]["facts"] == {
        "hit_dice": f"1d{sides}",
        "attacks": [{"name": "Club", "to_hit": 0, "damage": f"d{sides}+1", "type": None, "note": None,
                     "calculator": "ogre-club"}],
        "by_level": [{"level": 1, "dice": f"d{sides}"}, {"level": 2, "dice": f"2d{sides}"}]}


def test_migrate_writes_a_stat_block_s_d66_as_a_die_of_66_sides(tmp_path: Path) -> None:
    root = _stat_block_case(tmp_path, 1)
    assert run_rulesc("--root", str(root), "migrate")[:2] == (0, "rulesc: migrated mini to format 2: 2 file(s) "
                                                                 "changed\n")
    rules = (root / "content/mini/rules.yaml").read_text(encoding="utf-8")
    assert "      hit_dice: d(66)\n      attacks:\n        - {name: Club, to_hit: 0, damage: d(66)+1}\n" \
           "      by_level: {1: d(66), 2: 2d(66)}\n" in rules
    assert run_rulesc("--root", str(root), "check") == (0, "rulesc: ok: 1 system(s), 2 rules, 2 formulas, "
                                                           "2 examples passed, 1 calculators\n", "")
    program = compile_project(Project(root)).programs[0]
    assert encode(program.calculate("ogre-club", {"defence": 11})) == {"hit": {"exact": "1/2"},
                                                                        "damage": {"exact": "69/4"}}


def test_an_attack_s_damage_written_d_66_in_brackets_is_a_die_of_66_sides(tmp_path: Path) -> None:
    """Dice text spells a die of 66 sides d(66), which the formula language does not: the attack's calculator
    writes the pool as the formula language spells it (1d(66)), not as the stat block does."""
    root = _stat_block_case(tmp_path, 2)
    rules = root / "content/mini/rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("damage: d66+1", "damage: d(66)+1"), "utf-8")
    program = compile_project(Project(root)).programs[0]
    assert program.calculators["ogre-club"].outputs[1].expr.source == "harm((0), (1d(66)+1), defence)"
    assert encode(program.calculate("ogre-club", {"defence": 11}))["damage"] == {"exact": "69/4"}
