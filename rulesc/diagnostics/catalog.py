"""The documented error and warning codes: what each means, with a bad and a fixed example (tested, and shown
on the site's error page)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from rulesc.analyze.calls import MAX_CALLS
from rulesc.analyze.program import MAX_NESTING
from rulesc.load import MAX_BYTES, MAX_DEPTH
from rulesc.runtime.rulesc_runtime import MAX_INT

SYSTEM = "content/mini/system.yaml"
CHAPTER = "content/mini/basics.yaml"
SCHEMA_FILE = "schema/chapter.schema.json"


@dataclass(frozen=True)
class Generated:
    """A file too large to print: `shown` is what the page says, `make` writes the real bytes for the tests."""

    shown: str
    make: Callable[[], bytes]


@dataclass(frozen=True)
class Placed:
    """Something at a path that is not a file's text (a folder, a symbolic link): `shown` is what the page says,
    `place` puts it at a path for the tests."""

    shown: str
    place: Callable[[Path], None]


FileText: TypeAlias = str | bytes | Generated | Placed | None  # None: the path does not exist


@dataclass(frozen=True)
class Entry:
    code: str
    title: str
    explanation: str
    bad: Mapping[str, FileText]  # read-only, and so covariant: a dict[str, str] of plain texts fits
    fixed: Mapping[str, FileText]


BASE_SYSTEM = """\
id: mini
title: Mini
summary: A small system.
sources:
  - {id: src, file: source.txt, title: The rulebook}
dice:
  summary: Roll a d6.
terms:
  - id: pool
    name: Pool
    definition: The dice you roll.
"""

RULE = """\
  - id: doubling
    name: Doubling
    kind: general
    text: Twice a [[pool]] is {{factor}} times as much.
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
"""


def chapter(rules: str = RULE, head: str = "id: basics\ntitle: Basics\norder: 1\n") -> str:
    """A whole chapter file: its header, a summary and the given rules."""
    return f"{head}summary: The basic rules.\nrules:\n{rules}"


def edit(old: str, new: str, rules: str = RULE) -> str:
    """The base chapter with one piece of its rule changed."""
    assert old in rules, old
    return chapter(rules.replace(old, new, 1))


BASE_CHAPTER = chapter()
GOOD = {CHAPTER: BASE_CHAPTER}


def _sizes(first: str, second: str) -> str:
    """A table keyed by a range column whose two rows have the keys `first` and `second`, then the rule's values."""
    return ("    table:\n      name: sizes\n      columns:\n        - {key: level, label: Level, type: range}\n"
            f"        - {{key: size, label: Size, type: int}}\n      rows:\n        - {{level: {first}, size: 2}}\n"
            f"        - {{level: {second}, size: 3}}\n    values:\n")


def _choices(table: str, column: str) -> str:
    """The base chapter with its parameter's choices taken from a table's column, and the table."""
    rule = RULE.replace("{name: n, type: int, min: 0, max: 10}",
                        f"{{name: n, type: int, options_from: {{table: {table}, column: {column}}}}}")
    rule = rule.replace("{args: {n: 3}, expect: 6}", "{args: {n: 2}, expect: 4}")  # a choice the table gives
    return chapter(rule.replace("    values:\n", _sizes("1", "2"), 1))


def _call_chain(step: str, length: int = 10) -> str:
    """The base chapter with a chain of formulas after its own, each computing `step` of the one before (written
    n_0 in `step`)."""
    base = "      - id: n_0\n        summary: A number.\n        params:\n" \
           "          - {name: n, type: int, min: 0, max: 10}\n        expr: n\n        examples:\n" \
           "          - {args: {n: 1}, expect: 1}\n"
    chain = "".join(f"      - id: n_{i}\n        summary: The one before, twice.\n        params:\n"
                    "          - {name: n, type: int, min: 0, max: 10}\n"
                    f"        expr: {step.replace('n_0', f'n_{i - 1}')}\n        examples:\n"
                    f"          - {{args: {{n: 1}}, expect: {2 ** i}}}\n" for i in range(1, length))
    return chapter(RULE + base + chain)


def _rolled(roll: str, rows: str) -> str:
    """A roll table rolled with `roll` whose rows are `rows` (flow mappings, one a line), then the rule's values."""
    lines = "".join(f"        - {row}\n" for row in rows.split("; "))
    return ("    table:\n      name: omens\n      roll: " + roll + "\n      columns:\n"
            "        - {key: roll, label: Roll, type: range}\n        - {key: omen, label: Omen, type: text}\n"
            "      rows:\n" + lines + "    values:\n")


def _chained(then: str, extra: str = "") -> str:
    """A d6 roll table whose last row rolls again as `then` says, beside another roll table if `extra` is given."""
    rolled = _rolled("1d6", f'{{roll: "1-3", omen: Rain}}; {{roll: "4-6", omen: Again, then: {then}}}')
    return rolled + (extra + "    values:\n" if extra else "")


def rule_edit(code: str, title: str, explanation: str, old: str, bad: str, fixed: str | None = None) -> Entry:
    """An entry whose bad example changes `old` in the base rule to `bad`, and whose fix changes it to `fixed`."""
    return Entry(code, title, explanation, {CHAPTER: edit(old, bad)},
                 {CHAPTER: edit(old, fixed) if fixed else BASE_CHAPTER})


def _nested() -> bytes:
    depth = MAX_DEPTH + 2
    return chapter(head=f"id: basics\ntitle: Basics\norder: 1\nnotes: {'[' * depth}1{']' * depth}\n").encode()


def _huge() -> bytes:
    return BASE_CHAPTER.encode() + b"# " + b"x" * MAX_BYTES + b"\n"


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "rules.yaml").write_text(BASE_CHAPTER, encoding="utf-8")


def _link_out(path: Path) -> None:
    path.symlink_to("/etc/passwd")


def _nested_rules(depth: int) -> str:
    """The base chapter with `depth` more rules under its rule, each under the one before."""
    parents = ["doubling", *(f"step-{n}" for n in range(depth - 1))]
    more = [HALVING.format(id=f"step-{n}").replace("    kind: general\n", f"    kind: general\n    parent: {parent}\n")
            for n, parent in enumerate(parents)]
    return chapter(RULE + "".join(more))


HALVING = """\
  - id: {id}
    name: Halving
    kind: general
    text: Half a number, rounded down.
    provenance: {{source: src, section: Halving}}
"""

UPGRADE = """\
  - id: {a}
    name: {name}
    kind: upgrade
    text: An upgrade.
    provenance: {{source: src, section: Upgrades}}
    facts: {upgrade}
"""
KINDS = """\
facts:
  - {id: requires, label: Requires, type: requires}
  - {id: excludes, label: Excludes, type: excludes}
"""
SYSTEM_WITH_KINDS = BASE_SYSTEM.replace("terms:", KINDS + "terms:")


def upgrades(first: str, second: str) -> dict[str, FileText]:
    """A system that declares requires and excludes facts, with two upgrades whose facts are `first` and `second`."""
    return {SYSTEM: SYSTEM_WITH_KINDS, CHAPTER: chapter(RULE + UPGRADE.format(a="swift", name="Swift", upgrade=first)
                                                        + UPGRADE.format(a="swifter", name="Swifter", upgrade=second))}


def _assumed(facts: str) -> str:
    """Two upgrades; the second gives the facts `facts` and a note of what the source leaves unstated about its
    requires fact."""
    note = ("{source: src, section: Upgrades, unstated: [{what: The source names no requirement., "
            "reasoning: Swifter only makes Swift faster., fact: requires}]}")
    second = UPGRADE.format(a="swifter", name="Swifter", upgrade=facts).replace(
        "{source: src, section: Upgrades}", note)
    return chapter(RULE + UPGRADE.format(a="swift", name="Swift", upgrade="{}") + second)


def _licensed(license_line: str, more: str) -> str:
    """The base system whose source is a publication with no file, `license_line` and one more field, `more`."""
    return BASE_SYSTEM.replace("  - {id: src, file: source.txt, title: The rulebook}\n",
                               f"  - id: src\n    title: The rulebook\n    {license_line}\n    {more}\n")


TIER = "  - {notation: T, label: Tier, min: 1, max: 9}\n"
COST_KIND = "scalings:\n" + TIER + "facts:\n  - {id: kp, label: KP cost, type: cost, unit: KP, scalings: [T]}\n"
SYSTEM_WITH_COST = BASE_SYSTEM.replace("terms:", COST_KIND + "terms:")


def fact_edit(code: str, title: str, explanation: str, bad: str, fixed: str) -> Entry:
    """An entry whose system declares a KP cost fact kind, and whose rule gives the facts `bad`, then `fixed`."""
    old = "    values:\n"
    return Entry(code, title, explanation, {SYSTEM: SYSTEM_WITH_COST, CHAPTER: edit(old, f"    facts: {bad}\n{old}")},
                 {SYSTEM: SYSTEM_WITH_COST, CHAPTER: edit(old, f"    facts: {fixed}\n{old}")})


def kinds_system(kinds: str) -> str:
    """The base system declaring the kinds of rule `kinds` (YAML flow mappings, one a line)."""
    return BASE_SYSTEM.replace("terms:", "kinds:\n" + "".join(f"  - {k}\n" for k in kinds.splitlines()) + "terms:")


def kind_edit(code: str, title: str, explanation: str, kinds: tuple[str, str],
              rule: tuple[str, str] = ("", "")) -> Entry:
    """An entry whose system declares the kinds `kinds[0]` and whose rule adds the lines `rule[0]` after its kind,
    then the same with `kinds[1]` and `rule[1]`."""
    old = "    kind: general\n"
    return Entry(code, title, explanation, {SYSTEM: kinds_system(kinds[0]), CHAPTER: edit(old, old + rule[0])},
                 {SYSTEM: kinds_system(kinds[1]), CHAPTER: edit(old, old + rule[1])})


GENERAL = "{id: general, label: Rule, plural: Rules"
ATTACKS = "facts:\n  - {id: attacks, label: Attacks, type: attacks"
def _coin(tails: str, formula: str = "toss") -> str:
    """The base chapter whose rule has two outcomes, heads and `tails`, rolled by the formula `formula`; and a rule
    with the coin-toss formula toss."""
    rule = RULE.replace("    provenance: {source: src, section: Doubling}\n",
                        f"    provenance: {{source: src, section: Doubling}}\n    roll: {{formula: {formula}}}\n")
    outcomes = f"    outcomes:\n      - {{name: heads, text: You win.}}\n      - {{name: {tails}, text: You lose.}}\n"
    coin = ("  - id: coin\n    name: Coin\n    kind: general\n    text: Toss a coin.\n"
            "    provenance: {source: src, section: Coin}\n    formulas:\n      - id: toss\n        summary: A toss.\n"
            '        params: []\n        expr: if 1d2 == 2 then "heads" else "tails"\n        examples:\n'
            "          - {args: {}, expect: {heads: 1/2, tails: 1/2}}\n")
    return chapter(rule + outcomes + coin)


LAYOUT = [
    Entry("E0001", "no content folder",
          "rulesc looks for content/ in the project folder: the current folder, or the one given with --root.",
          {"content": None}, {SYSTEM: BASE_SYSTEM}),
    Entry("E0002", "a system folder without system.yaml",
          "Every folder in content/ is a game system and needs a system.yaml that names it and its sources.",
          {SYSTEM: None}, {SYSTEM: BASE_SYSTEM}),
    Entry("E0003", "content/ holds no game system",
          "content/ exists but has no system folder in it.",
          {"content/mini": None}, {SYSTEM: BASE_SYSTEM}),
    Entry("E0004", "a content file rulesc would not read",
          "rulesc reads content/<system>/system.yaml and the system's other .yaml files (its chapters). A chapter "
          "saved as .yml, or a .yaml file put in content/ itself, would be left out of the book without a word.",
          {SYSTEM: BASE_SYSTEM, "content/mini/basics.yml": chapter()}, {SYSTEM: BASE_SYSTEM, CHAPTER: chapter()}),
    Entry("E0005", "unknown content format", "A system's `format:` in system.yaml names the content format it is "
          "written in: 1 (the default when it is left out) or 2, in which multiplying a roll multiplies its result "
          "and d66 is a tens-and-units roll. A higher number is a rulebook written for a newer rulesc; "
          "`rulesc migrate` takes a system from format 1 to 2.",
          {SYSTEM: BASE_SYSTEM.replace("title: Mini\n", "title: Mini\nformat: 3\n")},
          {SYSTEM: BASE_SYSTEM.replace("title: Mini\n", "title: Mini\nformat: 2\n")}),
]

LOADING = [
    Entry("E0101", "YAML syntax error",
          "The file is not valid YAML. A common cause is a colon followed by a space inside an unquoted value.",
          {CHAPTER: chapter(head="id: basics\ntitle: Basics: the start\norder: 1\n")},
          {CHAPTER: chapter(head="id: basics\ntitle: \"Basics: the start\"\norder: 1\n")}),
    Entry("E0102", "not UTF-8",
          "Content files are UTF-8. Some editors on some systems save in an older encoding such as Latin-1; the "
          "bad file below was saved that way.",
          {CHAPTER: chapter().replace("The basic rules.", "The basic rules, café style.").encode("latin-1")},
          {CHAPTER: chapter().replace("The basic rules.", "The basic rules, café style.")}),
    Entry("E0103", "YAML anchors and aliases",
          "Anchors (&name) and aliases (*name) make a file read differently from how it looks; write values out.",
          {CHAPTER: edit("provenance: {source: src, section: Doubling}",
                         "provenance: &doubling {source: src, section: Doubling}\n    notes: *doubling")},
          GOOD),
    Entry("E0104", "empty file",
          "A chapter file must hold a mapping: at least id, title, order, summary and rules.",
          {CHAPTER: "# to do\n"}, GOOD),
    Entry("E0105", "file too large",
          f"A content file may be at most {MAX_BYTES} bytes; split a longer chapter into several files.",
          {CHAPTER: Generated(f"(a chapter file of more than {MAX_BYTES} bytes)", _huge)}, GOOD),
    Entry("E0106", "nesting too deep",
          f"Content is at most {MAX_DEPTH} levels deep; deeper nesting is always a mistake.",
          {CHAPTER: Generated(f"notes: [[[[ ... 1 ... ]]]]   (nested {MAX_DEPTH + 2} levels)", _nested)}, GOOD),
    Entry("E0107", "duplicate key",
          "A key appears twice in one mapping; YAML would silently keep only the last one.",
          {CHAPTER: edit("    kind: general\n", "    kind: general\n    name: Twice\n")}, GOOD),
    Entry("E0108", "control character", "The file holds an invisible control character, usually pasted in from "
          "another program; the bad file below has a backspace (U+0008) after 'Twice'.",
          {CHAPTER: edit("Twice a [[pool]]", "Twice\x08 a [[pool]]")}, GOOD),
    Entry("E0109", "YAML tag", "Tags such as !!str or !include change how YAML reads a value; content has none.",
          {CHAPTER: edit("name: Doubling", "name: !!str Doubling")}, GOOD),
    Entry("E0110", "more than one YAML document", "A '---' line starts a second document; a content file is one.",
          {CHAPTER: BASE_CHAPTER + "---\nid: more\n"}, GOOD),
    Entry("E0111", "complex mapping key", "A key must be plain text, not a list or a mapping.",
          {CHAPTER: edit("      factor: 2\n", "      [factor]: 2\n")}, GOOD),
    Entry("E0112", "number too large", f"Whole numbers must fit in 53 bits (at most {MAX_INT}) so that the Python "
          "engine and the calculators in the browser agree.",
          {CHAPTER: edit("factor: 2", "factor: 20000000000000000000")}, GOOD),
    Entry("E0113", "not a file", "rulesc reads each content file as an ordinary file of text. A folder, a named "
          "pipe, a device or a socket whose name ends in .yaml is not read at all, and neither is a file the "
          "operating system will not let rulesc read (its permissions).",
          {CHAPTER: Placed("(a folder named basics.yaml, holding rules.yaml)", _folder)}, GOOD),
    Entry("E0114", "symbolic link out of the project", "rulesc reads nothing outside the project: a symbolic link "
          "in content/ is followed only to a file inside the project folder, so a pull request cannot make a "
          "build print, or hang on, a file of the machine that builds it. A link to nothing, or one that leads "
          "round in a loop, is refused too.",
          {CHAPTER: Placed("(a symbolic link to /etc/passwd)", _link_out)}, GOOD),
]

SCHEMA = [
    rule_edit("E0201", "unknown key", "The schema does not know this key; the hint lists the keys it allows.",
              "    kind: general\n", "    kind: general\n    page: 12\n"),
    rule_edit("E0202", "missing required key", "A required key is missing; a rule needs id, name, kind, text and "
              "provenance.", "    provenance: {source: src, section: Doubling}\n", ""),
    Entry("E0203", "wrong type", "A value has the wrong type, e.g. text where a number is expected.",
          {CHAPTER: chapter(head="id: basics\ntitle: Basics\norder: first\n")}, GOOD),
    rule_edit("E0204", "not one of the allowed values", "The value must be one of a fixed list; the hint names the "
              "closest.", "{name: n, type: int, min: 0, max: 10}",
              "{name: n, type: integer, min: 0, max: 10}"),
    rule_edit("E0205", "invalid id or name", "Ids are lowercase letters, digits and hyphens (they become "
              "permalinks); formula names use underscores instead of hyphens.", "- id: doubling", "- id: Doubling"),
    Entry("E0206", "number, list or text out of bounds", "A number is below its minimum or above its maximum, a "
          "list is too short (an empty list says nothing: leave an optional key out instead), or text that must say "
          "something is empty or only spaces.",
          {CHAPTER: chapter(head="id: basics\ntitle: Basics\norder: -1\n")}, GOOD),
]

MODEL = [
    rule_edit("E0301", "invalid dice", "Dice are written like 1d6, 2d10 or 1d10+1d4.",
              "{args: {n: 3}, expect: 6}",
              "{args: {n: 3}, expect: 6}\n      - id: some_dice\n        summary: Some dice.\n        params:\n"
              "          - {name: dice, type: dice}\n        expr: dice\n        examples:\n"
              "          - {args: {dice: 2x6}, expect: 2x6}",
              "{args: {n: 3}, expect: 6}\n      - id: some_dice\n        summary: Some dice.\n        params:\n"
              "          - {name: dice, type: dice}\n        expr: dice\n        examples:\n"
              "          - {args: {dice: 2d6}, expect: 2d6}"),
    rule_edit("E0302", "value of the wrong kind", "A worked example gives a parameter a value of another type than "
              "the parameter's.", "{args: {n: 3}, expect: 6}", "{args: {n: three}, expect: 6}"),
    rule_edit("E0303", "table row does not fit its columns", "Every row of a table has one cell per column, "
              "under the column's key.", "    values:\n",
              "    table:\n      name: sizes\n      columns:\n        - {key: level, label: Level, type: range}\n"
              "        - {key: size, label: Size, type: int}\n      rows:\n        - {level: 1-5, sise: 2}\n"
              "    values:\n",
              "    table:\n      name: sizes\n      columns:\n        - {key: level, label: Level, type: range}\n"
              "        - {key: size, label: Size, type: int}\n      rows:\n        - {level: 1-5, size: 2}\n"
              "    values:\n"),
    rule_edit("E0304", "not a range of whole numbers", "A cell of a range column (the key of a table's lookups) is "
              "a whole number (5), two joined by a dash (1-4, -5--1, -3-2, low first) or a number and up (20+, "
              "up to the largest whole number rulesc computes with). A key in no row has no answer.",
              "    values:\n", _sizes("1-5", "9-6"), _sizes("1-5", "6+")),
    rule_edit("E0305", "table rows overlap", "Two rows of a table cover the same number, so a lookup of it would "
              "have two answers; each number belongs to at most one row. On a roll table the error names the "
              "outcomes of the roll that both rows cover (11-26 and 17-20 on a d66 share none).",
              "    values:\n", _sizes("1-5", "5-9"), _sizes("1-5", "6-9")),
    fact_edit("E0306", "unknown fact kind", "A rule's facts: names kinds its system declares under facts: in "
              "system.yaml (a cost, an action, a limit...); the hint names the closest.", "{kp_cost: 2}", "{kp: 2}"),
    fact_edit("E0307", "fact does not fit its kind", "A fact is written as its kind's type asks: a cost or count "
              "as a number or {amount, scaling, unit, value, note}, or the source's words; a scaling, unit, option "
              "or per among those the kind declares; a limit as a list of one or more {count, per}; requirements "
              "as one or more rule ids; words that are not only spaces; times as a number or any.",
              "{kp: {amount: 2, scaling: bT}}", "{kp: {amount: 2, scaling: T}}"),
    rule_edit("E0308", "unknown value in a range or default", "A parameter's or calculator input's min, max or "
              "default may show a whole-number value of the system as `{{name}}`, so the range follows the data; the "
              "name must be such a value.", "{name: n, type: int, min: 0, max: 10}",
              "{name: n, type: int, min: \"{{factr}}\", max: 10}",
              "{name: n, type: int, min: \"{{factor}}\", max: 10}"),
    Entry("E0309", "choices from an unknown table or column", "An input's options_from names a table of the "
          "system and one of its columns: each row becomes a choice, labelled by that column.",
          {CHAPTER: _choices("sizes", "sise")}, {CHAPTER: _choices("sizes", "size")}),
    Entry("E0310", "note about a fact the rule does not give", "A note of what the source leaves unstated may "
          "name one of the rule's facts with fact: (requires, say), and the stat block marks that fact as assumed; "
          "the rule must give a fact of that kind. A term has no facts.",
          {SYSTEM: SYSTEM_WITH_KINDS, CHAPTER: _assumed("{}")},
          {SYSTEM: SYSTEM_WITH_KINDS, CHAPTER: _assumed("{requires: [swift]}")}),
    Entry("E0348", "scaling declared twice, unlabelled or taking no number", "A system declares each scaling its "
          "amounts carry once under scalings:, with the label of the field the index tables give it (or a term, "
          "whose name labels it) and the whole numbers a reader may type there, from min to at most max.",
          {SYSTEM: SYSTEM_WITH_COST.replace(TIER, TIER + TIER.replace("Tier", "Level"))},
          {SYSTEM: SYSTEM_WITH_COST}),
    Entry("E0349", "scaling the system does not declare", "The scalings a fact kind lists are among those the "
          "system declares under scalings: (its notation, label and range), so the index tables can offer a field "
          "for each.", {SYSTEM: SYSTEM_WITH_COST.replace("scalings: [T]", "scalings: [Tier]")},
          {SYSTEM: SYSTEM_WITH_COST}),
    Entry("E0343", "attacks kind that does not say how an attack is rolled", "A fact kind of type attacks names "
          "the system's formulas for its attacks' calculators, hit: (the chance to hit, called as hit(to_hit, "
          "target)) and damage: (the expected damage, damage(to_hit, damage, target)), and the target: the reader "
          "sets (a name, label, min, max and default), so the attack roll is the one the system declares.",
          {SYSTEM: BASE_SYSTEM.replace("terms:", ATTACKS + "}\nterms:")},
          {SYSTEM: BASE_SYSTEM.replace("terms:", ATTACKS + ", hit: hits, damage: harm,\n"
                                       "     target: {name: ac, label: Target armour class, min: 1, max: 30}}\n"
                                       "terms:")}),
    rule_edit("E0311", "direction control in a name", "A name or title (of a system, chapter, rule, term, "
              "calculator or source, an alias or phrase, the label of an input, output, option, table column or "
              "fact kind) and a fact kind's units, per and choices may not hold the invisible characters that "
              "reorder text (U+202A-202E, U+2066-2069, U+200E, U+200F, U+061C): with one, a name displays in "
              "another order than it reads, and than search and links match it. Rule text may hold them.",
              "    name: Doubling\n", '    name: "Doubl\\u202Eing"\n'),
    rule_edit("E0313", "not a table roll", "A table's roll: is the dice the book rolls on it: a number of dice of a "
              "number of sides and a modifier (1d100, 2d6, 1d20+2), or d66 and d666, two or three d6 read as tens and "
              "units. It is notation for the outcomes the table covers, not a formula.", "    values:\n",
              _rolled("1d6x", '{roll: "1-3", omen: Rain}; {roll: "4-6", omen: Sun}'),
              _rolled("1d6", '{roll: "1-3", omen: Rain}; {roll: "4-6", omen: Sun}')),
    rule_edit("E0314", "outcomes no row covers", "Every outcome of a roll table's roll is covered by exactly one "
              "row: the error names the outcomes no row covers, at the row after them (00 stands for 100 on a "
              "d100, as books print it).", "    values:\n",
              _rolled("1d100", '{roll: "01-50", omen: Rain}; {roll: "56-00", omen: Sun}'),
              _rolled("1d100", '{roll: "01-55", omen: Rain}; {roll: "56-00", omen: Sun}')),
    rule_edit("E0315", "row the roll cannot reach", "A row of a roll table whose key covers no outcome of the "
              "roll (13 on 2d6, 17-20 on d66) could never come up.", "    values:\n",
              _rolled("2d6", '{roll: "2-12", omen: Rain}; {roll: 13, omen: Sun}'),
              _rolled("2d6", '{roll: "2-11", omen: Rain}; {roll: 12, omen: Sun}')),
    rule_edit("E0316", "roll table keyed by words", "A roll table's first column holds the outcomes each row "
              "covers, so it is a range or int column.", "    values:\n",
              _rolled("1d6", '{roll: "1-3", omen: Rain}; {roll: "4-6", omen: Sun}').replace(
                  "label: Roll, type: range", "label: Roll, type: text"),
              _rolled("1d6", '{roll: "1-3", omen: Rain}; {roll: "4-6", omen: Sun}')),
    rule_edit("E0317", "roll again on a table with no roll", "then: (roll again) belongs to the rows of a roll "
              "table; a table read by lookup() alone is never rolled.", "    values:\n",
              _sizes("1-5", "6+").replace("size: 3}", "size: 3, then: {times: 2}}"), _sizes("1-5", "6+")),
    Entry("E0312", "choices from a table not keyed by numbers", "An input's options_from takes each row's key, the "
          "first number its first column covers, as the choice's value: that column must be an int or range "
          "column, not text or dice.", {CHAPTER: _choices("sizes", "size").replace("type: range}", "type: text}")},
          {CHAPTER: _choices("sizes", "size")}),
    Entry("E0335", "schema file not JSON", "A project may keep its own JSON Schemas in schema/ (rulesc's own are "
          "used for any it lacks); each must be JSON in UTF-8. schema/ is project configuration, not content: a "
          "change to it changes what check accepts, so review it as a change to rulesc itself.",
          {SCHEMA_FILE: '{"type": "object",,}\n', CHAPTER: BASE_CHAPTER}, GOOD),
    rule_edit("E0320", "unknown kind", "A rule's kind is one its system declares under kinds: in system.yaml, or "
              "rulesc's own section, table or list. A system that declares no kinds: has general, "
              "action, maneuver, stunt, upgrade, condition and keyword.", "kind: general", "kind: generl"),
    kind_edit("E0321", "field its kind does not have", "A rule gives only the fields its kind lists under fields: "
              "(fact kinds of the system and the parts trigger, roll and outcomes); a move's fields are not a "
              "spell's.", (GENERAL + "}", GENERAL + ", fields: [trigger]}"),
              ("    trigger: When you need twice as much.\n",) * 2),
    kind_edit("E0322", "required field missing", "A rule gives every field its kind lists under required:.",
              (GENERAL + ", fields: [trigger], required: [trigger]}",) * 2,
              ("", "    trigger: When you need twice as much.\n")),
    kind_edit("E0323", "kind declared twice", "Each kind of rule is declared once under kinds:; two declarations "
              "of one id would give its rules two labels and two sets of fields.",
              (GENERAL + "}\n" + GENERAL.replace("Rule", "Law") + "}", GENERAL + "}")),
    kind_edit("E0324", "field that is no fact kind or part", "A kind's fields: name fact kinds the system declares "
              "under facts: or the structured parts trigger, roll and outcomes, and its required: fields are among "
              "them.", (GENERAL + ", fields: [triger]}", GENERAL + ", fields: [trigger]}")),
    kind_edit("E0344", "kind named as search's own entries", "Search lists glossary terms, calculators and roll "
              "table rows beside rules, and words them Glossary term, Calculator and Table row; its filters call "
              "them term, calculator and row. A kind's label or plural may not be one of these words (or their "
              "plurals): a move labelled Term would read as a glossary term in every hit line and filter.",
              (GENERAL.replace("label: Rule", "label: Term") + "}", GENERAL + "}")),
    kind_edit("E0345", "two kinds named alike", "Each kind's label and plural are its own: search's filters and the "
              "index tables name a kind by them, so two kinds worded alike would read as one. rulesc's own kinds "
              "(Table, List, Section) count too, unless the system declares them to rename them.",
              (GENERAL.replace("label: Rule", "label: Table") + "}", GENERAL + "}")),
    Entry("E0330", "unknown license", "A source's license is an SPDX id rulesc knows (CC-BY-4.0, CC-BY-SA-4.0, "
          "CC-BY-3.0, CC-BY-SA-3.0, CC-BY-NC-4.0, CC-BY-NC-SA-4.0, CC0-1.0, OGL-1.0a, ORC), or a license of your "
          "own naming, LicenseRef-<name>, with the notice it asks for under attribution:.",
          {SYSTEM: _licensed("license: CC-BY-4", "authors: [Ada Writer]")},
          {SYSTEM: _licensed("license: CC-BY-4.0", "authors: [Ada Writer]")}),
    Entry("E0331", "license notice missing", "A license that asks every copy to show a notice gets one: the site "
          "shows it on the system's home page and in every page's footer, and the export carries it. For the CC BY "
          "licenses rulesc composes it from the source's title, authors, url and changes, so give authors:; for "
          "the OGL, the ORC License or a LicenseRef- license, write the notice as the license asks under "
          "attribution:.",
          {SYSTEM: _licensed("license: OGL-1.0a", "year: 2000")},
          {SYSTEM: _licensed("license: OGL-1.0a", "attribution: Open Game License v 1.0a, 2000, Wizards.")}),
    Entry("E0332", "lines of a source without a file", "A rule's provenance lines: count lines in the source's "
          "local copy (its file:). A publication without one is cited by page: its page or pages.",
          {SYSTEM: _licensed("license: CC0-1.0", "year: 2024"),
           CHAPTER: edit("{source: src, section: Doubling}", "{source: src, section: Doubling, lines: \"12\"}")},
          {SYSTEM: _licensed("license: CC0-1.0", "year: 2024"),
           CHAPTER: edit("{source: src, section: Doubling}", "{source: src, section: Doubling, page: 12}")}),
    Entry("E0333", "page past the publication's last", "A source that says how many pages it has (pages: 96) "
          "is cited by pages within them: a page past its last is a typo in the page or in pages:.",
          {SYSTEM: _licensed("license: CC0-1.0", "pages: 96"),
           CHAPTER: edit("{source: src, section: Doubling}", "{source: src, section: Doubling, page: 120}")},
          {SYSTEM: _licensed("license: CC0-1.0", "pages: 96"),
           CHAPTER: edit("{source: src, section: Doubling}", "{source: src, section: Doubling, page: 12}")}),
]

FORMULAS = [
    rule_edit("E0401", "formula syntax error", "The formula does not parse; the caret shows where it stops making "
              "sense.", "expr: n * factor", "expr: n * * factor"),
    rule_edit("E0402", "unknown name", "A formula uses a name that is not a parameter, a value, a table or a "
              "formula of the system.", "expr: n * factor", "expr: n * factr"),
    rule_edit("E0403", "type error", "Parts of a formula do not fit together, e.g. a comparison added to a "
              "number, or a result of another type than `returns:` declares.", "expr: n * factor",
              "expr: n * (factor > 1)"),
    rule_edit("E0404", "wrong number of arguments", "A function is called with too many or too few arguments.",
              "expr: n * factor", "expr: n * max()", "expr: n * max(factor, 1)"),
    rule_edit("E0405", "formula calls itself", "Formulas may call each other, but never in a cycle.",
              "expr: n * factor", "expr: double(n) * factor"),
    rule_edit("E0406", "let reuses a name", "`let name = value in ...` must introduce a new name, not one that is "
              "already a parameter or a value.", "expr: n * factor", "expr: let n = n * 2 in n * factor",
              "expr: let twice = n * 2 in twice * factor // 2"),
    rule_edit("E0407", "text value used in a formula", "A value written as text (not a number, true/false or a "
              "dice pool) can be shown in rule text, but a formula cannot compute with it. The error is at the "
              "value and says what its first use needs.", "factor: 2", "factor: two"),
    rule_edit("E0408", "reserved name", "A formula may not be named like a built-in function (it would be called in "
              "some places and not in others), and no name may be a word of the formula language (if, then, else, "
              "and, or, not, true, false, let, in). Any other name works, Python and JavaScript keywords included.",
              "- id: double", "- id: mean", "- id: mean_of"),
    rule_edit("E0409", "highest or lowest of dice that explode into extra dice", "With `!` each die that explodes "
              "adds a die of its own, so how many dice there are depends on the roll and the highest or lowest k "
              "of them have no fixed count to keep. Write `!!` for dice that each show their exploded sum "
              "(compounding: the total is the same), or ask successes() or count(), which count the extra dice.",
              "expr: n * factor", "expr: n * factor * p_at_least(highest(3d6!, 1), 1)",
              "expr: n * factor * p_at_least(highest(3d6!!, 1), 1)"),
    Entry("E0410", "call tree past its budget", f"The engine and the calculators call a formula every time its name "
          f"is written, so a formula that calls another twice, which calls another twice, makes 2, 4, 8... calls. "
          f"One evaluation may make at most {MAX_CALLS:,} calls of formulas; the error is at the formula that "
          "passes the budget. Compute a call once with let and use its name.",
          {CHAPTER: _call_chain("n_0(n) + n_0(n)")}, {CHAPTER: _call_chain("let x = n_0(n) in x + x")}),
]

EXAMPLES = [
    rule_edit("E0501", "worked example fails", "The formula gives another result than the example expects: either "
              "the formula or the example is wrong.", "expect: 6", "expect: 7"),
    rule_edit("E0502", "example arguments do not match the parameters", "An example must give every parameter, "
              "and nothing else.", "args: {n: 3}", "args: {m: 3}"),
    rule_edit("E0503", "example argument out of range", "An example (or a calculator default) lies outside the "
              "parameter's min..max.", "{args: {n: 3}, expect: 6}", "{args: {n: 11}, expect: 22}"),
    rule_edit("E0504", "example has no answer", "The formula cannot compute a result for these arguments, e.g. "
              "it divides by zero.", "{args: {n: 3}, expect: 6}\n",
              "{args: {n: 3}, expect: 6}\n      - id: share\n        summary: Split evenly.\n        params:\n"
              "          - {name: n, type: int, min: 0, max: 10}\n        expr: 10 // n\n        examples:\n"
              "          - {args: {n: 0}, expect: 0}\n",
              "{args: {n: 3}, expect: 6}\n      - id: share\n        summary: Split evenly.\n        params:\n"
              "          - {name: n, type: int, min: 1, max: 10}\n        expr: 10 // n\n        examples:\n"
              "          - {args: {n: 2}, expect: 5}\n"),
    rule_edit("E0505", "calculator has no answer at its defaults", "The page shows every calculator worked out at "
              "its inputs' defaults, so they must give an answer: change a default, or the formula.",
              "          - {args: {n: 3}, expect: 6}\n",
              "          - {args: {n: 3}, expect: 6}\n    calculators:\n      - id: share\n        title: Share\n"
              "        inputs:\n          - {name: people, type: int, label: People, min: 0, max: 9, default: 0}\n"
              "        outputs:\n          - {name: each, label: Each, expr: 12 // people}\n",
              "          - {args: {n: 3}, expect: 6}\n    calculators:\n      - id: share\n        title: Share\n"
              "        inputs:\n          - {name: people, type: int, label: People, min: 1, max: 9, default: 1}\n"
              "        outputs:\n          - {name: each, label: Each, expr: 12 // people}\n"),
]

REFERENCES = [
    Entry("E0601", "duplicate id or name", "Ids of rules (and their aliases), terms, formulas, calculators, values "
          "and tables are unique within a system.", {CHAPTER: chapter(RULE + HALVING.format(id="doubling"))},
          {CHAPTER: chapter(RULE + HALVING.format(id="halving"))}),
    rule_edit("E0602", "link to an unknown rule or term", "`[[id]]` must name a rule, a rule's alias or a glossary "
              "term of the same system.", "[[pool]]", "[[pol]]"),
    rule_edit("E0603", "unknown value in text", "`{{name}}` must name a value declared under some rule's values:.",
              "{{factor}}", "{{factr}}"),
    rule_edit("E0604", "unknown source", "provenance.source must be the id of one of the system's sources.",
              "source: src,", "source: srd,"),
    Entry("E0605", "upgrade requires itself", "Upgrades whose requirements form a cycle can never be taken.",
          upgrades("{requires: [swifter]}", "{requires: [swift]}"), upgrades("{}", "{requires: [swift]}")),
    Entry("E0606", "upgrade both requires and excludes a rule", "No character could ever take such an upgrade.",
          upgrades("{}", "{requires: [swift], excludes: [swift]}"), upgrades("{}", "{requires: [swift]}")),
    rule_edit("E0607", "link or value in a field shown as written", "The site renders `[[links]]` and `{{values}}` in "
              "texts, list items, summaries, definitions and the notes of what a source leaves unstated; anywhere "
              "else (a formula's summary, a label, a caption, a fact) they would reach the page as written.",
              "summary: Twice a number.", "summary: Twice a [[pool]]."),
    Entry("E0608", "id taken by something rulesc writes", "A system's id names its folder of the site and its "
          "engine module (with _ for -), so it may not be a folder the site has for its own pages (search, "
          "dice-notation, errors, pagefind, assets) nor a name the engine package exports (show, exact, mean, ...); "
          "a calculator's id may not be another calculator's id followed by one of its parts (`fc` with an input "
          "`n`, and `fc-n`), whose element ids would be the same; and a rule's id or alias, its anchor, may not be "
          "a calculator's element id (`calc-<system>-<calculator>` and its parts, such as `calc-mini-fc-n`).",
          {SYSTEM: BASE_SYSTEM.replace("id: mini", "id: search"), CHAPTER: chapter()},
          {SYSTEM: BASE_SYSTEM, CHAPTER: chapter()}),
    rule_edit("E0612", "roll on an unknown table", "A row's then: {table: name} rolls on another roll table of "
              "the same system; a table of another system, or one without a roll, cannot be rolled from here.",
              "    values:\n", _chained("{table: wether}"), _chained("{keep: true, repeats: reroll}")),
    rule_edit("E0613", "roll that never ends", "A chain of rows that roll again whose every branch rolls again "
              "would never give a result: some row it can reach must not roll again. (A chain that can come back "
              "but can also end is allowed: it ends with certainty, but its results are not listed.)",
              "    values:\n", _rolled("1d6", '{roll: "1-6", omen: Again, then: {times: 2}}'),
              _chained("{keep: true}")),
    rule_edit("E0614", "rerolls run out of rows", "With repeats: reroll, a roll landing on a row already rolled "
              "in its group, or on a row that led to it, is rolled again; a group needs that many rows left.",
              "    values:\n", _chained("{times: 2, repeats: reroll}"), _chained("{times: 1, repeats: reroll}")),
    Entry("E0610", "rule under itself", "A rule's `parent` chain comes back to the rule: each would sit under the "
          "other, so neither would appear on any page.",
          {CHAPTER: chapter(RULE.replace("    kind: general\n", "    kind: general\n    parent: halving\n")
                            + HALVING.format(id="halving").replace("    kind: general\n",
                                                                   "    kind: general\n    parent: doubling\n"))},
          {CHAPTER: chapter(RULE + HALVING.format(id="halving").replace(
              "    kind: general\n", "    kind: general\n    parent: doubling\n"))}),
    Entry("E0611", "rules nested too deep", f"Rules nest at most {MAX_NESTING} deep under one another: a page shows "
          "six levels of headings, and a chain of `parent`s as long as a chapter is always a mistake.",
          {CHAPTER: Generated(f"(a rule under a rule, and so on, {MAX_NESTING + 2} rules in all)",
                              lambda: _nested_rules(MAX_NESTING + 1).encode())},
          {CHAPTER: _nested_rules(3)}),
    Entry("E0615", "outcomes that do not match the formula's", "When a rule has named outcomes and a formula "
          "rolls them (the one its roll: names, else its own formulas that return named outcomes), each outcome is "
          "a name the formula returns and each name it returns has an outcome: the page shows each outcome's text "
          "with its chance.", {CHAPTER: _coin("tail")}, {CHAPTER: _coin("tails")}),
    Entry("E0616", "roll names an unknown formula", "A rule's roll: may name the formula that rolls it, which must "
          "be a formula of the system.", {CHAPTER: _coin("tails", "tos")}, {CHAPTER: _coin("tails")}),
]

WARNINGS = [
    Entry("W0701", "term never used", "A glossary term that no text mentions (by name, alias or abbreviation, "
          "which the site links automatically) or links with `[[id]]`: use it where it belongs, or remove it.",
          {CHAPTER: edit("Twice a [[pool]]", "Twice a number")}, GOOD),
    rule_edit("W0702", "value never used", "A value that no text shows and no formula uses is either missing from "
              "the text or left over.", "      factor: 2\n", "      factor: 2\n      halving: 2\n"),
    rule_edit("W0703", "formula without worked examples", "Examples are checked by rulesc check, shown on the "
              "page, run as doctests in the engine and used by rulesc diff to show a change's impact.",
              "        examples:\n          - {args: {n: 3}, expect: 6}\n", ""),
    Entry("W0704", "source never cited", "A source that no rule's provenance names.",
          {SYSTEM: BASE_SYSTEM.replace("title: The rulebook}", "title: The rulebook}\n  - {id: extra, file: extra.txt, "
                                       "title: Supplement}")}, {SYSTEM: BASE_SYSTEM}),
    rule_edit("W0705", "number typed twice", "A number typed in a rule's text (or in a fact's words) that equals "
              "a value of the rule or of a rule it links, signed or not (`+1 momentum` for a value of 1, `-2` for "
              "one of -2 or 2): change the value and the text would go stale. Show the value with `{{name}}` "
              "(`+{{name}}`, `-{{name}}`); prose that is a worked example may list its numbers under the rule's "
              "literals: with a reason.", "is {{factor}} times", "is 2 times"),
    rule_edit("W0707", "roll that may never end", "A roll table row that rolls again with repeats allowed can "
              "come up again on its own chain; where the rows ask on average for as many rolls as they make (or "
              "more), a roll has no finite length on average and may never end. rulesc's rolls stop with an error "
              "past 500 rolls; reroll repeats, or let fewer rows roll again.", "    values:\n",
              _rolled("1d6", '{roll: "1-2", omen: Rain}; {roll: "3-6", omen: Again, then: {times: 2}}'),
              _rolled("1d6", '{roll: "1-2", omen: Rain}; {roll: "3-6", omen: Again, then: {times: 1}}')),
    rule_edit("W0706", "editors' note in a players' box", "The notes under provenance.unstated are shown to "
              "players as \u201cNot stated by the source\u201d: what the source leaves open and what this reference "
              "assumes. Field names, data names and markers such as ASSUMPTION or TODO are for editors: put them "
              "in a YAML comment.", "    provenance: {source: src, section: Doubling}\n",
              "    provenance:\n      source: src\n      section: Doubling\n      unstated:\n"
              "        - {what: Whether halves round down., reasoning: 'ASSUMPTION: factor rounds down.'}\n",
              "    provenance:\n      source: src\n      section: Doubling\n      unstated:\n"
              "        - {what: Whether halves round down., reasoning: This reference rounds them down.}\n"
              "    # Editors: revisit the rounding if the full rulebook turns up.\n"),
    rule_edit("W0708", "a spelling content format 2 reads otherwise", "In a system without `format: 2` (content "
              "format 1), a pool times a number repeats its dice: `1d6 * 10 + 1d6` is 11d6, whose mean is a d66's "
              "but whose chances are not; and `d66` is one die of 66 sides, in formulas and in dice texts (a cell, a "
              "default, an example's argument or expected result). Format 2 reads `*` as the roll's result "
              "times the number, as AnyDice and icepool do, `d66` as tens and units, and spells the old meanings "
              "`repeat(pool, n)` and `1d(66)` (`d(66)` in dice text), which work in both formats. `rulesc migrate` "
              "rewrites every such spelling and moves the system to format 2.",
              "expr: n * factor", "expr: n * factor + p_at_least(1d6 * 2, 13)",
              "expr: n * factor + p_at_least(repeat(1d6, 2), 13)"),
    Entry("W0709", "kind without rules", "A kind the system declares under kinds: that no rule has: give it its "
          "rules, or remove it.", {SYSTEM: kinds_system(GENERAL + "}\n{id: spell, label: Spell, plural: Spells}")},
          {SYSTEM: kinds_system(GENERAL + "}")}),
    rule_edit("W0710", "quoted expected result", "A worked example's expected result in quotes (\"9\", \"0.5\", "
              "\"true\") is read as YAML reads it without them, a number or true/false, whatever the formula "
              "returns, except for `returns: text` or `outcome` (the words as written) and `returns: dice` (a pool). "
              "A formula that does not declare `returns:` might give the words \"9\": check reads the number and "
              "warns. Remove the quotes, or declare what the formula returns.", "expect: 6", 'expect: "6"'),
]

SITE_CONFIG = "mkdocs.yml"
SITE = "site_name: Rules reference\nuse_directory_urls: true\n"

SITE_SETTINGS = [
    Entry("E0801", "mkdocs.yml is not valid YAML", "The site's configuration file must be YAML like the content; "
          "`rulesc check` reads it too, so the mistake shows before a build.",
          {SITE_CONFIG: "site_name: [Rules reference\nuse_directory_urls: true\n"}, {SITE_CONFIG: SITE}),
    Entry("E0802", "a setting MkDocs refuses", "`rulesc build` hands mkdocs.yml to MkDocs, which refuses an unknown "
          "key, a value of the wrong type, a plugin or theme that is not installed, or a missing file.",
          {SITE_CONFIG: SITE.replace("true", "maybe")}, {SITE_CONFIG: SITE}),
    Entry("E0336", "a settings file names a file outside the project", "mkdocs.yml is project configuration, "
          "and MkDocs runs what it names: each hook is Python that MkDocs imports. rulesc refuses a hook "
          "(`hooks:`, relative to mkdocs.yml) or an inherited settings file (`INHERIT:`, relative to the file that "
          "names it) outside the project, so a build runs or reads nothing the project does not hold.",
          {SITE_CONFIG: SITE + "hooks:\n  - ../hooks/site.py\n"}, {SITE_CONFIG: SITE}),
]

VARIANT = "content/mini/variants/triple/variant.yaml"
VARIANT_HEAD = "title: Triple\nkind: house-rule\nsummary: A house rule that triples instead.\n"


def variant(body: str) -> dict[str, FileText]:
    """The base project with one variant beside its system."""
    return {VARIANT: VARIANT_HEAD + body}


VARIANTS = [
    Entry("E0901", "variant names an unknown id", "A variant replaces or removes rules, values, formulas and "
          "calculators of its system by id, and adds to a chapter or rule it names: each must exist in the base "
          "rules (a rule the base renamed keeps its old id as an alias; the hint names the new one).",
          variant("remove:\n  formulas:\n    - {id: dubble}\n"), variant("remove:\n  formulas:\n    - {id: double}\n")),
    Entry("E0902", "variant adds an id the system has", "What a variant adds needs an id (or a value's name) the "
          "system does not use yet; to change an existing one, replace it.",
          variant("add:\n  values:\n    - {rule: doubling, name: factor, value: 3}\n"),
          variant("add:\n  values:\n    - {rule: doubling, name: bonus, value: 3}\n")),
    Entry("E0903", "base changed under a variant", "A replaced value records the base value it replaced (was:), "
          "and a replaced formula may record the base expression; when the base rules change it, `rulesc check` "
          "reports the variant, so its author can see whether the house rule still fits.",
          variant("replace:\n  values:\n    - {name: factor, value: 3, was: 1}\n"),
          variant("replace:\n  values:\n    - {name: factor, value: 3, was: 2}\n"
                  "  formulas:\n    - was: n * factor\n      formula:\n        id: double\n"
                  "        summary: Three times a number.\n        params:\n"
                  "          - {name: n, type: int, min: 0, max: 10}\n        expr: n * factor\n"
                  "        examples:\n          - {args: {n: 3}, expect: 9}\n")),
]

SECTIONS: list[tuple[str, str, list[Entry]]] = [
    ("Layout", "Where rulesc looks for content.", LAYOUT),
    ("Reading files", "Problems found while reading a file, before its meaning is looked at.", LOADING),
    ("Schema", "Keys and values checked against schema/; the message names the JSON path.", SCHEMA),
    ("Values", "Values read by their declared type.", MODEL),
    ("Formulas", "Formulas checked for syntax, names and types.", FORMULAS),
    ("Worked examples", "Every example is run; a wrong one fails the check.", EXAMPLES),
    ("References", "Ids, links and sources checked across a whole system.", REFERENCES),
    ("Site configuration", "mkdocs.yml, checked when the site is built.", SITE_SETTINGS),
    ("Variants", "House rules, optional rules and homebrew under content/<system>/variants/, each checked against "
     "its base rules by every `rulesc check`.", VARIANTS),
    ("Warnings", "Not errors: `rulesc check` lists them and exits 0, unless `--strict` makes them errors.", WARNINGS),
]

CATALOG: dict[str, Entry] = {entry.code: entry for _, _, entries in SECTIONS for entry in entries}
BASE: dict[str, str] = {SYSTEM: BASE_SYSTEM, CHAPTER: BASE_CHAPTER}


def effective(overlay: Mapping[str, FileText], path: str) -> FileText:
    """What `path` holds in the base project with `overlay` laid over it."""
    if path in overlay:
        return overlay[path]
    if any(text is None and path.startswith(gone + "/") for gone, text in overlay.items()):
        return None
    return BASE.get(path)
