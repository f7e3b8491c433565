"""The exact chance of each final result of a roll table, every roll its rows lead to followed: `rulesc calc` on a
table, the export, and (tests/test_site_rolls.py) the table's page."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

from tests.run_case import run_rulesc

CASE = Path(__file__).resolve().parent / "cases/good/roll-tables"
REACTION = """\
Uncertain                                  4/9   44.4%
Wary                                       1/4     25%
Friendly + Gifts: Rope                    1/12    8.3%
Friendly + Gifts: Bread                   1/24    4.2%
Friendly + Gifts: Rope + Gifts: A map     1/24    4.2%
Friendly + Gifts: Nothing                 1/24    4.2%
Hostile                                   1/36    2.8%
Helpful                                   1/36    2.8%
Friendly + Gifts: Bread + Gifts: A map    1/48    2.1%
Friendly + Gifts: A map + Gifts: Nothing  1/48    2.1%
"""
GIFTS = [("Bread", "1/6"), ("Bread + A map", "1/12"), ("Rope", "1/3"), ("Rope + A map", "1/6"),
         ("A map + Nothing", "1/12"), ("Nothing", "1/6")]


def test_rulesc_calc_on_a_table_lists_its_final_results_likeliest_first() -> None:
    assert run_rulesc("--root", str(CASE), "calc", "oracle.reaction") == (0, REACTION, "")
    assert sum(Fraction(line.split()[-2]) for line in REACTION.splitlines()) == 1


def test_rulesc_calc_json_gives_each_result_s_rows_words_and_exact_chance() -> None:
    status, out, _ = run_rulesc("--root", str(CASE), "calc", "oracle.gifts", "--json")
    found = json.loads(out)
    assert status == 0 and (found["id"], found["inputs"], found["type"]) == ("oracle.gifts", {}, "results")
    assert [(r["text"], r["exact"]) for r in found["result"]] == GIFTS
    assert found["result"][3] == {"rows": [{"table": "gifts", "row": 1, "key": "21-36"},
                                           {"table": "gifts", "row": 2, "key": "41-56"}],
                                  "text": "Rope + A map", "exact": "1/6", "float": 1 / 6}


def test_a_table_whose_results_have_no_bound_is_refused_with_the_reason() -> None:
    assert run_rulesc("--root", str(CASE), "calc", "oracle.hoard") == (
        2, "", "rulesc: error: no answer: the final results of oracle.hoard are not listed: with repeats allowed, a "
        "roll can go on without a bound, or it has too many results; `rulesc roll` rolls it\n")
    assert run_rulesc("--root", str(CASE), "calc", "oracle.gifts", "n=1")[2] == (
        "rulesc: error: oracle.gifts is a roll table; it takes no inputs\n")


def test_the_export_gives_the_final_results_of_each_table_that_rolls_again(tmp_path: Path) -> None:
    shutil.copytree(CASE / "content", tmp_path / "content")
    assert run_rulesc("--root", str(tmp_path), "build", "--no-site")[0] == 0
    export = json.loads((tmp_path / "build/export/oracle.json").read_text(encoding="utf-8"))
    tables = {r["table"]["name"]: r["table"] for c in export["chapters"] for r in c["rules"] if r["table"]}
    assert [(r["text"], r["exact"]) for r in tables["gifts"]["results"]] == GIFTS
    assert tables["hoard"]["results"] is None  # repeats allowed: no bound
    assert "results" not in tables["wilds"] and "results" not in tables["fortune"]  # no row rolls again
    reaction = {r["text"]: Fraction(r["exact"]) for r in tables["reaction"]["results"]}
    assert reaction["Friendly + Gifts: Bread + Gifts: A map"] == Fraction(1, 48) and sum(reaction.values()) == 1
