"""rulesc migrate: format-1 systems rewritten to format 2 as text edits, checked in a copy, written all at once."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulesc.analyze.program import show
from rulesc.diagnostics.core import ContentError, Span
from rulesc.formula.nodes import Call, walk
from rulesc.migrate import plan as migrate_plan
from rulesc.migrate.edits import Edit, Overlap, apply, offset
from rulesc.migrate.plan import Step, SystemSource, plan
from rulesc.migrate.written import Written
from rulesc.model import default_of
from rulesc.pipeline import Project, compile_project
from rulesc.runtime.rulesc_runtime import RulesError
from tests.run_case import run_rulesc

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "tests" / "cases"


def _project(tmp_path: Path, case: str = "good/minimal") -> Path:
    root = tmp_path / "project"
    shutil.copytree(CASES / case / "content", root / "content")
    return root


def _files(root: Path) -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in root.rglob("*") if path.is_file()}


def test_dry_run_prints_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    system = root / "content" / "mini" / "system.yaml"
    before = system.read_bytes()
    status, out, err = run_rulesc("migrate", "--dry-run", "--root", str(root))
    assert (status, err) == (0, "rulesc: would migrate mini to format 2 (1 file(s)); nothing was written\n")
    assert out == ("--- a/content/mini/system.yaml\n+++ b/content/mini/system.yaml\n@@ -1,10 +1,13 @@\n id: mini\n"
                   " title: Mini\n summary: A minimal system for tests.\n+format: 2\n sources:\n"
                   "   - {id: src, file: seed.txt, title: Test source}\n dice:\n   summary: Roll a d6.\n"
                   "+kinds:\n+  - {id: general, label: General rule, plural: General rules}\n terms:\n"
                   "   - id: pool\n     name: Pool\n")
    assert system.read_bytes() == before


def test_migrate_writes_format_2_and_a_second_run_has_nothing_to_do(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert run_rulesc("--root", str(root), "migrate") == (
        0, "rulesc: migrated mini to format 2: 1 file(s) changed\n", "")
    text = (root / "content" / "mini" / "system.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[3:5] == ["format: 2", "sources:"]
    assert run_rulesc("--root", str(root), "migrate") == (
        0, "rulesc: nothing to migrate: every system is at format 2\n", "")
    assert run_rulesc("--root", str(root), "check")[0] == 0
    assert sorted(p.name for p in (root / "content" / "mini").iterdir()) == ["basics.yaml", "system.yaml"]


def test_a_written_format_1_is_changed_in_place_keeping_its_comment(tmp_path: Path) -> None:
    root = _project(tmp_path)
    system = root / "content" / "mini" / "system.yaml"
    system.write_text(system.read_text().replace("title: Mini\n", "title: Mini\nformat: 1   # today's\n"))
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert system.read_text().splitlines()[2] == "format: 2   # today's"


def test_crlf_line_endings_are_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    system = root / "content" / "mini" / "system.yaml"
    system.write_bytes(system.read_bytes().replace(b"\n", b"\r\n"))
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert b"summary: A minimal system for tests.\r\nformat: 2\r\nsources:\r\n" in system.read_bytes()


def test_a_project_that_does_not_check_is_not_migrated(tmp_path: Path) -> None:
    root = _project(tmp_path, "bad/failing-example")
    before = {p: p.read_bytes() for p in root.rglob("*.yaml")}
    status, out, err = run_rulesc("--root", str(root), "migrate")
    assert (status, out) == (1, "")
    assert "error[E0501]" in err
    assert {p: p.read_bytes() for p in root.rglob("*.yaml")} == before


def _breaking(source: SystemSource) -> list[Edit]:
    """A step whose edit breaks the chapter: its formula's first character becomes a stray quote."""
    formula = next(iter(source.program.formulas.values()))
    start = source.at(formula.expr.span)
    return [Edit(source.path(formula.expr.span), start, start + 1, "'")]


def test_a_migration_whose_result_does_not_check_writes_nothing(tmp_path: Path) -> None:
    root = _project(tmp_path)
    before = _files(root)
    with pytest.raises(ContentError) as failure:
        plan(Project(root), [Step("break", "breaks it", _breaking)])
    assert [d.code for d in failure.value.diagnostics] == ["E0101"]
    assert _files(root) == before


def test_a_failed_write_leaves_every_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path)
    system, chapter = root / "content" / "mini" / "system.yaml", root / "content" / "mini" / "basics.yaml"
    migration = migrate_plan.Migration(root, {system: system.read_text(), chapter: chapter.read_text()},
                                       {system: "changed\n", chapter: "changed\n"}, ("mini",))
    before = _files(root)
    written: list[Path] = []

    def failing(path: Path, text: str) -> None:
        if written:
            raise OSError("disk full")
        written.append(path)
        path.write_text(text)

    monkeypatch.setattr(migrate_plan, "_write", failing)
    with pytest.raises(OSError, match="disk full"):
        migrate_plan.write(migration)
    assert _files(root) == before


def test_edits_apply_in_any_order_and_refuse_to_overlap() -> None:
    path = Path("f")
    text = "ab\ncd\n"
    assert offset(text, Span("f", 2, 2)) == 4
    assert apply(text, [Edit(path, 4, 5, "X"), Edit(path, 0, 1, "Y")]) == "Yb\ncX\n"
    with pytest.raises(Overlap):
        apply(text, [Edit(path, 0, 2, "X"), Edit(path, 1, 3, "Y")])


def _answers(root: Path) -> dict[str, str]:
    """Every worked example's and every calculator default's answer, as shown, by where it is asked."""
    found: dict[str, str] = {}
    for program in compile_project(Project(root)).programs:
        for formula in program.formulas.values():
            for example in formula.examples:
                args = dict(example.args)
                found[f"{program.system.id}.{formula.id}{example.args}"] = _shown(
                    lambda: program.call(formula.id, [args[p.name] for p in formula.params]))  # noqa: B023
        for calculator in program.calculators.values():
            defaults = {p.name: default_of(p) for p in calculator.inputs}
            found[f"{program.system.id}/{calculator.id}"] = _shown(
                lambda: program.calculate(calculator.id, defaults))  # noqa: B023
    return found


def _shown(compute: Callable[[], Any]) -> str:
    try:
        value = compute()
    except RulesError as exc:
        return f"refused: {exc}"
    return repr({k: show(v) for k, v in value.items()}) if isinstance(value, dict) else show(value)


def _migrated(tmp_path: Path, source: Path) -> tuple[Path, Path]:
    """A copy of the project at `source` before and after `rulesc migrate`."""
    before, after = tmp_path / "before", tmp_path / "after"
    for root in (before, after):
        shutil.copytree(source / "content", root / "content")
    assert run_rulesc("--root", str(after), "migrate")[0] == 0
    return before, after


def test_the_format_1_case_migrates_to_the_recorded_diff(tmp_path: Path) -> None:
    case = CASES / "good" / "format-1-pool-repetition"
    root = _project(tmp_path, "good/format-1-pool-repetition")
    status, out, _ = run_rulesc("--root", str(root), "migrate", "--dry-run")
    assert (status, out) == (0, (case / "migrate.diff").read_text(encoding="utf-8"))
    assert "+        expr: repeat(dice, tier)   # three tiers of 1d6 are 3d6\n" in out
    assert "+          repeat(dice + 1d4, tier)\n+          + repeat(dice, tier * 1)\n" in out
    assert "+        expr: p_equal(1d(66), 66) + p_equal(2d(66), 1)\n" in out


def test_the_format_1_case_means_the_same_after_migrating_without_warnings(tmp_path: Path) -> None:
    before, after = _migrated(tmp_path, CASES / "good" / "format-1-pool-repetition")
    assert _answers(after) == _answers(before)
    assert len(_answers(before)) == 6
    assert [d.code for d in compile_project(Project(before)).warnings] == ["W0708"] * 7
    assert compile_project(Project(after)).warnings == ()


def _in_format_1(root: Path) -> None:
    """Write the project at `root` as format 1 would: every repeat(a, b) as (a) * (b), no `format: 2`."""
    for program in compile_project(Project(root)).programs:
        folder = root / "content" / program.system.id
        texts = {path: path.read_text(encoding="utf-8") for path in folder.glob("*.yaml")}
        edits = []
        for formula in program.formulas.values():
            path = root / formula.expr.span.file
            written = Written(formula.expr, texts[path])
            assert formula.expr.node is not None
            for call in (c for c in walk(formula.expr.node) if isinstance(c, Call) and c.func == "repeat"):
                pool, count = (texts[path][slice(*written.chars(arg))] for arg in call.args)
                edits.append(Edit(path, *written.chars(call), f"({pool}) * ({count})"))
        for path, text in texts.items():
            path.write_text(apply(text, [e for e in edits if e.path == path]).replace("format: 2\n", ""))


@pytest.mark.slow  # migrates and compiles the bundled content
def test_the_bundled_content_means_the_same_in_format_1_and_migrates_back_to_itself(tmp_path: Path) -> None:
    shutil.copytree(REPO / "content", tmp_path / "content")
    old, new = tmp_path / "old", tmp_path / "new"
    _in_format_1(tmp_path)
    shutil.copytree(tmp_path / "content", old / "content")
    assert "expr: (dice) * (tier)\n" in (old / "content" / "dbu" / "core-rules.yaml").read_text()
    _, new = _migrated(tmp_path / "copies", old)
    answers = _answers(REPO)
    assert _answers(old) == answers and _answers(new) == answers and len(answers) == 584
    assert _files(new / "content") == {new / p.relative_to(REPO): b for p, b in _files(REPO / "content").items()}


VARIANT = """\
title: Double tiers
kind: house-rule
summary: Powers grow twice as fast.
replace:
  formulas:
    - was: dice * tier   # the base formula this replaces
      formula:
        id: tiered
        summary: A power's dice at twice its tier.
        params:
          - {name: dice, type: dice, label: Dice}
          - {name: tier, type: int, label: Tier, min: 0, max: 9}
        returns: dice
        expr: "dice * (2 * tier)"
        examples:
          - {args: {dice: 1d6, tier: 2}, expect: 4d6}
"""


def test_a_variant_s_formulas_and_its_was_are_migrated_with_its_system(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/format-1-pool-repetition")
    variant = root / "content" / "mini" / "variants" / "double" / "variant.yaml"
    variant.parent.mkdir(parents=True)
    variant.write_text(VARIANT)
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert variant.read_text() == VARIANT.replace("was: dice * tier ", "was: repeat(dice, tier) ").replace(
        '"dice * (2 * tier)"', '"repeat(dice, 2 * tier)"')
    assert run_rulesc("--root", str(root), "check", "--variant", "double")[0] == 0


def test_a_was_over_several_lines_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/format-1-pool-repetition")
    variant = root / "content" / "mini" / "variants" / "double" / "variant.yaml"
    variant.parent.mkdir(parents=True)
    variant.write_text(VARIANT.replace("- was: dice * tier   # the base formula this replaces",
                                       "- was: >-\n        dice\n        * tier"))
    before = _files(root)
    status, out, err = run_rulesc("--root", str(root), "migrate")
    assert (status, out) == (1, "")
    assert err.startswith("content/mini/variants/double/variant.yaml:6:12: error[E0903]: variant 'double' replaces "
                          "formula 'tiered', written against 'dice * tier', but the base formula is now "
                          "'repeat(dice, tier)'\n")
    assert _files(root) == before


@pytest.mark.parametrize(("written", "rewritten"), [
    ("- was: dice * tier   # the base formula this replaces", "- was: repeat(dice, tier)   # the base formula this "
     "replaces"),
    ("- was: 'dice * tier'", "- was: 'repeat(dice, tier)'"),
    ('- was: "dice * tier"', '- was: "repeat(dice, tier)"'),
])
def test_was_keeps_its_quoting(tmp_path: Path, written: str, rewritten: str) -> None:
    root = _project(tmp_path, "good/format-1-pool-repetition")
    variant = root / "content" / "mini" / "variants" / "double" / "variant.yaml"
    variant.parent.mkdir(parents=True)
    variant.write_text(VARIANT.replace("- was: dice * tier   # the base formula this replaces", written))
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert f"    {rewritten}\n" in variant.read_text()


def test_was_in_a_flow_mapping_is_quoted_so_its_commas_stay_inside(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/format-1-pool-repetition")
    variant = root / "content" / "mini" / "variants" / "double" / "variant.yaml"
    variant.parent.mkdir(parents=True)
    variant.write_text(VARIANT.split("    - was:")[0] + "    - {was: dice * tier,\n       formula: {id: tiered, "
                       "summary: A power's dice at twice its tier., returns: dice,\n         params: [{name: dice, "
                       "type: dice, label: Dice}, {name: tier, type: int, label: Tier, min: 0, max: 9}],\n"
                       "         expr: \"dice * (2 * tier)\",\n"
                       "         examples: [{args: {dice: 1d6, tier: 2}, expect: 4d6}]}}\n")
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert '    - {was: "repeat(dice, tier)",\n' in variant.read_text()
    assert run_rulesc("--root", str(root), "check", "--variant", "double")[0] == 0


def test_a_plain_expression_in_a_flow_mapping_is_quoted_so_its_comma_stays_inside(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/format-1-pool-repetition")
    powers = root / "content" / "mini" / "powers.yaml"
    written = '          - {name: pool, label: Dice rolled, expr: "2 * tiered(dice, tier)"}\n'
    text = powers.read_text()
    assert written in text
    powers.write_text(text.replace(written, written + "          - {name: more, label: More, expr: dice * 3}\n"))
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert '          - {name: more, label: More, expr: "repeat(dice, 3)"}\n' in powers.read_text()
    assert run_rulesc("--root", str(root), "check")[0] == 0


def test_format_1_dice_text_keeps_d66_a_die_of_66_sides_and_migrates_to_d_66(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/format-1-pool-repetition")
    powers = root / "content" / "mini" / "powers.yaml"
    text = powers.read_text()
    powers.write_text(text.replace("          - {args: {dice: 1d8+1, tier: 2}, expect: 2d8+2}\n",
                                   "          - {args: {dice: 1d8+1, tier: 2}, expect: 2d8+2}\n"
                                   "          - {args: {dice: d66, tier: 2}, expect: 2d66}\n")
                      .replace("label: Dice, default: 1d10}", "label: Dice, default: 'd66+1'}"))
    status, _, err = run_rulesc("--root", str(root), "check")
    assert status == 0 and "content/mini/powers.yaml:23:50: warning[W0708]: d66 is one die of 66 sides in content " \
        "format 1; format 2 reads it as tens and units, as d66 tables do\n" in err
    assert "  = hint: write 2d(66) to keep a die of 66 sides in either format; `rulesc migrate` writes that for " \
        "every such die and moves the system to format 2\n" in err
    assert err.count("W0708") == 10  # the 7 of the formulas, the argument, the expectation and the default
    before = _answers(root)
    assert before["mini/tiered-dice"] == "{'pool': '4d(66)+4'}"
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert "          - {args: {dice: d(66), tier: 2}, expect: 2d(66)}\n" in powers.read_text()
    assert "label: Dice, default: 'd(66)+1'}" in powers.read_text()
    assert _answers(root) == before and compile_project(Project(root)).warnings == ()


def test_a_variant_s_d66_dice_text_is_migrated_with_its_system(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/format-1-pool-repetition")
    variant = root / "content" / "mini" / "variants" / "double" / "variant.yaml"
    variant.parent.mkdir(parents=True)
    written = "          - {args: {dice: 1d6, tier: 2}, expect: 4d6}\n"
    variant.write_text(VARIANT.replace(written, written + "          - {args: {dice: d66, tier: 1}, expect: 2d66}\n"))
    assert run_rulesc("--root", str(root), "check", "--variant", "double")[0] == 0
    assert run_rulesc("--root", str(root), "migrate")[0] == 0
    assert "          - {args: {dice: d(66), tier: 1}, expect: 2d(66)}\n" in variant.read_text()
    assert run_rulesc("--root", str(root), "check", "--variant", "double") == (
        0, "rulesc: ok: 1 system(s), 1 rules, 4 formulas, 5 examples passed, 1 calculators\n", "")
