"""The exact chance of each final result of a roll table, every roll its rows lead to followed: `rulesc calc` on a
table, the export, and (tests/test_site_rolls.py) the table's page."""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

from rulesc.emit.site.markup import Markup
from rulesc.emit.site.roll_tables import final_results_html
from rulesc.pipeline import Project, compile_project
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


def _final_results(root: Path, rule: str) -> str:
    program = compile_project(Project(root)).programs[0]
    return final_results_html(program, program.rules[rule], Markup.of(program), "oracle/oracles/")


def test_the_site_s_final_results_link_what_their_rows_link_as_the_table_cells_do() -> None:
    html = _final_results(CASE, "action-oracle")
    reaction = ('<a href="./#reaction-table" class="rulesc-ref rulesc-ref--rule" data-rulesc-preview="Reaction '
                '(table): Roll two dice when a stranger meets the party.">Reaction</a>')
    omen = ('An <em>unexpected</em> <a href="../glossary/#omen" class="rulesc-ref rulesc-ref--term" '
            'data-rulesc-preview="Omen: A sign the oracle gives.">Omen</a> &amp; a &lt;sign&gt;')
    assert html == (
        '<details class="rulesc-roll-results"><summary>Final results (1d100, every roll followed)</summary><ul>'
        f"<li>Clash, see {reaction} · 9/20 · 45%</li><li>{omen} · 9/20 · 45%</li><li>Scheme · 1/20 · 5%</li>"
        f"<li>Clash, see {reaction} + {omen} · 81/1900 · 4.3%</li><li>Scheme + Clash, see {reaction} · 7/1900 · "
        f"0.37%</li><li>Scheme + {omen} · 7/1900 · 0.37%</li></ul></details>")
    assert html.count(reaction) == 3 and html.count(omen) == 3  # a result names a rule wherever its row does


def test_a_final_result_s_words_stay_as_plain_text_words_them() -> None:
    html = _final_results(CASE, "reaction-table")
    items = [re.sub(r"<[^>]+>", "", item).rsplit(" · ", 2)[0] for item in re.findall(r"<li>(.*?)</li>", html)]
    assert items == [line.rsplit(None, 2)[0].strip() for line in REACTION.splitlines()]


def test_content_markup_in_a_final_result_is_escaped_and_its_links_keep_to_safe_addresses(tmp_path: Path) -> None:
    shutil.copytree(CASE / "content", tmp_path / "content")
    chapter = next((tmp_path / "content").glob("*/oracles.yaml"))
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        '"Clash, see [[reaction-table]]"',
        '"<img src=x onerror=pwn()> [[reaction-table|<b>odd</b>]] [x](javascript:pwn()) [ok](https://example.org)"'),
        encoding="utf-8")
    html = _final_results(tmp_path, "action-oracle")
    first = re.findall(r"<li>(.*?)</li>", html)[0]
    assert first == (
        '&lt;img src=x onerror=pwn()&gt; <a href="./#reaction-table" class="rulesc-ref rulesc-ref--rule" '
        'data-rulesc-preview="Reaction (table): Roll two dice when a stranger meets the party.">&lt;b&gt;odd&lt;/b&gt;'
        '</a> [x](javascript:pwn()) <a href="https://example.org" rel="noopener">ok</a> · 9/20 · 45%')
