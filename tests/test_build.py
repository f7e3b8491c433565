"""Whole builds: the outputs exist, are byte-identical run to run, and a failed build changes nothing."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulesc.diagnostics.core import ContentError
from rulesc.pipeline import Project, build_project
from tests.conftest import copy_project

OUTPUT_FOLDERS = ("site", "build/docs", "build/engine", "build/export")


def digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for folder in OUTPUT_FOLDERS for p in sorted((root / folder).rglob("*")) if p.is_file()}


def test_build_writes_every_output(built: Path) -> None:
    assert (built / "site/dbu/core-rules/index.html").is_file()
    assert (built / "build/docs/dbu/core-rules/index.md").is_file()  # a split chapter's landing page
    assert (built / "build/docs/dbu/core-rules/tier-of-power-section.md").is_file()  # and one of its parts
    assert (built / "build/engine/rules_engine/dbu.py").is_file()
    assert (built / "build/export/dbu.json").is_file()
    assert not list(built.glob(".rulesc-tmp-*")), "the staging folder is removed"


def test_two_builds_are_byte_identical(built: Path, tmp_path: Path) -> None:
    again = copy_project(tmp_path / "again")
    build_project(Project(again))
    first, second = digest(built), digest(again)
    assert len(first) > 20
    assert first == second


def test_a_failed_build_leaves_outputs_exactly_as_they_were(built: Path, tmp_path: Path) -> None:
    root = Path(shutil.copytree(built, tmp_path / "p"))  # a project and the outputs of its successful build
    before = digest(root)
    chapter = root / "content/dbu/core-rules.yaml"
    chapter.write_text(chapter.read_text().replace("expr: lookup(tier_of_power_table, tier, power_level)",
                                                   "expr: lookup(tier_of_power_table, tier, power_levle)"))
    with pytest.raises(ContentError) as failure:
        build_project(Project(root))
    assert [d.code for d in failure.value.diagnostics] == ["E0402"]
    assert digest(root) == before
    assert not list(root.glob(".rulesc-tmp-*"))


def test_export_validates_against_its_schema(built: Path) -> None:
    schema = json.loads((built / "build/export/rulesc-export.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    for exported in (built / "build/export").glob("*.json"):
        if exported.name.startswith("rulesc-"):
            continue
        data = json.loads(exported.read_text())
        errors = list(Draft202012Validator(schema).iter_errors(data))
        assert errors == [], exported.name
    dbu = json.loads((built / "build/export/dbu.json").read_text())
    rules = {r["id"]: r for c in dbu["chapters"] for r in c["rules"]}
    assert rules["tier-of-power"]["table"]["rows"][1] == {"power_level": "5-9", "tier": 2, "extra_dice": "1d4"}
    assert rules["tier-of-power"]["permalink"] == "dbu/core-rules/#tier-of-power"  # the chapter page sends it on


def test_site_pages_carry_anchors_calculators_and_no_remote_fonts(built: Path) -> None:
    parts = {"tier-of-power-section": ("tier-of-power", "tier-extra-dice", "greater-dice", "tier-scaling"),
             "dice-section": ("dice-category",),
             "category-increase-limit": ("category-increase-limit", "critical-target", "botch-range")}
    for part, anchors in parts.items():  # each rule on its part of the split chapter
        html = (built / f"site/dbu/core-rules/{part}/index.html").read_text()
        for anchor in anchors:
            assert f'id="{anchor}"' in html, anchor
    page = (built / "site/dbu/core-rules/tier-of-power-section/index.html").read_text()
    assert 'data-calculator="dbu/tier-of-power"' in page
    assert 'id="calc-dbu-tier-of-power-out-tier">3</output>' in page  # the build-time result for PL 12
    assert "fonts.googleapis.com" not in page
