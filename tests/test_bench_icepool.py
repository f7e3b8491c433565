"""`rulesc bench --dice --icepool MODELS`: engine, JavaScript and icepool side by side, and their answers compared.

No assertion here depends on a timing: the tests check what is run, what is compared and what is reported.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import icepool
import pytest

from rulesc.bench import icepool_side
from rulesc.cli import bench as bench_command
from tests.backends import CASES
from tests.run_case import run_rulesc
from tests.test_bench import TINY_CHAPTER, TINY_SYSTEM, site_project

MECHANICS = CASES / "good" / "mechanics"

MODELS = """\
import icepool

def hit_roll(dice):
    return dice @ icepool.d6.map(lambda x: int(x >= 5))

def hit_chance(dice, need):
    return hit_roll(dice).probability('>=', need)

MODELS = {"tiny/hit_roll": hit_roll, "tiny/hit_chance": hit_chance}
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return site_project(tmp_path_factory.mktemp("tiny"), {"tiny/system.yaml": TINY_SYSTEM,
                                                          "tiny/rolls.yaml": TINY_CHAPTER})


def models_file(folder: Path, text: str) -> Path:
    path = folder / "models.py"
    path.write_text(text, encoding="utf-8")
    return path


def rows_of(out: str) -> dict[str, list[str]]:
    """The table's rows by formula: [calls, engine ms, JS ms, icepool ms, ratio, warm ms, icepool warm ms, warm
    ratio, equal]."""
    return {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("tiny/")}


def test_the_modelled_formulas_run_three_ways_and_agree(tiny: Path, tmp_path: Path) -> None:
    status, out, err = run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "2",
                                  "--icepool", str(models_file(tmp_path, MODELS)))
    assert (status, err) == (0, "")
    rows = rows_of(out)
    assert sorted(rows) == ["tiny/hit_chance", "tiny/hit_roll"]  # tiny/boosted has no model: left out
    assert {name: (row[0], row[8]) for name, row in rows.items()} == {"tiny/hit_chance": ("3", "yes"),
                                                                      "tiny/hit_roll": ("2", "yes")}
    assert all(row[4].endswith("x") and row[7].endswith("x") for row in rows.values())
    assert all(float(row[5]) >= 0 and float(row[6]) >= 0 for row in rows.values())
    assert "icepool's caches are emptied before every run" in out
    assert "each\ntimed run right after an untimed one of its own" in out
    assert "median of 2 run(s) each (15 in Node, whose runs spread wider), in CPU time" in out
    assert out.splitlines()[-1].startswith("2 formulas; the engine is ")
    assert ", warm " in out.splitlines()[-1]


def test_an_answer_icepool_does_not_give_is_shown_and_fails(tiny: Path, tmp_path: Path) -> None:
    wrong = MODELS.replace("int(x >= 5)", "int(x >= 4)")
    status, out, _ = run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "1", "--json",
                                "--icepool", str(models_file(tmp_path, wrong)))
    assert status == 1
    assert rows_of(out)["tiny/hit_roll"][8] == "NO"
    differs = [line for line in out.splitlines() if line.startswith("differs: tiny/hit_roll(1)")]
    assert differs == ['differs: tiny/hit_roll(1): engine {"dist": [[0, "2/3"], [1, "1/3"]]}, '
                       'icepool {"dist": [[0, "1/2"], [1, "1/2"]]}']
    figures = json.loads(out.splitlines()[-1])
    assert figures["same"] is False
    assert all({"icepool_ms", "warm_ms", "icepool_warm_ms"} <= set(row) for row in figures["rows"])


@pytest.mark.parametrize(("text", "message"), [
    (None, "no such file"), ("MODELS = 3\n", "it needs MODELS, a mapping"),
    ("import nothing_of_the_kind\n", "ModuleNotFoundError"),
])
def test_a_models_file_that_cannot_be_read_is_a_usage_error(tiny: Path, tmp_path: Path, text: str | None,
                                                            message: str) -> None:
    path = tmp_path / "models.py" if text is None else models_file(tmp_path, text)
    status, _, err = run_rulesc("--root", str(tiny), "bench", "--dice", "--icepool", str(path))
    assert status == 2 and message in err and "Traceback" not in err


def test_without_icepool_the_bench_says_what_to_install(tiny: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_command, "icepool_module", lambda: None)
    assert run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "1",
                      "--icepool", str(models_file(tmp_path, MODELS))) == (1, "", (
        "rulesc: error: bench --icepool compares with icepool, which is not installed: pip install 'rulesc[bench]'\n"))


def test_icepools_caches_are_emptied() -> None:
    """A die's cached sums and a shared evaluator's cache are gone after empty_caches()."""
    die = icepool.Die([1, 2, 3])
    module = type(icepool)("models")
    module.die = die  # type: ignore[attr-defined]
    assert (die + die) == (die + die)
    _ = 5 @ die
    assert "_sum_cache" in vars(die)
    _ = icepool.d6.pool(3).highest(1).sum()
    assert cached_evaluators()  # evaluating a pool left something in a shared evaluator's cache
    icepool_side.empty_caches(module)
    assert "_sum_cache" not in vars(die)
    assert not cached_evaluators()


def cached_evaluators() -> list[object]:
    """The objects at module level in icepool whose _cache holds something."""
    modules = [m for name, m in list(sys.modules.items()) if name.startswith("icepool")]
    return [v for m in modules for v in vars(m).values()
            if not isinstance(v, type) and isinstance(getattr(v, "__dict__", {}).get("_cache"), dict)
            and vars(v)["_cache"]]


def test_icepool_answers_are_encoded_as_the_engines() -> None:
    assert icepool_side.encode(icepool.Die(["b", "a", "a"])) == {"outcomes": [["a", "2/3"], ["b", "1/3"]]}
    assert icepool_side.encode(icepool.Die([True, False, False])) == {"outcomes": [[False, "2/3"], [True, "1/3"]]}
    assert icepool_side.encode(icepool.Die([3, 1, 1])) == {"dist": [[1, "2/3"], [3, "1/3"]]}
    assert icepool_side.comparable({"dice": "1d2+1"}) == {"dist": [[2, "1/2"], [3, "1/2"]]}


@pytest.mark.slow  # benches fourteen mechanics
def test_the_fourteen_mechanics_bench_runs_and_every_answer_agrees() -> None:
    status, out, err = run_rulesc("--root", str(MECHANICS), "bench", "--dice", "--repeat", "1", "--json",
                                  "--icepool", str(MECHANICS / "icepool_models.py"))
    assert (status, err) == (0, "")
    figures = json.loads(out.splitlines()[-1])
    assert figures["same"] is True
    assert len(figures["rows"]) == 22 and {row["formula"].split("/")[0] for row in figures["rows"]} == {
        "age", "apocalypse", "blades", "cortex", "cthulhu", "darkness", "fate", "fifth", "ironsworn", "oracle",
        "reroll", "savage", "shadowrun", "yearzero"}
