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


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """mypy's cache for the file's runs: the standard library's types are read once, not once an engine; mypy
    checks again each module whose bytes it has not seen (every engine's own modules but the shared runtime)."""
    return tmp_path_factory.mktemp("mypy-cache")


def strict_mypy(package: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "--config-file",
                           "/dev/null", package.name], cwd=package.parent, capture_output=True, text=True, check=False)


@pytest.mark.parametrize("source", ["content", *CASES])
def test_generated_engine_passes_mypy_strict(source: str, built: Path, tmp_path: Path, cache: Path) -> None:
    package = built / "build/engine/rules_engine" if source == "content" else \
        engine_of(REPO / "tests/cases/good" / source / "content", tmp_path)
    done = strict_mypy(package, cache)
    assert done.returncode == 0 and done.stdout.startswith("Success: no issues found"), done.stdout


def test_mypy_would_see_a_type_error_in_an_engine(built: Path, tmp_path: Path, cache: Path) -> None:
    package = tmp_path / "rules_engine"
    shutil.copytree(built / "build/engine/rules_engine", package)
    (package / "broken.py").write_text("def half(n: int) -> str:\n    return n // 2\n", encoding="utf-8")
    done = strict_mypy(package, cache)
    assert done.returncode == 1 and 'Incompatible return value type (got "int", expected "str")' in done.stdout
