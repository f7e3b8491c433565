"""Runs rulesc on one case folder and returns its exit status and combined output, as the golden files record."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from rulesc.cli.main import main


def run_rulesc(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def case_transcript(case: Path) -> str:
    status, out, err = run_rulesc("--root", str(case), "check")
    return f"exit: {status}\n{out}{err}"
