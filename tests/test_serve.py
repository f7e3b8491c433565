"""rulesc serve: the preview is served, and an edit to content shows up in it without a restart."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rulesc.build.staging import PREVIEW_OUTPUTS
from rulesc.pipeline import Project, refresh_outputs
from tests.conftest import REPO, copy_project

PAGE = "dbu/core-rules/tier-of-power-section/"  # the part of its chapter with Breakthrough


def dbu_project(root: Path) -> Path:
    """The bundled project with only the system the test edits: serve builds the site twice (MkDocs' live build
    and the rebuild after the edit), and the other systems' pages would be most of that work."""
    copy_project(root)
    for system in (root / "content").iterdir():
        if system.name != "dbu":
            shutil.rmtree(system)
    return root


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bytes(response.read()).decode("utf-8")
    except OSError:
        return None


def _shows(url: str, marker: str, seconds: float) -> bool:
    """Whether the page at `url` shows `marker` within `seconds` (a generous bound, not a measurement)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page = _fetch(url)
        if page is not None and marker in page:
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow  # serves a whole build
def test_serve_shows_an_edited_rule(tmp_path: Path) -> None:
    root = dbu_project(tmp_path / "p")
    port = _free_port()
    url = f"http://127.0.0.1:{port}/{PAGE}"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:  # a file, not a pipe nobody reads, which would stall the server once full
        server = subprocess.Popen([sys.executable, "-m", "rulesc.cli", "--root", str(root), "serve",
                                   "--dev-addr", f"127.0.0.1:{port}"], stdout=out, stderr=subprocess.STDOUT)
    try:
        assert _shows(url, 'id="breakthrough"', 180), log.read_text(errors="replace")[-2000:]
        assert (root / "build/docs").is_dir() and not (root / "site").exists()  # site/ is `rulesc build`'s alone
        chapter = root / "content/dbu/core-rules.yaml"
        text = chapter.read_text()
        marker = "Zanzibarian"
        edited = text.replace("Raising your Tier of Power for a while",
                              f"{marker} note: raising your Tier of Power for a while", 1)
        assert edited != text
        before = _fetch(url)
        assert before is not None and marker not in before
        assert 'rel="stylesheet"' not in before and before.count("<style>") == 2  # as `rulesc build` writes it
        chapter.write_text(edited)
        assert _shows(url, marker, 120), log.read_text(errors="replace")[-2000:]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_site_setting_mkdocs_refuses_stops_serve_before_it_writes_anything(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(REPO / "tests/cases/good/minimal/content", root / "content")
    shutil.copytree(REPO / "schema", root / "schema")
    (root / "mkdocs.yml").write_text("site_name: Mini\ntheme:\n  name: material\n  custom_dir: gone\n")
    done = subprocess.run([sys.executable, "-m", "rulesc.cli", "--root", str(root), "serve"], capture_output=True,
                          text=True, timeout=120)  # a server that started anyway fails the test, not hangs it
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.startswith("mkdocs.yml:2:1: error[E0802]: MkDocs refuses 'theme': The path set in custom_dir "
                                  f"('{root / 'gone'}') does not exist.\n"), done.stderr
    assert sorted(p.name for p in root.iterdir()) == ["content", "mkdocs.yml", "schema"]


def test_a_refresh_deletes_the_pages_the_content_no_longer_makes_and_keeps_what_it_never_made(
        tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(REPO / "tests/cases/good/minimal/content", root / "content")
    shutil.copytree(REPO / "schema", root / "schema")
    project, docs = Project(root), root / "build/docs"
    first = refresh_outputs(project, PREVIEW_OUTPUTS)
    assert first.deleted == 0 and first.written == len(first.generated["build/docs"]) > 0
    assert (docs / "mini/basics.md").is_file()
    (docs / "mini/what-changed.md").write_text("written by rulesc build only\n", encoding="utf-8")
    chapter = root / "content/mini/basics.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace("id: basics\n", "id: fundamentals\n", 1),
                       encoding="utf-8")  # the chapter's page moves to a new address
    (docs / "mini/old").mkdir()
    (docs / "mini/old/part.md").write_text("a part of a chapter since merged\n", encoding="utf-8")
    before = {"build/docs": first.generated["build/docs"] | {"mini/old/part.md"}}
    second = refresh_outputs(project, PREVIEW_OUTPUTS, before)
    assert second.deleted == 2
    assert not (docs / "mini/basics.md").exists() and (docs / "mini/fundamentals.md").is_file()
    assert not (docs / "mini/old").exists()  # the folder the part leaves empty goes too
    assert (docs / "mini/what-changed.md").is_file()  # no refresh made it: it stays
    assert "mini/fundamentals.md" in second.generated["build/docs"]
    third = refresh_outputs(project, PREVIEW_OUTPUTS, second.generated)
    assert (third.written, third.deleted) == (0, 0)
