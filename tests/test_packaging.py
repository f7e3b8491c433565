"""The wheel: every module and the schemas in it, and `rulesc check` run from it on a project without schema/."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from rulesc.schema import packaged_schemas

REPO = Path(__file__).resolve().parent.parent
DATA_PACKAGES = {  # folders of files only
    "rulesc.schemas", "rulesc.site_overrides", "rulesc.frontend", "rulesc.scaffold"}
CHAPTER = """\
id: odd-bits
title: Odd bits
order: 1
summary: One rule.
rules:
  - id: two-x
    name: Two X
    kind: general
    text: Twice a [[thing]].
    provenance: {source: notes, section: Twice}
"""
SYSTEM = """\
id: q-7
title: Q seven
summary: A system with no schema folder of its own.
sources:
  - {id: notes, file: notes.txt, title: Notes}
dice:
  summary: None.
terms:
  - {id: thing, name: Thing, definition: Anything at all.}
"""


def test_the_wheel_ships_the_schemas_byte_for_byte(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name.removeprefix("rulesc/schemas/"): archive.read(name) for name in archive.namelist()
                   if name.startswith("rulesc/schemas/")}
    assert shipped == {path.name: path.read_bytes() for path in (REPO / "schema").glob("*.json")}
    assert {"common.schema.json", "system.schema.json", "chapter.schema.json", "export.schema.json"} <= set(shipped)


def test_the_wheel_holds_every_module_and_runtime(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    sources = {path.relative_to(REPO).as_posix() for pattern in ("*.py", "*.js")
               for path in (REPO / "rulesc").rglob(pattern) if "__pycache__" not in path.parts}
    assert sources - names == set()


def test_the_benches_needs_are_an_extra_not_a_dependency(wheel: Path) -> None:
    """`pip install rulesc` brings no browser driver and no dice library; `rulesc[bench]` brings both."""
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(archive.read(name).decode("utf-8") for name in archive.namelist()
                        if name.endswith(".dist-info/METADATA"))
    needs = [line.removeprefix("Requires-Dist: ") for line in metadata.splitlines()
             if line.startswith("Requires-Dist: ") and ("playwright" in line or "icepool" in line)]
    assert "Provides-Extra: bench" in metadata.splitlines()
    assert [line for line in needs if "extra ==" not in line] == []
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    bench = project["optional-dependencies"]["bench"]
    assert sorted(need.split(">=")[0] for need in bench) == ["icepool", "playwright"]
    assert {f'{need}; extra == "bench"' for need in bench} <= set(needs)


def test_the_package_list_names_every_package() -> None:
    listed = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    found = {".".join(init.parent.relative_to(REPO).parts) for init in (REPO / "rulesc").rglob("__init__.py")}
    assert set(listed) == found | DATA_PACKAGES


def test_the_wheel_ships_the_theme_overrides_and_the_scaffold_byte_for_byte(wheel: Path) -> None:
    shipped = {}
    with zipfile.ZipFile(wheel) as archive:
        for package, folder in (("rulesc/site_overrides/", REPO / "site_overrides"),
                                ("rulesc/scaffold/", REPO / "rulesc/scaffold")):
            shipped[folder] = {name.removeprefix(package): archive.read(name) for name in archive.namelist()
                               if name.startswith(package)}
    for folder, files in shipped.items():
        assert files == {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert {"partials/header.html", "assets/rulesc/rulesc.css"} <= set(shipped[REPO / "site_overrides"])
    assert "dot-github/workflows/rules.yml" in shipped[REPO / "rulesc/scaffold"]


def test_the_wheel_ships_the_front_ends_modules_and_not_its_tooling(wheel: Path) -> None:
    """The build joins frontend/src/ into the site's scripts; its tests, types and npm files stay in the repository."""
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name.removeprefix("rulesc/frontend/"): archive.read(name) for name in archive.namelist()
                   if name.startswith("rulesc/frontend/")}
    sources = REPO / "frontend"
    assert shipped == {p.relative_to(sources).as_posix(): p.read_bytes() for p in sources.glob("src/*/*.js")}
    assert {"src/site/main.js", "src/calculators/display.js", "src/theme/main.js"} <= set(shipped)


def _project(root: Path, chapter: str) -> Path:
    (root / "content" / "q-7").mkdir(parents=True)
    (root / "content" / "q-7" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "content" / "q-7" / "odd-bits.yaml").write_text(chapter, encoding="utf-8")
    return root


def _check_from(installed: Path, project: Path) -> subprocess.CompletedProcess[str]:
    """`rulesc check` run by the unpacked wheel (a pure-Python wheel installs by unpacking), in a project folder."""
    script = ("import sys, rulesc.schema as s; print(s.SCHEMA_DIR, file=sys.stderr); "
              "from rulesc.cli.main import main; sys.exit(main(['check']))")
    return subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, text=True,
                          env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"}, check=False)


def test_check_runs_from_the_wheel_on_a_project_without_schemas(wheel: Path, tmp_path: Path) -> None:
    installed = tmp_path / "site-packages"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(installed)
    good = _check_from(installed, _project(tmp_path / "good", CHAPTER))
    assert good.stderr.splitlines()[0] == str(installed / "rulesc" / "schemas")  # the wheel's, not the checkout's
    assert (good.returncode, good.stdout) == (0, "rulesc: ok: 1 system(s), 1 rules, 0 formulas, 0 examples passed, "
                                                 "0 calculators\n")
    bad = _check_from(installed, _project(tmp_path / "bad", CHAPTER.replace("order: 1", "order: 1\ncolour: red")))
    assert bad.returncode == 1 and "content/q-7/odd-bits.yaml:4:1: error[E0201]: unknown key 'colour'" in bad.stderr


def test_packaged_schemas_prefers_the_installed_folder(tmp_path: Path) -> None:
    package = tmp_path / "rulesc"
    (tmp_path / "schema").mkdir(parents=True)
    package.mkdir()
    assert packaged_schemas(package) == tmp_path / "schema"  # a source checkout
    (package / "schemas").mkdir()
    assert packaged_schemas(package) == package / "schemas"  # installed from a wheel
