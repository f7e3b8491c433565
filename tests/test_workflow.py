"""The repository's editor tooling: the pull request workflow (valid against GitHub's schema, doing each step),
the pre-commit hooks and the editor's schema mapping."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parent.parent
WORKFLOW = REPO / ".github" / "workflows" / "rules.yml"


def load(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def validate_workflow(path: Path) -> subprocess.CompletedProcess[str]:
    """check-jsonschema with its vendored copy of GitHub's workflow schema: no network needed."""
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(path)], capture_output=True, text=True)


def runs(workflow: Any) -> list[str]:
    return [step.get("run", "") for step in workflow["jobs"]["rules"]["steps"]]


def test_workflow_is_valid_against_githubs_schema() -> None:
    done = validate_workflow(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok -- validation done" in done.stdout


def test_the_validator_rejects_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text(encoding="utf-8").replace("runs-on: ubuntu-latest", "runs_on: ubuntu-latest"))
    assert validate_workflow(broken).returncode == 1


def test_workflow_checks_tests_builds_diffs_and_uploads_the_site() -> None:
    workflow = load(WORKFLOW)
    assert list(workflow[True] if True in workflow else workflow["on"]) == ["pull_request"]
    steps = workflow["jobs"]["rules"]["steps"]
    commands = runs(workflow)
    order = [next(i for i, c in enumerate(commands) if needle in c) for needle in
             ("uv sync --locked --inexact --extra test", "rulesc check --format github", "pytest", "rulesc build",
              "rulesc diff")]
    assert order == sorted(order)
    assert '"$BASE_SHA" HEAD >> "$GITHUB_STEP_SUMMARY"' in commands[order[-1]]
    assert steps[order[-1]]["env"]["BASE_SHA"] == "${{ github.event.pull_request.base.sha }}"
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0  # diff needs the base revision
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["path"] == "site/" and upload["with"]["if-no-files-found"] == "error"


def test_pre_commit_hooks_run_check_on_content_changes() -> None:
    hooks = {hook["id"]: hook for hook in load(REPO / ".pre-commit-hooks.yaml")}
    assert hooks["rulesc-check"]["entry"] == "rulesc check"
    assert hooks["rulesc-check-strict"]["entry"] == "rulesc check --strict"
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        files = re.compile(hook["files"])
        assert files.search("content/dbu/core-rules.yaml") and files.search("schema/chapter.schema.json")
        assert not files.search("README.md") and not files.search("tests/cases/good/minimal/content/mini/basics.yaml")
    local = load(REPO / ".pre-commit-config.yaml")["repos"][0]
    assert local["repo"] == "local" and local["hooks"][0]["entry"] == "rulesc check"


def test_editor_maps_content_files_to_their_schemas() -> None:
    schemas = json.loads((REPO / ".vscode" / "settings.json").read_text(encoding="utf-8"))["yaml.schemas"]
    assert schemas == {"./schema/system.schema.json": ["content/*/system.yaml"],
                       "./schema/chapter.schema.json": ["content/*/*.yaml", "!content/*/system.yaml"]}
    for schema in schemas:
        assert (REPO / schema).is_file()


def test_content_files_carry_a_schema_modeline() -> None:
    for path in sorted((REPO / "content").glob("*/*.yaml")):
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        schema = "system" if path.name == "system.yaml" else "chapter"
        assert first == f"# yaml-language-server: $schema=../../schema/{schema}.schema.json", path
