"""A broken mkdocs.yml is the user's error: exit 1 at its line, no traceback, and the last build left as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.run_case import run_rulesc
from tests.test_build import digest

MINIMAL = Path(__file__).resolve().parent / "cases" / "good" / "minimal"
CONFIG = "site_name: Odd site\nuse_directory_urls: true\nplugins:\n  - rulesc-search\n"
DONE = "rulesc: 1 error(s); nothing was written\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small project built once with a good mkdocs.yml: the outputs a broken one must leave alone."""
    root = tmp_path_factory.mktemp("site-config") / "project"
    shutil.copytree(MINIMAL / "content", root / "content")
    (root / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    assert run_rulesc("--root", str(root), "build")[0] == 0
    return root


@pytest.mark.parametrize(("old", "new", "first_line"), [
    ("site_name: Odd site", "site_name: [Odd site",
     "mkdocs.yml:2:19: error[E0801]: mkdocs.yml is not valid YAML: expected ',' or ']', but got ':'"),
    ("use_directory_urls: true", "use_directory_urls: true\nsearch_box: 3",
     "mkdocs.yml:3:1: error[E0802]: MkDocs refuses 'search_box': Unrecognised configuration name: search_box"),
    ("  - rulesc-search", "  - rulesc-searhc",
     "mkdocs.yml:3:1: error[E0802]: MkDocs refuses 'plugins': The \"rulesc-searhc\" plugin is not installed"),
    ("use_directory_urls: true", "use_directory_urls: sometimes",
     "mkdocs.yml:2:1: error[E0802]: MkDocs refuses 'use_directory_urls': Expected type: <class 'bool'> but "
     "received: <class 'str'>"),
])
def test_a_broken_mkdocs_yml_is_a_user_error_and_changes_nothing(built: Path, tmp_path: Path, old: str, new: str,
                                                                 first_line: str) -> None:
    root = tmp_path / "project"
    shutil.copytree(built, root)
    config = root / "mkdocs.yml"
    config.write_text(CONFIG.replace(old, new), encoding="utf-8")
    before = digest(root)
    status, out, err = run_rulesc("--root", str(root), "build")
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == first_line and err.endswith(DONE) and "Traceback" not in err
    assert digest(root) == before and not list(root.glob(".rulesc-tmp-*"))


def test_check_reports_mkdocs_yml_syntax_with_where_it_started(tmp_path: Path) -> None:
    shutil.copytree(MINIMAL / "content", tmp_path / "content")
    (tmp_path / "mkdocs.yml").write_text("site_name: Odd\nnav: [a, {b: c.md\n", encoding="utf-8")
    status, out, err = run_rulesc("--root", str(tmp_path), "check")
    assert (status, out) == (1, "")
    assert err == ("mkdocs.yml:3:1: error[E0801]: mkdocs.yml is not valid YAML: expected ',' or '}', but got "
                   "'<stream end>'\n  = hint: while parsing a flow mapping at line 2, column 10\n" + DONE)


def test_a_missing_mkdocs_yml_is_named(tmp_path: Path) -> None:
    shutil.copytree(MINIMAL / "content", tmp_path / "content")
    assert run_rulesc("--root", str(tmp_path), "build") == (1, "", (
        "error[E0802]: mkdocs.yml: the project folder has no mkdocs.yml\n"
        "  = hint: `rulesc build --no-site` builds everything but the site\n" + DONE))
    assert run_rulesc("--root", str(tmp_path), "build", "--no-site")[0] == 0


@pytest.mark.parametrize(("text", "url", "name"), [
    ("site_url: https://example.org/rules/ # where it lives\nsite_name: 'Odd # site' # its name\n",
     "https://example.org/rules/", "Odd # site"),
    ("site_name: !ENV [NAME, Fallback]\nsite_url: >-\n  https://example.org/x/\n", "https://example.org/x/",
     "Rules reference"),
    ("nav: []\n", "", "Rules reference"),
    ("site_url:\nsite_name: ''\n", "", "Rules reference"),
])
def test_settings_are_read_as_yaml_reads_them(tmp_path: Path, text: str, url: str, name: str) -> None:
    """A comment after site_url is no part of every permalink; tags are not built; a missing value is unset."""
    from rulesc.build.site_config import read_settings

    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    assert (read_settings(tmp_path).site_url, read_settings(tmp_path).site_name) == (url, name)


def test_hooks_and_inherit_outside_the_project_are_refused_before_mkdocs_runs_them(built: Path,
                                                                                    tmp_path: Path) -> None:
    """A hook is Python that MkDocs imports: one outside the project never runs, the build stops before MkDocs
    starts and changes nothing. INHERIT is relative to the file naming it, hooks to mkdocs.yml's folder."""
    root = tmp_path / "project"
    shutil.copytree(built, root)
    ran = tmp_path / "ran"
    (tmp_path / "evil.py").write_text(f"open({str(ran)!r}, 'w').close()\n", encoding="utf-8")
    (root / "conf").mkdir()
    (root / "conf/base.yml").write_text("hooks:\n  - ../evil.py\n  - conf/hook.py\n", encoding="utf-8")
    (root / "conf/hook.py").write_text("", encoding="utf-8")
    (root / "conf/away.yml").symlink_to(tmp_path / "evil.py")
    (root / "mkdocs.yml").write_text(CONFIG + "INHERIT: conf/base.yml\n", encoding="utf-8")
    before = digest(root)
    assert run_rulesc("--root", str(root), "build") == (1, "", (
        "conf/base.yml:2:5: error[E0336]: hooks names '../evil.py', a file outside the project\n"
        "   2 |   - ../evil.py\n"
        "     |     ^\n"
        "  = hint: rulesc builds only what the project holds: copy the file into it\n" + DONE))
    assert not ran.exists() and digest(root) == before
    (root / "mkdocs.yml").write_text(CONFIG + "INHERIT: ../base.yml\nhooks: [conf/away.yml]\n", encoding="utf-8")
    status, _, err = run_rulesc("--root", str(root), "check")
    assert status == 1
    assert [line for line in err.splitlines() if "error[" in line] == [
        "mkdocs.yml:5:10: error[E0336]: INHERIT names '../base.yml', a file outside the project",
        "mkdocs.yml:6:9: error[E0114]: hooks names 'conf/away.yml': this is a symbolic link to a file outside the "
        "project, which rulesc does not read"]


def test_a_build_reads_mkdocs_yml_once_and_every_stage_takes_what_it_read(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The file is gone right after the settings are read, and the whole build, MkDocs included, still uses it:
    the site's name on the home page, site_url without its comment in the engine and the export."""
    from rulesc import pipeline
    from rulesc.build.site_config import Settings, read_settings

    root = tmp_path / "project"
    shutil.copytree(MINIMAL / "content", root / "content")
    (root / "mkdocs.yml").write_text(CONFIG.replace("Odd site", "Read once") + "site_url: https://x.test/r/ # c\n",
                                     encoding="utf-8")
    reads: list[Path] = []

    def read_then_remove(folder: Path) -> Settings:
        reads.append(folder)
        settings = read_settings(folder)
        (folder / "mkdocs.yml").unlink()
        return settings

    monkeypatch.setattr(pipeline, "read_settings", read_then_remove)
    result = pipeline.build_project(pipeline.Project(root))
    assert reads == [root] and not (root / "mkdocs.yml").exists()
    assert "<title>Read once</title>" in (root / "site/index.html").read_text(encoding="utf-8")
    assert result.settings.site_url == "https://x.test/r/"
    export = (root / "build/export/mini.json").read_text(encoding="utf-8")
    assert "https://x.test/r/mini/" in export and "# c" not in export
