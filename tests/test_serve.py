"""rulesc serve: the preview is served, and an edit to content shows up in it without a restart."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import copy_project

PAGE = "dbu/core-rules/tier-of-power-section/"  # the part of its chapter with Breakthrough


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


def test_serve_shows_an_edited_rule(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "p")
    port = _free_port()
    url = f"http://127.0.0.1:{port}/{PAGE}"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:  # a file, not a pipe nobody reads, which would stall the server once full
        server = subprocess.Popen([sys.executable, "-m", "generator.cli", "--root", str(root), "serve",
                                   "--dev-addr", f"127.0.0.1:{port}"], stdout=out, stderr=subprocess.STDOUT)
    try:
        assert _shows(url, 'id="breakthrough"', 180), log.read_text(errors="replace")[-2000:]
        chapter = root / "content/dbu/core-rules.yaml"
        text = chapter.read_text()
        marker = "Zanzibarian"
        edited = text.replace("Raising your Tier of Power for a while",
                              f"{marker} note: raising your Tier of Power for a while", 1)
        assert edited != text
        before = _fetch(url)
        assert before is not None and marker not in before
        chapter.write_text(edited)
        assert _shows(url, marker, 120), log.read_text(errors="replace")[-2000:]
    finally:
        server.terminate()
        server.wait(timeout=30)
