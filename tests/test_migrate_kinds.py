"""rulesc migrate's declare-kinds step: the kinds a system used without declaring them, written into system.yaml."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.run_case import run_rulesc

CASES = Path(__file__).resolve().parent / "cases"


def _project(tmp_path: Path, case: str) -> Path:
    root = tmp_path / "project"
    shutil.copytree(CASES / case / "content", root / "content")
    return root


def _kinds_lines(system: Path) -> list[str]:
    lines = system.read_text(encoding="utf-8").splitlines()
    start = lines.index("kinds:")
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("  - "))
    return lines[start + 1:end]


def test_each_system_declares_the_kinds_it_uses_with_the_fields_its_rules_give(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/fact-kinds")
    assert run_rulesc("--root", str(root), "migrate") == (
        0, "rulesc: migrated heist, skirmish-5 to format 2: 2 file(s) changed\n", "")
    assert _kinds_lines(root / "content/heist/system.yaml") == [
        "  - {id: action, label: Action, plural: Actions, fields: [rating, attribute, position, stress, note]}",
        "  - {id: general, label: General rule, plural: General rules}"]
    skirmish = root / "content/skirmish-5/system.yaml"
    assert _kinds_lines(skirmish) == [  # the index tables' order: upgrades before actions; facts in their order
        "  - {id: upgrade, label: Upgrade, plural: Upgrades, fields: [prerequisite, stacks], upgrade: true}",
        "  - {id: action, label: Action, plural: Actions, fields: [reach_ft, damage, action_type, uses, ammo]}"]
    assert skirmish.read_text().index("kinds:") < skirmish.read_text().index("terms:")
    assert run_rulesc("--root", str(root), "check", "--strict")[0] == 0
    assert run_rulesc("--root", str(root), "migrate") == (
        0, "rulesc: nothing to migrate: every system is at format 2\n", "")


def test_a_system_at_format_2_without_kinds_still_gets_them_and_keeps_its_format(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/minimal")
    system = root / "content/mini/system.yaml"
    system.write_text(system.read_text().replace("title: Mini\n", "title: Mini\nformat: 2\n"))
    assert run_rulesc("--root", str(root), "migrate") == (
        0, "rulesc: migrated mini to format 2: 1 file(s) changed\n", "")
    text = system.read_text()
    assert text.count("format:") == 1 and "format: 2\n" in text
    assert _kinds_lines(system) == ["  - {id: general, label: General rule, plural: General rules}"]


def test_kinds_already_declared_are_left_as_written(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/declared-kinds")
    system = root / "content/oathbound/system.yaml"
    before = system.read_text()
    status, out, _ = run_rulesc("migrate", "--dry-run", "--root", str(root))
    assert status == 0 and [line for line in out.splitlines() if line.startswith(("+", "-"))] == [
        "--- a/content/oathbound/system.yaml", "+++ b/content/oathbound/system.yaml", "+format: 2"]
    assert system.read_text() == before


def test_a_kind_only_a_variant_uses_is_declared_with_its_fields(tmp_path: Path) -> None:
    root = _project(tmp_path, "good/variant-homebrew")
    variant = root / "content/q9-odd/variants/no-tilt/variant.yaml"
    variant.write_text(variant.read_text().replace(
        "        kind: general\n        text: Round halves away from zero.\n",
        "        kind: stunt\n        trigger: When a half comes up.\n        text: Round halves away from zero.\n", 1))
    assert run_rulesc("--root", str(root), "check")[0] == 0  # a format-1 system's kinds are open to any field
    assert run_rulesc("--root", str(root), "migrate")[0] == 0  # the migrated copy, variant included, checks
    assert _kinds_lines(root / "content/q9-odd/system.yaml") == [
        "  - {id: stunt, label: Stunt, plural: Stunts, fields: [trigger]}",
        "  - {id: general, label: General rule, plural: General rules}"]
    assert run_rulesc("--root", str(root), "check")[0] == 0
