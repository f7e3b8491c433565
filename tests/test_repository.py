"""Promises the repository keeps: README commands that CI runs, and CI's checks beyond the tests."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_readme_opens_with_the_build_and_test_commands() -> None:
    lines = (REPO / "README.md").read_text().splitlines()
    block = lines[lines.index("```sh") + 1: lines.index("```sh") + 3]
    assert block[0].endswith("rulesc build")
    assert block[1].endswith("python -m pytest")


def test_ci_runs_the_readme_tests_the_front_ends_checks_then_lint_types_and_the_overlap_tool() -> None:
    """The overlap tool lives beside the repository (../shared), so CI runs it, not the tests: a fresh clone
    has nothing beside it. The front end's checks install exactly frontend/package-lock.json (npm ci)."""
    steps = [line for line in (REPO / ".ci" / "run").read_text().splitlines()
             if line and not line.startswith(("#", " ", "echo", "if", "fi", "set", "cd", "export", "command="))]
    assert steps == ['bash -c "$command"', "npm ci --prefix frontend --no-audit --no-fund",
                     "npm run --prefix frontend types", "npm run --prefix frontend lint", "npm test --prefix frontend",
                     ".venv/bin/uv sync --quiet --locked --inexact --extra test --extra lint",
                     ".venv/bin/ruff check .", ".venv/bin/mypy", "python3 ../shared/tools/seed_overlap.py ."]
