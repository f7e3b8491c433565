"""One source for every fact: a fact's value changed once in a copy of the content reaches every output (the stat
block, the text, the index tables, the export, the engine and the calculators), or `check` names the stale copy."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesc.analyze.lint import names_in
from rulesc.analyze.program import Program
from rulesc.diagnostics.core import ContentError
from rulesc.model import Fact
from rulesc.pipeline import Project, build_project, compile_project
from tests.conftest import copy_project
from tests.scripts import formulas_text

REPO = Path(__file__).resolve().parent.parent
CASE = REPO / "tests/cases/good/fact-kinds"


def _outside_project(target: Path) -> Path:
    """The fact-kinds case (an outside author's two small systems) as a buildable project."""
    shutil.copytree(CASE / "content", target / "content")
    for part in ("schema", "site_overrides"):
        shutil.copytree(REPO / part, target / part)
    shutil.copy2(REPO / "mkdocs.yml", target / "mkdocs.yml")
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _engine_call(root: Path, module: str, call: str) -> str:
    code = f"import sys; sys.path.insert(0, {str(root / 'build/engine')!r}); import rules_engine.{module} as m; " \
           f"print(repr(m.{call}))"
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.strip()


def _stat_block(markdown: str, rule_id: str) -> str:
    section = markdown.split(f'data-rule="{rule_id}"', 1)[1]
    found = re.search(r'<dl class="rulesc-stats">(.*?)</dl>', section.split('<div class="rulesc-rule"', 1)[0])
    assert found, rule_id
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", found.group(1))
    return " \u00b7 ".join(re.sub(r"<[^>]+>", "", f"{label}: {value}") for label, value in pairs)


CELL = re.compile(r"<td(?: [^>]*)?>(.*?)</td>", re.S)  # a cell; its data-label names the column on a phone


def _index_row(markdown: str, name: str) -> str:
    row = next(r for r in re.findall(r"<tr>(.*?)</tr>", markdown, flags=re.S) if f">{name}</a>" in r)
    return " | ".join(re.sub(r"<[^>]+>", "", cell) for cell in CELL.findall(row))


def test_an_outside_authors_range_change_reaches_every_output_or_check_names_the_stale_example(tmp_path: Path
                                                                                                ) -> None:
    root = _outside_project(tmp_path / "p")
    chapter = root / "content/skirmish-5/attacks.yaml"
    _edit(chapter, "reach_ft: {amount: 30,", "reach_ft: {amount: 45,")
    with pytest.raises(ContentError) as failure:
        compile_project(Project(root))
    stale = [(d.code, d.span.line if d.span else 0) for d in failure.value.diagnostics]
    line = chapter.read_text().splitlines().index("          - {args: {feet: 35}, expect: false}") + 1
    assert stale == [("E0501", line)]  # the one worked example that copied the old range, and nothing else

    _edit(chapter, "{args: {feet: 35}, expect: false}", "{args: {feet: 50}, expect: false}")
    build_project(Project(root), site=False)
    page = (root / "build/docs/skirmish-5/attacks.md").read_text()
    assert "Range: 45 ft." in _stat_block(page, "hand-crossbow")
    assert "up to 45 feet away" in page
    assert "45 ft." in _index_row((root / "build/docs/skirmish-5/tables.md").read_text(), "Hand Crossbow").split(" | ")
    export = json.loads((root / "build/export/skirmish-5.json").read_text())
    rule = next(r for c in export["chapters"] for r in c["rules"] if r["id"] == "hand-crossbow")
    assert rule["facts"]["reach_ft"]["amount"] == 45 and rule["values"]["hand_crossbow_range"] == 45
    assert _engine_call(root, "skirmish_5", "HAND_CROSSBOW_RANGE") == "45"
    assert _engine_call(root, "skirmish_5", "in_range(45)") == "True"
    assert "C.hand_crossbow_range = 45;" in formulas_text(root / "build/docs")
    program = compile_project(Project(root)).programs[1]
    assert program.calculate("crossbow-reach", {"feet": 25})["limit"] == 45


def test_a_limit_and_a_times_fact_changed_once_reach_every_output(tmp_path: Path) -> None:
    root = _outside_project(tmp_path / "p")
    chapter = root / "content/skirmish-5/attacks.yaml"
    _edit(chapter, "uses: [{count: 3, per: short rest}]", "uses: [{count: 5, per: long rest}]")
    _edit(chapter, "      stacks: any\n", "      stacks: 2\n")
    build_project(Project(root), site=False)
    page = (root / "build/docs/skirmish-5/attacks.md").read_text()
    assert "Uses: 5 per long rest" in _stat_block(page, "hand-crossbow")
    assert "Taken: up to 2 times" in _stat_block(page, "sharpshooter")
    tables = (root / "build/docs/skirmish-5/tables.md").read_text()
    assert "5 per long rest" in _index_row(tables, "Hand Crossbow").split(" | ")
    assert "up to 2 times" in _index_row(tables, "Sharpshooter").split(" | ")
    export = json.loads((root / "build/export/skirmish-5.json").read_text())
    rules = {r["id"]: r for c in export["chapters"] for r in c["rules"]}
    assert rules["hand-crossbow"]["facts"]["uses"] == [{"count": 5, "per": "long rest"}]
    assert rules["sharpshooter"]["facts"]["stacks"] == 2
    thrice = '["hand-crossbow-training"] + ["sharpshooter"] * 3'
    assert _engine_call(root, "skirmish_5", f"check_upgrades({thrice})") == \
        "['Sharpshooter may be taken at most 2 time(s), not 3']"
    scripts = formulas_text(root / "build/docs")
    assert '"sharpshooter": {"excludes": [], "max_times": 2' in scripts


def test_a_parameter_range_written_as_a_value_follows_the_fact(tmp_path: Path) -> None:
    root = _outside_project(tmp_path / "p")
    _edit(root / "content/heist/actions.yaml", "rating: {amount: 4,", "rating: {amount: 5,")
    build_project(Project(root), site=False)
    program = compile_project(Project(root)).programs[0]
    assert [p.max for p in program.formulas["hunt_dice"].params] == [5, None]
    export = json.loads((root / "build/export/heist.json").read_text())
    hunt = next(r for c in export["chapters"] for r in c["rules"] if r["id"] == "hunt")
    assert hunt["formulas"][0]["params"][0]["max"] == 5


def test_other_fact_kinds_show_as_their_system_declares(tmp_path: Path) -> None:
    root = _outside_project(tmp_path / "p")
    build_project(Project(root), site=False)
    crossbow = _stat_block((root / "build/docs/skirmish-5/attacks.md").read_text(), "hand-crossbow")
    assert crossbow == ("Range: 30 ft. · Damage: 1d6 · Takes: bonus action · Uses: 3 per short rest · "
                        "Ammunition: 1(per-target) bolts")
    sharp = _stat_block((root / "build/docs/skirmish-5/attacks.md").read_text(), "sharpshooter")
    assert sharp == "Needs: Hand Crossbow Training · Taken: any number of times"
    hunt = _stat_block((root / "build/docs/heist/actions.md").read_text(), "hunt")
    assert hunt == ("Rating: 4 dots · Attribute: Insight · Position: risky · Stress: 2 Stress · "
                    "Note: Zero dots: roll two dice, keep the lower.")
    tables = (root / "build/docs/skirmish-5/tables.md").read_text()
    assert ">Needs<" not in tables  # index: false keeps the kind out of the index tables
    program = compile_project(Project(root)).programs[1]
    upgrades = program.upgrades
    assert upgrades["sharpshooter"].max_times > 1000 and upgrades["hand-crossbow-training"].max_times == 1


@pytest.mark.slow  # builds the bundled content
def test_a_kp_cost_changed_once_in_the_bundled_content_reaches_every_output(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "p")
    chapter = root / "content/dbu/maneuvers.yaml"
    _edit(chapter, "kp: {amount: 2, scaling: T, value: called_shot_kp}", "kp: {amount: 3, scaling: T, value: "
          "called_shot_kp}")
    with pytest.raises(ContentError) as failure:
        compile_project(Project(root))
    lines = chapter.read_text().splitlines()
    stale = [i + 1 for i, line in enumerate(lines) if line in ("          - {args: {tier: 1}, expect: 2}",
                                                               "          - {args: {tier: 3}, expect: 6}")]
    start = lines.index("  - id: called-shot")
    assert [(d.code, d.span.line if d.span else 0) for d in failure.value.diagnostics] == \
        [("E0501", line) for line in stale if line > start][:2]

    _edit(chapter, "      - id: called_shot_kp_cost\n        summary: KP Cost of Called Shot at a Tier of Power.\n"
          "        params:\n          - {name: tier, type: int, label: Tier of Power, min: 1, max: 9}\n"
          "        returns: int\n        expr: scaled(called_shot_kp, tier)\n        examples:\n"
          "          - {args: {tier: 1}, expect: 2}\n          - {args: {tier: 3}, expect: 6}",
          "      - id: called_shot_kp_cost\n        summary: KP Cost of Called Shot at a Tier of Power.\n"
          "        params:\n          - {name: tier, type: int, label: Tier of Power, min: 1, max: 9}\n"
          "        returns: int\n        expr: scaled(called_shot_kp, tier)\n        examples:\n"
          "          - {args: {tier: 1}, expect: 3}\n          - {args: {tier: 3}, expect: 9}")
    build_project(Project(root), site=False)
    page = (root / "build/docs/dbu/maneuvers/modifier-maneuvers.md").read_text()  # its part of the chapter
    assert "KP Cost: 3(T) KP" in _stat_block(page, "called-shot")
    section = page.split('data-rule="called-shot"', 1)[1].split('<div class="rulesc-rule"', 1)[0]
    assert "The KP Cost is 3(T)." in " ".join(re.sub(r"<[^>]+>", "", section).split())
    row = _index_row((root / "build/docs/dbu/tables/maneuver.md").read_text(), "Called Shot")  # the kind's page
    assert "3(T) KP | 3 | 9 | 15" in row  # the KP Cost column and its at Tier 1, 3 and 5 columns
    export = json.loads((root / "build/export/dbu.json").read_text())
    rule = next(r for c in export["chapters"] for r in c["rules"] if r["id"] == "called-shot")
    assert rule["facts"]["kp"] == {"amount": 3, "scaling": "T", "unit": None, "value": "called_shot_kp",
                                   "note": None, "text": None}
    assert _engine_call(root, "dbu", "called_shot_kp_cost(2)") == "6"
    assert "C.called_shot_kp = 3;" in formulas_text(root / "build/docs")
    program = next(p for p in compile_project(Project(root)).programs if p.system.id == "dbu")
    assert program.calculate("called-shot", {"tier": 2, "damage": 0, "max_life": 1,
                                             "threshold_crossed": False})["kp"] == 6


def _uses(program: Program, formulas: list[str]) -> set[str]:
    """Every name the formulas use, directly or through the formulas they call."""
    seen: set[str] = set()
    while formulas:
        formula = program.formulas.get(formulas.pop())
        for name in names_in(formula.expr.node) if formula else ():
            if name not in seen:
                seen.add(name)
                formulas.append(name)
    return seen


@pytest.mark.slow  # checks the bundled content once per fact
def test_every_named_fact_of_the_bundled_content_is_one_datum(tmp_path: Path) -> None:
    """Each amount named with value: changed by one in a copy, one system at a time: check names only worked
    examples (the stale copies) of formulas that use one of the changed values; values: holds no second copy."""
    programs = compile_project(Project(copy_project(tmp_path / "original"))).programs
    named = [(p.system.id, rule, f) for p in programs for rule in p.system.rules() for f in rule.facts
             if f.amount is not None and f.amount.value]
    assert len(named) >= 11  # the KP costs, the Damage seed's Experience, Combat Recovery's Actions, AD costs
    assert {system for system, _, _ in named} == {"dbu", "annulus", "action-dice"}
    for system in sorted({system for system, _, _ in named}):
        root = copy_project(tmp_path / system)
        for _, rule, fact in (n for n in named if n[0] == system):
            assert fact.amount is not None and fact.amount.value is not None and fact.amount.amount is not None
            assert [name for name, _ in rule.values].count(fact.amount.value) == 1
            _bump(root, fact)
        bumped = {f.amount.value: f.amount.amount + 1 for s, _, f in named
                  if s == system and f.amount and f.amount.value and f.amount.amount is not None}
        try:
            changed = next(p for p in compile_project(Project(root)).programs if p.system.id == system)
        except ContentError as failure:
            _only_stale_examples(failure, programs, set(bumped))
        else:  # nothing copied the numbers: the values the engine and calculators use followed
            assert {name: changed.constants[name] for name in bumped} == bumped


def _bump(root: Path, fact: Fact) -> None:
    """The fact's amount, one higher, written where the fact is."""
    assert fact.span is not None and fact.amount is not None and fact.amount.amount is not None
    path = root / fact.span.file
    lines = path.read_text().splitlines()
    old = lines[fact.span.line - 1]
    lines[fact.span.line - 1] = old.replace(f"amount: {fact.amount.amount},", f"amount: {fact.amount.amount + 1},")
    assert lines[fact.span.line - 1] != old
    path.write_text("\n".join(lines) + "\n")


def _only_stale_examples(failure: ContentError, programs: tuple[Program, ...], changed: set[str]) -> None:
    rules = {(r.span.file, r.span.line): (p, r) for p in programs for r in p.system.rules()}
    for problem in failure.diagnostics:
        assert problem.code == "E0501" and problem.span is not None, problem
        program, owner = rules[max(s for s in rules if s[0] == problem.span.file and s[1] <= problem.span.line)]
        assert changed & _uses(program, [f.id for f in owner.formulas]), problem  # a stale example of a user
