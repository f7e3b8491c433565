"""The generated engine ships py.typed, so its types are a promise: mypy --strict passes on every engine built
from the bundled content and from the case rulebooks with keyword names, long names and every table key form."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesc.pipeline import Project, build_project

REPO = Path(__file__).resolve().parent.parent
CASES = ("host-names", "long-names", "table-keys", "engine-arguments", "named-outcomes", "pool-questions",
         "exact-branches")


def engine_of(content: Path, root: Path) -> Path:
    shutil.copytree(content, root / "content")
    build_project(Project(root), site=False)
    return root / "build/engine/rules_engine"


def strict_mypy(package: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "/dev/null",
                           package.name], cwd=package.parent, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("source", ["content", *CASES])
def test_generated_engine_passes_mypy_strict(source: str, built: Path, tmp_path: Path) -> None:
    if source == "content":  # a copy: mypy writes its cache in the folder it runs in
        package = Path(shutil.copytree(built / "build/engine/rules_engine", tmp_path / "rules_engine"))
    else:
        package = engine_of(REPO / "tests/cases/good" / source / "content", tmp_path)
    done = strict_mypy(package)
    assert done.returncode == 0 and done.stdout.startswith("Success: no issues found"), done.stdout


def test_mypy_would_see_a_type_error_in_an_engine(built: Path, tmp_path: Path) -> None:
    package = tmp_path / "rules_engine"
    shutil.copytree(built / "build/engine/rules_engine", package)
    (package / "broken.py").write_text("def half(n: int) -> str:\n    return n // 2\n", encoding="utf-8")
    done = strict_mypy(package)
    assert done.returncode == 1 and 'Incompatible return value type (got "int", expected "str")' in done.stdout
