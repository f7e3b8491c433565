"""Hostile content that passed check and then broke the build, hung, or vanished: each now a located error."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rulesc.analyze.lint import INERT
from rulesc.analyze.program import LINK, VALUE
from tests.run_case import run_rulesc

MINIMAL = Path(__file__).resolve().parent / "cases" / "good" / "minimal"


def cpu_seconds() -> float:
    """CPU time of this process and the children it has waited for: a bound on work that a busy machine's other
    processes cannot push over, as they can wall time."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


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
    started = cpu_seconds()
    status, out, err = run_rulesc("--root", str(root), "check")
    assert cpu_seconds() - started < 5
    assert (status, out, err) == (1, "", (
        "content/mini/basics.yaml:110:13: error[E0611]: rule 'r17' sits under 17 rules; a rule may sit under at "
        "most 16\n 110 |     parent: r16\n     |             ^\n"
        "  = hint: give it a parent nearer the top; a page shows six levels of headings\n"
        "rulesc: 1 error(s); nothing was written\n"))


def test_a_chain_sixteen_deep_builds(tmp_path: Path) -> None:
    root = project(tmp_path, chain(17))
    status, out, err = run_rulesc("--root", str(root), "build", "--no-site")
    assert (status, err) == (0, "")
    assert "r16" in (root / "build/docs/mini/basics.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("piece", ["[[", "{{", "[[a|", "{{a", "[[pool", "{{ "])
def test_text_scanners_are_linear(piece: str) -> None:
    """Before, 8,000 '[[' in a rule's text took 11 s to check, and 20,000 '{{' 85 s: each try scanned to the end."""
    text = piece * 100_000
    started = cpu_seconds()
    found = [m.group(0) for m in LINK.finditer(text)], [m.group(0) for m in VALUE.finditer(text)], \
        [m.group(0) for m in INERT.finditer(text)]
    assert cpu_seconds() - started < 1
    assert found == ([], [], [])


def test_the_linear_scanners_read_links_and_values_as_before() -> None:
    text = "[[a]] [[ b | the b ]] {{ c }} {{d}} {{ e  f }} [[x[y]] {{g{h}} [[z|w]]"
    assert [m.groups() for m in LINK.finditer(text)] == [("a", None), (" b ", " the b "), ("z", "w")]
    assert [(m.group(1), m.start(1)) for m in VALUE.finditer(text)] == [("c", 25), ("d", 32), ("e  f", 39)]


def test_rule_text_of_a_hundred_thousand_brackets_checks_in_seconds(tmp_path: Path) -> None:
    root = project(tmp_path, chain(2).replace("text: A rule on a [[pool]].", "text: '" + "[[" * 50_000 + "{{" * 50_000
                                               + "'", 1))
    started = cpu_seconds()
    status, out, _ = run_rulesc("--root", str(root), "check")
    assert cpu_seconds() - started < 10
    assert (status, out) == (0, "rulesc: ok: 1 system(s), 2 rules, 0 formulas, 0 examples passed, 0 calculators\n")
