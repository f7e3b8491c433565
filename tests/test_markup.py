"""Markup: the grouped term pattern finds what one alternation finds; the prose short cut renders as markdown-it."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest
from markdown_it.token import Token

from rulesc.analyze.program import Program
from rulesc.analyze.terms import alternatives, shields, term_keys, term_of, term_pattern
from rulesc.emit.site.markup import Markup, Paragraphs, Section, _shields, prose_paragraphs
from rulesc.model import Term
from rulesc.pipeline import Project, compile_project

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = sorted(path.parent.name for path in (ROOT / "content").glob("*/system.yaml"))


@functools.cache
def _compiled(root: Path) -> tuple[Program, ...]:
    """A project's programs, compiled by the first test that reads them (not while collecting)."""
    return tuple(compile_project(Project(root)).programs)


def _case(name: str) -> Program:
    return _compiled(ROOT / "tests/cases/good" / name)[0]


def _first() -> Program:
    return _compiled(ROOT)[0]


@pytest.fixture(params=SYSTEMS)
def program(request: pytest.FixtureRequest) -> Program:
    """Each bundled system's program, by the name of its folder."""
    return next(p for p in _compiled(ROOT) if p.system.id == request.param)


def test_every_bundled_system_is_one_of_the_systems_tested() -> None:
    assert sorted(p.system.id for p in _compiled(ROOT)) == SYSTEMS


def _matches(pattern: object, text: str) -> list[tuple[tuple[int, int], str]]:
    return [(m.span(), m.group()) for m in pattern.finditer(text)]  # type: ignore[attr-defined]


def _alternation(terms: tuple[Term, ...], shielding: set[str] | None = None) -> object:
    names = {n for t in terms for n in (t.name, *t.aliases)} | (shielding or set())
    return alternatives(names, {a for t in terms for a in t.abbreviations})


def test_grouped_pattern_finds_what_the_alternation_finds_in_every_text(program: object) -> None:
    terms = program.system.terms  # type: ignore[attr-defined]
    texts = [r.text.source for r in program.system.rules()] + [t.definition.source for t in terms]  # type: ignore[attr-defined]
    found_shields = _shields(program)  # type: ignore[arg-type]
    names = [n for t in terms for n in (t.name, *t.aliases)] + sorted(found_shields)
    texts.append(" ".join(n.upper() + "," for n in names) + " ".join(n.lower() + "es" for n in names))
    grouped, whole = term_pattern(terms, found_shields), _alternation(terms, found_shields)
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
    assert _matches(term_pattern(terms), text) == _matches(_alternation(terms), text)


LINKED = re.compile(r'<a href="[^"]*#([\w-]+)" class="rulesc-ref rulesc-ref--term"[^>]*>([^<]*)</a>')


@pytest.mark.parametrize("rule, links", [
    ("blast", [("effect", "Effect"), ("clash", "Clash"), ("fiction-rule", "Fiction Rule")]),
    ("duel-clash", [("ki-points", "Ki Points"), ("ki", "Ki"), ("clash", "Clash")]),
    ("attack-roll", [("attack", "attack")]),
    ("attack-bang", [("attack", "attack")]),
])
def test_a_term_is_linked_only_outside_longer_names(rule: str, links: list[tuple[str, str]]) -> None:
    # "Area of Effect" (a declared phrase), "Duel Clash(es)" and "Attack roll(s)" (rule names) and "Attack!" (a
    # rule's name one character longer than a term) link nothing inside; "The Fiction Rule" names the rule
    # that defines Fiction Rule, so the term is linked in it.
    longest = _case("longest-name-links")
    html = Markup(longest).block(longest.rules[rule].text, Section("basics.md", rule))
    assert LINKED.findall(html) == links


def test_shields_are_the_longer_names_that_hold_a_term_without_meaning_it() -> None:
    terms = _case("longest-name-links").system.terms
    names = [("Area of Effect", None), ("Effects", "effects"), ("The Fiction Rule", "the-fiction-rule"),
             ("The Fiction Rule", None), ("Duel Clash", "duel-clash"), ("Blast", "blast"), ("Attack!", "x"),
             ("KP Cost", None), ("Kp cost", None), ("Kiwi Points", None)]
    assert shields(terms, names) == {"Area of Effect", "The Fiction Rule", "Duel Clash", "Attack!", "KP Cost"}
    keys = term_keys(terms)
    assert [term_of(keys, found) for found in ("Attack!", "attacks", "Clashes", "Clashs", "Ki Pointses")] == \
        [None, keys["\0attack"], keys["\0clash"], keys["\0clash"], keys["\0ki points"]]


def test_pages_and_search_records_share_one_markup_per_program() -> None:
    program = _first()
    assert Markup.of(program) is Markup.of(program)
    rule = program.system.rules()[0]
    markup = Markup.of(program)
    assert markup.plain(rule.text) == Markup(program).plain(rule.text)


@pytest.fixture
def patterns_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Markup() works out its system's term pattern once: a Markup made fresh for each rule starts with no parse,
    preview or rendering of its own, but working the same pattern out again for each took nine tenths of the time
    of the test below. The pattern depends on the terms and the shielding names alone."""
    from rulesc.emit.site import markup

    shielded: dict[int, set[str]] = {}
    pattern = functools.cache(lambda terms, shielding: term_pattern(terms, shielding))

    def shields_once(program: Any) -> set[str]:
        if id(program) not in shielded:
            shielded[id(program)] = _shields(program)
        return shielded[id(program)]
    monkeypatch.setattr(markup, "_shields", shields_once)
    monkeypatch.setattr(markup, "term_pattern", lambda terms, shielding=(): pattern(terms, frozenset(shielding)))


@pytest.mark.usefixtures("patterns_once")
def test_each_text_parses_once_and_renders_as_if_parsed_afresh(program: object) -> None:
    from rulesc.emit.site.markup import Section

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


def prose_tokens(paragraphs: Paragraphs) -> list[Token]:
    """The tokens markdown-it makes of prose: per paragraph, a text token a line and soft breaks between them."""
    tokens: list[Token] = []
    for lines in paragraphs:
        children: list[Token] = []
        for index, line in enumerate(lines):
            if index:
                children.append(Token("softbreak", "br", 0))
            children.append(Token("text", "", 0, content=line))
        inline = Token("inline", "", 0, content="\n".join(lines), block=True, children=children)
        tokens += [Token("paragraph_open", "p", 1, block=True), inline, Token("paragraph_close", "p", -1, block=True)]
    return tokens


def _both_ways(markup: Markup, text: str) -> tuple[object, object]:
    """(rendering, plain text) from markdown-it's parse and from prose_paragraphs' (None if it declined)."""
    protected = markup._protect(text)
    paragraphs = prose_paragraphs(protected)
    if paragraphs is None:
        return None, None
    parsed = markup.md.parse(protected)
    assert markup._text_of(paragraphs) == markup._text_of(parsed)
    ways = [(markup.md.renderer.render(t, markup.md.options, {}), markup._text_of(t))
            for t in (parsed, prose_tokens(paragraphs))]
    return ways[0], ways[1]


def _synthetic_texts() -> list[str]:
    import tempfile

    from rulesc.bench.synthetic import write_rulebook

    with tempfile.TemporaryDirectory() as folder:
        write_rulebook(Path(folder), 300, ROOT)
        programs = compile_project(Project(Path(folder))).programs
    return [t.source for p in programs for r in p.system.rules() for t in (r.text, *r.items)]


def test_prose_renders_as_markdown_it_parses_every_text(program: object) -> None:
    markup = Markup(program)  # type: ignore[arg-type]
    system = program.system  # type: ignore[attr-defined]
    texts = [t.source for r in system.rules() for t in (r.text, *r.items)] + [t.definition.source for t in system.terms]
    if system.id == "dbu":
        texts += _synthetic_texts()
    compared = 0
    for text in texts:
        expected, got = _both_ways(markup, text)
        assert got == expected, text
        compared += got is not None
    assert compared > len(texts) / 3  # most rule text is prose and takes the short way


@pytest.mark.parametrize("text, prose", [
    ("One sentence.", True),
    ("  Leading and trailing spaces.  ", True),
    ("Two lines\nof one paragraph. ", True),
    ("A paragraph.\n\n   \n\nAnother, after blank lines with spaces.", True),
    ("Costs {{power_up_cost}} AD, see [[tier-of-power]] and [[r-1|the rule before]].", True),
    ("Punctuation that no rule takes: $5, 50%, a@b, 1+1=2, 3-2, (a: b), \"q\" 'q' ? ! ^ { }.", True),
    ("Unicode — “quotes” and é are text.", True),
    ("A {{_odd}} value name", True),  # an underscore after punctuation could open emphasis: parked, so prose
    ("A {{__all__}} and {{b_}} value", True),  # never read as bold, whatever the names
    ("Hard break  \nhere", False),
    ("Tab\tinside", False),
    ("No\u00a0break space", False),
    ("1. a list", False),
    ("Text\n2) a list", False),
    ("Text\n- item", False),
    ("Title\n===", False),
    ("# Heading", False),
    ("> quote", False),
    ("    code", False),
    ("*emphasis*", False),
    ("a `code` span", False),
    ("a <b>tag</b>", False),
    ("an &amp; entity", False),
    ("~~struck~~", False),
    ("a | b\n--|--\nc | d", False),
    ("escaped \\* star", False),
])
def test_only_prose_takes_the_short_way_and_renders_as_markdown_it_does(text: str, prose: bool) -> None:
    markup = Markup(_first())
    assert (prose_paragraphs(markup._protect(text)) is not None) == prose
    if prose:
        expected, got = _both_ways(markup, text)
        assert got == expected


def test_prose_refuses_every_whitespace_character_but_space_and_newline() -> None:
    import re

    spaces = [chr(c) for c in range(0x3001) if re.match(r"\s", chr(c)) and chr(c) not in " \n"]
    assert len(spaces) > 20
    assert [c for c in spaces if prose_paragraphs(f"a{c}b") is not None] == []


def test_block_writes_what_markdown_its_parse_gives_rewritten_and_rendered(program: object) -> None:
    system = program.system  # type: ignore[attr-defined]
    owners = [(r.id, t.source) for r in system.rules() for t in (r.text, *r.items)]
    owners += [(t.id, t.definition.source) for t in system.terms]
    if system.id == "dbu":
        owners += [("synthetic", text) for text in _synthetic_texts()]
    fast, reference = Markup(program), Markup(program)  # type: ignore[arg-type]
    for owner, text in owners:
        tokens = reference.md.parse(reference._protect(text))
        reference._rewrite(tokens, Section("page.md", owner))
        expected = reference.md.renderer.render(tokens, reference.md.options, {}).strip()
        assert fast.block(text, Section("page.md", owner)) == expected, text
        assert fast.plain(text) == reference._text_of(reference.md.parse(reference._protect(text))), text


@pytest.mark.parametrize("name", ["__all__", "_odd", "b_", "a__b", "x*y"])
def test_a_value_whose_name_markdown_could_read_as_emphasis_is_filled_in_as_written(name: str) -> None:
    # Found by tests/test_names.py: a value named __all__ showed as "{{<strong>all</strong>}}" on the page.
    markup = Markup(_first())
    markup.values[name] = 7
    text = f"It costs {{{{{name}}}}} and *more*."
    assert markup.block(text, Section("p.md")) == "<p>It costs 7 and <em>more</em>.</p>"
    assert markup.inline(text, Section("p.md")) == "It costs 7 and <em>more</em>."
    assert markup.plain(text) == "It costs 7 and more."


def test_a_term_link_inside_a_sentence_reads_as_the_text_types_the_term() -> None:
    # The system's text types "action" in lower case inside sentences and "Escalation" with its capital; it never
    # types Momentum, which keeps its name's case. A link that starts a sentence or a list item keeps the capital.
    cased = _case("term-link-case")
    rule = cased.rules["press-on"]
    html = Markup(cased).block(rule.text, Section("basics.md", rule.id))
    assert LINKED.findall(html) == [("action", "action"), ("action", "Action"), ("escalation", "Escalation"),
                                    ("momentum", "Momentum"), ("action", "Action")]
    assert Markup(cased).plain(rule.text) == ("Make an action roll. Action rolls add your stat; at each step of "
                                              "Escalation the stakes rise, and you may spend Momentum to push. "
                                              "Action first, then the story.")
