"""Term linking's grouped pattern must find exactly what one alternation of every name finds."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.emit.markup import Markup, _alternatives, _term_pattern
from generator.model import Term
from generator.pipeline import Project, compile_project

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = compile_project(Project(ROOT)).programs


def _matches(pattern: object, text: str) -> list[tuple[tuple[int, int], str]]:
    return [(m.span(), m.group()) for m in pattern.finditer(text)]  # type: ignore[attr-defined]


def _alternation(terms: tuple[Term, ...]) -> object:
    return _alternatives({n for t in terms for n in (t.name, *t.aliases)}, {a for t in terms for a in t.abbreviations})


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.system.id for p in PROGRAMS])
def test_grouped_pattern_finds_what_the_alternation_finds_in_every_text(program: object) -> None:
    terms = program.system.terms  # type: ignore[attr-defined]
    texts = [r.text.source for r in program.system.rules()] + [t.definition.source for t in terms]  # type: ignore[attr-defined]
    names = [n for t in terms for n in (t.name, *t.aliases)]
    texts.append(" ".join(n.upper() + "," for n in names) + " ".join(n.lower() + "es" for n in names))
    grouped, whole = _term_pattern(terms), _alternation(terms)
    found = [_matches(grouped, text) for text in texts]
    assert found == [_matches(whole, text) for text in texts]
    assert sum(map(len, found)) > 20  # the texts do mention terms


def _term(name: str, abbreviations: tuple[str, ...] = (), aliases: tuple[str, ...] = ()) -> Term:
    return Term(name.lower().replace(" ", "-"), name, abbreviations, aliases, None, None, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    "KP and kp and Kp", "Ki Points cost KP", "the \u212ai Points (Kelvin sign)", "ki pointses", "-KP KP- xKP",
    "Strength and strengths", "\u017ftrength with a long s", "Tier of Power and tier  of\npower", "(T) costs",
])
def test_grouped_pattern_agrees_on_case_folds_and_boundaries(text: str) -> None:
    terms = (_term("Ki Points", ("KP",)), _term("Ki", ("K",)), _term("Strength", aliases=("Str",)),
             _term("Tier of Power", ("ToP",)), _term("(T)"), _term("kp bonus"))
    assert _matches(_term_pattern(terms), text) == _matches(_alternation(terms), text)


def test_pages_and_search_records_share_one_markup_per_program() -> None:
    program = PROGRAMS[0]
    assert Markup.of(program) is Markup.of(program)
    rule = program.system.rules()[0]
    markup = Markup.of(program)
    assert markup.plain(rule.text) == Markup(program).plain(rule.text)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.system.id for p in PROGRAMS])
def test_each_text_parses_once_and_renders_as_if_parsed_afresh(program: object) -> None:
    from generator.emit.markup import Section

    rules = program.system.rules()  # type: ignore[attr-defined]
    previewed, rendered_first = Markup(program), Markup(program)  # type: ignore[arg-type]
    for rule in rules:
        previewed.plain(rule.text)  # as a link's preview does before the rule's own section is written
    for rule in rules:
        fresh = Markup(program)  # type: ignore[arg-type]
        html = fresh.block(rule.text, Section("p/", rule.id))
        assert previewed.block(rule.text, Section("p/", rule.id)) == html
        assert rendered_first.block(rule.text, Section("p/", rule.id)) == html
        assert rendered_first.plain(rule.text) == Markup(program).plain(rule.text)  # type: ignore[arg-type]
    assert not [r.id for r in rules if r.text.source in previewed._parsed]  # each preview's parse was taken over
