"""Kinds a system declares and structured rules: the words the site uses, outcomes with chances, the export."""

from __future__ import annotations

import itertools
import json
import re
import shutil
from collections.abc import Iterable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from rulesc.kinds import mid_sentence
from rulesc.pipeline import Project, build_project, compile_project

CASE = Path(__file__).resolve().parent / "cases" / "good" / "declared-kinds"
REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def oathbound(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The declared-kinds case built without the site (its Markdown pages, search records, export)."""
    root = tmp_path_factory.mktemp("oathbound")
    shutil.copytree(CASE / "content", root / "content")
    build_project(Project(root), site=False)
    return root


def _docs(root: Path, page: str) -> str:
    return (root / "build/docs" / page).read_text(encoding="utf-8")


def test_mid_sentence_lowers_a_word_but_not_an_initialism() -> None:
    assert [mid_sentence(w) for w in ("Moves", "GM moves", "型", "X", "Élan")] == ["moves", "GM moves", "型", "X",
                                                                                  "élan"]


def test_a_format_1_system_has_todays_kinds_then_rulescs_own() -> None:
    program = compile_project(Project(REPO / "tests/cases/good/minimal")).programs[0]
    assert [(k.id, k.label, k.plural) for k in program.system.kinds] == [
        ("maneuver", "Maneuver", "Maneuvers"), ("upgrade", "Upgrade", "Upgrades"), ("action", "Action", "Actions"),
        ("stunt", "Stunt", "Stunts"), ("keyword", "Keyword", "Keywords"), ("condition", "Condition", "Conditions"),
        ("general", "General rule", "General rules"), ("table", "Table", "Tables"), ("list", "List", "Lists"),
        ("section", "Section", "Sections")]
    assert [k.id for k in program.system.kinds if k.upgrade] == ["upgrade"]


def test_declared_kinds_come_first_and_a_declared_table_renames_rulescs_own() -> None:
    system = compile_project(Project(CASE)).programs[0].system
    assert [(k.id, k.label, k.plural) for k in system.kinds] == [
        ("move", "Move", "Moves"), ("kata", "型", "型"), ("table", "Oracle", "Oracles"), ("list", "List", "Lists"),
        ("section", "Section", "Sections")]
    move = system.kind("move")
    assert move.fields == ("trigger", "roll", "outcomes", "momentum") and move.required == ("trigger", "outcomes")


def test_index_tables_and_home_page_use_the_declared_words(oathbound: Path) -> None:
    tables = _docs(oathbound, "oathbound/tables.md")
    assert [line for line in tables.splitlines() if line.startswith("## ")] == [
        "## Moves {#move}", "## 型 {#kata}", "## Oracles {#table}"]
    assert '<table id="index-move" aria-label="Moves">' in tables and 'aria-label="型"' in tables
    assert ('<th scope="col">Name</th><th scope="col">Chapter</th><th scope="col">Trigger</th><th scope="col">Roll'
            '</th><th scope="col">Momentum</th>') in tables  # the move's trigger and roll are columns of its kind
    assert ('<td data-label="Trigger">When you try something risky or meet a threat head on, say how.</td>'
            '<td data-label="Roll">+Edge or +Heart</td>') in tables
    assert tables.count('<th scope="col">Trigger</th>') == 1  # kept only where a rule fills it
    assert "Index tables</a>: 1 move, 1 型, 1 oracle, filterable" in _docs(oathbound, "oathbound/index.md")


def test_search_records_and_filter_name_kinds_as_the_system_does(oathbound: Path) -> None:
    records = [json.loads(line.rstrip(",")) for line in _docs(oathbound, ".search/records.json").splitlines()[1:-1]]
    kinds = {r["title"]: r["kind"] for r in records if r["kind"] != "calculator"}
    danger = next(r for r in records if r["title"] == "Face Danger" and r["kind"] == "move")
    assert danger["text"] == ("Make an Action roll. When you try something risky or meet a threat head on, say how. "
                              "You do it. Take +1 momentum. You do it at a cost. It goes wrong; pay the price.")
    assert (kinds["Face Danger"], kinds["Action roll"], kinds["Threats"]) == ("move", "型", "oracle")
    search = _docs(oathbound, "search.md")
    assert ('<input type="checkbox" name="kind" value="move"> moves</label><label><input type="checkbox" '
            'name="kind" value="oracle"> oracles</label>') in search
    assert 'value="型"> 型</label>' in search


def action_chances(stat: int, adds: int) -> dict[str, Fraction]:
    """The case's action roll counted out over all 600 rolls (a d6 plus stat and adds against two d10s), without
    rulesc: each outcome's exact chance."""
    counts = {"strong hit": 0, "weak hit": 0, "miss": 0}
    for action, one, two in itertools.product(range(1, 7), range(1, 11), range(1, 11)):
        score = action + stat + adds
        counts["strong hit" if score > max(one, two) else "weak hit" if score > min(one, two) else "miss"] += 1
    return {name: Fraction(count, 600) for name, count in counts.items()}


def chance_rows(page: str, rule: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """The caption of the chances table after a rule's anchor, and each row's label and exact chances."""
    table = page[page.index(f"{{#{rule}"):].split("<table data-rulesc-chances>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', table)
    return re.findall("<caption>(.*?)</caption>", table)[0], [(label, re.findall(r'<data value="([^"]+)"', cells))
                                                              for label, cells in rows]


def test_the_page_shows_trigger_roll_and_each_outcome_with_its_chances_by_stat(oathbound: Path) -> None:
    page = _docs(oathbound, "oathbound/moves.md")
    assert ('<p class="rulesc-trigger"><em>When you try something risky or meet a threat head on, say how.</em></p>'
            '\n<p class="rulesc-roll">Roll +Edge or +Heart, plus adds</p>') in page
    assert ('<dl class="rulesc-outcomes"><div data-outcome="strong hit"><dt>Strong hit</dt><dd>You do it. Take +1 '
            'momentum.</dd></div><div data-outcome="weak hit"><dt>Weak hit</dt><dd>You do it at a cost.</dd></div>'
            '<div data-outcome="miss"><dt>Miss</dt><dd>It goes wrong; pay the price.</dd></div></dl>'
            '<table data-rulesc-chances><caption>Chances by Stat, with Adds 0</caption><thead><tr>'
            '<th scope="col">Stat</th><th scope="col">Strong hit</th><th scope="col">Weak hit</th>'
            '<th scope="col">Miss</th></tr></thead><tbody><tr><th scope="row">1</th>'
            '<td><data value="91/600" title="91/600">15.17%</data></td>'
            '<td><data value="119/300" title="119/300">39.67%</data></td>'
            '<td><data value="271/600" title="271/600">45.17%</data></td></tr>') in page
    caption, rows = chance_rows(page, "face-danger")
    counted = [(str(stat), [str(action_chances(stat, 0)[name]) for name in ("strong hit", "weak hit", "miss")])
               for stat in range(1, 5)]
    assert (caption, rows) == ("Chances by Stat, with Adds 0", counted)
    assert rows[1] == ("2", ["139/600", "131/300", "199/600"])  # the worked example's row
    trigger = page.index("rulesc-trigger")
    assert trigger < page.index("Make an", trigger) < page.index("rulesc-outcomes")  # trigger, text, outcomes
    assert 'data-rulesc-preview="Action roll (型): Roll the action die' in page


def _moves_page(root: Path, *edits: tuple[str, str]) -> str:
    """The case's moves page, built with each (old, new) edit made to its moves.yaml, at the old text's last place."""
    shutil.copytree(CASE / "content", root / "content")
    moves = root / "content/oathbound/moves.yaml"
    text = moves.read_text(encoding="utf-8")
    for old, new in edits:  # the last place the old text is: the rule face-danger's
        before, found, after = text.rpartition(old)
        assert found
        text = before + new + after
    moves.write_text(text, encoding="utf-8")
    build_project(Project(root), site=False)
    return _docs(root, "oathbound/moves.md")


FACE_PARAMS = ("          - {name: stat, type: int, min: 1, max: 4}\n"
               "          - {name: adds, type: int, min: 0, max: 3}\n        expr: action(stat, adds)")


def test_the_first_input_with_few_values_is_the_one_the_chances_go_by(tmp_path: Path) -> None:
    wide = FACE_PARAMS.replace("max: 4}", "max: 40}")
    page = _moves_page(tmp_path, (FACE_PARAMS, wide), ("max: 4, default: 2}", "max: 40, default: 2}"))
    caption, rows = chance_rows(page, "face-danger")
    counted = [(str(adds), [str(action_chances(2, adds)[name]) for name in ("strong hit", "weak hit", "miss")])
               for adds in range(0, 4)]
    assert (caption, rows) == ("Chances by Adds, with Stat 2", counted)


def test_without_an_input_of_few_values_the_chances_are_the_worked_examples(tmp_path: Path) -> None:
    wide = FACE_PARAMS.replace("max: 4}", "max: 40}").replace("max: 3}", "max: 30}")
    example = '{args: {stat: 2, adds: 0}, expect: {"miss": "199/600", "strong hit": "139/600", "weak hit": "131/300"}}'
    page = _moves_page(tmp_path, (FACE_PARAMS, wide), ("max: 4, default: 2}", "max: 40, default: 2}"),
                       ("max: 3, default: 0}", "max: 30, default: 0}"),
                       (f"          - {example}\n    calculators:", f"          - {example}\n"
                        '          - {args: {stat: 5, adds: 1}, expect: {"strong hit": "43/60", "weak hit": "7/30", '
                        '"miss": "1/20"}, note: Past the top of the case\'s own stat.}\n    calculators:'))
    caption, rows = chance_rows(page, "face-danger")
    assert (caption, rows) == ("Chances at the worked examples", [("Stat 2, Adds 0", ["139/600", "131/300", "199/600"]),
                                                                  ("Stat 5, Adds 1", ["43/60", "7/30", "1/20"])])
    assert [str(action_chances(5, 1)[name]) for name in ("strong hit", "weak hit", "miss")] == rows[1][1]
    assert '<th scope="col">Given</th>' in page


def test_a_roll_with_no_inputs_shows_each_chance_beside_its_outcome(tmp_path: Path) -> None:
    fixed = "          []\n        expr: action(2, 0)"
    page = _moves_page(tmp_path, (FACE_PARAMS, fixed), ("args: {stat: 2, adds: 0}, expect: {\"miss\"", "args: {}, "
                                                        "expect: {\"miss\""),
                       ('expr: "face_danger(stat, adds)"', 'expr: "face_danger()"'))
    assert ('<dl class="rulesc-outcomes"><div data-outcome="strong hit"><dt>Strong hit <span class="rulesc-chance">'
            '23.17% (139/600)</span></dt><dd>You do it. Take +1 momentum.</dd></div>') in page
    assert page.count("<table data-rulesc-chances>") == 0


def test_the_export_carries_kinds_and_structure_in_plain_text_and_validates(oathbound: Path) -> None:
    schema = json.loads((oathbound / "build/export/rulesc-export.schema.json").read_text())
    data = json.loads((oathbound / "build/export/oathbound.json").read_text())
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
    assert data["kinds"][0] == {"id": "move", "label": "Move", "plural": "Moves",
                                "fields": ["trigger", "roll", "outcomes", "momentum"],
                                "required": ["trigger", "outcomes"], "upgrade": False}
    rule = next(r for c in data["chapters"] for r in c["rules"] if r["id"] == "face-danger")
    assert rule["trigger"] == {"text": "When you try something risky or meet a threat head on, say how.",
                               "links": []}
    assert rule["roll"] == {"stats": ["Edge", "Heart"], "adds": True, "formula": None}
    assert [o["name"] for o in rule["outcomes"]] == ["strong hit", "weak hit", "miss"]
    assert rule["outcomes"][2] == {"name": "miss", "text": "It goes wrong; pay the price.", "links": []}
    other = next(r for c in data["chapters"] for r in c["rules"] if r["id"] == "threats")
    assert not {"trigger", "roll", "outcomes"} & set(other)  # a rule without them has no such keys


def test_an_outcome_text_with_a_link_exports_its_name_and_id(tmp_path: Path) -> None:
    shutil.copytree(CASE / "content", tmp_path / "content")
    moves = tmp_path / "content/oathbound/moves.yaml"
    moves.write_text(moves.read_text().replace("text: It goes wrong; pay the price.}",
                                               'text: "It goes wrong; make an [[action-roll|action roll]] again."}'))
    build_project(Project(tmp_path), site=False)
    data = json.loads((tmp_path / "build/export/oathbound.json").read_text())
    rule = next(r for c in data["chapters"] for r in c["rules"] if r["id"] == "face-danger")
    assert rule["outcomes"][2] == {"name": "miss", "text": "It goes wrong; make an action roll again.",
                                   "links": ["action-roll"]}


def test_a_bad_schema_for_the_structure_is_caught(oathbound: Path) -> None:
    schema = json.loads((oathbound / "build/export/rulesc-export.schema.json").read_text())
    data = json.loads((oathbound / "build/export/oathbound.json").read_text())
    rule = next(r for c in data["chapters"] for r in c["rules"] if r["id"] == "face-danger")
    rule["outcomes"][0]["text"] = {"markdown": "x"}
    del data["kinds"][0]["plural"]
    paths = sorted(list(e.absolute_path) for e in Draft202012Validator(schema).iter_errors(data))
    assert paths == [["chapters", 0, "rules", 1, "outcomes", 0, "text"], ["kinds", 0]]


def _leaves(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """The errors that name what is wrong, below each allOf and if/then that holds them."""
    for error in errors:
        yield from _leaves(error.context) if error.context else (error,)


def _validator(root: Path, system: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((root / f"build/schema/{system}/chapter.schema.json").read_text()))


def test_each_system_gets_an_editor_schema_naming_its_kinds_and_their_fields(oathbound: Path) -> None:
    import yaml

    text = (oathbound / "build/schema/oathbound/chapter.schema.json").read_text()
    assert "$ref" not in text  # self-contained: an editor needs no other file to read it
    schema = json.loads(text)
    rule = schema["properties"]["rules"]["items"]
    assert rule["properties"]["kind"]["enum"] == ["move", "kata", "table", "list", "section"]
    chapter = yaml.safe_load((oathbound / "content/oathbound/moves.yaml").read_text())
    validator = _validator(oathbound, "oathbound")
    assert list(validator.iter_errors(chapter)) == []
    chapter["rules"][0]["trigger"] = "When you train."  # a kata has no trigger
    chapter["rules"][1]["facts"] = {"rank": "epic"}  # nor does a move have a rank
    del chapter["rules"][1]["outcomes"]  # and a move must give its outcomes
    chapter["rules"][2]["kind"] = "spell"
    problems = sorted((list(e.absolute_path), e.message) for e in _leaves(validator.iter_errors(chapter)))
    assert problems == [(["rules", 0], "False schema does not allow 'When you train.'"),
                        (["rules", 1], "'outcomes' is a required property"),
                        (["rules", 1, "facts"], "'rank' is not one of ['momentum']"),
                        (["rules", 2, "kind"], "'spell' is not one of ['move', 'kata', 'table', 'list', 'section']")]


def test_the_bundled_content_fits_its_systems_editor_schemas(built: Path) -> None:
    import yaml

    for system in ("action-dice", "annulus", "dbu", "focus-stunts"):
        validator = _validator(built, system)
        for path in sorted((REPO / "content" / system).glob("*.yaml")):
            if path.name != "system.yaml":
                assert list(validator.iter_errors(yaml.safe_load(path.read_text()))) == [], path.name


def test_diff_reports_a_changed_trigger_roll_and_outcome(tmp_path: Path) -> None:
    from rulesc.diff.fields import rule_fields

    shutil.copytree(CASE / "content", tmp_path / "content")
    old = compile_project(Project(tmp_path)).programs[0]
    moves = tmp_path / "content/oathbound/moves.yaml"
    moves.write_text(moves.read_text().replace("meet a threat head on", "face a threat").replace(
        "roll: {stats: [Edge, Heart], adds: true}", "roll: {stats: [Edge], formula: action}").replace(
        "You do it at a cost.", "You do it at a price."))
    new = compile_project(Project(tmp_path)).programs[0]
    fields, texts = rule_fields(old, new, old.rules["face-danger"], new.rules["face-danger"])
    assert fields == [("roll", "+Edge or +Heart, plus adds", "+Edge (action)")]
    assert [name for name, _ in texts] == ["trigger", "outcome weak hit"]


def test_declared_words_are_escaped_wherever_they_are_shown(tmp_path: Path) -> None:
    shutil.copytree(CASE / "content", tmp_path / "content")
    system = tmp_path / "content/oathbound/system.yaml"
    system.write_text(system.read_text().replace("    label: Move\n", "    label: 'Mo<b>ve & \"q\"'\n").replace(
        "    plural: Moves\n", "    plural: 'GM <i>moves</i>'\n"))
    build_project(Project(tmp_path), site=False)
    tables = _docs(tmp_path, "oathbound/tables.md")
    assert "## GM &lt;i&gt;moves&lt;/i&gt; {#move}" in tables
    assert 'aria-label="GM &lt;i&gt;moves&lt;/i&gt;"' in tables  # an initialism keeps its case mid-sentence
    assert "Index tables</a>: 1 mo&lt;b&gt;ve &amp; &quot;q&quot;, 1 型" in _docs(tmp_path, "oathbound/index.md")
    assert ('value="mo&lt;b&gt;ve &amp; &quot;q&quot;"> GM &lt;i&gt;moves&lt;/i&gt;</label>'
            in _docs(tmp_path, "search.md"))


def test_a_roll_reads_as_the_book_writes_it() -> None:
    from rulesc.diagnostics.core import Span
    from rulesc.emit.site.structured import roll_line
    from rulesc.model import Roll

    span = Span("x.yaml", 1, 1)
    assert [roll_line(Roll(stats, adds, None, span)) for stats, adds in
            [(("Edge", "Heart"), True), (("Iron",), False), ((), True), ((), False), (("<b>",), False),
             (("Heart", "Iron", "Shadow"), False)]] == [
        '<p class="rulesc-roll">Roll +Edge or +Heart, plus adds</p>', '<p class="rulesc-roll">Roll +Iron</p>',
        '<p class="rulesc-roll">Roll plus adds</p>', "", '<p class="rulesc-roll">Roll +&lt;b&gt;</p>',
        '<p class="rulesc-roll">Roll +Heart, +Iron or +Shadow</p>']
    assert roll_line(Roll(("Health", "Iron"), True, None, span, "higher")) == (
        '<p class="rulesc-roll">Roll +Health or +Iron, whichever is higher, plus adds</p>')


def test_a_roll_that_takes_the_higher_stat_needs_two(tmp_path: Path) -> None:
    from tests.run_case import run_rulesc

    shutil.copytree(CASE / "content", tmp_path / "content")
    moves = tmp_path / "content/oathbound/moves.yaml"
    moves.write_text(moves.read_text().replace("roll: {stats: [Edge, Heart], adds: true}",
                                               "roll: {stats: [Edge], adds: true, take: higher}"))
    status, out, err = run_rulesc("--root", str(tmp_path), "check")
    assert (status, (out + err).splitlines()[0]) == (
        1, "content/oathbound/moves.yaml:32:19: error[E0206]: expected at least 2 item(s) at rules[1].roll.stats, "
           "got 1")


def test_from_format_2_each_rule_exports_its_text_in_plain_words(tmp_path: Path, oathbound: Path) -> None:
    old = json.loads((oathbound / "build/export/oathbound.json").read_text())
    assert not any("plain" in r for c in old["chapters"] for r in c["rules"])  # format 1: as it was
    shutil.copytree(CASE / "content", tmp_path / "content")
    system = tmp_path / "content/oathbound/system.yaml"
    system.write_text(system.read_text().replace("title: Oathbound\n", "title: Oathbound\nformat: 2\n"))
    build_project(Project(tmp_path), site=False)
    data = json.loads((tmp_path / "build/export/oathbound.json").read_text())
    rule = next(r for c in data["chapters"] for r in c["rules"] if r["id"] == "face-danger")
    assert rule["text"] == "Make an [[action-roll]]."  # the source, as before
    assert rule["plain"] == {"text": "Make an Action roll.", "links": ["action-roll"], "items": []}
    schema = json.loads((tmp_path / "build/export/rulesc-export.schema.json").read_text())
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
