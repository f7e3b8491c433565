"""Facts read by the kinds their system declares: every shape a kind's type takes, and a clear E0306/E0307 with
file:line:col for each that does not fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.model import ANY_TIMES
from rulesc.pipeline import Project, compile_project
from tests.run_case import run_rulesc

SYSTEM = """\
id: x-1
title: X One
summary: Facts of every type.
sources:
  - {id: s, file: s.txt, title: S}
dice:
  summary: Roll a d6.
scalings:
  - {notation: lvl, label: Level, min: 1, max: 20}
facts:
  - {id: zap, label: Zap cost, type: cost, unit: zap, scalings: [lvl]}
  - {id: moves, label: Moves, type: count, units: [step, leap]}
  - {id: often, label: Often, type: limit, per: [scene]}
  - {id: mood, label: Mood, type: choice, options: [calm, wild-ish]}
  - {id: see, label: See, type: rule}
  - {id: needs, label: Needs, type: requires}
  - {id: bars, label: Bars, type: excludes}
  - {id: picks, label: Picks, type: times}
  - {id: aside, label: Aside, type: text}
  - {id: hurt, label: Hurt, type: dice}
terms: []
"""
RULE = """\
id: c
title: C
order: 1
summary: C.
rules:
  - id: other
    name: Other
    kind: upgrade
    text: Another.
    provenance: {{source: s, section: S}}
  - id: three
    name: Three
    kind: upgrade
    text: A third.
    provenance: {{source: s, section: S}}
  - id: one
    name: One
    kind: upgrade
    text: One rule with {{{{zap_amount}}}} zap.
    provenance: {{source: s, section: S}}
    facts:
      {facts}
"""


def _project(tmp_path: Path, facts: str) -> Path:
    root = tmp_path / "p"
    (root / "content/x-1").mkdir(parents=True, exist_ok=True)
    (root / "content/x-1/system.yaml").write_text(SYSTEM)
    (root / "content/x-1/c.yaml").write_text(RULE.format(facts=facts))
    return root


def test_every_type_reads_its_shapes(tmp_path: Path) -> None:
    facts = ("zap: {amount: 0, scaling: lvl, value: zap_amount, note: at least}\n      moves: {amount: 2, unit: leap}\n"
             "      often: [{count: 2, per: scene}]\n      mood: wild-ish\n      see: [other, one]\n"
             "      needs: other\n      bars: [three]\n      picks: any\n      aside: '7 is lucky'\n      hurt: 2d6")
    program = compile_project(Project(_project(tmp_path, facts))).programs[0]
    rule = program.rules["one"]
    assert dict(rule.values) == {"zap_amount": 0}
    got = {f.kind.id: f for f in rule.facts}
    assert got["zap"].amount is not None and (got["zap"].amount.scaling, got["zap"].amount.note) == ("lvl", "at least")
    assert got["moves"].amount is not None and got["moves"].amount.unit == "leap"
    assert [(x.count, x.per) for x in got["often"].limits] == [(2, "scene")]
    assert (got["mood"].words, got["see"].ids, got["needs"].ids) == ("wild-ish", ("other", "one"), ("other",))
    assert (got["picks"].times, got["hurt"].words, got["aside"].words) == (ANY_TIMES, "2d6", "7 is lucky")
    assert program.upgrades["one"].requires == ("other",) and program.upgrades["one"].excludes == ("three",)


@pytest.mark.parametrize(("facts", "message"), [
    ("zap: {amount: 2, scaling: T}", "fact 'zap' does not fit its kind (cost): scaling 'T' is not one of the kind's "
     "scalings (lvl)"),
    ("zap: {amount: 2, text: Varies}", "expected either amount: or text:, not both nor neither"),
    ("zap: {text: Varies, value: zap_amount}", "value: names a number, so it needs amount:"),
    ("zap: {amount: 2, value: Zap-Amount}", "value 'Zap-Amount' is no formula-language name"),
    ("zap: {amount: 2, cost: 3}", "expected a number, the source's words or an amount"),
    ("moves: {amount: 1, unit: hop}", "unit 'hop' is not one of the kind's units (step, leap)"),
    ("often: [{count: 0, per: scene}]", "expected a list of one or more {count, per}, each count 1 or more"),
    ("often: []", "expected a list of one or more {count, per}, each count 1 or more, got []"),
    ("needs: []", "expected a rule id or a list of one or more, got []"),
    ("aside: '  '", "(text): expected words, got '  '"),
    ("zap: {amount: 2, scaling: ' '}", "scaling, unit, value, note and text are words"),
    ("often: [{count: 1, per: round}]", "per 'round' is not one of the kind's per (scene)"),
    ("mood: angry", "expected one of calm, wild-ish"),
    ("picks: 0", "expected a whole number of 1 or more, any, or {amount, value}"),
    ("picks: {amount: 2, value: 9lives}", "expected a whole number of 1 or more, any, or {amount, value}"),
    ("hurt: 2x6", "expected dice"),
    ("see: {id: other}", "expected a rule id or a list of them"),
])
def test_a_fact_that_does_not_fit_its_kind_is_e0307_where_it_is(tmp_path: Path, facts: str, message: str) -> None:
    status, out, err = run_rulesc("--root", str(_project(tmp_path, facts)), "check")
    first = err.splitlines()[0]
    assert status == 1 and first.startswith("content/x-1/c.yaml:22:") and "error[E0307]" in first, err
    assert message in first


def test_a_named_number_of_times_is_a_value_and_shows_as_a_cap(tmp_path: Path) -> None:
    program = compile_project(Project(_project(tmp_path, "picks: {amount: 4, value: zap_amount}"))).programs[0]
    assert dict(program.rules["one"].values) == {"zap_amount": 4}
    assert program.upgrades["one"].max_times == 4


def test_an_undeclared_fact_kind_is_e0306_with_the_closest_kind(tmp_path: Path) -> None:
    status, _, err = run_rulesc("--root", str(_project(tmp_path, "zaps: 2\n      zap: {amount: 1, value: zap_amount}")),
                                "check")
    assert status == 1
    assert err.splitlines()[0] == "content/x-1/c.yaml:22:7: error[E0306]: unknown fact kind 'zaps'"
    assert "  = hint: did you mean 'zap'?" in err.splitlines()


NOTE = ("{source: s, section: S, unstated: [{what: The source names no requirement., "
        "reasoning: It changes what Other does., fact: %s}]}")


def _noted(tmp_path: Path, fact: str, term_fact: str | None = None) -> Path:
    """The project with rule one's provenance holding a note about its fact `fact` (and a term noting one)."""
    root = _project(tmp_path, "needs: [other]\n      zap: {amount: 1, value: zap_amount}")
    chapter = root / "content/x-1/c.yaml"
    text = chapter.read_text()
    at = text.index("  - id: one")
    chapter.write_text(text[:at] + text[at:].replace("{source: s, section: S}", NOTE % fact, 1))
    if term_fact is not None:
        system = root / "content/x-1/system.yaml"
        system.write_text(system.read_text().replace("terms: []", "terms:\n  - id: zip\n    name: Zip\n    definition: "
                                                     f"Other's zap.\n    provenance: {NOTE % term_fact}"))
    return root


def test_a_note_about_a_fact_marks_that_fact_as_assumed_on_the_page_and_in_the_export(tmp_path: Path) -> None:
    from rulesc.emit.export import _provenance
    from rulesc.emit.site.fragments import plain_style
    from rulesc.emit.site.reading import stat_block

    program = compile_project(Project(_noted(tmp_path, "needs"))).programs[0]
    rule = program.rules["one"]
    assert [g.fact for g in rule.provenance.unstated] == ["needs"]
    html = stat_block(program.system, rule, plain_style(program.system, {"other": "Other"}))
    assumed = '<span class="rulesc-assumed">(assumed, not stated by the source)</span>'
    assert f"<dt>Needs</dt><dd>Other {assumed}</dd>" in html
    assert "<dt>Zap cost</dt><dd>1 zap</dd>" in html  # only the noted fact is marked
    assert _provenance(rule.provenance)["unstated"][0]["fact"] == "needs"
    assert _provenance(program.rules["other"].provenance)["unstated"] == []


@pytest.mark.parametrize(("fact", "term_fact", "where", "hint"), [
    ("bars", None, "content/x-1/c.yaml:20:", "the rule gives needs, zap"),
    ("needs", "needs", "content/x-1/system.yaml:", "a term has no facts; remove fact: from its note"),
])
def test_a_note_about_a_fact_not_given_is_e0310(tmp_path: Path, fact: str, term_fact: str | None, where: str,
                                                 hint: str) -> None:
    status, _, err = run_rulesc("--root", str(_noted(tmp_path, fact, term_fact)), "check")
    owner = "term" if term_fact else "rule"
    assert status == 1 and err.splitlines()[0].startswith(where), err
    assert err.splitlines()[0].endswith(f"error[E0310]: the note on what the source leaves unstated is about the "
                                        f"fact '{fact}', which this {owner} does not give")
    assert f"  = hint: {hint}" in err.splitlines()
