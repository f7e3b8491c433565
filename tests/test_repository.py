"""Promises the repository keeps: own-words content, README commands that CI runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OVERLAP_TOOL = REPO.parent / "shared" / "tools" / "seed_overlap.py"


def test_no_sentence_is_copied_from_the_source_documents() -> None:
    assert OVERLAP_TOOL.is_file(), f"the overlap tool is expected at {OVERLAP_TOOL}"
    done = subprocess.run([sys.executable, str(OVERLAP_TOOL), "."], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:]
    assert done.stdout.strip().endswith("seed_overlap: 0 copied run(s) of 10+ words in "
                                        + done.stdout.strip().rsplit(" in ", 1)[1])


def test_readme_opens_with_the_build_and_test_commands() -> None:
    lines = (REPO / "README.md").read_text().splitlines()
    block = lines[lines.index("```sh") + 1: lines.index("```sh") + 3]
    assert block[0].endswith("rulesc build")
    assert block[1].endswith("python -m pytest")
