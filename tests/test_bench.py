"""`rulesc bench`: every benchmark runs on a small book, reports what it names, and reports what goes wrong."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.bench import dice
from rulesc.bench.synthetic import write_rulebook
from rulesc.pipeline import Project, compile_project
from tests.run_case import run_rulesc

ROOT = Path(__file__).resolve().parent.parent
STAGES = ("load", "validate", "model", "semantic", "formulas", "pages", "search_records", "export", "write",
          "mkdocs", "search_index", "swap")

TINY_SYSTEM = """\
id: tiny
title: Tiny
summary: A tiny dice system for the benchmark tests.
sources:
  - {id: src, file: seed.txt, title: Test source}
dice:
  summary: Roll d6s; a 5 or 6 is a hit.
terms:
  - id: hit
    name: Hit
    definition: A die that shows 5 or 6.
"""
TINY_CHAPTER = """\
id: rolls
title: Rolls
order: 1
summary: Rolling hits.
rules:
  - id: hits
    name: Hits
    kind: general
    text: Roll a pool of d6; each 5 or 6 is a [[hit]].
    provenance: {source: src, section: Hits}
    values:
      hit_face: 5
    formulas:
      - id: hit_roll
        summary: The hits a pool rolls.
        params:
          - {name: dice, type: int, min: 0, max: 12}
        returns: dist
        expr: successes((dice)d6, hit_face)
        examples:
          - {args: {dice: 1}, expect: {0: "2/3", 1: "1/3"}}
      - id: hit_chance
        summary: The chance of at least some hits.
        params:
          - {name: dice, type: int, min: 0, max: 12}
          - {name: need, type: int, min: 0, max: 3}
        returns: num
        expr: p_at_least(hit_roll(dice), need)
        examples:
          - {args: {dice: 1, need: 1}, expect: "1/3"}
          - {args: {dice: 2, need: 2}, expect: "1/9"}
      - id: boosted
        summary: A pool with a bonus die.
        params:
          - {name: extra, type: dice}
          - {name: big, type: bool}
        returns: dice
        expr: if big then extra + 1d8 else extra + 1d4
        examples:
          - {args: {extra: 1d6, big: false}, expect: 1d6+1d4}
          - {args: {extra: 2d10, big: true}, expect: 2d10+1d8}
      - id: doubled
        summary: Twice a number.
        params:
          - {name: n, type: int, min: 0, max: 10}
        returns: int
        expr: n * 2
        examples:
          - {args: {n: 3}, expect: 6}
    calculators:
      - id: odds
        title: Odds
        inputs:
          - {name: dice, type: int, label: Dice, min: 0, max: 12, default: 3}
        outputs:
          - {name: roll, label: Hits, expr: hit_roll(dice)}
          - {name: any, label: Any hit, expr: "hit_chance(dice, 1)", format: percent}
"""
NO_CHROMIUM = "/nonexistent/chromium"  # as $RULESC_CHROMIUM: no Chromium to drive, so the benches do without one
DICE_FORMULAS = ["tiny/boosted", "tiny/hit_chance", "tiny/hit_roll"]  # not tiny/doubled: no dice in it


def site_project(root: Path, content: dict[str, str]) -> Path:
    """A project with the repository's schema, theme and mkdocs.yml, and the given content files."""
    for folder in ("schema", "site_overrides"):
        shutil.copytree(ROOT / folder, root / folder)
    shutil.copy2(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    for relative, text in content.items():
        (root / "content" / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / relative).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-system book with three dice formulas, one without dice, and a calculator."""
    return site_project(tmp_path_factory.mktemp("tiny"), {"tiny/system.yaml": TINY_SYSTEM,
                                                          "tiny/rolls.yaml": TINY_CHAPTER})


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Project:
    return Project(write_rulebook(tmp_path_factory.mktemp("synthetic") / "book", 60, ROOT))


def start(*args: str, root: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """rulesc started in a process of its own, with `env` added to its environment; not waited for."""
    return subprocess.Popen([sys.executable, "-m", "rulesc.cli", "--root", str(root), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, **(env or {})})


def finish(process: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    """The started process's exit status and output, once it ends."""
    out, err = process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def files_in(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


@pytest.fixture(scope="module")
def content_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A project of the minimal case's content, and its files before any bench ran on it."""
    minimal = ROOT / "tests/cases/good/minimal/content"
    project = site_project(tmp_path_factory.mktemp("content"), {
        p.relative_to(minimal).as_posix(): p.read_text(encoding="utf-8") for p in minimal.rglob("*.yaml")})
    return project, files_in(project)


@pytest.fixture(scope="module")
def content_bench(content_project: tuple[Path, list[str]]) -> Iterator[subprocess.Popen[str]]:
    """`bench --content --json` on content_project, started and not waited for, on a machine without Chromium: it
    measures the search payload from the page's own references, as a bench without a browser does (the rules run
    measures it in Chromium, the same code; a launch alone costs about a CPU-second of the process tree). rules_run
    asks for it too: each bench spends most of its time waiting on its spawned build, so the two side by side take
    little more than the longer alone. Their timings are never asserted."""
    process = start("bench", "--content", "--json", root=content_project[0], env={"RULESC_CHROMIUM": NO_CHROMIUM})
    yield process
    process.kill()  # only if no test read its output (a failure before it); a finished process is left as it is
    process.communicate()


@pytest.fixture(scope="module")
def rules_run(content_bench: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    """One `bench --rules 60 --json` for the tests that read its figures or its progress lines."""
    done = finish(start("bench", "--rules", "60", "--json"))
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def figures(rules_run: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    return dict(json.loads(rules_run.stdout.splitlines()[-1]))


# --- bench --dice -------------------------------------------------------------------------------------------------


def rows_of(out: str) -> dict[str, list[str]]:
    """The table's rows by formula: [calls, Python ms, Node ms, same]."""
    return {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("tiny/")}


def test_dice_bench_times_every_dice_formula_in_both_runtimes_and_they_agree(tiny: Path) -> None:
    status, out, err = run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "3")
    assert (status, err) == (0, "")
    rows = rows_of(out)
    assert sorted(rows) == DICE_FORMULAS
    assert {name: (row[0], row[3]) for name, row in rows.items()} == {
        "tiny/boosted": ("2+1", "yes"), "tiny/hit_chance": ("2+1", "yes"), "tiny/hit_roll": ("1+1", "yes")}
    lines = out.splitlines()
    header = " ".join(lines[:next(i for i, line in enumerate(lines) if line.startswith("formula "))])
    assert "generated engine (Python" in header and "generated JavaScript (Node" in header
    assert "median of 3 run(s) of the workload in each, in CPU time" in header
    assert "each after untimed runs (Python one; Node 20: V8 compiles a" in header
    assert out.splitlines()[-2].startswith("3 formulas, 8 calls, 0 refused by the engine: ")
    assert out.splitlines()[-1] == "the runtimes agree on every call"


def test_dice_bench_json_lists_each_formula_with_its_calls(tiny: Path) -> None:
    status, out, _ = run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "1", "--json")
    figures = json.loads(out.splitlines()[-1])
    assert status == 0 and figures["same"] is True
    assert sorted((r["formula"], r["calls"], r["examples"], r["same"]) for r in figures["rows"]) == [
        ("tiny/boosted", 3, 2, True), ("tiny/hit_chance", 3, 2, True), ("tiny/hit_roll", 2, 1, True)]
    assert all(r["python_ms"] >= 0 and r["node_ms"] >= 0 for r in figures["rows"])


def test_the_workloads_are_the_examples_then_the_top_of_every_range(tiny: Path) -> None:
    workloads = {w.name: w for w in dice.dice_workloads(compile_project(Project(tiny)))}
    assert sorted(workloads) == DICE_FORMULAS
    assert workloads["tiny/hit_roll"].calls == ((1,), (12,))
    assert workloads["tiny/hit_chance"].calls == ((1, 1), (2, 2), (12, 3))
    # a pool has no range: the largest an example uses; a flag's top is true
    assert workloads["tiny/boosted"].calls == (("1d6", False), ("2d10", True), ("2d10", True))
    assert (workloads["tiny/boosted"].types, workloads["tiny/boosted"].examples) == (("dice", "bool"), 2)


def test_a_disagreement_between_the_runtimes_is_reported(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = dice.run_node

    def off_by_a_little(docs: Path, workloads: list[dice.Workload], runs: int) -> list[dice.Timed]:
        timed = real(docs, workloads, runs)
        index = [w.formula for w in workloads].index("hit_chance")
        timed[index].results[0] = {"exact": "1000000001/3000000000"}
        return timed

    monkeypatch.setattr(dice, "run_node", off_by_a_little)
    status, out, _ = run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "1")
    assert status == 1
    assert {name: row[3] for name, row in rows_of(out).items()} == {
        "tiny/boosted": "yes", "tiny/hit_chance": "NO", "tiny/hit_roll": "yes"}
    assert "1 formula(s) DISAGREE" in out
    assert 'differs: tiny/hit_chance(1, 1): Python {"exact": "1/3"}, Node {"exact": "1000000001/3000000000"}' in out


@pytest.mark.parametrize(("folder", "file", "override"), [
    ("build/engine", "rules_engine/tiny.py", "\n\ndef hit_chance(dice: int, need: int) -> int:\n    return 0\n"),
    ("build/docs", "assets/rulesc/formulas/tiny.js", "\nglobalThis.RulesSystems.tiny.formulas.hit_chance = () => 0;\n"),
], ids=["python", "javascript"])
def test_each_side_runs_the_generated_code(tiny: Path, monkeypatch: pytest.MonkeyPatch, folder: str, file: str,
                                          override: str) -> None:
    """Break the generated engine, or the generated JavaScript, and only that formula disagrees."""
    import rulesc.pipeline as staging

    real = staging.generate

    def broken(project: Project, compiled: Any) -> dict[str, dict[str, str]]:
        files = real(project, compiled)
        files[folder][file] += override
        return files

    monkeypatch.setattr(staging, "generate", broken)
    status, out, _ = run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "1")
    assert status == 1
    assert [name for name, row in rows_of(out).items() if row[3] == "NO"] == ["tiny/hit_chance"]


def test_the_comparison_is_exact() -> None:
    assert dice.agree({"exact": "1/3"}, {"exact": "1/3"}) and not dice.agree({"exact": "1/3"}, {"float": 1 / 3})
    assert dice.agree({"float": 0.1}, {"float": 0.1}) and not dice.agree({"float": 0.1}, {"float": 0.1 + 1e-17 * 2})
    assert dice.agree(1, 1) and not dice.agree(True, 1) and not dice.agree(3, 4)
    assert not dice.agree({"dist": [[0, "1/2"], [1, "1/2"]]}, {"dist": [[0, "1/2"], [2, "1/2"]]})
    assert not dice.agree({"dice": "1d6+1d4"}, {"dice": "1d6+1d8"})
    assert dice.agree({"error": "RulesError"}, {"error": "RulesError"})
    assert not dice.agree({"error": "RulesError"}, {"error": "TypeError"})
    assert dice.encode(Fraction(1, 3)) == {"exact": "1/3"} and dice.encode(2**60) == {"exact": str(2**60)}


def test_dice_bench_on_a_book_without_dice_says_so(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tests/cases/good/minimal/content", tmp_path / "content")
    assert run_rulesc("--root", str(tmp_path), "bench", "--dice") == (
        0, "no formula of the content rolls or builds dice: nothing to time\n", "")


def test_bench_needs_a_benchmark_and_a_positive_repeat(tiny: Path) -> None:
    assert run_rulesc("--root", str(tiny), "bench") == (
        2, "", "rulesc: error: choose a benchmark: --dice, --rolls, --calculators, --rules N or --content\n")
    assert run_rulesc("--root", str(tiny), "bench", "--dice", "--repeat", "0") == (
        2, "", "rulesc: error: --repeat needs a positive number of runs\n")


# --- bench --calculators ------------------------------------------------------------------------------------------


@pytest.mark.browser  # the bench launches Chromium itself
def test_calculator_bench_times_each_calculator_at_the_top_of_its_ranges(tiny: Path) -> None:
    # In a process of its own: Playwright's threads can outlive the browser, and a build in a process where
    # another thread runs never forks, which would change what later tests in this worker see.
    done = subprocess.run([sys.executable, "-m", "rulesc.cli", "--root", str(tiny), "bench", "--calculators",
                           "--json"], capture_output=True, text=True, check=False, cwd=ROOT)
    status, out = done.returncode, done.stdout
    summary = json.loads(out.splitlines()[-1])
    assert [(r["calculator"], r["state"]) for r in summary["rows"]] == [("tiny/odds", "ok")]
    assert status == (0 if summary["worst_ms"] <= 16.0 else 1)  # the target decides, whatever the machine
    assert "median of 7 recomputes" in out.splitlines()[2]
    assert [line.split()[0] for line in out.splitlines()[4:5]] == ["tiny/odds"]


# --- bench --rules N and --content --------------------------------------------------------------------------------


def test_synthetic_book_compiles_cleanly(book: Project) -> None:
    compiled = compile_project(book)
    assert compiled.warnings == ()
    assert [len(p.rules) for p in compiled.programs] == [60]


def test_synthetic_book_has_every_rule_kind_and_field(book: Project) -> None:
    program = compile_project(book).programs[0]
    rules = list(program.rules.values())
    assert set(Counter(r.kind for r in rules)) == {"general", "action", "maneuver", "stunt", "upgrade", "condition",
                                                   "keyword", "table", "list", "section"}
    types = {r.id: f.words for r in rules for f in r.facts if f.kind.id == "maneuver_type"}
    assert set(types.values()) == {"standard", "instant", "counter", "special-modifier"}
    assert all({"action", "kp", "limit"} <= {f.kind.id for f in program.rules[r].facts} for r in types)
    upgrades = [r.upgrade for r in rules if r.upgrade]
    assert any(u.requires for u in upgrades) and any(u.excludes for u in upgrades)
    assert any(u.max_times for u in upgrades)
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


@pytest.mark.browser  # the bench launches Chromium itself
def test_bench_reports_every_stage(figures: dict[str, Any]) -> None:
    for stage in STAGES:
        assert isinstance(figures[f"{stage}_seconds"], float) and figures[f"{stage}_seconds"] >= 0, stage
    for stage in ("load", "mkdocs", "search_index"):  # the build's own log names them, MkDocs and its plugin too
        assert figures[f"{stage}_seconds"] > 0, stage
    parts = sum(figures[f"{s}_seconds"] for s in STAGES[:9])  # one system, one process: stages do not overlap
    assert 0 < parts <= figures["compile_seconds"] + 0.01
    assert figures["check_seconds"] > 0 and figures["incremental_seconds"] > 0
    split = figures["incremental_refresh_seconds"] + figures["incremental_site_seconds"]
    assert abs(split - figures["incremental_seconds"]) < 0.01
    assert set(figures["cpu_seconds"]) == {*STAGES, "compile", "total"}


@pytest.mark.browser  # the bench launches Chromium itself
def test_bench_reports_the_book_and_its_site(figures: dict[str, Any]) -> None:
    assert (figures["rules"], figures["systems"], figures["chapters"], figures["runs"]) == (60, 1, 1, 1)
    assert figures["book"] == "synthetic" and figures["compile_processes"] == 1  # one system: one process
    # home, search, dice notation, 404; error codes: a landing page and its 10 sections; the system's overview,
    # GM screen, glossary, tables; its one chapter of 60 rules is over the page budget: a landing page and 6 parts
    assert figures["pages"] == 26
    assert 20 < figures["peak_mib"] < 2000
    assert figures["payload_page"] == "synth-0/part-0/" and figures["search_payload_method"] == "chromium"
    assert 0 <= figures["search_payload_on_load_bytes"] <= figures["search_payload_bytes"]
    # Every byte the page loads counts its own HTML and scripts beside any search asset it loads at once; since each
    # page carries its styles inline (#35), a whole search (160 KB here) can outweigh a page load (110 KB).
    assert figures["page_load_bytes"] > figures["search_payload_on_load_bytes"]


@pytest.mark.browser  # the bench launches Chromium itself
def test_bench_progress_names_each_step(rules_run: subprocess.CompletedProcess[str]) -> None:
    steps = [line.split("s ", 1)[1] for line in rules_run.stderr.splitlines()]
    assert steps == ["generate", "full build (rulesc build, timing its own stages)", "incremental rebuild",
                     "rulesc check", "search payload"]
    assert rules_run.stdout.splitlines()[0] == "60 rules in 1 system(s), 1 chapters, 26 HTML pages " \
                                               "(median of 1 run(s); wall seconds, CPU seconds in brackets)"


def test_bench_rejects_a_rule_count_below_one() -> None:
    assert run_rulesc("--root", str(ROOT), "bench", "--rules", "0") == (
        2, "", "rulesc: error: --rules needs a positive number of rules, e.g. --rules 500\n")


@pytest.mark.slow  # a whole build, an incremental one and a check, without Chromium (see content_bench)
def test_content_bench_builds_a_copy_of_the_projects_own_content(content_bench: subprocess.Popen[str],
                                                               content_project: tuple[Path, list[str]]) -> None:
    project, before = content_project
    done = finish(content_bench)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.splitlines()[-1])
    assert (figures["book"], figures["rules"], figures["systems"], figures["chapters"]) == ("content", 2, 1, 1)
    assert figures["payload_page"] == "mini/basics/" and figures["search_payload_method"] == "static (Unavailable)"
    assert figures["page_load_bytes"] > 0  # the page and what it references, read from its HTML
    assert any(line.startswith("target: incremental ") for line in done.stdout.splitlines())
    assert files_in(project) == before  # built elsewhere


def test_targets_are_judged_on_the_book_they_are_set_for() -> None:
    from rulesc.cli.bench import targets

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


def test_dice_bench_finds_formulas_whose_host_names_are_mangled(tmp_path: Path) -> None:
    """A formula named like a Python keyword, or like the upgrades checker every system's JavaScript defines,
    is published under another name in each runtime; the benchmark calls those names, not the id."""
    chapter = TINY_CHAPTER.replace("id: boosted", "id: lambda").replace("id: hit_roll", "id: check_upgrades") \
        .replace("hit_roll(dice)", "check_upgrades(dice)")
    project = site_project(tmp_path, {"tiny/system.yaml": TINY_SYSTEM, "tiny/rolls.yaml": chapter})
    status, out, err = run_rulesc("--root", str(project), "bench", "--dice", "--repeat", "1")
    assert (status, err) == (0, "")
    assert {name: row[3] for name, row in rows_of(out).items()} == {
        "tiny/check_upgrades": "yes", "tiny/hit_chance": "yes", "tiny/lambda": "yes"}


def test_bench_rolls_times_each_roll_in_both_runtimes_and_compares_their_draws(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two thousand rolls each, not the bench's hundred thousand: the figures are never asserted, and a draw that
    differs shows in the running hash within the first rolls (as the 1000 rolls of the checks below show)."""
    from rulesc.bench import rolls
    from rulesc.cli import bench

    monkeypatch.setattr(bench, "ROLL_TIMES", 2000)
    status, out, err = run_rulesc("--root", str(ROOT / "tests/cases/good/roll-tables"), "bench", "--rolls", "--json")
    lines = out.splitlines()
    assert (status, err) == (0, "")
    assert lines[0] == "2000 seeded rolls each, CPU time; 'same' compares every draw of the two runtimes"
    assert [line.split()[0] for line in lines[2:-1]] == [
        "oracle.action_oracle", "oracle.fortune", "oracle.gifts", "oracle.hoard", "oracle.reaction", "oracle.wilds",
        "oracle.fortune_roll"]
    assert all(line.endswith("  yes") for line in lines[2:-1])
    figures = json.loads(lines[-1])
    assert figures["rolls"] == 7 and figures["all_same"] is True and figures["slowest_python_per_s"] > 0
    job = rolls.RollJob("x.d6", weights=(1, 1, 1, 1, 1, 1))
    python = rolls.python_rolls(job, 1000)[1]
    assert rolls.node_rolls([job, rolls.RollJob("x.d6", weights=(1, 1, 1, 1, 1, 2))], 1000)[0][1] == python
    assert rolls.node_rolls([rolls.RollJob("x.d6", weights=(1, 1, 1, 1, 1, 2))], 1000)[0][1] != python
    shutil.copytree(ROOT / "tests/cases/good/minimal/content", tmp_path / "content")
    assert run_rulesc("--root", str(tmp_path), "bench", "--rolls") == (
        0, "no roll table and no formula that rolls in the content: nothing to roll\n", "")
