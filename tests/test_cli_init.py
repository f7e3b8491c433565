"""`rulesc init`: a rulebook that passes `check --strict` and builds at once, uses every main feature, never
overwrites a file, and comes with a valid CI workflow, pre-commit hooks and editor schema mapping."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from rulesc import __version__
from rulesc.cli.init import SCAFFOLD, scaffold_files
from rulesc.emit.site.bundle import emit_front_end
from rulesc.pipeline import Project, compile_project
from tests.conftest import REPO
from tests.run_case import run_rulesc

FILES = {"content/my-game/system.yaml", "content/my-game/basics.yaml", "mkdocs.yml", ".github/workflows/rules.yml",
         ".pre-commit-config.yaml", ".vscode/settings.json", ".vscode/extensions.json", ".gitignore"}


def load(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rulebook just started with `rulesc init DIR` (DIR created), then built."""
    root = tmp_path_factory.mktemp("init") / "new rule book"
    status, out, err = run_rulesc("init", str(root))
    assert (status, err) == (0, "") and out.startswith(f"rulesc: started a rulebook in {root} (8 files)\n")
    assert run_rulesc("--root", str(root), "build")[0] == 0
    return root


def test_init_writes_the_scaffold_and_nothing_else(started: Path) -> None:
    written = {p.relative_to(started).as_posix() for p in started.rglob("*")
               if p.is_file() and p.parts[len(started.parts)] not in ("build", "site")}
    assert written == FILES == set(scaffold_files())
    assert not any("{{rulesc_version}}" in text for text in scaffold_files().values())


def test_the_new_rulebook_passes_check_strict_and_uses_every_main_feature(started: Path) -> None:
    assert run_rulesc("--root", str(started), "check", "--strict") == (
        0, "rulesc: ok: 1 system(s), 1 rules, 2 formulas, 4 examples passed, 1 calculators\n", "")
    (program,) = compile_project(Project(started)).programs
    rule = program.system.rules()[0]
    names = [name for name, _ in rule.values]
    assert len(names) == 3 and all("{{" + name + "}}" in rule.text.source for name in names)  # shown, not retyped
    assert [t.id for t in program.system.terms] == ["grit"] and "[[grit]]" in rule.text.source
    assert all(len(f.examples) >= 2 for f in rule.formulas) and len(rule.formulas) == 2
    assert [c.id for c in rule.calculators] == ["hold-the-line-odds"]
    assert run_rulesc("--root", str(started), "calc", "my-game/hold-the-line-odds", "grit=1")[1].split() == [
        "Dice", "rolled", "2", "Chance", "to", "stay", "up", "11.11%"]


def test_the_build_writes_the_site_with_rulesc_theme_and_search(started: Path) -> None:
    page = (started / "site/my-game/basics/index.html").read_text(encoding="utf-8")
    assert 'data-calculator="my-game/hold-the-line-odds"' in page and 'id="rulesc-qs-input"' in page
    assert (started / "site/assets/rulesc/calculators.js").read_text(encoding="utf-8") == \
        emit_front_end()["assets/rulesc/calculators.js"]
    assert (started / "site/pagefind/pagefind-entry.json").is_file()
    home = (started / "site/index.html").read_text(encoding="utf-8")  # the game's own, from mkdocs.yml
    assert "<title>My Game rules</title>" in home and '<h1 id="my-game-rules">My Game rules<a' in home
    assert "<p>The rules of My Game, compiled by rulesc, with calculators that run the same formulas.</p>" in home


def test_init_refuses_to_overwrite_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: Mine\n", encoding="utf-8")
    status, out, err = run_rulesc("init", str(tmp_path))
    assert (status, out) == (2, "")
    assert err.startswith(f"rulesc: error: {tmp_path} already has mkdocs.yml; rulesc init never overwrites a file")
    assert [p.name for p in tmp_path.iterdir()] == ["mkdocs.yml"]
    assert (tmp_path / "mkdocs.yml").read_text(encoding="utf-8") == "site_name: Mine\n"


def test_init_into_a_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("x", encoding="utf-8")
    assert run_rulesc("init", str(tmp_path / "taken")) == (2, "", f"rulesc: error: {tmp_path / 'taken'} is a file, "
                                                                  "not a folder\n")


def test_the_workflow_is_valid_and_checks_tests_builds_and_comments_the_diff() -> None:
    path = SCAFFOLD / "dot-github/workflows/rules.yml"
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    text = scaffold_files()[".github/workflows/rules.yml"]
    steps = YAML(typ="safe").load(text)["jobs"]["rules"]["steps"]
    runs = [step.get("run", "") + step.get("with", {}).get("script", "") for step in steps]
    order = [next(i for i, run in enumerate(runs) if needle in run) for needle in
             (f'pip install "rulesc=={__version__}"', "rulesc check --strict --format github", "rulesc build",
              "doctest.testmod", '"$BASE_SHA" HEAD > rules-diff.md', "updateComment")]
    assert order == sorted(order)
    assert '>> "$GITHUB_STEP_SUMMARY"' in runs[order[4]] and "createComment" in runs[order[5]]


def test_the_hooks_are_rulescs_own(started: Path) -> None:
    ours = {hook["id"]: hook["entry"] for hook in load(REPO / ".pre-commit-hooks.yaml")}
    (repo,) = load(started / ".pre-commit-config.yaml")["repos"]
    assert [(h["id"], h["entry"]) for h in repo["hooks"]] == [("rulesc-check-strict", ours["rulesc-check-strict"])]


def test_the_editor_maps_each_content_file_to_a_schema_the_build_wrote(started: Path) -> None:
    mapping = json.loads((started / ".vscode/settings.json").read_text(encoding="utf-8"))["yaml.schemas"]
    for schema, globs in mapping.items():
        assert json.loads((started / schema).read_text(encoding="utf-8"))["$id"].endswith(Path(schema).name)
        assert any(list(started.glob(g)) for g in globs if not g.startswith("!"))
    for content in (started / "content").rglob("*.yaml"):
        modeline = content.read_text(encoding="utf-8").splitlines()[0]
        assert (content.parent / modeline.split("$schema=")[1]).resolve().is_file(), content


def test_the_readme_walk_through_runs_as_written(started: Path) -> None:
    """Each rulesc command of the README's "Start a rulebook" block, run in a started rulebook, succeeds, and
    the output its comment quotes is what it prints."""
    section = (REPO / "README.md").read_text(encoding="utf-8").split("## Start a rulebook", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split(".venv/bin/rulesc ", 1)[1] for line in block.splitlines() if ".venv/bin/rulesc " in line]
    assert [c.split()[0] for c in commands] == ["init", "check", "build", "calc"]
    for command in commands[1:]:
        argv, _, quoted = command.partition("#")
        status, out, err = run_rulesc("--root", str(started), *argv.split())
        assert status == 0, (command, err)
        if quoted.strip().startswith("rulesc:"):
            assert out.startswith(quoted.strip().removesuffix("...").strip()), command


def test_the_workflows_engine_test_runs_every_worked_example(started: Path, tmp_path: Path) -> None:
    """The workflow's test step (a Python script in a heredoc) run on a copy of the started rulebook's engine."""
    shutil.copytree(started / "build/engine", tmp_path / "build/engine")
    step = next(s["run"] for s in YAML(typ="safe").load(scaffold_files()[".github/workflows/rules.yml"])["jobs"]
                ["rules"]["steps"] if "doctest" in s.get("run", ""))
    script = step.split("<<'PY'\n", 1)[1].rsplit("PY", 1)[0]
    # No bytecode kept: the edit below keeps the file's size, and made within the same second as the first run
    # Python would take the first run's compiled module as current (a run on a fast machine passed the edit by)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False,
                          env=env)
    assert (done.returncode, done.stdout) == (0, "4 worked examples run, 0 failed\n"), done.stderr
    engine = tmp_path / "build/engine/rules_engine/my_game.py"
    engine.write_text(engine.read_text(encoding="utf-8").replace("179/243", "178/243"), encoding="utf-8")
    failed = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=False,
                            env=env)
    assert failed.returncode == 1 and failed.stdout.endswith("4 worked examples run, 1 failed\n")
