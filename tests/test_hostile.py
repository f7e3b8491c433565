"""Hostile content that passed check and then broke the build, hung, or vanished: each now a located error."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from tests.run_case import run_rulesc

MINIMAL = Path(__file__).resolve().parent / "cases" / "good" / "minimal"


def project(tmp_path: Path, chapter: str) -> Path:
    shutil.copytree(MINIMAL / "content", tmp_path / "content")
    (tmp_path / "content/mini/basics.yaml").write_text(chapter, encoding="utf-8")
    return tmp_path


def chain(length: int) -> str:
    """A chapter of `length` rules, each the parent of the next."""
    rules = [f"  - id: r{n}\n    name: Rule {n}\n    kind: general\n" + (f"    parent: r{n - 1}\n" if n else "")
             + "    text: A rule on a [[pool]].\n    provenance: {source: src, section: S}\n" for n in range(length)]
    return "id: basics\ntitle: Basics\norder: 1\nsummary: Rules.\nrules:\n" + "".join(rules)


def test_a_parent_chain_as_long_as_a_book_is_one_located_error_not_a_crash(tmp_path: Path) -> None:
    root = project(tmp_path, chain(1500))
    started = time.perf_counter()
    status, out, err = run_rulesc("--root", str(root), "check")
    assert time.perf_counter() - started < 5
    assert (status, out, err) == (1, "", (
        "content/mini/basics.yaml:110:13: error[E0609]: rule 'r17' sits under 17 rules; a rule may sit under at "
        "most 16\n 110 |     parent: r16\n     |             ^\n"
        "  = hint: give it a parent nearer the top; a page shows six levels of headings\n"
        "rulesc: 1 error(s); nothing was written\n"))


def test_a_chain_sixteen_deep_builds(tmp_path: Path) -> None:
    root = project(tmp_path, chain(17))
    status, out, err = run_rulesc("--root", str(root), "build", "--no-site")
    assert (status, err) == (0, "")
    assert "r16" in (root / "build/docs/mini/basics.md").read_text(encoding="utf-8")
