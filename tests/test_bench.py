"""`rulesc bench --rules N`: the synthetic book covers every feature, and the benchmark runs and reports sane figures."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from generator.bench.synthetic import write_rulebook
from generator.pipeline import Project, compile_project

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("load", "validate", "model", "semantic", "formulas", "pages", "search_records", "export", "write",
          "mkdocs", "search_index", "swap")


def rulesc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator.cli", "--root", str(ROOT), *args],
                          capture_output=True, text=True, check=False, cwd=ROOT)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return Project(write_rulebook(tmp_path_factory.mktemp("synthetic") / "book", 60, ROOT))


@pytest.fixture(scope="module")
def figures() -> dict[str, object]:
    done = rulesc("bench", "--rules", "60", "--json")
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.splitlines()[-1]))


def test_synthetic_book_compiles_cleanly(book: Project) -> None:
    compiled = compile_project(book)
    assert compiled.warnings == ()
    assert [len(p.rules) for p in compiled.programs] == [60]


def test_synthetic_book_has_every_rule_kind_and_field(book: Project) -> None:
    program = compile_project(book).programs[0]
    rules = list(program.rules.values())
    assert set(Counter(r.kind for r in rules)) == {"general", "action", "maneuver", "stunt", "upgrade", "condition",
                                                   "keyword", "table", "list", "section"}
    assert {r.maneuver.type for r in rules if r.maneuver} == {"standard", "instant", "counter", "special-modifier"}
    assert all(r.cost and r.limits for r in rules if r.maneuver)
    upgrades = [r.upgrade for r in rules if r.upgrade]
    assert any(u.requires for u in upgrades) and any(u.excludes for u in upgrades) and any(u.max_times for u in upgrades)
    assert all(r.items for r in rules if r.kind == "list") and all(r.table for r in rules if r.kind == "table")
    assert sum(1 for r in rules if r.parent) == 57  # all but the three section heads


def test_synthetic_book_formulas_cover_dice_and_calculators(book: Project) -> None:
    program = compile_project(book).programs[0]
    sources = " ".join(f.expr.source for f in program.formulas.values())
    for construct in ("lookup(", "successes((dice)d6, 5)", "p_at_least(", "let r = 1d10 in", "mean("):
        assert construct in sources
    assert sum(len(f.examples) for f in program.formulas.values()) == 33
    inputs = {i.type for c in program.calculators.values() for i in c.inputs}
    assert inputs == {"int", "bool", "upgrades"}
    terms = program.system.terms
    assert any(t.abbreviations for t in terms) and any(t.aliases for t in terms)


def test_rules_are_spread_over_systems_of_ten_chapters(tmp_path: Path) -> None:
    write_rulebook(tmp_path, 2050, ROOT)
    chapters = {s.name: sorted(p.name for p in s.glob("part-*.yaml")) for s in (tmp_path / "content").iterdir()}
    assert {name: len(files) for name, files in chapters.items()} == {"synth-0": 10, "synth-1": 10, "synth-2": 1}
    assert (tmp_path / "content/synth-2/part-000.yaml").read_text().count("\n  - id: r0-") == 50


def test_bench_reports_every_stage(figures: dict[str, object]) -> None:
    for stage in STAGES:
        assert isinstance(figures[f"{stage}_seconds"], float) and figures[f"{stage}_seconds"] >= 0, stage
    parts = sum(float(figures[f"{s}_seconds"]) for s in STAGES[:9])  # type: ignore[arg-type]
    assert parts <= float(figures["compile_seconds"]) + 0.01  # type: ignore[arg-type]
    whole = sum(float(figures[f"{part}_seconds"]) for part in ("compile", "mkdocs", "swap"))  # type: ignore[arg-type]
    assert 0 < whole <= float(figures["total_seconds"]) + 0.01  # type: ignore[arg-type]
    assert float(figures["check_seconds"]) > 0 and float(figures["incremental_seconds"]) > 0  # type: ignore[arg-type]
    split = float(figures["incremental_refresh_seconds"]) + float(figures["incremental_site_seconds"])  # type: ignore[arg-type]
    assert abs(split - float(figures["incremental_seconds"])) < 0.01  # type: ignore[arg-type]


def test_bench_reports_the_book_and_its_site(figures: dict[str, object]) -> None:
    assert (figures["rules"], figures["systems"], figures["chapters"], figures["runs"]) == (60, 1, 1, 1)
    # home, search, dice notation, error codes, 404, and the system's overview, chapter, glossary, index tables
    assert figures["pages"] == 9
    assert 20 < float(figures["peak_mib"]) < 2000  # type: ignore[arg-type]
    assert figures["payload_page"] == "synth-0/part-0/" and figures["search_payload_method"] == "chromium"
    assert 0 <= int(figures["search_payload_on_load_bytes"]) <= int(figures["search_payload_bytes"])  # type: ignore[call-overload]
    assert int(figures["page_load_bytes"]) > int(figures["search_payload_bytes"])  # type: ignore[call-overload]


def test_bench_rejects_a_rule_count_below_one() -> None:
    done = rulesc("bench", "--rules", "0")
    assert (done.returncode, done.stderr) == (2, "rulesc: error: --rules needs a positive number of rules, "
                                                 "e.g. --rules 500\n")


def test_bench_progress_names_each_step(figures: dict[str, object]) -> None:
    done = rulesc("bench", "--rules", "20")
    assert done.returncode == 0, done.stderr
    steps = [line.split("s ", 1)[1] for line in done.stderr.splitlines()]
    assert steps == ["generate", "full build (rulesc build, timing its own stages)", "incremental rebuild",
                     "rulesc check", "search payload"]


def test_targets_are_judged_on_the_book_they_are_set_for() -> None:
    from generator.cli.bench import targets

    base = {"compile_seconds": 1.0, "mkdocs_seconds": 5.0, "check_seconds": 6.0, "peak_mib": 100.0,
            "incremental_seconds": 3.0}
    assert targets({**base, "book": "synthetic", "rules": 5000}) == [
        "target: compile is 20.0% of mkdocs (target <= 25%): met",
        "target: rulesc check 6.00 s (target < 5 s): MISSED",
        "target: peak memory 100 MiB (target < 500 MiB): met"]
    assert targets({**base, "book": "synthetic", "rules": 500}) == [
        "target: peak memory 100 MiB (target < 500 MiB): met",
        "(the compile share, 20.0% of mkdocs here, and check time are judged at --rules 5000)"]
    assert targets({**base, "book": "content", "rules": 420})[-2:] == [
        "target: incremental 3.00 s (target < 2 s on the bundled content): MISSED",
        "(the compile share, 20.0% of mkdocs here, and check time are judged at --rules 5000)"]


def test_bench_names_the_book_it_measured(figures: dict[str, object]) -> None:
    assert figures["book"] == "synthetic"
