"""Table rolls as notation (rulesc/table_rolls.py): the outcomes a roll gives, the book's zeros, runs of
outcomes and the chance a key cell shows; and a roll table as the site shows it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from rulesc.formula.table_rolls import book_key, percent, read_roll, runs
from rulesc.runtime.rulesc_runtime import RulesError
from tests.backends import Built, built_case

CASES = Path(__file__).resolve().parent / "cases"


def test_rolls_give_their_outcomes_with_their_weights() -> None:
    assert read_roll("2d6") == ((2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6), (8, 5), (9, 4), (10, 3), (11, 2),
                                (12, 1))
    assert read_roll("1d20+2")[0] == (3, 1) and read_roll("1d20+2")[-1] == (22, 1)
    assert read_roll("d10-1") == tuple((n, 1) for n in range(0, 10))
    assert read_roll("1d100") == read_roll("d100") == tuple((n, 1) for n in range(1, 101))


def test_d66_and_d666_read_their_dice_as_digits() -> None:
    d66 = read_roll("d66")
    assert len(d66) == 36 and d66[:7] == tuple((n, 1) for n in (11, 12, 13, 14, 15, 16, 21)) and d66[-1] == (66, 1)
    d666 = read_roll("d666")
    assert len(d666) == 216 and d666[0] == (111, 1) and d666[6] == (121, 1) and d666[-1] == (666, 1)
    assert len(read_roll("d44")) == 16 and read_roll("1d66")[-1] == (66, 1)  # with a count: 66 sides


@pytest.mark.parametrize(("written", "message"), [
    ("2d6x2", "'2d6x2' is not a roll of dice"),
    ("d", "'d' is not a roll of dice"),
    ("0d6", "'0d6' needs 1 to 100 dice of at least one side"),
    ("101d6", "'101d6' needs 1 to 100 dice of at least one side"),
    ("1d0", "'1d0' needs 1 to 100 dice of at least one side"),
    ("1d20000", "'1d20000' has 20000 outcomes; a table has at most 10000"),
    ("1d1000000", "'1d1000000' has 1000000 outcomes; a table has at most 10000"),  # refused before it is rolled
    ("1d6+9007199254740991", "'1d6+9007199254740991' adds more than 4503599627370495"),
])
def test_what_is_not_a_table_roll(written: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        read_roll(written)
    assert str(caught.value) == message


def test_zeros_stand_for_the_highest_outcome_of_a_power_of_ten() -> None:
    d100, d10 = read_roll("1d100"), read_roll("d10")
    assert book_key("96-00", d100) == "96-100" and book_key("00", d100) == "100" and book_key("96 – 00", d100) == \
        "96 – 100"
    assert book_key("0", d10) == "10" and book_key("00", d10) == "00" and book_key("01-05", d100) == "01-05"
    assert book_key("0", read_roll("2d6")) == "0" and book_key(0, d100) == 0
    assert book_key("000", read_roll("1d1000")) == "1000"


def test_runs_join_outcomes_next_to_each_other_in_the_roll() -> None:
    d66 = read_roll("d66")
    assert runs([16, 21, 22, 31], d66) == "16-22, 31"  # 16 and 21 are next to each other on a d66
    assert runs([6, 7, 8, 9, 99, 100], read_roll("1d100")) == "6-9, 99-100"
    assert runs([5], d66 + ((5, 1),)) == "5"


@pytest.mark.parametrize(("chance", "shown"), [
    (Fraction(1, 20), "5%"), (Fraction(1, 36), "2.8%"), (Fraction(1, 3), "33.3%"), (Fraction(1, 2), "50%"),
    (Fraction(1, 216), "0.46%"), (Fraction(1, 100_000), "<0.01%"), (Fraction(99_999, 100_000), ">99.9%"),
    (Fraction(1), "100%"), (Fraction(1, 8), "12.5%"),
])
def test_a_key_cell_shows_the_chance_without_rounding_it_away(chance: Fraction, shown: str) -> None:
    assert percent(chance) == shown


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "roll-tables") as found:
        yield found


def test_the_page_shows_each_rows_chance_and_renders_its_cells(oracle: Built) -> None:
    root, _, _ = oracle
    page = (root / "build/docs/oracle/oracles.md").read_text()
    assert ('<div class="rulesc-roll-table" data-roll-table="oracle/reaction"><table id="table_reaction" '
            'data-table="reaction" data-roll="2d6"><caption>Roll 2d6</caption>') in page
    assert '<tr id="row_reaction_2" data-row="0"><th scope="row">2 · 2.8%</th><td>Hostile</td></tr>' in page
    assert '<th scope="row">96-00 · 5%</th><td>Roll twice more</td>' in page
    assert '<th scope="row">411-666 · 50%</th><td>Marsh</td>' in page
    assert "<td>An <em>unexpected</em> <a href=\"../glossary/#omen\"" in page
    assert "&amp; a &lt;sign&gt;</td>" in page and "<sign>" not in page
    assert 'Clash, see <a href="#reaction-table" class="rulesc-ref rulesc-ref--rule"' in page


def test_diff_reports_a_changed_roll_and_chain(tmp_path: Path) -> None:
    from rulesc.diff.fields import rule_fields
    from rulesc.pipeline import Project, compile_project

    shutil.copytree(CASES / "good/roll-tables/content", tmp_path / "content")
    old = compile_project(Project(tmp_path)).programs[0]
    chapter = tmp_path / "content/oracle/oracles.yaml"
    chapter.write_text(chapter.read_text().replace("then: {times: 2, repeats: reroll}", "then: {times: 3}").replace(
        "roll: d666", "roll: d66").replace('"111-366"', '"11-36"').replace('"411-666"', '"41-66"'))
    new = compile_project(Project(tmp_path)).programs[0]
    fields, _ = rule_fields(old, new, old.rules["action-oracle"], new.rules["action-oracle"])
    assert fields == [("table action_oracle row 96-00: then", "2 rolls on action_oracle, repeats rerolled",
                       "3 rolls on action_oracle")]
    fields, _ = rule_fields(old, new, old.rules["wilds"], new.rules["wilds"])
    assert fields[0] == ("table wilds roll", "d666", "d66")
    fields, _ = rule_fields(old, new, old.rules["gifts"], new.rules["gifts"])
    assert fields == []
