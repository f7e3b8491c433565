"""Variants: house rules, optional rules and homebrew that add, replace and remove by id, as an outside author
writes them (tests/cases/good/variant-homebrew) and as the bundled examples are; and what a base change reports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulesc.analyze.program import Program
from rulesc.diagnostics.core import ContentError
from rulesc.pipeline import Compiled, Project, build_project, compile_project
from tests.conftest import REPO, copy_project
from tests.run_case import run_rulesc

HOMEBREW = REPO / "tests/cases/good/variant-homebrew"
VARIANT = "content/q9-odd/variants/no-tilt/variant.yaml"


def homebrew(tmp_path: Path) -> Path:
    root = tmp_path / "homebrew"
    shutil.copytree(HOMEBREW / "content", root / "content")
    return root


def with_no_tilt() -> tuple[Compiled, Program]:
    compiled = compile_project(Project(HOMEBREW, ("no-tilt",)))
    return compiled, compiled.programs[0]


def test_rules_are_added_replaced_and_removed_by_id() -> None:
    compiled, program = with_no_tilt()
    chapter = program.system.chapters[0]
    assert [r.id for r in chapter.rules] == ["lift", "note-0", "old-ways", "zero-hour"]  # drift gone, added last
    assert program.rules["note-0"].name == "Note Zero, homebrewed"
    assert program.rules["note-0"].text.source == "Round halves away from zero."
    assert program.rules["zero-hour"].span.file == VARIANT  # the added rule's errors point into the variant
    note = compiled.marks["q9-odd"]["note-0"][0]
    assert (note.what, note.label, note.base_name, note.base_text) == (
        "replaced", "Homebrew: No tilt", "Note Zero", "Nothing in the zine rounds.")
    assert compiled.marks["q9-odd"]["zero-hour"][0].what == "added"


def test_values_are_added_replaced_and_removed_by_name() -> None:
    compiled, program = with_no_tilt()
    assert (program.constants["_tilt"], program.constants["bonus_1"], program.constants["reset_to"]) == (4, 1, 0)
    assert "spare_9" not in program.constants
    assert compiled.marks["q9-odd"]["lift"][0].changes[0] == "value _tilt: -3 -> 4"
    assert "removes value spare_9" in compiled.marks["q9-odd"]["old-ways"][0].changes


def test_formulas_are_added_replaced_and_removed_by_id() -> None:
    _, program = with_no_tilt()
    assert sorted(program.formulas) == ["lambda", "with_bonus"]
    assert (program.call("lambda", [1]), program.call("with_bonus", [6])) == (5, 7)
    assert program.formulas["lambda"].expr.source == "max(0, die + _tilt)"
    assert [e.expect for e in program.formulas["lambda"].examples] == [5]  # the variant's examples, not the base's


def test_calculators_are_added_replaced_and_removed_by_id() -> None:
    _, program = with_no_tilt()
    assert sorted(program.calculators) == ["bonus-calc", "tilt-calc"]
    assert program.calculators["tilt-calc"].title == "Tilted roll, homebrewed"
    assert program.calculate("tilt-calc", {"die": 6}) == {"total": 10}
    assert (program.calculators["bonus-calc"].rule, program.calculate("bonus-calc", {"die": 2})) == \
        ("lift", {"total": 3})


def test_without_variants_the_base_is_untouched() -> None:
    program = compile_project(Project(HOMEBREW)).programs[0]
    assert (program.constants["_tilt"], sorted(program.formulas)) == (-3, ["gone_f", "lambda"])
    assert program.call("lambda", [1]) == -2


def test_several_variants_apply_in_order_and_each_records_the_base_value(tmp_path: Path) -> None:
    root = homebrew(tmp_path)
    other = root / "content/q9-odd/variants/big-tilt"
    other.mkdir()
    (other / "variant.yaml").write_text("title: Big tilt\nkind: house-rule\nsummary: More tilt.\nreplace:\n"
                                        "  values:\n    - {name: _tilt, value: 1, was: -3}\n", encoding="utf-8")
    program = compile_project(Project(root, ("q9-odd/big-tilt", "no-tilt"))).programs[0]
    assert program.constants["_tilt"] == 4  # the last one wins
    with pytest.raises(ContentError) as caught:  # big-tilt last: no-tilt's worked example no longer holds
        compile_project(Project(root, ("no-tilt", "big-tilt")))
    assert [(d.code, str(d.span), d.message) for d in caught.value.diagnostics] == [
        ("E0501", f"{VARIANT}:32:13", "example failed: lambda(die=1) gives 2, expected 5")]
    status, out, err = run_rulesc("--root", str(root), "check")  # each alone against the base: both recorded -3,
    assert (status, out) == (1, "")  # but big-tilt alone breaks the base's worked examples, and says so
    assert err.startswith("content/q9-odd/ch-0.yaml:20:13: error[E0501]: with variant 'q9-odd/big-tilt' applied: "
                          "example failed: lambda(die=1) gives 2, expected -2\n")


def test_build_with_a_variant_marks_the_site_and_carries_it_into_engine_and_export(tmp_path: Path) -> None:
    root = homebrew(tmp_path)
    status, out, err = run_rulesc("--root", str(root), "build", "--no-site", "--variant", "no-tilt")
    assert (status, err) == (0, "")
    page = (root / "build/docs/q9-odd/ch-0.md").read_text(encoding="utf-8")
    assert page.count('<p class="admonition-title">Homebrew: No tilt</p>') == 4  # lift, note-0, old-ways, zero-hour
    assert ('<details class="rulesc-base"><summary>The base rule: Note Zero</summary>'
            "<p>Nothing in the zine rounds.</p></details>") in page
    assert "<li>value _tilt: -3 -&gt; 4</li>" in page and "{#drift" not in page
    landing = (root / "build/docs/q9-odd/index.md").read_text(encoding="utf-8")
    assert ('<p class="admonition-title">Homebrew: No tilt</p><p>Applied to this build of the rules: Our table&#x27;s '
            "homebrew, which touches every kind of thing a variant can.</p><ul><li>removes the rule Drift (drift)"
            "</li></ul></div>") in landing
    engine = (root / "build/engine/rules_engine/q9_odd.py").read_text(encoding="utf-8")
    assert "def with_bonus(" in engine and "def gone_f(" not in engine
    export = json.loads((root / "build/export/q9-odd.json").read_text(encoding="utf-8"))
    assert "zero-hour" in json.dumps(export) and "drift" not in json.dumps(export)


def test_without_variant_the_build_is_byte_identical_to_one_without_variants(tmp_path: Path) -> None:
    plain, bare = homebrew(tmp_path / "a"), homebrew(tmp_path / "b")
    shutil.rmtree(bare / "content/q9-odd/variants")
    for root in (plain, bare):
        build_project(Project(root), site=False)
    files = sorted(p.relative_to(plain) for p in (plain / "build").rglob("*") if p.is_file())
    assert len(files) > 10
    assert all((plain / f).read_bytes() == (bare / f).read_bytes() for f in files)
    assert sorted(p.relative_to(bare) for p in (bare / "build").rglob("*") if p.is_file()) == files


def test_an_unknown_variant_is_a_usage_error_naming_those_there_are(tmp_path: Path) -> None:
    status, out, err = run_rulesc("--root", str(HOMEBREW), "check", "--variant", "no-tlit")
    assert (status, out) == (2, "")
    assert "no variant named 'no-tlit'; the variants are: q9-odd/no-tilt" in err


def test_a_variant_linking_a_rule_the_base_removed_is_reported_at_its_line(tmp_path: Path) -> None:
    root = homebrew(tmp_path)
    variant = root / VARIANT
    variant.write_text(variant.read_text(encoding="utf-8").replace(
        "resets to {{reset_to}}.", "resets to {{reset_to}}; see [[drift]]."), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        compile_project(Project(root, ("no-tilt",)))  # this variant removes drift itself
    (diag,) = caught.value.diagnostics
    assert (diag.code, diag.span.file if diag.span else None, diag.message) == (
        "E0602", VARIANT, "link to unknown rule or term 'drift'")


def test_a_base_rename_is_reported_at_the_variant_with_the_new_id(tmp_path: Path) -> None:
    root = homebrew(tmp_path)
    chapter = root / "content/q9-odd/ch-0.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "  - id: drift\n", "  - id: sidestep\n    aliases: [drift]\n"), encoding="utf-8")
    status, out, err = run_rulesc("--root", str(root), "check")
    assert (status, out) == (1, "")
    assert err.startswith(f"{VARIANT}:6:12: error[E0901]: variant 'no-tilt': no rule 'drift' in system 'q9-odd'\n")
    assert "= hint: the base renamed it to 'sidestep': update the variant" in err


def test_an_invalid_variant_is_reported_like_content(tmp_path: Path) -> None:
    root = homebrew(tmp_path)
    variant = root / VARIANT
    variant.write_text(variant.read_text(encoding="utf-8").replace("kind: homebrew", "kind: homebrw"),
                       encoding="utf-8")
    status, _, err = run_rulesc("--root", str(root), "check")
    assert status == 1
    assert err.startswith(f"{VARIANT}:2:7: error[E0204]: expected one of 'house-rule', 'optional-rule', "
                          "'homebrew' at kind, got text 'homebrw'\n")


@pytest.mark.slow  # builds the bundled content
def test_bundled_variants_check_clean_and_build_with_their_markers(tmp_path: Path) -> None:
    assert run_rulesc("--root", str(REPO), "check", "--strict")[0] == 0
    root = copy_project(tmp_path / "bundled")
    status, _, err = run_rulesc("--root", str(root), "build", "--no-site", "--variant", "focused-reroll",
                                "--variant", "gentler-recovery")
    assert (status, err) == (0, "")
    docs = root / "build/docs"
    pages = {p.relative_to(docs).as_posix(): p.read_text(encoding="utf-8") for p in docs.rglob("*.md")}
    marked = sorted(path for path, text in pages.items() if "rulesc-variant" in text)
    focused = next(path for path, text in pages.items() if "{#focused-reroll data-kind=" in text)  # its part
    recovery = "annulus/trigger-upgrades/trigger-upgrades-section.md"
    assert focused.startswith("dbu/core-rules/") and focused != "dbu/core-rules/index.md"
    assert marked == ["annulus/index.md", recovery, focused, "dbu/index.md"]  # the parts with the rules they change
    assert "Optional rule: Focused Reroll" in pages[focused]
    assert "<li>value recovery_check_successes: 3 -&gt; 2</li>" in pages[recovery]


def test_calc_computes_with_a_variant_and_without_it_as_the_base() -> None:
    calc = ("--root", str(HOMEBREW), "calc")
    assert run_rulesc(*calc, "q9-odd.lambda", "die=1", "--variant", "no-tilt") == (0, "5\n", "")
    assert run_rulesc(*calc, "q9-odd.lambda", "die=1") == (0, "-2\n", "")
    assert run_rulesc(*calc, "q9-odd.with_bonus", "die=6", "--variant", "no-tilt") == (0, "7\n", "")
    assert run_rulesc(*calc, "q9-odd.with_bonus", "die=6")[0] == 2  # only the variant has it


def test_the_site_builds_with_a_variant_its_markers_and_the_what_changed_page(tmp_path: Path) -> None:
    root = homebrew(tmp_path)
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")  # the bundled site's settings and theme overrides
    shutil.copytree(REPO / "site_overrides", root / "site_overrides")
    status, out, err = run_rulesc("--root", str(root), "build", "--variant", "no-tilt")
    assert (status, err) == (0, "")  # MkDocs builds strictly: every link and anchor of the pages resolves
    html = (root / "site/q9-odd/ch-0/index.html").read_text(encoding="utf-8")
    assert html.count('class="admonition note rulesc-variant" data-variant="no-tilt"') == 4
    assert 'id="zero-hour"' in html and 'id="drift"' not in html
    changes = (root / "site/q9-odd/what-changed/index.html").read_text(encoding="utf-8")
    assert "This copy of the rules is not in a git repository, so there is no history to show." in changes
    assert 'href="what-changed/"' in (root / "site/q9-odd/index.html").read_text(encoding="utf-8")


def test_a_rule_replaced_after_a_part_of_it_changed_still_shows_its_base_text(tmp_path: Path) -> None:
    root = homebrew(tmp_path)
    (root / VARIANT).write_text(
        "title: Trim\nkind: house-rule\nsummary: Trims the old ways.\nremove:\n  formulas:\n    - {id: gone_f}\n"
        "  calculators:\n    - {id: gone-calc}\nreplace:\n  rules:\n    - rule:\n        id: old-ways\n"
        "        name: Old ways, trimmed\n        kind: general\n        text: Nothing left.\n"
        "        provenance: {source: zine, section: Old ways}\n", encoding="utf-8")
    compiled = compile_project(Project(root, ("no-tilt",)))
    (mark,) = compiled.marks["q9-odd"]["old-ways"]
    assert (mark.what, mark.base_name, mark.base_text) == ("replaced", "Old ways", "Two rules the zine later dropped.")
    assert mark.changes == ("removes formula gone_f", "removes calculator gone-calc")
