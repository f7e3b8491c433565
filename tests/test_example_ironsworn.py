"""The Ironsworn port's worked examples, oracles and
seeded rolls agree in the Python engine, the terminal and the JavaScript runtime, and its site rolls on a phone."""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime import JS_RUNTIME
from tests.backends import Built, agree, drop_engine, encode, import_engine, node, run_js
from tests.browser import Visit, serve_site
from tests.conftest import REPO, copy_example
from tests.run_case import run_rulesc

IRONSWORN = REPO / "examples" / "ironsworn"
ORACLES = ["action", "theme", "region", "location", "pay_the_price"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def ironsworn(built_example: Callable[[str], Path]) -> Iterator[Built]:
    root = built_example("ironsworn")
    program = compile_project(Project(root)).programs[0]
    try:
        yield root, program, import_engine(root / "build/engine", program.system.module)
    finally:
        drop_engine(root)


def test_the_port_checks_with_its_moves_and_oracles() -> None:
    status, out, err = run_rulesc("--root", str(IRONSWORN), "check", "--strict")
    assert (status, out, err) == (
        0, "rulesc: ok: 1 system(s), 26 rules, 4 formulas, 8 examples passed, 2 calculators\n", "")


def plain(value: Any) -> Any:
    """An engine's named outcomes as the worked example writes them (name -> chance); a number as it is."""
    return dict(value.items()) if hasattr(value, "items") else value


def test_every_worked_example_runs_the_same_in_python_and_javascript(ironsworn: Built) -> None:
    root, program, module = ironsworn
    calls, expected, python = [], [], []
    for formula in program.formulas.values():
        for example in formula.examples:
            args = dict(example.args)
            calls.append({"system": "ironsworn", "formula": formula.id, "args": args,
                          "types": {p.name: p.type for p in formula.params}, "order": [p.name for p in formula.params]})
            expected.append(example.expect)
            python.append(getattr(module, formula.id)(*[args[p.name] for p in formula.params]))
    js = run_js(root / "build/docs", calls)
    assert len(calls) == 8
    assert [plain(value) == want for value, want in zip(python, expected, strict=True)] == [True] * 8
    assert [agree(encode(value), found.get("value")) for value, found in zip(python, js, strict=True)] == [True] * 8


def test_the_action_roll_is_the_dice_counted_out() -> None:
    """The worked examples' chances, worked out here by enumerating all 600 rolls, without rulesc."""
    counts = {"strong hit": 0, "weak hit": 0, "miss": 0}
    for action in range(1, 7):
        for one in range(1, 11):
            for two in range(1, 11):
                score = min(action + 3 + 1, 10)
                counts["strong hit" if score > max(one, two) else "weak hit" if score > min(one, two) else "miss"] += 1
    assert counts == {"strong hit": 271, "weak hit": 238, "miss": 91}  # of 600
    status, out, _ = run_rulesc("--root", str(IRONSWORN), "calc", "ironsworn.action_roll", "stat=3", "adds=1")
    assert (status, out.splitlines()) == (0, [
        "ironsworn.action_roll(stat=3 adds=1):",
        "miss             91/600   15.1667%  " + "\u2588" * 13,
        "strong hit      271/600   45.1667%  " + "\u2588" * 40,
        "weak hit        119/300   39.6667%  " + "\u2588" * 35])


def counted_out(score: Callable[[int], int]) -> list[str]:
    """Strong hit, weak hit and miss of a roll whose score the action die gives (`score(die)`; a progress roll
    ignores it) against two d10s, counted out over all 600 rolls without rulesc, as exact fractions."""
    counts = {"strong hit": 0, "weak hit": 0, "miss": 0}
    for action, one, two in itertools.product(range(1, 7), range(1, 11), range(1, 11)):
        counts["strong hit" if score(action) > max(one, two) else "weak hit" if score(action) > min(one, two)
               else "miss"] += 1
    return [str(Fraction(counts[name], 600)) for name in ("strong hit", "weak hit", "miss")]


def chance_rows(page: str, rule: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """The caption of the chances table after a rule's anchor, and each row's label and exact chances."""
    table = page[page.index(f"{{#{rule}"):].split("<table data-rulesc-chances>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table)
    return re.findall("<caption>(.*?)</caption>", table)[0], [(label, re.findall(r'<data value="([^"]+)"', cells))
                                                              for label, cells in rows]


def test_a_moves_page_gives_its_outcomes_chances_at_every_stat_and_progress(tmp_path: Path) -> None:
    root = copy_example("ironsworn", tmp_path / "project")
    build_project(Project(root), site=False)
    adventure = (root / "build/docs/ironsworn/adventure.md").read_text(encoding="utf-8")
    by_stat = [(str(stat), counted_out(lambda die, stat=stat: min(die + stat, 10))) for stat in range(6)]
    assert chance_rows(adventure, "face-danger") == ("Chances by Stat, with Adds 0", by_stat)
    assert by_stat[5] == ("5", ["14/25", "26/75", "7/75"])  # a six would score 11 but counts as 10: 71/120 else
    by_progress = [(str(progress), counted_out(lambda _, progress=progress: progress)) for progress in range(11)]
    assert chance_rows(adventure, "reach-your-destination") == ("Chances by Progress", by_progress)
    assert by_progress[10] == ("10", ["81/100", "9/50", "1/100"]) and by_progress[0] == ("0", ["0", "0", "1"])


def d100_faces(key: str) -> list[int]:
    """The faces of a d100 a row's key covers, read as the book prints them ("00" is 100)."""
    low, _, high = key.partition("-")
    first, last = (int(k) or 100 for k in (low, high or low))
    return list(range(first, last + 1))


@pytest.mark.parametrize("name", ORACLES)
def test_each_oracles_rows_cover_the_d100_once(ironsworn: Built, name: str) -> None:
    table = ironsworn[2].ROLL_TABLES[name]
    faces = [face for key in table.keys for face in d100_faces(key)]
    assert table.roll == "1d100" and faces == list(range(1, 101))
    assert list(table.weights) == [len(d100_faces(key)) for key in table.keys]


def test_pay_the_price_rolls_again_on_its_first_and_last_rows(ironsworn: Built) -> None:
    table = ironsworn[2].ROLL_TABLES["pay_the_price"]
    chains = [(row, chain.times) for row, chain in enumerate(table.chains) if chain is not None]
    assert (table.keys[0], table.keys[-1], chains) == ("01-02", "99-00", [(0, 1), (15, 2)])


def js_rolls(root: Path, module: Any, name: str, seed: int, times: int) -> list[list[list[Any]]]:
    """`times` rolls of a roll table in Node's runtime from one seeded generator: each step's table, row, value."""
    specs = [[t.name, t.roll, list(t.keys), list(t.weights), list(t.texts),
              [None if c is None else [c.table, c.times, c.keep, c.reroll] for c in t.chains],
              [list(o) for o in t.outcomes]] for t in module.ROLL_TABLES.values()]
    script = (f"require({json.dumps(str(JS_RUNTIME))}); const R = globalThis.RulesRuntime;"
              "const book = R.rollTables(JSON.parse(process.argv[1])), rng = R.seeded(Number(process.argv[3]));"
              "const out = []; for (let n = 0; n < Number(process.argv[4]); n++)"
              " out.push(R.roll(book[process.argv[2]], rng).map((s) => [s[0], s[1], s[6]]));"
              "console.log(JSON.stringify(out))")
    done = subprocess.run([node(), "-e", script, json.dumps(specs), name, str(seed), str(times)],
                          capture_output=True, text=True, check=True, timeout=60)
    return list(json.loads(done.stdout))


def test_a_seeded_oracle_roll_is_the_same_in_the_terminal_the_engine_and_node(ironsworn: Built) -> None:
    root, _, module = ironsworn
    import rules_engine

    status, out, _ = run_rulesc("--root", str(root), "roll", "ironsworn.pay_the_price", "--seed", "7",
                                "--times", "80", "--json")
    terminal = [[[s["table"], s["value"]] for s in one["steps"]] for one in json.loads(out)["rolls"]]
    rng = random.Random(7)
    engine = [rules_engine.roll(module.ROLL_TABLES["pay_the_price"], rng) for _ in range(80)]
    node_steps = js_rolls(root, module, "pay_the_price", 7, 80)
    assert status == 0 and terminal == [[[s.table, s.value] for s in steps] for steps in engine]
    assert node_steps == [[[s.table, s.row, s.value] for s in steps] for steps in engine]
    assert [(s.value, s.key, s.depth) for s in engine[0]] == [(42, "42-50", 0)]
    assert [(s.value, s.key, s.depth) for s in engine[66]] == [(100, "99-00", 0), (41, "33-41", 1), (60, "60-68", 1)]


@pytest.fixture(scope="module")
def ironsworn_site(ironsworn: Built) -> Iterator[str]:
    with serve_site(ironsworn[0] / "site") as url:
        yield url


def test_a_phone_rolls_the_region_oracle_and_reads_its_row(ironsworn: Built, ironsworn_site: str,
                                                            browser: Any) -> None:
    """One tap on the Region oracle's Roll button at 390 px shows one of its rows, key and region, as the table
    on the page has it; the row it names is the one the page's table holds under that key."""
    table = ironsworn[2].ROLL_TABLES["region"]
    rows = {key: text for key, text in zip(table.keys, table.texts, strict=True)}
    with Visit(browser, ironsworn_site + "ironsworn/oracles/", viewport=PHONE) as visit:
        page = visit.page
        page.wait_for_selector('[data-roll-table="ironsworn/region"][data-ready="1"]')
        button = page.get_by_role("button", name="Roll on Region", exact=True)
        result = button.locator("xpath=following-sibling::*[@role='status']")
        button.scroll_into_view_if_needed()
        button.click()
        page.wait_for_function("el => el.textContent !== ''", arg=result.element_handle())
        step = result.locator("li").first.inner_text()
        key, text = step.removeprefix("Region \u00b7 ").split(": ", 1)
        assert rows[key] == text, step
        heading = page.locator(f'th:text-matches("^{key} \u00b7")')
        shown = page.locator('table[data-table="region"] tr').filter(has=heading)
        assert shown.locator("td").inner_text() == text
        assert visit.errors == []
