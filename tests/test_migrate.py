"""rulesc migrate: format-1 systems rewritten to format 2 as text edits, checked in a copy, written all at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.diagnostics.core import ContentError, Span
from generator.migrate import plan as migrate_plan
from generator.migrate.edits import Edit, Overlap, apply, offset
from generator.migrate.plan import Step, SystemSource, plan
from generator.pipeline import Project
from tests.run_case import run_rulesc

CASES = Path(__file__).resolve().parent / "cases"


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
