"""`rulesc bench --calculators` on a project with no mkdocs.yml (content alone, as a test case is) builds its site
with the mkdocs.yml `rulesc init` writes; `rulesc build` still refuses such a project."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulesc.bench.calculators import site_project
from rulesc.cli.init import scaffold_files
from rulesc.pipeline import Project
from tests.backends import CASES
from tests.run_case import run_rulesc


def test_a_project_without_mkdocs_yml_is_timed_with_the_one_init_writes(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "content").mkdir()
    (tmp_path / "scratch").mkdir()
    chosen = site_project(Project(tmp_path, ("house",)), tmp_path / "scratch")
    assert chosen.root != tmp_path and chosen.variants == ("house",)
    assert (chosen.root / "mkdocs.yml").read_text(encoding="utf-8") == scaffold_files()["mkdocs.yml"]
    assert not (tmp_path / "mkdocs.yml").exists()  # the project itself is left alone
    assert "has no mkdocs.yml: the site is built with the one `rulesc init` writes" in capsys.readouterr().err


def test_a_project_with_mkdocs_yml_is_timed_with_its_own(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: Mine\n", encoding="utf-8")
    project = Project(tmp_path)
    assert site_project(project, tmp_path / "scratch") is project


def test_build_still_refuses_a_project_without_mkdocs_yml(tmp_path: Path) -> None:
    shutil.copytree(CASES / "good/mechanics/content/oracle", tmp_path / "content/oracle")
    code, _, err = run_rulesc("--root", str(tmp_path), "build")
    assert code == 1 and "error[E0802]: mkdocs.yml: the project folder has no mkdocs.yml" in err
    assert not (tmp_path / "site").exists()
