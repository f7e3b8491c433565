"""Golden cases: each folder under tests/cases/ is a project; `rulesc check` must print exactly expected.txt."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.run_case import case_transcript

CASES = Path(__file__).resolve().parent / "cases"
ALL = sorted(p for kind in ("good", "bad") for p in (CASES / kind).iterdir() if p.is_dir())


@pytest.mark.parametrize("case", ALL, ids=[f"{p.parent.name}/{p.name}" for p in ALL])
def test_case_output_is_exactly_as_recorded(case: Path) -> None:
    expected = (case / "expected.txt").read_text(encoding="utf-8")
    assert case_transcript(case) == expected


def test_good_cases_pass_and_bad_cases_fail() -> None:
    for case in ALL:
        first = (case / "expected.txt").read_text(encoding="utf-8").splitlines()[0]
        assert first == ("exit: 0" if case.parent.name == "good" else "exit: 1"), case


def test_there_are_bad_cases_for_every_stage() -> None:
    codes = {line.split("error[")[1][:5] for case in ALL for line in (case / "expected.txt").read_text().splitlines()
             if "error[" in line}
    for stage in ("E01", "E02", "E04", "E05", "E06"):
        assert any(code.startswith(stage) for code in codes), stage
