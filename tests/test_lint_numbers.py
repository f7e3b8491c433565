"""W0705: a number typed in prose that a value of the rule (or of a rule it links) already holds; and the bundled
content passes `rulesc check --strict` with no warning at all."""

from __future__ import annotations

from pathlib import Path

from tests.run_case import run_rulesc

REPO = Path(__file__).resolve().parent.parent
SYSTEM = """\
id: qq-7
format: 2
title: Odd Numbers
summary: A rulebook for the number lint.
sources:
  - {id: scrap, file: scrap.txt, title: A scrap of paper}
dice:
  summary: Roll 3d6.
facts:
  - {id: fuel, label: Fuel, type: cost, unit: fuel}
  - {id: note, label: Note, type: text}
terms: []
"""
RULES = """\
id: moves
title: Moves
order: 1
summary: Moves.
rules:
  - id: leap-x
    name: Leap
    kind: action
    text: {text}
    provenance: {{source: scrap, section: Leap}}
    facts:
      fuel: 3{extra}
    values:
      leap_far: 12{literals}
  - id: land
    name: Land
    kind: general
    text: After a [[leap-x]] you land {{{{land_soft}}}} squares away.
    provenance: {{source: scrap, section: Land}}
    values:
      land_soft: 7
"""


def _check(tmp_path: Path, text: str, extra: str = "", literals: str = "", system: str = SYSTEM) -> list[str]:
    """The W0705 lines `check` prints for the rulebook with the Leap rule's text, facts and literals."""
    root = tmp_path / "book"
    (root / "content/qq-7").mkdir(parents=True, exist_ok=True)
    (root / "content/qq-7/system.yaml").write_text(system)
    (root / "content/qq-7/moves.yaml").write_text(RULES.format(text=text, extra=extra, literals=literals))
    status, out, err = run_rulesc("--root", str(root), "check")
    assert status == 0, err
    return [line for line in (out + err).splitlines() if "W0705" in line]


def test_a_value_typed_again_in_its_rules_text_is_found_where_it_is(tmp_path: Path) -> None:
    found = _check(tmp_path, "Jump {{leap_far}} squares; a long jump is 12 squares.")
    assert found == ["content/qq-7/moves.yaml:9:53: warning[W0705]: the number 12 is typed in prose, but "
                     "'leap_far' holds it"]


def test_a_fact_amount_and_a_linked_rules_value_count_too(tmp_path: Path) -> None:
    found = _check(tmp_path, "Burn 3 fuel, then see [[land]], 7 squares on.")
    assert [line.split(": ", 2)[2] for line in found] == [
        "the number 3 is typed in prose, but 'leap-x's Fuel' holds it",
        "the number 7 is typed in prose, but 'land_soft' holds it"]


def test_values_links_dice_and_other_numbers_are_no_retyped_number(tmp_path: Path) -> None:
    text = "Jump {{leap_far}} squares with [[land|12 ways]] to `12` land; roll 1d12, score 12.5 or 120 or 11."
    assert _check(tmp_path, text) == []


def test_worked_example_prose_opts_out_with_its_numbers_and_a_reason(tmp_path: Path) -> None:
    literals = "\n    literals: {numbers: [12], reason: The example jumps the longest leap.}"
    assert _check(tmp_path, "Jump {{leap_far}} squares. For example, Ana jumps 12 squares.", literals=literals) == []
    found = _check(tmp_path, "Jump {{leap_far}}; burn 3 fuel. For example, 12.", literals=literals)
    assert [line.split(": ", 2)[2] for line in found] == ["the number 3 is typed in prose, but 'leap-x's Fuel' "
                                                          "holds it"]


def test_a_facts_words_are_prose_too(tmp_path: Path) -> None:
    found = _check(tmp_path, "Jump {{leap_far}} squares.", extra="\n      note: At most 12 squares.")
    assert found == ["content/qq-7/moves.yaml:13:13: warning[W0705]: the number 12 is typed in prose, but "
                     "'leap_far' holds it"]


def test_the_bundled_content_passes_check_strict() -> None:
    """CI runs this test: `rulesc check --strict` on content/ exits 0, with no warning (W0705 included)."""
    status, out, err = run_rulesc("--root", str(REPO), "check", "--strict")
    assert (status, err) == (0, "")
    assert out.startswith("rulesc: ok: 4 system(s)")


def test_a_signed_number_is_a_number_too(tmp_path: Path) -> None:
    found = _check(tmp_path, "Jump {{leap_far}} squares; take +12 on a run, (-3) fuel, and −7 when you [[land]].")
    assert [line.split(": ", 2)[2] for line in found] == [
        "the number +12 is typed in prose, but 'leap_far' holds it",
        "the number -3 is typed in prose, but 'leap-x's Fuel' holds it",
        "the number −7 is typed in prose, but 'land_soft' holds it"]


def test_a_format_1_rulebook_keeps_its_signed_numbers_unread(tmp_path: Path) -> None:
    """A rulebook written before signed numbers counted still passes --strict: they count from format 2 on."""
    text = "Jump {{leap_far}} squares; take +12 on a run, (-3) fuel, and 7 when you [[land]]."
    assert [line.split(": ", 2)[2] for line in _check(tmp_path, text, system=SYSTEM.replace("format: 2\n", ""))] == [
        "the number 7 is typed in prose, but 'land_soft' holds it"]


def test_a_sign_between_numbers_is_an_operator_or_a_range(tmp_path: Path) -> None:
    assert _check(tmp_path, "Jump {{leap_far}} squares; roll 1d6+12 or 2d6-3, a range 2-12 or 1-3, n+3 or x-12.") == []
