"""`rulesc build --site-builder`: the choice and its errors, and rulesc's theme overrides layered under a project's
own for both builders, in a rulebook that has no copy of them (as `rulesc init` starts one)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesc.build.builders import zensical_problem
from rulesc.cli.main import main
from rulesc.emit.site.bundle import emit_front_end
from rulesc.emit.site.theme import packaged_overrides, with_rulesc_theme
from tests.conftest import REPO
from tests.run_case import run_rulesc

OWN_CSS = "/* the project's own site.css */\n"


def _started(root: Path, own_theme: bool = False) -> Path:
    assert run_rulesc("init", str(root))[0] == 0
    if own_theme:
        (root / "theme/assets/rulesc").mkdir(parents=True)
        (root / "theme/assets/rulesc/site.css").write_text(OWN_CSS, encoding="utf-8")
        config = root / "mkdocs.yml"
        config.write_text(config.read_text(encoding="utf-8").replace("  name: material\n",
                                                                     "  name: material\n  custom_dir: theme\n"))
    return root


def test_an_unknown_site_builder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _started(tmp_path)
    capsys.readouterr()
    with pytest.raises(SystemExit) as exited:  # argparse's own usage error, as for every other bad option
        main(["--root", str(root), "build", "--site-builder", "hugo"])
    out, err = capsys.readouterr()
    assert (exited.value.code, out) == (2, "")
    assert err.endswith("rulesc build: error: argument --site-builder: invalid choice: 'hugo' "
                        "(choose from 'mkdocs', 'zensical')\n")
    assert not (tmp_path / "build").exists()


def test_a_missing_zensical_names_the_extra_and_builds_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def without_zensical(name: str, *args: Any) -> Any:
        return None if name == "zensical" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_zensical)
    assert run_rulesc("--root", str(_started(tmp_path)), "build", "--site-builder", "zensical") == (
        2, "", "rulesc: error: the zensical site builder is not installed; install rulesc with it: "
               "pip install 'rulesc[zensical]'\n")
    assert not (tmp_path / "build").exists() and not (tmp_path / "site").exists()
    assert run_rulesc("--root", str(tmp_path), "build", "--no-site", "--site-builder", "zensical")[0] == 0


def test_rulesc_theme_comes_right_after_the_projects_own_and_only_once(tmp_path: Path) -> None:
    ours = str(packaged_overrides())
    assert with_rulesc_theme(["/own", "/material"], "/own") == ["/own", ours, "/material"]
    assert with_rulesc_theme(["/material"], None) == [ours, "/material"]
    assert with_rulesc_theme([str(REPO / "site_overrides"), "/material"], str(REPO / "site_overrides")) == \
        [str(REPO / "site_overrides"), "/material"]


@pytest.mark.parametrize("builder", ["mkdocs", pytest.param("zensical", marks=pytest.mark.slow)])  # a whole site
def test_the_projects_own_overrides_win_and_rulescs_fill_the_rest(tmp_path: Path, builder: str) -> None:
    root = _started(tmp_path / builder, own_theme=True)
    status, _, err = run_rulesc("--root", str(root), "build", "--site-builder", builder)
    assert status == 0, err
    assets, rulescs = root / "site/assets/rulesc", packaged_overrides() / "assets/rulesc"
    assert (assets / "site.css").read_text(encoding="utf-8") == OWN_CSS
    assert (assets / "rulesc.css").read_bytes() == (rulescs / "rulesc.css").read_bytes()
    assert (assets / "calculators.js").read_text(encoding="utf-8") == emit_front_end()["assets/rulesc/calculators.js"]
    assert 'id="rulesc-qs-input"' in (root / "site/index.html").read_text(encoding="utf-8")
    assert (root / "site/pagefind/pagefind-entry.json").is_file()
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".")) == [".github", ".gitignore",
                                                                               ".pre-commit-config.yaml", ".vscode"]


def test_plain_mkdocs_build_gets_rulescs_theme_and_search_from_the_plugin(tmp_path: Path) -> None:
    root = _started(tmp_path)
    assert run_rulesc("--root", str(root), "build", "--no-site")[0] == 0
    mkdocs = Path(sys.executable).parent / "mkdocs"
    done = subprocess.run([str(mkdocs), "build", "-q"], cwd=root, capture_output=True, text=True, check=False,
                          env={**os.environ, "SOURCE_DATE_EPOCH": "1700000000"})
    assert done.returncode == 0, done.stderr
    assert (root / "site/assets/rulesc/calculators.js").is_file()
    assert 'id="rulesc-qs-input"' in (root / "site/my-game/basics/index.html").read_text(encoding="utf-8")
    assert (root / "site/pagefind/pagefind-entry.json").is_file()


@pytest.mark.slow  # a Zensical site
def test_a_failed_zensical_build_says_what_and_where_without_its_traceback(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/index.md").write_text("# Home\n\nSee [the rest](nowhere.md).\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: Odd\nstrict: true\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "zensical", "build", "-f", "mkdocs.yml"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1 and "Traceback" in done.stderr
    assert zensical_problem(done.stdout + done.stderr) == "Warning: page does not exist at index.md:3:16; 1 issue found"


@pytest.mark.parametrize(("builder", "said"), [
    ("mkdocs", "MkDocs could not build the site: Expected an expression, got 'end of statement block' (in "),
    pytest.param("zensical", "Zensical could not build the site: syntax error: unexpected end of block (in partials/",
                 marks=pytest.mark.slow),  # a Zensical site
])
def test_a_broken_template_of_the_project_is_reported_with_its_file(tmp_path: Path, builder: str, said: str) -> None:
    root = _started(tmp_path, own_theme=True)
    (root / "theme/partials").mkdir()
    (root / "theme/partials/footer.html").write_text("{% if %}\n", encoding="utf-8")
    status, out, err = run_rulesc("--root", str(root), "build", "--site-builder", builder)
    assert (status, out) == (2, "")
    assert err.startswith(f"rulesc: error: {said}") and err.endswith("footer.html:1); nothing was written\n"), err
    assert not (root / "site").exists() and not (root / "build").exists()
