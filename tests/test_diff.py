"""rulesc diff on scripted git histories: value change, rename with alias, removal, formula change, text change."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rulesc.diff.examples import shown_expect
from rulesc.diff.text import markdown, word_diff
from tests.run_case import run_rulesc

SYSTEM = """\
id: mini
title: Mini
summary: A small system.
sources:
  - {id: src, file: source.txt, title: The rulebook}
dice:
  summary: Roll a d6.
facts:
  - {id: limit, label: Limit, type: limit, per: [round]}
terms:
  - id: pool
    name: Pool
    definition: The dice you roll.
"""

DOUBLING = """\
  - id: doubling
    name: Doubling
    kind: general
    text: Twice a [[pool]] is {{factor}} times as much, counted once at the start of your turn.
    provenance: {source: src, section: Doubling}
    values:
      factor: 2
    formulas:
      - id: double
        summary: Twice a number.
        params:
          - {name: n, type: int, min: 0, max: 10}
        expr: n * factor
        examples:
          - {args: {n: 3}, expect: 6}
          - {args: {n: 0}, expect: 0}
    calculators:
      - id: doubler
        title: Doubler
        inputs:
          - {name: n, type: int, label: Number, min: 0, max: 10, default: 4}
        outputs:
          - {name: twice, label: Twice the number, expr: double(n)}
"""

DASH = """\
  - id: dash
    name: Dash
    kind: action
    text: Move again, up to your speed.
    provenance: {source: src, section: Dash}
    facts:
      limit: [{count: 2, per: round}]
"""

CHAPTER = "id: basics\ntitle: Basics\norder: 1\nsummary: The basic rules.\nrules:\n"


def git(repo: Path, *args: str) -> str:
    command = ["git", "-C", str(repo), "-c", "user.name=Editor", "-c", "user.email=editor@example.invalid",
               "-c", "commit.gpgsign=false", *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def tag_an_edit(repo: Path, tags: tuple[str, str], chapter: Path, old: str, new: str) -> None:
    """The project as it is, committed and tagged tags[0]; then `old` replaced by `new` in `chapter`, tagged tags[1]."""
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", tags[0])
    git(repo, "tag", tags[0])
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(old, new), "utf-8")
    git(repo, "commit", "-q", "-am", tags[1])
    git(repo, "tag", tags[1])


def write(repo: Path, rules: str) -> None:
    (repo / "content/mini").mkdir(parents=True, exist_ok=True)
    (repo / "content/mini/system.yaml").write_text(SYSTEM, encoding="utf-8")
    (repo / "content/mini/basics.yaml").write_text(CHAPTER + rules, encoding="utf-8")


def commit(repo: Path, rules: str, message: str) -> None:
    write(repo, rules)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A rule repository whose first commit holds Doubling and Dash."""
    git(tmp_path, "init", "-q")
    commit(tmp_path, DOUBLING + DASH, "base")
    return tmp_path


def diff(repo: Path, *args: str) -> tuple[int, str, str]:
    return run_rulesc("--root", str(repo), "diff", *args)


def test_value_change_shows_the_field_and_every_result_it_changes(repo: Path) -> None:
    write(repo, DOUBLING.replace("factor: 2", "factor: 3").replace("expect: 6", "expect: 9") + DASH)
    assert diff(repo, "HEAD") == (0, """\
# Rules diff: `HEAD` -> working tree

## Mini (`mini`)

### Rules changed

- Doubling: value factor 2 -> 3

### Formulas

- `double` (Doubling): unchanged itself, but it uses a value, table or formula that changed
  - double(n=3): 6 -> 9

### Calculators

- `doubler` (Doubler): results at its defaults changed
  - doubler(n=4) Twice the number: 8 -> 12

### Affected

- engine functions: `rules_engine.mini.double`
- pages: mini/basics/, mini/gm-screen/
""", "")


def test_limit_change_between_two_commits(repo: Path) -> None:
    commit(repo, DOUBLING + DASH.replace("count: 2", "count: 3"), "faster")
    assert diff(repo, "HEAD~1", "HEAD") == (0, """\
# Rules diff: `HEAD~1` -> `HEAD`

## Mini (`mini`)

### Rules changed

- Dash: fact Limit 2 per round -> 3 per round

### Affected

- pages: mini/basics/
""", "")


def test_rename_with_an_alias_keeps_the_permalink(repo: Path) -> None:
    commit(repo, DOUBLING + DASH.replace("- id: dash", "- id: sprint\n    aliases: [dash]"), "rename")
    assert diff(repo, "HEAD~1", "HEAD") == (0, """\
# Rules diff: `HEAD~1` -> `HEAD`

## Mini (`mini`)

### Rules renamed

- `dash` -> `sprint` (Dash): the old id is kept as an alias

### Affected

- pages: mini/basics/
""", "")


def test_removal_without_an_alias_is_breaking(repo: Path) -> None:
    commit(repo, DOUBLING, "drop dash")
    expected = """\
# Rules diff: `HEAD~1` -> `HEAD`

**Breaking changes (1):**

- rule `dash` (Dash) removed with no alias: its permalink mini/basics/#dash stops working

## Mini (`mini`)

### Rules removed

- `dash` Dash (mini/basics/) **breaking: no alias keeps its permalink**

### Affected

- pages: mini/basics/
"""
    assert diff(repo, "HEAD~1", "HEAD") == (0, expected, "")
    assert diff(repo, "HEAD~1", "HEAD", "--fail-on-breaking") == (1, expected, "")


def test_formula_change_lists_changed_examples_defaults_engine_and_pages(repo: Path) -> None:
    changed = DOUBLING.replace("expr: n * factor", "expr: n * factor + 1").replace("expect: 6", "expect: 7") \
        .replace("{n: 0}, expect: 0", "{n: 0}, expect: 1")
    commit(repo, changed + DASH, "plus one")
    assert diff(repo, "HEAD~1", "HEAD") == (0, """\
# Rules diff: `HEAD~1` -> `HEAD`

## Mini (`mini`)

### Formulas

- `double` (Doubling): changed
  - formula: `n * factor` -> `n * factor + 1`
  - double(n=3): 6 -> 7
  - double(n=0): 0 -> 1

### Calculators

- `doubler` (Doubler): results at its defaults changed
  - doubler(n=4) Twice the number: 8 -> 9

### Affected

- engine functions: `rules_engine.mini.double`
- pages: mini/basics/, mini/gm-screen/
""", "")


def test_text_change_is_a_word_diff(repo: Path) -> None:
    write(repo, DOUBLING.replace("counted once at the start", "counted twice at the end") + DASH)
    assert diff(repo, "HEAD") == (0, """\
# Rules diff: `HEAD` -> working tree

## Mini (`mini`)

### Rules changed

- Doubling: text: … is {{factor}} times as much, counted ~~once~~ **twice** at the ~~start~~ **end** of your turn.

### Affected

- pages: mini/basics/
""", "")


def test_word_diff_segments() -> None:
    diff_ = word_diff("one two three four", "one 2 three four five")
    assert diff_ is not None
    assert [(s.op, s.text) for s in diff_.segments] == [
        ("equal", "one"), ("delete", "two"), ("insert", "2"), ("equal", "three four"), ("insert", "five")]
    assert markdown(diff_) == "one ~~two~~ **2** three four **five**"
    assert word_diff("a  b\nc", "a b c") is None  # spacing and line breaks are not changes


def test_json_report(repo: Path) -> None:
    commit(repo, DOUBLING.replace("factor: 2", "factor: 3").replace("expect: 6", "expect: 9"), "triple, no dash")
    status, out, err = diff(repo, "HEAD~1", "HEAD", "--format", "json")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["base"] == {"revision": "HEAD~1", "commit": git(repo, "rev-parse", "HEAD~1").strip()}
    assert report["breaking"] == [
        "rule `dash` (Dash) removed with no alias: its permalink mini/basics/#dash stops working"]
    system = report["systems"][0]
    assert system["removed"] == [{"id": "dash", "name": "Dash", "page": "mini/basics/", "breaking": True}]
    assert system["changed"][0]["fields"] == [{"field": "value factor", "old": "2", "new": "3"}]
    assert system["impact"]["formulas"][0]["results"] == [{"subject": "double(n=3)", "old": "6", "new": "9"}]
    assert system["impact"]["engine"] == ["rules_engine.mini.double"]
    assert system["pages"] == ["mini/basics/", "mini/gm-screen/"]


def test_no_change(repo: Path) -> None:
    assert diff(repo, "HEAD") == (0, "# Rules diff: `HEAD` -> working tree\n\n"
                                     "No changes to the rules, their numbers or their pages.\n", "")


def test_unknown_revision_and_no_repository_are_usage_errors(repo: Path,
                                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    assert diff(repo, "no-such-branch") == (2, "", "rulesc: error: unknown git revision 'no-such-branch'\n")
    outside = tmp_path_factory.mktemp("plain")
    status, _, err = run_rulesc("--root", str(outside), "diff", "HEAD")
    assert status == 2
    assert err == f"rulesc: error: {outside} is not in a git repository; rulesc diff compares git revisions\n"


def test_errors_at_a_revision_are_reported_at_that_revision(repo: Path) -> None:
    commit(repo, DOUBLING.replace("n * factor", "n * factr") + DASH, "typo")
    status, out, err = diff(repo, "HEAD~1", "HEAD")
    assert (status, out) == (1, "")
    assert err.startswith("HEAD:content/mini/basics.yaml:18:19: error[E0402]: at revision HEAD: unknown name 'factr'\n")


def test_engine_functions_are_named_as_the_engine_publishes_them(repo: Path) -> None:
    """A formula named like a Python keyword is `lambda_` in the engine; the diff names that function."""
    keyword = DOUBLING.replace("id: double\n", "id: lambda\n").replace("expr: double(n)", "expr: lambda(n)")
    commit(repo, keyword + DASH, "a keyword-named formula")
    commit(repo, DOUBLING.split("    formulas:")[0] + DASH, "drop it")
    status, out, _ = diff(repo, "HEAD~1", "HEAD", "--format", "json")
    assert status == 0
    report = json.loads(out)
    assert "engine function `rules_engine.mini.lambda_` removed" in report["breaking"]


def test_edited_worked_examples_are_reported(repo: Path) -> None:
    """A note, an example's arguments and a new example change no result, yet the page and the doctests show them."""
    edited = DOUBLING.replace("{args: {n: 3}, expect: 6}", "{args: {n: 3}, expect: 6, note: Three doubled.}") \
        .replace("{args: {n: 0}, expect: 0}", "{args: {n: 1}, expect: 2}\n          - {args: {n: 5}, expect: 10}")
    commit(repo, edited + DASH, "examples")
    commit(repo, DOUBLING.replace("          - {args: {n: 0}, expect: 0}\n", "") + DASH, "one example fewer")
    assert diff(repo, "HEAD~2", "HEAD~1") == (0, """\
# Rules diff: `HEAD~2` -> `HEAD~1`

## Mini (`mini`)

### Formulas

- `double` (Doubling): worked examples edited
  - example double(n=3): note (none) -> Three doubled.
  - example arguments: double(n=0) -> double(n=1)
  - example added: double(n=5), expecting 10

### Affected

- engine functions: `rules_engine.mini.double`
- pages: mini/basics/
""", "")
    status, out, _ = diff(repo, "HEAD~2", "HEAD", "--format", "json")
    assert status == 0
    assert json.loads(out)["systems"][0]["impact"]["formulas"] == [
        {"id": "double", "rule": "Doubling", "status": "examples", "expr": None, "signature": None, "results": [],
         "examples": [{"call": "double(n=0)", "field": "removed", "old": "0", "new": "(none)"}]}]


def test_affected_pages_are_the_part_and_gm_screen_pages_that_hold_the_rule(repo: Path) -> None:
    """A chapter long enough to split into part pages: the diff names the part page of the changed rule, not the
    chapter's landing page, and the GM screen page of its calculator."""
    filler = "".join(f"""\
  - id: filler-{i}
    name: Filler {i}
    kind: general
    text: {" ".join(["Each filler rule says a great deal about very little, at length."] * 60)}
    provenance: {{source: src, section: Filler}}
""" for i in range(12))
    commit(repo, filler + DOUBLING + DASH, "a long chapter")
    write(repo, filler + DOUBLING.replace("factor: 2", "factor: 3").replace("expect: 6", "expect: 9") + DASH)
    status, out, _ = diff(repo, "HEAD")
    assert status == 0
    assert out.endswith("- pages: mini/basics/filler-10/, mini/gm-screen/\n")


def test_a_word_diff_of_long_repetitive_text_is_fast_and_keeps_its_common_ends() -> None:
    """difflib took 5 s for 4,000 words of 'a b' against 'b a' and minutes for more; past WORD_PAIRS a text keeps
    its common start and end, and a middle still too long is one removal and one insertion."""
    import time

    started = time.process_time()
    long = word_diff("a b " * 8000 + "one two three " + "c d " * 8000, "a b " * 8000 + "one 2 three " + "c d " * 8000)
    swapped = word_diff("a b " * 50_000, "b a " * 50_000)
    assert time.process_time() - started < 2
    assert long is not None and swapped is not None
    assert [(s.op, s.text) for s in long.segments] == [
        ("equal", ("a b " * 8000 + "one").strip()), ("delete", "two"), ("insert", "2"),
        ("equal", ("three " + "c d " * 8000).strip())]
    assert [(s.op, len(s.text)) for s in swapped.segments] == [("delete", 199_999), ("insert", 199_999)]


def test_a_rule_moved_out_of_a_split_chapter_names_the_part_page_it_left(repo: Path) -> None:
    filler = "".join(f"""\
  - id: filler-{i}
    name: Filler {i}
    kind: general
    text: {" ".join(["Each filler rule says a great deal about very little, at length."] * 60)}
    provenance: {{source: src, section: Filler}}
""" for i in range(12))
    commit(repo, filler + DOUBLING + DASH, "a long chapter")
    write(repo, filler + DOUBLING)
    (repo / "content/mini/more.yaml").write_text(CHAPTER.replace("basics", "more").replace("order: 1", "order: 2")
                                                 .replace("Basics", "More") + DASH, encoding="utf-8")
    status, out, _ = diff(repo, "HEAD")
    assert status == 0
    # The part page held the rule; its permalink is the chapter's page, which sent #dash on to that part.
    assert ("### Rules moved\n\n- `dash` Dash: Basics (mini/basics/filler-10/) -> More (mini/more/) **breaking: its "
            "permalink mini/basics/#dash stops working**\n") in out
    assert "- pages: mini/basics/filler-10/, mini/more/\n" in out


MORE = CHAPTER.replace("basics", "more").replace("order: 1", "order: 2").replace("Basics", "More")


def test_a_rule_moved_to_another_chapter_is_reported_as_a_move_from_its_old_place_to_its_new(repo: Path) -> None:
    write(repo, DOUBLING)
    (repo / "content/mini/more.yaml").write_text(MORE + DASH.replace("Move again", "Move once more"), "utf-8")
    expected = """\
# Rules diff: `HEAD` -> working tree

**Breaking changes (1):**

- rule `dash` (Dash) moved from Basics to More: its permalink mini/basics/#dash stops working

## Mini (`mini`)

### Rules moved

- `dash` Dash: Basics (mini/basics/) -> More (mini/more/) **breaking: its permalink mini/basics/#dash stops working**

### Rules changed

- Dash: text: Move ~~again,~~ **once more,** up to your speed.

### Affected

- pages: mini/basics/, mini/more/
"""
    assert diff(repo, "HEAD") == (0, expected, "")
    assert diff(repo, "HEAD", "--fail-on-breaking") == (1, expected, "")
    status, out, _ = diff(repo, "HEAD", "--format", "json")
    system = json.loads(out)["systems"][0]
    assert (status, system["added"], system["removed"]) == (0, [], [])
    assert system["moved"] == [{"id": "dash", "name": "Dash", "old_chapter": "Basics", "old_page": "mini/basics/",
                                "new_chapter": "More", "new_page": "mini/more/",
                                "old_permalink": "mini/basics/#dash"}]
    assert [c["fields"] for c in system["changed"]] == [[]]  # the place is the move's, not a field


def test_a_rule_renamed_with_an_alias_and_moved_is_both(repo: Path) -> None:
    write(repo, DOUBLING)
    (repo / "content/mini/more.yaml").write_text(MORE + DASH.replace("- id: dash", "- id: sprint\n    aliases: [dash]"),
                                                 "utf-8")
    status, out, _ = diff(repo, "HEAD")
    assert status == 0
    assert out.split("## Mini (`mini`)\n\n")[1] == """\
### Rules renamed

- `dash` -> `sprint` (Dash): the old id is kept as an alias

### Rules moved

- `sprint` Dash: Basics (mini/basics/) -> More (mini/more/) **breaking: its permalink mini/basics/#dash stops working**

### Affected

- pages: mini/basics/, mini/more/
"""


def test_a_rule_that_stays_in_its_chapter_is_no_move(repo: Path) -> None:
    """Reordered within its chapter, a rule keeps its page and permalink: nothing to report."""
    commit(repo, DASH + DOUBLING, "dash first")
    assert diff(repo, "HEAD~1", "HEAD") == (0, "# Rules diff: `HEAD~1` -> `HEAD`\n\nNo changes to the rules, their "
                                               "numbers or their pages.\n", "")


BULK = """\
  - id: bulk
    name: Bulk
    kind: general
    text: A great many dice, rolled together.
    provenance: {source: src, section: Bulk}
    formulas:
      - id: heap
        summary: The roll of many dice.
        params:
          - {name: n, type: int, min: 1, max: 400}
        returns: dist
        expr: roll(repeat(1d6, n))
        examples:
          - {args: {n: 300}, expect: 300d6}
"""


def test_a_huge_result_is_bounded_as_a_failing_example_bounds_it(repo: Path) -> None:
    """Every chance of 300d6 in full is 620 kB of text, and the diff printed it twice; now each roll by its ends."""
    commit(repo, DOUBLING + BULK, "bulk")
    commit(repo, DOUBLING + BULK.replace("repeat(1d6, n))", "repeat(1d6, n) + 1)").replace("300d6}", "300d6+1}"),
           "one more")
    status, out, err = diff(repo, "HEAD~1", "HEAD")
    assert (status, err) == (0, "")
    [line] = [line for line in out.splitlines() if line.startswith("  - heap(n=300): ")]
    ends = ("{0}: ~3.58612e-234 (n/d of 1 and 234 digits), {1}: ~1.07584e-231 (n/d of 2 and 233 digits), {2}: "
            "~1.61913e-229 (n/d of 4 and 233 digits), ... 1495 more ..., {3}: ~1.61913e-229 (n/d of 4 and 233 "
            "digits), {4}: ~1.07584e-231 (n/d of 2 and 233 digits), {5}: ~3.58612e-234 (n/d of 1 and 234 digits)")
    assert line == ("  - heap(n=300): {" + ends.format(300, 301, 302, 1798, 1799, 1800) + "} -> {"
                    + ends.format(301, 302, 303, 1799, 1800, 1801) + "}")
    assert len(out) < 1500


def test_a_long_expectation_as_written_is_shown_by_its_ends_in_the_order_written() -> None:
    assert shown_expect({face: "1/20" for face in range(20, 0, -1)}) == (
        "{20: 1/20, 19: 1/20, 18: 1/20, ... 14 more ..., 3: 1/20, 2: 1/20, 1: 1/20}")
    assert shown_expect({"hit": "1/3", "miss": "2/3", "fumble": True}) == "{hit: 1/3, miss: 2/3, fumble: true}"
