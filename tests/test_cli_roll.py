"""`rulesc roll`: roll tables with their chains, formulas and calculators, seeded, as text and JSON."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rulesc.runtime import rulesc_runtime as R
from tests.run_case import run_rulesc

CASE = str(Path(__file__).resolve().parent / "cases/good/roll-tables")


def test_a_seeded_table_roll_prints_each_step_indented_by_its_depth() -> None:
    status, out, err = run_rulesc("--root", CASE, "roll", "oracle.action_oracle", "--seed", "23", "--times", "2")
    assert (status, err) == (0, "")
    assert out == ("96-00 (100): Roll twice more\n  06-50 (38): Clash, see Reaction\n  01-05 (3): Scheme\n\n"
                   "51-95 (76): An unexpected Omen & a <sign>\n")
    random_ = random.Random(23)
    # Python's own draws of 1d100: 11 lands on 06-50, already rolled in the group, so it is rolled again
    assert [random_.randrange(100) + 1 for _ in range(4)] == [100, 38, 11, 3]


def test_a_chain_to_another_table_names_it_and_keeps_both_rows() -> None:
    seed = next(s for s in range(100) if "gifts" in run_rulesc("--root", CASE, "roll", "oracle.reaction",
                                                               "--seed", str(s))[1])
    status, out, _ = run_rulesc("--root", CASE, "roll", "oracle.reaction", "--seed", str(seed), "--json")
    roll = json.loads(out)["rolls"][0]
    assert status == 0 and roll["key"] == "9-11" and roll["text"] == "Friendly"
    assert roll["steps"][1]["table"] == "gifts" and roll["steps"][1]["depth"] == 1
    assert roll["results"] == [step["text"] for step in roll["steps"]]  # keep: true keeps the Friendly row


def test_json_gives_the_id_inputs_and_each_rolls_value_row_and_text() -> None:
    status, out, _ = run_rulesc("--root", CASE, "roll", "oracle.wilds", "--seed", "0", "--times", "2", "--json")
    assert status == 0
    assert json.loads(out) == {"id": "oracle.wilds", "inputs": {}, "rolls": [
        {"value": value, "key": key, "text": text, "results": [text],
         "steps": [{"table": "wilds", "value": value, "key": key, "text": text, "depth": 0, "kept": True}]}
        for value, key, text in _wilds(0, 2)]}


def _wilds(seed: int, times: int) -> list[tuple[int, str, str]]:
    """What `times` rolls of wilds (d666: 111 to 666, digits 1-6, the lower half Forest) give with this seed."""
    d666 = [100 * a + 10 * b + c for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)]
    rng = random.Random(seed)
    drawn = [d666[rng.randrange(216)] for _ in range(times)]
    return [(v, "111-366", "Forest") if v <= 366 else (v, "411-666", "Marsh") for v in drawn]


def test_a_formula_rolls_its_distribution_and_a_plain_answer_repeats() -> None:
    status, out, _ = run_rulesc("--root", CASE, "roll", "oracle.fortune_roll", "--seed", "1", "--times", "5")
    expected = R.samples(_fortune(), R.seeded(1), 5)
    assert (status, out) == (0, "".join(f"{v}\n" for v in expected))
    assert expected == [0, 1, -1, 0, 0]
    status, out, _ = run_rulesc("--root", CASE, "roll", "oracle.luck_at", "roll=4", "--times", "2", "--json")
    assert (status, json.loads(out)) == (0, {"id": "oracle.luck_at", "inputs": {"roll": 4},
                                             "rolls": [{"value": -1}, {"value": -1}]})


def _fortune() -> R.Dist:
    """fortune_roll's exact roll: -1 on 3-5, 0 on 6-20, 1 on 21-22 of 1d20+2."""
    return R.map_outcomes(R.as_dist(R.parse_dice("1d20+2")), lambda r: 1 if r >= 21 else 0 if r >= 6 else -1)


def test_wrong_use_is_a_usage_error() -> None:
    for argv, message in [
        (["oracle.nope"], "unknown formula or roll table 'oracle.nope'; `rulesc list` shows them"),
        (["oracle.action_oracle", "x=1"], "oracle.action_oracle is a roll table; it takes no inputs"),
        (["oracle.reaction", "--times", "0"], "--times takes a whole number from 1 to 1000000, got 0"),
        (["oracle/x"], "unknown calculator 'oracle/x'; `rulesc list` shows them"),
        (["oracle.luck_at"], "oracle.luck_at needs roll=..."),
    ]:
        assert run_rulesc("--root", CASE, "roll", *argv) == (2, "", f"rulesc: error: {message}\n"), argv


def test_without_a_seed_rolls_still_come_from_the_table() -> None:
    status, out, _ = run_rulesc("--root", CASE, "roll", "oracle.gifts", "--times", "20", "--json")
    keys = {roll["key"] for roll in json.loads(out)["rolls"]}
    assert status == 0 and keys <= {"11-16", "21-36", "41-56", "61-66"} and keys


def test_a_calculator_rolls_each_output_in_order_from_one_generator() -> None:
    rng = R.seeded(4)
    expected = [(R.sample(_fortune(), rng), R.sample(R.parse_dice("1d20+4"), rng)) for _ in range(2)]
    status, out, _ = run_rulesc("--root", CASE, "roll", "oracle/fortune-and-reaction", "bonus=2", "--seed", "4",
                                "--times", "2", "--json")
    assert (status, json.loads(out)) == (0, {"id": "oracle/fortune-and-reaction", "inputs": {"bonus": 2}, "rolls": [
        {"outputs": {"luck": luck, "total": total}} for luck, total in expected]})
    assert expected == [(0, 14), (0, 17)]
    status, out, _ = run_rulesc("--root", CASE, "roll", "oracle/fortune-and-reaction", "--seed", "4")
    assert out == "Luck             0\nRoll plus bonus  12\n"  # bonus at its default, 0


def test_list_gives_the_ids_roll_takes() -> None:
    status, out, _ = run_rulesc("--root", CASE, "list", "--json")
    tables = json.loads(out)[0]["roll_tables"]
    assert status == 0 and tables == [
        {"id": "oracle.action_oracle", "roll": "1d100"}, {"id": "oracle.fortune", "roll": "1d20+2"},
        {"id": "oracle.gifts", "roll": "d66"}, {"id": "oracle.hoard", "roll": "1d10"},
        {"id": "oracle.reaction", "roll": "2d6"}, {"id": "oracle.wilds", "roll": "d666"}]
    assert run_rulesc("--root", CASE, "list")[1].endswith("  roll tables (6):\n    oracle.action_oracle"
                                                         + " " * 21 + "1d100\n" + "".join(
        f"    oracle.{name:<33} {roll}\n" for name, roll in [("fortune", "1d20+2"), ("gifts", "d66"),
                                                          ("hoard", "1d10"), ("reaction", "2d6"), ("wilds", "d666")]))
