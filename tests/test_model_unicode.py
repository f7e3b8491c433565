"""Names and text are NFC when the model is built, with errors still placed where the text was typed; names and
titles refuse direction controls (E0311)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from rulesc.model import _written_offset, nfc
from rulesc.pipeline import Project, compile_project
from tests.run_case import run_rulesc

SYSTEM = """\
id: accents
title: Accents
summary: Names with accents.
sources:
  - {id: src, file: src.txt, title: Source}
dice:
  summary: Roll a d6.
terms:
  - {id: cafe, name: NAME, aliases: [ALIAS], definition: Where the crew meets.}
"""
CHAPTER = """\
id: basics
title: Basics
order: 1
summary: The basic rules.
rules:
  - id: meeting
    name: RULE
    kind: general
    text: TEXT
    provenance: {source: src, section: Meeting}
"""


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _project(tmp_path: Path, name: str, alias: str, rule: str, text: str) -> Path:
    (tmp_path / "content/accents").mkdir(parents=True)
    system = SYSTEM.replace("NAME", name).replace("ALIAS", alias)
    (tmp_path / "content/accents/system.yaml").write_text(system, encoding="utf-8")
    chapter = CHAPTER.replace("RULE", rule).replace("TEXT", text)
    (tmp_path / "content/accents/basics.yaml").write_text(chapter, encoding="utf-8")
    return tmp_path


def test_names_and_text_typed_decomposed_are_built_composed(tmp_path: Path) -> None:
    root = _project(tmp_path, _nfd("Café"), _nfd("Crème"), _nfd("Réunion"), _nfd("Meet at the café."))
    system = compile_project(Project(root)).programs[0].system
    term, rule = system.terms[0], system.chapters[0].rules[0]
    assert (term.name, term.aliases, rule.name, rule.text.source) == ("Café", ("Crème",), "Réunion",
                                                                       "Meet at the café.")
    assert len(_nfd("Café")) == 5 and len(term.name) == 4


def test_a_term_typed_decomposed_is_mentioned_by_composed_text_and_the_reverse(tmp_path: Path) -> None:
    status, out, err = run_rulesc("--root", str(_project(tmp_path, _nfd("Café"), "Crème", "Meeting",
                                                         "Meet at the Café, over a crème.")), "check", "--strict")
    assert (status, err) == (0, ""), err
    assert out == "rulesc: ok: 1 system(s), 1 rules, 0 formulas, 0 examples passed, 0 calculators\n"


def test_an_error_after_a_decomposed_character_is_placed_where_it_was_typed(tmp_path: Path) -> None:
    text = _nfd("Déjà vu, {{nothing}}.")
    status, _, err = run_rulesc("--root", str(_project(tmp_path, "Café", "Crème", "Meeting", text)), "check")
    column = len("    text: ") + text.index("nothing") + 1
    assert status == 1 and err.startswith(f"content/accents/basics.yaml:9:{column}: error[E0603]: unknown value "
                                          "'nothing' in text"), err
    assert column == len("    text: Déjà vu, {{") + 1 + 2  # two combining accents typed as characters of their own


@pytest.mark.parametrize(("written", "offset", "expected"), [
    ("abc", 2, 2), ("Déjà", 2, 2), (_nfd("Déjà"), 1, 1), (_nfd("Déjà"), 2, 3), (_nfd("Déjà"), 3, 4),
    (_nfd("Déjà"), 4, 6), (_nfd("éé"), 1, 2),
])
def test_an_offset_in_the_composed_text_maps_to_the_written_one(written: str, offset: int, expected: int) -> None:
    assert _written_offset(written, offset) == expected
    assert nfc(written)[:offset] == nfc(written[:expected])


@pytest.mark.parametrize("control", ["\u202a", "\u202e", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c"])
def test_a_direction_control_in_a_name_is_e0311_at_the_character(tmp_path: Path, control: str) -> None:
    name = f'"Ca\\u{ord(control):04X}fe"'
    status, _, err = run_rulesc("--root", str(_project(tmp_path, "Café", "Crème", name, "Meet.")), "check")
    assert status == 1 and err.startswith(
        f"content/accents/basics.yaml:7:14: error[E0311]: rules[0].name holds the invisible direction control "
        f"U+{ord(control):04X}, which makes it display in another order than it reads\n"), err


def test_direction_controls_stay_allowed_in_rule_text(tmp_path: Path) -> None:
    status, _, err = run_rulesc("--root", str(_project(tmp_path, "Café", "Crème", "Meeting",
                                                       '"Meet at the Café \\u200F\\u2067here\\u2069."')), "check")
    assert (status, err) == (0, ""), err
