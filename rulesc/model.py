"""Stage 3, model: validated documents become frozen dataclasses that keep their spans."""

from __future__ import annotations

import dataclasses
import json
import keyword
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeAlias

from rulesc.diagnostics.core import DIRECTION, Diagnostics, Span, did_you_mean
from rulesc.formula import nodes
from rulesc.formula.builtins import ROWS
from rulesc.formula.lexer import FormulaSyntaxError
from rulesc.formula.parser import parse_formula
from rulesc.formula.table_rolls import ROLL_HINT, book_key, covered, read_roll, runs
from rulesc.formula.types import Type
from rulesc.kinds import OWN_ENTRIES, PARTS, RuleKind, implied_kinds, own_kind_words, site_words, with_structural
from rulesc.licenses import CUSTOM, LICENSES, license_of
from rulesc.load import Document, JsonPath, locate_in_scalar, scalar_locator
from rulesc.runtime.rulesc_runtime import MAX_INT, Dice, RulesError, parse_dice

Scalar: TypeAlias = int | bool | str
_KINDS = {"int": "a whole number (int)", "bool": "true or false (bool)", "dice": "dice (dice)"}
FRACTION = re.compile(r"-?\d+\s*/\s*\d+")
WHOLE = re.compile(r"[-+]?\d{1,100}")
DECIMAL = re.compile(r"[-+]?(?:\d{1,100}\.\d{0,100}|\.\d{1,100})(?:[eE][-+]?\d{1,4})?|[-+]?\d{1,100}[eE][-+]?\d{1,4}")
"""A whole number and a decimal as YAML reads them unquoted, in an example's quoted expected result."""
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_' -]*")
"""An expected name (a named outcome, a word from a table), as opposed to a dice pool such as 2d6+1."""
FORMATS = (1, 2)
"""The content formats this rulesc reads (system.yaml's `format:`): in 2, multiplying a roll multiplies its result
and d66 is a tens-and-units roll; in 1, multiplying a pool repeats its dice and d66 is a die of 66 sides."""
WORDS = ("text", "outcome")  # the return types whose examples expect words as written


def _outcome_key(key: object) -> int | str | bool:
    """A key of an expected distribution: an outcome number, a name, or yes/no (true/false)."""
    if isinstance(key, bool):
        return key
    text = str(key).strip()
    if text in ("true", "false"):
        return text == "true"
    return int(text) if re.fullmatch(r"-?\d+", text) else text


_FORMAT_1_SIDES = re.compile(r"(?<![^\d\s+-])d(666?)(?!\d)")
"""A die written d66 or d666 in dice text, which content format 1 reads as a die of that many sides."""


def show_plain(value: int | float | bool) -> str:
    """A number or yes/no as a message names it: 9, 0.5, true."""
    return str(value).lower() if isinstance(value, bool) else f"the number {value}"


def _is_pool(text: str) -> bool:
    try:
        parse_dice(text)
    except RulesError:
        return False
    return True
Value: TypeAlias = int | bool | Dice | str | Fraction | float


@dataclass(frozen=True)
class Text:
    """Markdown rule text and where it starts, so references inside it can be located."""

    source: str
    doc: Document = field(repr=False, compare=False)
    path: JsonPath = field(repr=False)

    def locate(self, offset: int) -> Span:
        """Where character `offset` of the (NFC) source was typed, in the text as written."""
        return locate_in_scalar(self.doc, self.path, _written_offset(_at(self.doc.data, self.path), offset))


def nfc(text: str) -> str:
    """One spelling of every name and text: typed composed (NFC) or decomposed (NFD), a term is the same term."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def _written_offset(written: str, offset: int) -> int:
    """The offset in the text as written of character `offset` of its NFC form: the longest prefix of the written
    text whose NFC form is no longer (a composed character stands for its whole decomposed sequence)."""
    if written.isascii() or nfc(written) == written:
        return offset
    low, high = 0, len(written)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if len(nfc(written[:middle])) <= offset else (low, middle - 1)
    return low


@dataclass(frozen=True)
class Source:
    """A publication the rules restate: what a citation names, its license and the notice that license asks for."""

    id: str
    file: str | None  # a local copy, whose lines provenance may cite
    title: str
    note: str | None
    span: Span
    authors: tuple[str, ...] = ()
    edition: str | None = None
    publisher: str | None = None
    year: int | None = None
    url: str | None = None
    license: str | None = None  # an SPDX id
    attribution: str | None = None  # the notice as the author wrote it
    changes: str | None = None  # what this reference changed, for a composed CC BY notice
    pages: int | None = None  # how many pages the publication has


@dataclass(frozen=True)
class Term:
    id: str
    name: str
    abbreviations: tuple[str, ...]
    aliases: tuple[str, ...]
    definition: Text
    rule: str | None
    span: Span
    provenance: Provenance | None = None
    rule_span: Span | None = None  # where `rule:` names its rule


@dataclass(frozen=True)
class Gap:
    what: str
    reasoning: str
    lines: str | None = None  # the source lines the gap is about, e.g. "30" or "10, 189"
    fact: str | None = None  # the kind of the rule's fact the gap is about: that fact is an assumption


@dataclass(frozen=True)
class Provenance:
    source: str
    section: str
    unstated: tuple[Gap, ...]
    span: Span
    lines: str | None = None  # the source lines the rule restates
    page: str | None = None  # the publication's page or pages, e.g. "78" or "78-79"
    lines_span: Span | None = field(default=None, compare=False)  # where lines: is written
    page_span: Span | None = field(default=None, compare=False)  # where page: is written


@dataclass(frozen=True)
class Option:
    value: int
    label: str


@dataclass(frozen=True)
class Param:
    name: str
    type: Type
    label: str
    help: str | None
    min: int | None
    max: int | None
    default: Value | None
    options: tuple[Option, ...]
    span: Span


@dataclass(frozen=True)
class Example:
    args: tuple[tuple[str, Value], ...]
    expect: Value
    note: str | None
    span: Span
    arg_spans: tuple[tuple[str, Span], ...] = ()


@dataclass(frozen=True)
class Expr:
    """A formula-language expression: its source text and its syntax tree (None if it failed to parse)."""

    source: str
    node: nodes.Node | None
    span: Span
    doc: Document | None = field(default=None, repr=False, compare=False)  # where it was written, for locate()
    path: JsonPath = field(default=(), repr=False, compare=False)

    def locate(self, offset: int) -> Span:
        """Where character `offset` of the source was typed, in the file as written."""
        return self.span if self.doc is None else locate_in_scalar(self.doc, self.path, offset)


@dataclass(frozen=True)
class Formula:
    id: str
    summary: str
    params: tuple[Param, ...]
    returns: Type | None
    expr: Expr
    examples: tuple[Example, ...]
    rule: str
    span: Span


@dataclass(frozen=True)
class Output:
    name: str
    label: str
    expr: Expr
    suffix: str | None
    format: str = "decimal"


@dataclass(frozen=True)
class Calculator:
    id: str
    title: str
    inputs: tuple[Param, ...]
    outputs: tuple[Output, ...]
    rule: str
    span: Span


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    type: str


@dataclass(frozen=True)
class Chain:
    """What a row of a roll table rolls next: `times` rolls on `table` (its own when None); `keep`: the row is a
    result too; `reroll`: a roll landing on a row already drawn in the group, or on the row that asked for it
    (or one before it in the chain), is rolled again."""

    table: str | None
    times: int
    keep: bool
    reroll: bool
    span: Span


@dataclass(frozen=True)
class TableRoll:
    """The dice a roll table is rolled with, as written, and the outcomes they give with their weights."""

    written: str
    outcomes: tuple[tuple[int, int], ...]
    span: Span

    @property
    def total(self) -> int:
        return sum(weight for _, weight in self.outcomes)


@dataclass(frozen=True)
class Table:
    name: str
    caption: str | None
    columns: tuple[Column, ...]
    rows: tuple[tuple[Value, ...], ...]
    keys: tuple[tuple[int, int], ...]
    span: Span
    roll: TableRoll | None = None
    weights: tuple[int, ...] = ()  # a roll table's rows: the ways each comes up, out of roll.total
    chains: tuple[Chain | None, ...] = ()
    texts: tuple[tuple[Text | None, ...], ...] = ()  # a roll table's text cells, for their links and markup
    row_spans: tuple[Span, ...] = ()

    def chance(self, row: int) -> Fraction:
        """The chance of a roll table's row on one roll."""
        assert self.roll is not None
        return Fraction(self.weights[row], self.roll.total)


@dataclass(frozen=True)
class Limit:
    count: int
    per: str


ANY_TIMES = MAX_INT  # "any number of times": the most an upgrade count can be


@dataclass(frozen=True)
class Upgrade:
    """What the upgrade checks read from a rule's requires, excludes and times facts."""

    requires: tuple[str, ...]
    excludes: tuple[str, ...]
    max_times: int | None


@dataclass(frozen=True)
class AtLevels:
    """Index-table columns for a kind's scaled amounts at some levels, worked out by one of the system's formulas."""

    label: str
    formula: str
    levels: tuple[int, ...]


@dataclass(frozen=True)
class Scaling:
    """A scaling amounts carry, 2(T): its notation, the label of the field a reader types it in (the term's name
    when only a term is given), that term, and the whole numbers the field takes."""

    notation: str
    label: str
    term: str | None
    min: int
    max: int
    span: Span


@dataclass(frozen=True)
class FactKind:
    """A kind of fact a system's stat blocks show: its key, label, type and how its values are read and shown."""

    id: str
    label: str
    type: str
    term: str | None
    unit: str | None
    units: tuple[str, ...]
    scalings: tuple[str, ...]
    options: tuple[str, ...]
    per: tuple[str, ...]
    index: bool
    span: Span
    at: AtLevels | None = None
    min: int | None = None  # number, scores, levels: the smallest number (or level) a fact may give
    max: int | None = None
    names: tuple[str, ...] = ()  # scores: the scores every fact gives, in the order shown
    modifier: str | None = None  # scores: the system's formula of one score giving what is shown beside it
    attack: AttackRoll | None = None  # attacks: how the system rolls an attack


@dataclass(frozen=True)
class AttackRoll:
    """How a system's attacks are rolled: `hit(to_hit, target)` is the chance to hit and `damage(to_hit, damage,
    target)` the expected damage, both formulas of the system; `target` is what the reader sets (an armour class)."""

    hit: str
    damage: str
    target: Param


@dataclass(frozen=True)
class Attack:
    """One attack of a stat block: its name, bonus to hit, damage dice as written, damage type and note."""

    name: str
    to_hit: int
    damage: str
    type: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class Amount:
    """A cost or count: a number with its scaling, unit and note, or the source's words instead of a number."""

    amount: int | None
    scaling: str | None = None
    unit: str | None = None
    value: str | None = None
    note: str | None = None
    text: str | None = None


@dataclass(frozen=True)
class Fact:
    """One fact of a rule, typed by its kind: an amount, limits, rule ids, a number of times or words."""

    kind: FactKind
    amount: Amount | None = None
    limits: tuple[Limit, ...] = ()
    ids: tuple[str, ...] = ()
    times: int | None = None
    words: str | None = None
    span: Span | None = field(default=None, compare=False)
    scores: tuple[tuple[str, int], ...] = ()  # scores: each name and its number
    attacks: tuple[Attack, ...] = ()
    levels: tuple[tuple[int, str], ...] = ()  # levels: each level and its dice as written, lowest first


@dataclass(frozen=True)
class Outcome:
    """One named outcome of a rule (strong hit, weak hit, miss) and what happens on it."""

    name: str
    text: Text
    span: Span


@dataclass(frozen=True)
class Roll:
    """What a rule's roll may add: one of its stats, and adds; and the formula that rolls it, if named."""

    stats: tuple[str, ...]
    adds: bool
    formula: str | None
    span: Span  # where the formula is named, else where the roll starts
    take: str | None = None  # "higher" or "lower": the roll adds that stat of its stats, not the roller's choice

    def stat_choice(self, show: Callable[[str], str] = str) -> str:
        """The stats as a book offers one of them: +Iron, +Edge or +Heart, or +Edge, +Heart, +Iron or +Wits; or as
        it names the one taken: +Health or +Iron, whichever is higher."""
        named = [f"+{show(stat)}" for stat in self.stats]
        listed = " or ".join(named) if len(named) < 3 else ", ".join(named[:-1]) + " or " + named[-1]
        return listed + (f", whichever is {self.take}" if self.take else "")


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    kind: str
    parent: str | None
    aliases: tuple[str, ...]
    text: Text
    provenance: Provenance
    values: tuple[tuple[str, Value], ...]
    table: Table | None
    items: tuple[Text, ...]
    facts: tuple[Fact, ...]
    formulas: tuple[Formula, ...]
    calculators: tuple[Calculator, ...]
    chapter: str
    span: Span
    # Where the rule's mapping is, to find its fields' positions when a diagnostic asks (few ever are).
    doc: Document | None = field(default=None, repr=False, compare=False)
    path: JsonPath = field(default=(), repr=False, compare=False)
    literals: tuple[int, ...] = ()  # numbers its prose may type although they equal a value (worked examples)
    trigger: Text | None = None  # when it applies ("When you...")
    roll: Roll | None = None
    outcomes: tuple[Outcome, ...] = ()

    def texts(self) -> tuple[Text, ...]:
        """Every Markdown text of the rule: its text, list items, trigger and outcomes' texts, in that order."""
        return (self.text, *self.items, *((self.trigger,) if self.trigger else ()), *(o.text for o in self.outcomes))

    def facts_of_type(self, *types: str) -> list[Fact]:
        return [fact for fact in self.facts if fact.kind.type in types]

    @property
    def upgrade(self) -> Upgrade | None:
        """The rule's requires, excludes and times facts as the upgrade checks read them; None without any."""
        found = self.facts_of_type("requires", "excludes", "times")
        if not found:
            return None
        times = [f.times for f in found if f.kind.type == "times"]
        return Upgrade(tuple(i for f in found if f.kind.type == "requires" for i in f.ids),
                       tuple(i for f in found if f.kind.type == "excludes" for i in f.ids), times[0] if times else None)

    def fact_span(self, kind: str) -> Span:
        """Where the rule's fact of kind `kind` is written; the rule's own span without one."""
        fact = next((f for f in self.facts if f.kind.id == kind), None)
        return fact.span if fact is not None and fact.span is not None else self.span

    def fact_item_span(self, kind: str, index: int) -> Span:
        """Where item `index` of the rule's list fact `kind` is written; the fact's span if it is no list."""
        if self.doc is None or not isinstance(_at(self.doc.data, self.path).get("facts", {}).get(kind), list):
            return self.fact_span(kind)
        return self.doc.span(self.path + ("facts", kind, index))

    def value_path(self, name: str) -> JsonPath:
        """Where the value `name` is written: under values:, or as the value: of an amount in facts:."""
        for fact in self.facts:
            if fact.amount is not None and fact.amount.value == name:
                return self.path + ("facts", fact.kind.id, "value")
        return self.path + ("values", name)

    def field_span(self, name: str) -> Span:
        """Where the rule's field `name` starts; the rule's own span if it has no such field."""
        if self.doc is None or name not in _at(self.doc.data, self.path):
            return self.span
        return self.doc.span(self.path + (name,))

    def value_span(self, name: str) -> Span:
        """Where the value `name` is written under the rule's values:; the rule's own span without a document."""
        return self.span if self.doc is None else self.doc.span(self.value_path(name))


@lru_cache(maxsize=1024)
def _dice(text: str) -> Dice:
    """parse_dice, once per distinct text: tables repeat the same few pools in every row (Dice is immutable)."""
    return parse_dice(text)


def _at(data: Any, path: JsonPath) -> Any:
    for part in path:
        data = data[part]
    return data


SYSTEM_PAGES = ("index", "glossary", "tables", "gm-screen", "what-changed")
"""The pages the site makes for every system (emit/site/links.py names them): no chapter may take their ids."""
SITE_FOLDERS = ("assets", "dice-notation", "errors", "pagefind", "search")
"""The folders the site has beside the systems' (each system's folder is its id): the search and Dice notation pages,
the error codes, the search index and the theme's and rulesc's scripts and styles. No system may take their names
(tests/test_namespace.py holds them to what a build writes)."""
ENGINE_EXPORTS = ("parse_dice", "Dice", "Dist", *(row.name for row in ROWS if row.engine), "show", "exact",
                  "roll", "RulesError", "ArgumentError")
"""What the engine package exports beside its systems' modules (rules_engine.__all__ less SYSTEMS, emit/engine.py's
PUBLIC): no system's module (its id with _ for -) may take their names."""


def calculator_ids(system_id: str, calculator: Calculator) -> tuple[str, ...]:
    """The element ids a calculator's form takes on its rule's page: its own (emit/site/links.py's
    calculator_element_id) and those of its parts."""
    base = f"calc-{system_id}-{calculator.id}"
    return (base, *(f"{base}-{suffix}" for suffix in calculator_suffixes(calculator)))


def calculator_suffixes(calculator: Calculator) -> tuple[str, ...]:
    """What a calculator's form appends (after a hyphen) to its element id for the ids of its parts: its title, its
    stale note, each input with its help (if it has one) and its message, each output (emit/site/calculators.py
    writes them)."""
    inputs = [part for param in calculator.inputs
              for part in (param.name, *([f"{param.name}-help"] if param.help else []), f"{param.name}-msg")]
    return ("title", "stale", *inputs, *(f"out-{output.name}" for output in calculator.outputs))


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    order: int
    summary: Text
    rules: tuple[Rule, ...]
    file: str
    span: Span


@dataclass(frozen=True, eq=False)
class System:
    """A whole rulebook, compared and hashed as itself (never field by field, which would walk every rule): the
    stages after the model key their memos on it."""

    id: str
    title: str
    summary: Text
    name_note: str | None
    sources: tuple[Source, ...]
    dice_summary: Text
    base_die: str | None
    terms: tuple[Term, ...]
    chapters: tuple[Chapter, ...]
    span: Span
    fact_kinds: tuple[FactKind, ...] = ()
    set_needs_one_of: tuple[tuple[str, Span], ...] = ()  # upgrade ids of which every set takes one
    phrases: tuple[str, ...] = ()  # names that are neither terms nor rules: no term is linked inside one
    format: int = 1  # the content format it is written in (FORMATS): what its formulas' notation means
    kinds: tuple[RuleKind, ...] = ()  # declared (or format 1's) then rulesc's own, in the index tables' order
    scalings: tuple[Scaling, ...] = ()  # declared under scalings:, in order
    many_sides: tuple[tuple[str, JsonPath, str], ...] = ()
    """Format 1's dice texts that write a die of 66 or 666 sides as d66 (d666): each one's file, JSON path and its
    spelling in every format (d(66)), which `rulesc migrate` writes."""

    def kind(self, kind_id: str) -> RuleKind:
        """The kind of that id (check refused rules of any other kind); an unknown id gets a kind named by it."""
        found = next((kind for kind in self.kinds if kind.id == kind_id), None)
        return found or RuleKind(kind_id, kind_id, kind_id, (), (), False, open=True)

    @property
    def module(self) -> str:
        """The system's engine module, rules_engine.<module>: its id with hyphens as underscores, after an underscore
        where that is no Python name (5e: _5e) or is a keyword (class: _class). No id starts with an underscore, so
        no two systems share a module."""
        name = self.id.replace("-", "_")
        return name if name.isidentifier() and not keyword.iskeyword(name) else "_" + name

    def rules(self) -> list[Rule]:
        return [rule for chapter in self.chapters for rule in chapter.rules]


def _scaling_problem(scaling: Scaling, found: dict[str, Scaling]) -> tuple[str, str, str] | None:
    """What is wrong with a declared scaling, given those declared before it: the key to point at, the message and
    the hint; None when it is well declared."""
    me = f"scaling '{scaling.notation}'"
    if scaling.notation in found:
        return ("notation", f"{me} is declared twice (first at {found[scaling.notation].span})",
                "declare each scaling once; merge the two declarations")
    if not scaling.label:
        return ("notation", f"{me} has no label for the field a reader types it in",
                "give label: (e.g. label: Tier), or term: naming the glossary term whose name labels it")
    if scaling.min > scaling.max:
        return ("min", f"{me} takes no number: its min {scaling.min} is above its max {scaling.max}",
                "min is the smallest number a reader may type and max the largest")
    return None


def _declared(formula: dict[str, Any]) -> Type | None:
    """The type a formula declares it returns, if it does."""
    returns = formula.get("returns")
    return Type(returns) if returns else None


def builder_over(system: System, doc: Document, diags: Diagnostics) -> _Builder:
    """A builder of the rules, formulas and calculators a variant file writes, against `system` as it stands:
    its kinds of fact and rule, its whole-number values and its tables as written (an input's options_from)."""
    known = {k: v for r in system.rules() for k, v in r.values if isinstance(v, int) and not isinstance(v, bool)}
    return _Builder(doc, diags, system.fact_kinds, known, _tables_as_written(system), system.format, system.kinds)


def _tables_as_written(system: System) -> dict[str, dict[str, Any]]:
    """The system's tables as written, by name."""
    found = {}
    for rule in system.rules():
        data: Any = rule.doc.data if rule.doc is not None else {}
        for part in rule.path if rule.doc is not None else ():
            data = data[part]
        raw = data.get("table") if isinstance(data, dict) else None
        if isinstance(raw, dict) and "name" in raw:
            found[raw["name"]] = raw
    return found


def build_system(system_doc: Document, chapter_docs: list[Document], diags: Diagnostics) -> System:
    """Turn one validated system.yaml and its chapter documents into a System."""
    data = system_doc.data
    b = _Builder(system_doc, diags)
    kinds = tuple(b.fact_kind(i) for i in range(len(data.get("facts", ()))))
    terms = tuple(b.term(i) for i in range(len(data["terms"])))
    scalings = b.scalings(terms)
    b.check_scalings(kinds, scalings)
    version = b.format()
    rule_kinds = with_structural(b.rule_kinds(kinds))
    known = _whole_values(chapter_docs)
    tables = _raw_tables(chapter_docs)
    builders = [_Builder(doc, diags, kinds, known, tables, version, rule_kinds) for doc in chapter_docs]
    chapters = sorted((builder.chapter() for builder in builders), key=lambda c: (c.order, c.id))
    return System(
        id=data["id"], title=b.name(("title",)), summary=b.text(("summary",)), name_note=data.get("name_note"),
        sources=tuple(b.source(i) for i in range(len(data["sources"]))),
        dice_summary=b.text(("dice", "summary")), base_die=data["dice"].get("base_die"),
        terms=terms, chapters=tuple(chapters), span=Span(system_doc.path, 1, 1), fact_kinds=kinds,
        set_needs_one_of=tuple((upgrade, b.span(("upgrade_sets", "needs_one_of", i))) for i, upgrade
                               in enumerate(data.get("upgrade_sets", {}).get("needs_one_of", ()))),
        phrases=b.optional_names(("phrases",)), format=version, kinds=rule_kinds,
        scalings=scalings, many_sides=tuple(found for builder in builders for found in builder.many_sides))


class _Builder:
    """Reads one validated document; every accessor takes the JSON path of what it builds."""

    def __init__(self, doc: Document, diags: Diagnostics, kinds: tuple[FactKind, ...] = (),
                 known: dict[str, int] | None = None, tables: dict[str, dict[str, Any]] | None = None,
                 version: int = 1, rule_kinds: tuple[RuleKind, ...] = ()):
        self.doc = doc
        self.version = version  # the system's content format, which its formulas are read in
        self.many_sides: list[tuple[str, JsonPath, str]] = []  # format 1 dice texts writing d66: file, path, d(66)
        self.kinds_by_id = {kind.id: kind for kind in rule_kinds}
        self.diags = diags
        self.kinds = {kind.id: kind for kind in kinds}
        self.known = known or {}  # the system's whole-number values, for {{name}} in a parameter's range
        self.tables = tables or {}  # the system's tables as written, for an input's options_from

    def get(self, path: JsonPath) -> Any:
        return _at(self.doc.data, path)

    def span(self, path: JsonPath) -> Span:
        return self.doc.span(path)

    def text(self, path: JsonPath) -> Text:
        return Text(nfc(self.get(path)), self.doc, path)

    def name(self, path: JsonPath) -> str:
        """A name, title or label as the site shows it: NFC, with no character that reorders the text around it
        (E0311)."""
        return nfc(self.word(path))

    def word(self, path: JsonPath) -> str:
        """A word the site shows and content also names it by (a unit, a `per`, a choice), as written: E0311 if it
        holds a character that reorders the text around it."""
        written: str = self.get(path)
        found = BIDI.search(written)
        if found is not None:
            self.diags.error("E0311", f"{_describe_path(path)} holds the invisible direction control "
                             f"U+{ord(found.group()):04X}, which makes it display in another order than it reads",
                             locate_in_scalar(self.doc, path, found.start()),
                             "delete it: names are shown, searched and linked as typed")
        return written

    def words(self, path: JsonPath) -> tuple[str, ...]:
        """The words of an optional list (see word)."""
        return tuple(self.word(path + (i,)) for i in range(len(self.get(path[:-1]).get(path[-1], ()))))

    def format(self) -> int:
        """The system's content format (1 when left out); an unknown one is E0005 and read as the newest."""
        written = self.doc.data.get("format", 1)
        if written not in FORMATS:
            known = " and ".join(str(known) for known in FORMATS)
            self.diags.error("E0005", f"unknown content format {written}: this rulesc reads formats {known}",
                             self.span(("format",)), f"leave it out for format 1, or write format: {FORMATS[-1]}; "
                             "a newer format needs a newer rulesc")
            return FORMATS[-1]
        return int(written)

    def optional_names(self, path: JsonPath) -> tuple[str, ...]:
        """The names of an optional list (none when it is left out)."""
        parent = self.get(path[:-1])
        return tuple(self.name(path + (i,)) for i in range(len(parent.get(path[-1], ()))))

    def term(self, index: int) -> Term:
        path: JsonPath = ("terms", index)
        t = self.get(path)
        provenance = self.provenance(path + ("provenance",)) if "provenance" in t else None
        if provenance is not None:
            self.check_gap_facts(provenance, path + ("provenance",), [], "term")
        return Term(t["id"], self.name(path + ("name",)), self.optional_names(path + ("abbreviations",)),
                    self.optional_names(path + ("aliases",)),
                    self.text(path + ("definition",)), t.get("rule"), self.span(path), provenance,
                    self.span(path + ("rule",)) if "rule" in t else None)

    def scalings(self, terms: tuple[Term, ...]) -> tuple[Scaling, ...]:
        """The scalings declared under scalings:, each once and well (E0348: declared twice, no label, no number)."""
        found: dict[str, Scaling] = {}
        for i in range(len(self.doc.data.get("scalings", ()))):
            scaling = self.scaling(("scalings", i), terms)
            problem = _scaling_problem(scaling, found)
            if problem is not None:
                key, message, hint = problem
                self.diags.error("E0348", message, self.span(("scalings", i, key)), hint)
            found.setdefault(scaling.notation, scaling)  # one wrongly declared is still declared: no E0349 for it
        return tuple(found.values())

    def scaling(self, path: JsonPath, terms: tuple[Term, ...]) -> Scaling:
        """One declared scaling; its label is the term's name when only a term is given (an unknown term: E0602)."""
        s = self.get(path)
        named = next((term.name for term in terms if term.id == s.get("term")), s.get("term", ""))
        label = self.name(path + ("label",)) if "label" in s else named
        return Scaling(self.word(path + ("notation",)), label, s.get("term"), s["min"], s["max"], self.span(path))

    def check_scalings(self, kinds: tuple[FactKind, ...], scalings: tuple[Scaling, ...]) -> None:
        """E0349 for a scaling a fact kind lists that the system does not declare under scalings:."""
        declared = [scaling.notation for scaling in scalings]
        for i, kind in enumerate(self.doc.data.get("facts", ())):
            for j, notation in enumerate(kind.get("scalings", ())):
                if notation not in declared:
                    self.diags.error("E0349", f"fact kind '{kind['id']}' lists the scaling '{notation}', which the "
                                     "system does not declare", self.span(("facts", i, "scalings", j)),
                                     did_you_mean(notation, declared) or "declare it under scalings: in "
                                     f"system.yaml, e.g. {{notation: {notation}, label: Tier, min: 1, max: 9}}")

    def chapter(self) -> Chapter:
        c = self.doc.data
        rules = tuple(self.rule(("rules", i), c["id"]) for i in range(len(c["rules"])))
        return Chapter(c["id"], self.name(("title",)), c["order"], self.text(("summary",)), rules, self.doc.path,
                       Span(self.doc.path, 1, 1))

    def rule(self, path: JsonPath, chapter: str) -> Rule:
        r = self.get(path)
        provenance = self.provenance(path + ("provenance",))
        facts = tuple(f for f in (self.fact(path + ("facts", key)) for key in r.get("facts", {})) if f is not None)
        self.check_gap_facts(provenance, path + ("provenance",), list(r.get("facts", {})))
        self.check_kind(path)
        name = self.name(path + ("name",))
        return Rule(
            id=r["id"], name=name, kind=r["kind"], parent=r.get("parent"),
            aliases=tuple(r.get("aliases", ())),
            text=self.text(path + ("text",)), provenance=provenance,
            values=tuple((k, self.value(v, path + ("values", k))) for k, v in r.get("values", {}).items())
            + _fact_values(facts),
            table=self.table(path + ("table",)) if "table" in r else None,
            items=tuple(self.text(path + ("items", i)) for i in range(len(r.get("items", ())))),
            facts=facts,
            formulas=tuple(self.formula(path + ("formulas", i), r["id"]) for i in range(len(r.get("formulas", ())))),
            calculators=tuple(self.calculator(path + ("calculators", i), r["id"])
                              for i in range(len(r.get("calculators", ()))))
            + attack_calculators(r["id"], name, facts),
            chapter=chapter, span=self.span(path), doc=self.doc, path=path,
            literals=tuple(r.get("literals", {}).get("numbers", ())),
            trigger=self.text(path + ("trigger",)) if "trigger" in r else None,
            roll=self.roll(path + ("roll",)) if "roll" in r else None,
            outcomes=tuple(Outcome(self.name(path + ("outcomes", i, "name")), self.text(path + ("outcomes", i, "text")),
                                   self.span(path + ("outcomes", i))) for i in range(len(r.get("outcomes", ())))))

    def roll(self, path: JsonPath) -> Roll:
        raw = self.get(path)
        where = path + ("formula",) if "formula" in raw else path
        stats = self.optional_names(path + ("stats",))
        return Roll(stats, raw.get("adds", False), raw.get("formula"), self.span(where), raw.get("take"))

    def rule_kinds(self, facts: tuple[FactKind, ...]) -> tuple[RuleKind, ...]:
        """The kinds system.yaml declares (E0323 for one declared twice, E0324 for a field it cannot have); without
        kinds:, those every rulebook had before declarations (kinds.py's FORMAT_1_KINDS)."""
        data = self.doc.data
        if "kinds" not in data:
            return implied_kinds()
        found: dict[str, RuleKind] = {}
        words = own_kind_words({k["id"] for k in data["kinds"]})
        for i in range(len(data["kinds"])):
            kind = self.rule_kind(("kinds", i), {fact.id for fact in facts})
            if kind.id in found:
                self.diags.error("E0323", f"kind '{kind.id}' is declared twice (first at {found[kind.id].span})",
                                 self.span(("kinds", i, "id")), "declare each kind once; merge the two declarations")
            else:
                found[kind.id] = kind
                self.kind_words(("kinds", i), words)
        return tuple(found.values())

    def kind_words(self, path: JsonPath, taken: dict[str, str]) -> None:
        """E0344 for a kind's label or plural that search uses for its own entries (glossary terms, calculators,
        table rows), E0345 for one another kind has: search's filters and hit lines would not tell them apart."""
        k = self.get(path)
        for key in ("label", "plural"):
            problem = _kind_word_problem(k["id"], key, k[key], taken)
            if problem is not None:
                code, message, hint = problem
                self.diags.error(code, message, self.span(path + (key,)), hint)

    def rule_kind(self, path: JsonPath, facts: set[str]) -> RuleKind:
        k = self.get(path)
        fields, required = tuple(k.get("fields", ())), tuple(k.get("required", ()))
        for i, name in enumerate(fields):
            if name not in PARTS and name not in facts:
                self.diags.error("E0324", f"kind '{k['id']}' lists the field '{name}', which is neither a fact kind "
                                 f"of the system nor one of {', '.join(PARTS)}", self.span(path + ("fields", i)),
                                 did_you_mean(name, [*PARTS, *sorted(facts)]) or "declare the fact kind under facts:")
        for i, name in enumerate(required):
            if name not in fields:
                self.diags.error("E0324", f"kind '{k['id']}' requires the field '{name}', which its fields do not "
                                 "list", self.span(path + ("required", i)), "list it under fields: too")
        return RuleKind(k["id"], self.name(path + ("label",)), self.name(path + ("plural",)), fields, required,
                        k.get("upgrade", False), self.span(path))

    def check_kind(self, path: JsonPath) -> None:
        """E0320 for a kind the system does not have, then the rule's fields against its kind's."""
        r = self.get(path)
        kind = self.kinds_by_id.get(r["kind"])
        if kind is None:
            self.diags.error("E0320", f"unknown kind '{r['kind']}'", self.span(path + ("kind",)),
                             did_you_mean(r["kind"], self.kinds_by_id) or "the system declares "
                             + ", ".join(self.kinds_by_id) + "; declare a kind under kinds: in system.yaml")
            return
        self.check_fields(path, kind, [*(part for part in PARTS if part in r), *r.get("facts", {})])

    def check_fields(self, path: JsonPath, kind: RuleKind, given: list[str]) -> None:
        """E0321 for a field (`given`: the rule's parts and facts) its kind lacks; E0322 for a required one missing."""
        for name in (name for name in given if not kind.has(name)):
            where = path + (name,) if name in PARTS else path + ("facts", name)
            self.diags.error("E0321", f"a rule of kind '{kind.id}' has no field '{name}'", self.doc.key_span(where),
                             f"kind '{kind.id}' has {', '.join(kind.fields) or 'no fields'}; list it under the kind's "
                             "fields:")
        missing = [name for name in kind.required if name not in given]
        if missing:
            self.diags.error("E0322", f"a rule of kind '{kind.id}' must give {', '.join(missing)}",
                             self.span(path + ("kind",)), "the kind's required: lists it")

    def fact_kind(self, index: int) -> FactKind:
        path: JsonPath = ("facts", index)
        k = self.get(path)
        unit = self.word(path + ("unit",)) if "unit" in k else None
        at = AtLevels(self.name(path + ("at", "label")), k["at"]["formula"], tuple(k["at"]["levels"])) \
            if "at" in k else None
        return FactKind(k["id"], self.name(path + ("label",)), k["type"], k.get("term"), unit,
                        self.words(path + ("units",)), self.words(path + ("scalings",)),
                        self.words(path + ("options",)), self.words(path + ("per",)), k.get("index", True),
                        self.span(path), at, k.get("min"), k.get("max"), self.words(path + ("names",)),
                        k.get("modifier"), self.attack_roll(path) if k["type"] == "attacks" else None)

    def attack_roll(self, path: JsonPath) -> AttackRoll | None:
        """An attacks kind's hit and damage formulas and the reader's target (E0343 if one is missing)."""
        k = self.get(path)
        missing = [key for key in ("hit", "damage", "target") if key not in k]
        if missing:
            self.diags.error("E0343", f"fact kind '{k['id']}' of type attacks does not say how an attack is rolled: "
                             f"it has no {', '.join(missing)}", self.span(path + ("type",)),
                             "name the system's formulas, hit: a_formula(to_hit, target) and damage: "
                             "a_formula(to_hit, damage, target), and the target the reader sets, "
                             "target: {name: ac, label: Target armour class, min: 1, max: 30, default: 15}")
            return None
        t = k["target"]
        target = Param(t["name"], Type.INT, self.name(path + ("target", "label")), t.get("help"), t.get("min"),
                       t.get("max"), t.get("default"), (), self.span(path + ("target",)))
        return AttackRoll(k["hit"], k["damage"], target)

    def fact(self, path: JsonPath) -> Fact | None:
        """One fact of a rule read by its kind's type; None (after an error) if it has no kind or does not fit."""
        key = str(path[-1])
        kind = self.kinds.get(key)
        if kind is None:
            self.diags.error("E0306", f"unknown fact kind '{key}'", self.doc.key_span(path),
                             did_you_mean(key, self.kinds) or ("the system declares " + ", ".join(self.kinds)
                                                               if self.kinds else "declare it under facts: in "
                                                               "the system's system.yaml"))
            return None
        raw = self.get(path)
        problem, fact = _read_fact(kind, self.fact_dice(kind, raw, path))
        if problem is not None:
            self.diags.error("E0307", f"fact '{key}' does not fit its kind ({kind.type}): {problem}, got "
                             f"{_shown_raw(raw)}", self.span(path), FACT_HINTS[kind.type])
            return None
        assert fact is not None
        return dataclasses.replace(fact, span=self.span(path))

    def check_license(self, raw: dict[str, Any], path: JsonPath) -> None:
        """E0330 for a license rulesc does not know; E0331 for one whose notice the source does not give."""
        spdx = raw.get("license")
        if spdx is None or "attribution" in raw:
            return
        known = license_of(spdx)
        if known is None and not spdx.startswith(CUSTOM):
            close = did_you_mean(spdx, LICENSES)
            self.diags.error("E0330", f"unknown license '{spdx}'", self.span(path + ("license",)),
                             f"{close + ' ' if close else ''}rulesc knows {', '.join(LICENSES)}; write another "
                             f"license as {CUSTOM}<name>, with the notice it asks for under attribution:")
        elif known is None or (known.attribution and not known.composed):
            self.diags.error("E0331", f"source '{raw['id']}' is published under {spdx}, which asks every copy to "
                             "show its notice", self.span(path + ("license",)),
                             "write the notice as the license asks for it under attribution:")
        elif known.attribution and "authors" not in raw:
            self.diags.error("E0331", f"source '{raw['id']}' is published under {spdx}, whose attribution names "
                             "its authors", self.span(path + ("license",)),
                             "give authors: (the notice is composed from title, authors, url and changes), "
                             "or write the whole notice under attribution:")

    def provenance(self, path: JsonPath) -> Provenance:
        prov = self.get(path)
        page = prov.get("page")
        return Provenance(prov["source"], prov["section"],
                          tuple(Gap(g["what"], g["reasoning"], g.get("lines"), g.get("fact"))
                                for g in prov.get("unstated", ())),
                          self.span(path), prov.get("lines"), None if page is None else str(page),
                          self.span(path + ("lines",)) if "lines" in prov else None,
                          self.span(path + ("page",)) if "page" in prov else None)

    def source(self, index: int) -> Source:
        """One of the system's sources (a publication); its fields as written, names in NFC."""
        raw, path = self.get(("sources", index)), ("sources", index)
        names = {key: self.name(path + (key,)) if key in raw else None for key in ("edition", "publisher")}
        text = {key: nfc(raw[key]) if key in raw else None for key in ("attribution", "changes")}
        self.check_license(raw, path)
        return Source(raw["id"], raw.get("file"), self.name(path + ("title",)), raw.get("note"), self.span(path),
                      tuple(self.name(path + ("authors", i)) for i in range(len(raw.get("authors", ())))),
                      names["edition"], names["publisher"], raw.get("year"), raw.get("url"), raw.get("license"),
                      text["attribution"], text["changes"], raw.get("pages"))

    def check_gap_facts(self, provenance: Provenance, path: JsonPath, given: list[str], owner: str = "rule") -> None:
        """E0310 for a gap about a kind of fact the rule does not give (`given`: the kinds it gives; a term none)."""
        for i, gap in enumerate(provenance.unstated):
            if gap.fact is not None and gap.fact not in given:
                hint = ("a term has no facts; remove fact: from its note" if owner == "term" else
                        f"the rule gives {', '.join(given)}" if given else
                        "give the rule a fact of that kind under facts:, or remove fact: from the note")
                self.diags.error("E0310", f"the note on what the source leaves unstated is about the fact "
                                 f"'{gap.fact}', which this {owner} does not give",
                                 self.span(path + ("unstated", i, "fact")), hint)

    def value(self, raw: Scalar, path: JsonPath) -> Value:
        if isinstance(raw, str):
            try:
                return self.pool(raw, path)
            except RulesError:
                return raw
        return raw

    def pool(self, text: str, path: JsonPath) -> Dice:
        """A dice text of the content, read as its system's format reads it (dice_text())."""
        return _dice(self.dice_text(text, path))

    def dice_text(self, text: str, path: JsonPath) -> str:
        """A dice text in the newest spelling. Typed dice read d66 as tens and units, as format 2 does; in format 1 a
        die written d66 (d666) is one of 66 (666) sides, as in its formulas: read as d(66), with W0708 and a note of
        where it is for `rulesc migrate`, which writes it d(66). RulesError for such a text that is no dice."""
        written = _FORMAT_1_SIDES.sub(r"d(\1)", text) if self.version == 1 else text
        if written != text:
            _dice(written)  # no dice, nothing to warn about: the reader says what is wrong
            sides = _FORMAT_1_SIDES.search(text)
            assert sides is not None
            self.diags.warning("W0708", f"d{sides.group(1)} is one die of {sides.group(1)} sides in content format 1; "
                               f"format 2 reads it as tens and units, as d66 tables do", self.span(path),
                               f"write {written} to keep a die of {sides.group(1)} sides in either format; `rulesc "
                               "migrate` writes that for every such die and moves the system to format 2")
            self.many_sides.append((self.doc.path, path, written))
        return written

    def fact_dice(self, kind: FactKind, raw: Any, path: JsonPath) -> Any:
        """A fact as written, its dice texts (a dice fact, an attack's damage, the dice of each level) in the newest
        spelling, as dice_text() reads them; a text that is no dice stays for the fact's reader to refuse."""
        if kind.type == "dice" and isinstance(raw, str):
            return self.fact_die(raw, path)
        if kind.type == "attacks" and isinstance(raw, list):
            return [{**x, "damage": self.fact_die(x["damage"], path + (i, "damage"))}
                    if isinstance(x, dict) and isinstance(x.get("damage"), str) else x for i, x in enumerate(raw)]
        if kind.type == "levels" and isinstance(raw, dict):
            return {k: self.fact_die(v, path + (k,)) if isinstance(v, str) else v for k, v in raw.items()}
        return raw

    def fact_die(self, text: str, path: JsonPath) -> str:
        try:
            return self.dice_text(text, path)
        except RulesError:
            return text

    def typed(self, raw: Scalar, type_: str, path: JsonPath) -> Value:
        """A scalar read as `type_`; a dice text becomes a Dice pool."""
        if type_ == "dice" and isinstance(raw, str):
            try:
                return self.pool(raw, path)
            except RulesError as exc:
                self.diags.error("E0301", f"{exc}", self.span(path), "write dice like 1d10+1d4")
                return Dice()
        if type_ == "dice" and isinstance(raw, int) and not isinstance(raw, bool):
            return Dice((), raw)
        if (type_ == "int") != (isinstance(raw, int) and not isinstance(raw, bool)) or \
                (type_ == "bool") != isinstance(raw, bool):
            self.diags.error("E0302", f"expected {_KINDS.get(type_, type_)}, got {raw!r}", self.span(path))
        return raw

    def param(self, path: JsonPath) -> Param:
        p = {key: self.shown_value(raw, path + (key,)) if key in ("min", "max", "default") else raw
             for key, raw in self.get(path).items()}
        default = self.typed(p["default"], p["type"], path + ("default",)) if "default" in p else None
        options = tuple(Option(o["value"], self.name(path + ("options", i, "label")))
                        for i, o in enumerate(p.get("options", ())))
        if "options_from" in p:
            options = self.options_from(p["options_from"], path + ("options_from",))
        label = self.name(path + ("label",)) if "label" in p else p["name"].replace("_", " ").capitalize()
        return Param(p["name"], Type(p["type"]), label, p.get("help"), p.get("min"), p.get("max"), default, options,
                     self.span(path))

    def options_from(self, source: dict[str, str], path: JsonPath) -> tuple[Option, ...]:
        """An input's choices from a table: each row's key (the first number it covers) labelled by a cell."""
        table = self.tables.get(source["table"])
        if table is None:
            self.diags.error("E0309", f"options_from names table '{source['table']}', which no rule has",
                             self.span(path + ("table",)), did_you_mean(source["table"], self.tables))
            return ()
        keys = [c.get("key") for c in table.get("columns", ())]
        if source["column"] not in keys:
            self.diags.error("E0309", f"table '{source['table']}' has no column '{source['column']}'",
                             self.span(path + ("column",)), did_you_mean(source["column"], keys))
            return ()
        first = table["columns"][0]
        if first["type"] not in ("int", "range"):
            self.diags.error("E0312", f"options_from names table '{source['table']}', whose first column "
                             f"'{first['key']}' holds {first['type']}, not numbers: its rows give no value to "
                             "choose", self.span(path + ("table",)),
                             "choices are the numbers of a table's first column (an int or range column); give the "
                             "input options: of its own, or key the table by numbers")
            return ()
        found = []
        for row in table.get("rows", ()):
            low, _, problem = parse_range(row.get(keys[0]))
            if problem is None:
                found.append(Option(low, str(row.get(source["column"]))))
        return tuple(found)

    def shown_value(self, raw: Any, path: JsonPath) -> Any:
        """A parameter's min, max or default written as {{name}}: the whole-number value of that name (E0308)."""
        found = VALUE_REF.fullmatch(raw) if isinstance(raw, str) else None
        if found is None:
            return raw
        name = found.group(1)
        if name not in self.known:
            self.diags.error("E0308", f"'{name}' is no whole-number value of the system", self.span(path),
                             did_you_mean(name, self.known) or "a range or default can show a value declared under "
                             "values: or named with value: in facts:")
            return 0
        return self.known[name]

    def expr(self, path: JsonPath) -> Expr:
        source = self.get(path)
        span = self.span(path)
        try:
            node = parse_formula(source, scalar_locator(self.doc, path), self.version)
        except FormulaSyntaxError as exc:
            self.diags.error("E0401", f"formula syntax error: {exc.message}",
                             locate_in_scalar(self.doc, path, exc.offset), exc.hint)
            node = None
        return Expr(source, node, span, self.doc, path)

    def formula(self, path: JsonPath, rule: str) -> Formula:
        f = self.get(path)
        params = tuple(self.param(path + ("params", i)) for i in range(len(f["params"])))
        types = {p.name: p.type for p in params}
        examples = tuple(self.example(path + ("examples", i), types, f.get("returns"))
                         for i in range(len(f.get("examples", ()))))
        return Formula(f["id"], f["summary"], params, _declared(f), self.expr(path + ("expr",)), examples, rule,
                       self.span(path))

    def example(self, path: JsonPath, types: Mapping[str, str], returns: str | None) -> Example:
        e = self.get(path)
        args = tuple((k, self.typed(v, types[k], path + ("args", k)) if k in types else v)
                     for k, v in e["args"].items())
        return Example(args, self.expectation(e["expect"], returns, path + ("expect",)), e.get("note"),
                       self.span(path), tuple((k, self.span(path + ("args", k))) for k in e["args"]))

    def expectation(self, expect: Any, returns: str | None, path: JsonPath) -> Any:
        """An example's expected result read by what its formula declares it returns: words for text or an outcome
        (a plain 9 too), else a number or true/false quoted or not, a fraction, a name (words without digits, or a
        plain word), or a dice pool (E0301)."""
        if isinstance(expect, dict):
            return {_outcome_key(k): Fraction(str(v).replace(" ", "")) for k, v in expect.items()}
        if returns == "text" and type(expect) is int:
            return str(expect)  # `expect: 9` of a formula giving words is the words 9, as quoted
        if not isinstance(expect, str) or returns in WORDS:
            return expect
        quoted = self.quoted(expect.strip(), returns, path)
        if quoted is not None:
            return quoted
        if FRACTION.fullmatch(expect.strip()):
            return Fraction(expect.strip())
        if not _is_pool(expect) and (WORD.fullmatch(expect) or not any(c.isdigit() for c in expect)):
            return expect  # a name: one of a formula's named outcomes, or a word from a table
        return self.typed(expect, "dice", path)

    def quoted(self, text: str, returns: str | None, path: JsonPath) -> int | float | bool | None:
        """A quoted expected result that YAML would read as a number or true/false without its quotes ("9", "0.5",
        "true"), read so, as its author meant, unless the formula returns dice (a pool "9"); None for other text.
        Where the formula does not declare what it returns, the words '9' were as likely: W0710."""
        read = int(text) if WHOLE.fullmatch(text) else float(text) if DECIMAL.fullmatch(text) else \
            text == "true" if text in ("true", "false") else None
        if read is None or returns == "dice":
            return None
        if returns is None:
            self.diags.warning("W0710", f"the expected result '{text}' is quoted: read as {show_plain(read)}, as "
                               "without the quotes", self.span(path),
                               f"write expect: {text} without quotes, or declare returns: text if the formula gives "
                               f"the words '{text}'")
        return read

    def calculator(self, path: JsonPath, rule: str) -> Calculator:
        c = self.get(path)
        inputs = tuple(self.param(path + ("inputs", i)) for i in range(len(c["inputs"])))
        outputs = tuple(Output(o["name"], self.name(path + ("outputs", i, "label")),
                               self.expr(path + ("outputs", i, "expr")), o.get("suffix"),
                               o.get("format", "decimal"))
                        for i, o in enumerate(c["outputs"]))
        return Calculator(c["id"], self.name(path + ("title",)), inputs, outputs, rule, self.span(path))

    def table(self, path: JsonPath) -> Table:
        t = self.get(path)
        columns = tuple(Column(c["key"], self.name(path + ("columns", i, "label")), c["type"])
                        for i, c in enumerate(t["columns"]))
        roll = self.table_roll(path, columns[0]) if "roll" in t else None
        rows: list[tuple[Value, ...]] = []
        keys: list[tuple[int, int]] = []
        names = [c.key for c in columns]
        kept = [i for i, row in enumerate(t["rows"]) if self.row_fits(row, names, path + ("rows", i))]
        for i in kept:
            row, rpath = t["rows"][i], path + ("rows", i)
            raw = book_key(row[names[0]], roll.outcomes) if roll else row[names[0]]
            rows.append(tuple(self.cell(row[c.key], c, rpath + (c.key,), raw if c is columns[0] else None)
                              for c in columns))
            keys.append(self.key(raw, columns[0], rpath + (names[0],)))
        key_spans = [self.span(path + ("rows", i, names[0])) for i in kept]
        keyed = [(key, span, row[0]) for key, span, row in zip(keys, key_spans, rows, strict=True)]
        self.no_doubles(t["name"], roll, keyed) if roll else self.no_overlaps(t["name"], keyed)
        found = Table(t["name"], t.get("caption"), columns, tuple(rows), tuple(keys), self.span(path))
        if roll is None:
            self.no_chains(path)
            return found
        return self.rolled(found, roll, path, kept, key_spans)

    def no_chains(self, path: JsonPath) -> None:
        """A row that rolls again needs a table that is rolled (E0317)."""
        for i, row in enumerate(self.get(path)["rows"]):
            if "then" in row:
                self.diags.error("E0317", "a row of a table with no roll cannot roll again",
                                 self.doc.key_span(path + ("rows", i, "then")),
                                 "declare the dice the table is rolled with, e.g. roll: 1d100, or remove then:")

    def table_roll(self, path: JsonPath, first: Column) -> TableRoll | None:
        """The roll a table declares, read as its outcomes (E0313), on a table keyed by numbers (E0316)."""
        written = self.get(path + ("roll",))
        try:
            outcomes = read_roll(written)
        except RulesError as exc:
            self.diags.error("E0313", f"table roll {exc}", self.span(path + ("roll",)), ROLL_HINT)
            return None
        if first.type not in ("int", "range"):
            self.diags.error("E0316", f"a roll table's first column holds the outcomes each row covers; "
                             f"'{first.key}' is a {first.type} column", self.span(path + ("columns", 0)),
                             "make the first column type: range (01-05, 96-00) or int")
            return None
        return TableRoll(written, outcomes, self.span(path + ("roll",)))

    def rolled(self, table: Table, roll: TableRoll, path: JsonPath, kept: list[int], key_spans: list[Span]) -> Table:
        """A roll table with each row's weight, chain and text cells; every outcome covered once (E0314/E0315)."""
        t = self.get(path)
        weights = tuple(sum(w for _, w in covered(roll.outcomes, key)) for key in table.keys)
        for raw, key, weight, span in zip((t["rows"][i][table.columns[0].key] for i in kept), table.keys,
                                          weights, key_spans, strict=True):
            if key != NO_KEY and not weight:
                self.diags.error("E0315", f"row {_shown(raw)} covers no outcome of {roll.written} "
                                 f"({runs([o for o, _ in roll.outcomes], roll.outcomes)})", span,
                                 _unreached_hint(raw, roll))
        if len(kept) == len(t["rows"]) and NO_KEY not in table.keys:
            self.no_gaps(table, roll, key_spans)
        chains = tuple(self.chain(path + ("rows", i, "then")) for i in kept)
        texts = tuple(tuple(self.text(path + ("rows", i, c.key)) if c.type == "text" and isinstance(
            t["rows"][i][c.key], str) else None for c in table.columns) for i in kept)
        return dataclasses.replace(table, roll=roll, weights=weights, chains=chains, texts=texts,
                                   row_spans=tuple(self.span(path + ("rows", i)) for i in kept))

    def no_gaps(self, table: Table, roll: TableRoll, key_spans: list[Span]) -> None:
        """Outcomes of the roll no row covers: an error at the row after them (the last row after the last)."""
        reached = {o for key in table.keys for o, _ in covered(roll.outcomes, key)}
        missing = [o for o, _ in roll.outcomes if o not in reached]
        if not missing:
            return
        after = [i for i, (low, _) in enumerate(table.keys) if low > missing[0]]
        span = key_spans[after[0]] if after else key_spans[-1]
        self.diags.error("E0314", f"no row of table '{table.name}' covers {runs(missing, roll.outcomes)} of "
                         f"{roll.written}", span, "every outcome of the roll needs exactly one row")

    def chain(self, path: JsonPath) -> Chain | None:
        """What a roll table's row rolls next (`then:`), if anything."""
        parent = self.get(path[:-1])
        if not isinstance(parent, dict) or "then" not in parent:
            return None
        then = parent["then"]
        return Chain(then.get("table"), then.get("times", 1), then.get("keep", False),
                     then.get("repeats", "allowed") == "reroll", self.span(path))

    def row_fits(self, row: dict[str, Scalar], names: list[str], path: JsonPath) -> bool:
        for key in row:
            if key not in names and key != "then":
                self.diags.error("E0303", f"table row has a cell for unknown column '{key}'",
                                 self.doc.key_span(path + (key,)), did_you_mean(key, names))
        missing = [name for name in names if name not in row]
        if missing:
            self.diags.error("E0303", f"table row has no cell for column(s) {', '.join(missing)}", self.span(path))
        return not missing and all(key in names or key == "then" for key in row)

    def cell(self, raw: Scalar, column: Column, path: JsonPath, read: Scalar | None = None) -> Value:
        """A cell as written; a range is checked as `read` (a roll table's key with the book's zeros read)."""
        if column.type == "dice":
            return self.typed(raw if isinstance(raw, str) else str(raw), "dice", path)
        if column.type == "int":
            return self.typed(raw, "int", path)
        if column.type == "range":
            self.range(raw if read is None else read, path)
        return raw if isinstance(raw, str) else str(raw).lower() if isinstance(raw, bool) else str(raw)

    def key(self, raw: Scalar, column: Column, path: JsonPath) -> tuple[int, int]:
        """The whole numbers a row covers, (low, high); a text or dice first column is no key (empty)."""
        if column.type == "range":
            return self.range(raw, path, report=False) or NO_KEY
        if column.type == "int" and isinstance(raw, int) and not isinstance(raw, bool):
            return (raw, raw)
        return NO_KEY  # an int cell of the wrong type is reported by cell(); text and dice tables have no keys

    def range(self, raw: Scalar, path: JsonPath, report: bool = True) -> tuple[int, int] | None:
        """A range cell read as (low, high): 5, 1-4, -5--1, -3-2 or 5+ (5 up to MAX_INT); None if it is not one."""
        low, high, problem = parse_range(raw)
        if problem is None:
            return (low, high)
        if report:
            self.diags.error("E0304", f"expected a range of whole numbers, got {_shown(raw)}: {problem}",
                             self.span(path), RANGE_HINT)
        return None

    def no_doubles(self, table: str, roll: TableRoll, keyed: list[tuple[tuple[int, int], Span, Value]]) -> None:
        """Outcomes of a roll that two rows cover: an error at the later row, naming them."""
        owner: dict[int, int] = {}
        doubled: dict[tuple[int, int], list[int]] = {}
        for row, (key, _, _) in enumerate(keyed):
            for outcome, _ in covered(roll.outcomes, key):
                if outcome in owner:
                    doubled.setdefault((row, owner[outcome]), []).append(outcome)
                else:
                    owner[outcome] = row
        for (later, first), both in sorted(doubled.items()):
            self.diags.error("E0305", f"rows {keyed[first][2]} and {keyed[later][2]} of table '{table}' both cover "
                             f"{runs(both, roll.outcomes)} of {roll.written}", keyed[later][1],
                             "every outcome of the roll needs exactly one row")

    def no_overlaps(self, table: str, keyed: list[tuple[tuple[int, int], Span, Value]]) -> None:
        """Rows whose keys share a whole number are an error at the later row: a lookup must have one answer."""
        reach: tuple[tuple[int, int], Span, Value] | None = None  # the row reaching highest so far
        for key, span, shown in sorted((k for k in keyed if k[0] != NO_KEY), key=lambda k: (k[0], k[1])):
            if reach is not None and key[0] <= reach[0][1]:
                first, later = sorted((reach, (key, span, shown)), key=lambda k: k[1])
                both = (max(key[0], reach[0][0]), min(key[1], reach[0][1]))
                self.diags.error("E0305", f"rows {first[2]} and {later[2]} of table '{table}' overlap at "
                                 f"{_shown_range(both)}", later[1],
                                 f"the other row is at {first[1]}; a lookup must find one row for each number")
            if reach is None or key[1] > reach[0][1]:
                reach = (key, span, shown)


FACT_HINTS = {
    "cost": "write a number, {amount: 2, scaling: T, value: a_name}, or the source's words such as Varies",
    "count": "write a number, {amount: 1, unit: Action}, or the source's words such as Instant",
    "limit": "write a list such as [{count: 1, per: round}]",
    "choice": "write one of the kind's options",
    "rule": "write a rule id, or a list of them such as [parry, deflect]",
    "requires": "write a list of rule ids such as [swift]",
    "excludes": "write a list of rule ids such as [swift]",
    "times": "write a whole number of 1 or more, any, or {amount: 3, value: a_name}",
    "text": "write the words",
    "dice": "write dice like 1d8 or 2d6+3",
    "number": "write a whole number, or {amount: 15, value: a_name, note: natural armour}",
    "scores": "write each of the kind's names with a whole number, e.g. {STR: 10, DEX: 14}",
    "attacks": "write a list such as [{name: Bite, to_hit: 4, damage: 2d4+2, type: piercing}]",
    "levels": "write each level with its dice, e.g. {1: 3d6, 2: 4d6}",
}
FactRead = tuple[str | None, Fact | None]
NAME = re.compile(r"[a-z_][a-z0-9_]*")  # what is wrong with a fact, or the fact


def _read_fact(kind: FactKind, raw: Any) -> FactRead:
    reader = {"cost": _amount_fact, "count": _amount_fact, "limit": _limit_fact, "choice": _choice_fact,
              "rule": _rule_fact, "requires": _ids_fact, "excludes": _ids_fact, "times": _times_fact,
              "text": _text_fact, "dice": _dice_fact, "number": _number_fact, "scores": _scores_fact,
              "attacks": _attacks_fact, "levels": _levels_fact}[kind.type]
    return reader(kind, raw)


def _is_int(raw: Any) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)


def _amount_fact(kind: FactKind, raw: Any) -> FactRead:
    if _is_int(raw) or isinstance(raw, str):
        raw = {"amount": raw} if _is_int(raw) else {"text": raw}
    if not isinstance(raw, dict) or set(raw) - {"amount", "scaling", "unit", "value", "note", "text"}:
        return "expected a number, the source's words or an amount", None
    if ("amount" in raw) == ("text" in raw):
        return "expected either amount: or text:, not both nor neither", None
    if not all(_words(raw[k]) for k in raw if k != "amount"):
        return "scaling, unit, value, note and text are words", None
    if "value" in raw and not NAME.fullmatch(raw["value"]):
        return f"value '{raw['value']}' is no formula-language name (lowercase letters, digits, underscores)", None
    amount = Amount(raw.get("amount"), raw.get("scaling"), raw.get("unit"), raw.get("value"), raw.get("note"),
                    raw.get("text"))
    problem = _amount_problem(kind, amount)
    return (problem, None) if problem else (None, Fact(kind, amount=amount))


def _amount_problem(kind: FactKind, amount: Amount) -> str | None:
    if amount.amount is not None and not _is_int(amount.amount):
        return "the amount must be a whole number"
    if amount.scaling is not None and amount.scaling not in kind.scalings:
        return f"scaling '{amount.scaling}' is not one of the kind's scalings ({_listed(kind.scalings)})"
    if amount.unit is not None and amount.unit not in kind.units:
        return f"unit '{amount.unit}' is not one of the kind's units ({_listed(kind.units)})"
    if amount.value is not None and amount.amount is None:
        return "value: names a number, so it needs amount:"
    return None


def _listed(items: tuple[str, ...]) -> str:
    return ", ".join(items) if items else "it declares none"


def _limit_fact(kind: FactKind, raw: Any) -> FactRead:
    if not isinstance(raw, list) or not raw or not all(_is_limit(x) for x in raw):
        return "expected a list of one or more {count, per}, each count 1 or more", None
    for x in raw:
        if kind.per and x["per"] not in kind.per:
            return f"per '{x['per']}' is not one of the kind's per ({_listed(kind.per)})", None
    return None, Fact(kind, limits=tuple(Limit(x["count"], x["per"]) for x in raw))


def _is_limit(raw: Any) -> bool:
    return isinstance(raw, dict) and set(raw) == {"count", "per"} and _is_int(raw["count"]) and raw["count"] >= 1 \
        and isinstance(raw["per"], str)


def _choice_fact(kind: FactKind, raw: Any) -> FactRead:
    if not isinstance(raw, str) or raw not in kind.options:
        return f"expected one of {_listed(kind.options)}", None
    return None, Fact(kind, words=raw)


def _rule_fact(kind: FactKind, raw: Any) -> FactRead:
    """One rule id, or a list of them when the source names several (a maneuver that modifies any of three)."""
    problem, fact = _ids_fact(kind, raw)
    return ("expected a rule id or a list of them", None) if problem or not raw else (None, fact)


def _ids_fact(kind: FactKind, raw: Any) -> FactRead:
    ids = [raw] if isinstance(raw, str) else raw
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        return "expected a rule id or a list of one or more", None
    return None, Fact(kind, ids=tuple(ids))


def _times_fact(kind: FactKind, raw: Any) -> FactRead:
    """A number of times, or any; {amount: 3, value: a_name} also names the number for text and formulas."""
    if raw == "any":
        return None, Fact(kind, times=ANY_TIMES)
    named = isinstance(raw, dict) and set(raw) == {"amount", "value"} and isinstance(raw["value"], str) \
        and NAME.fullmatch(raw["value"]) is not None
    number = raw["amount"] if named else raw
    if not _is_int(number) or number < 1:
        return "expected a whole number of 1 or more, any, or {amount, value}", None
    return None, Fact(kind, times=number, amount=Amount(number, value=raw["value"]) if named else None)


def _text_fact(kind: FactKind, raw: Any) -> FactRead:
    return ("expected words", None) if not _words(raw) else (None, Fact(kind, words=raw))


def _words(raw: Any) -> bool:
    """Text with something to show: not empty, not only spaces."""
    return isinstance(raw, str) and bool(raw.strip())


def _dice_fact(kind: FactKind, raw: Any) -> FactRead:
    try:
        return None, Fact(kind, words=str(_dice(raw if isinstance(raw, str) else str(raw))))
    except RulesError as exc:
        return f"expected dice ({exc})", None


def _number_fact(kind: FactKind, raw: Any) -> FactRead:
    """A whole number within the kind's min and max, optionally named with value: and noted."""
    problem, fact = _amount_fact(kind, raw)
    if fact is None or fact.amount is None or fact.amount.amount is None:
        return problem or "expected a whole number", None
    return _out_of_range(kind, fact.amount.amount) or None, fact


def _out_of_range(kind: FactKind, number: int) -> str:
    """What is wrong with a number outside the kind's min and max; empty when it fits."""
    if (kind.min is not None and number < kind.min) or (kind.max is not None and number > kind.max):
        low = "" if kind.min is None else f"at least {kind.min}"
        high = "" if kind.max is None else f"at most {kind.max}"
        return f"{number} is out of range: the kind takes {' and '.join(x for x in (low, high) if x)}"
    return ""


def _scores_fact(kind: FactKind, raw: Any) -> FactRead:
    """Every one of the kind's names with a whole number in range, and no other."""
    if not isinstance(raw, dict) or set(map(str, raw)) != set(kind.names):
        return f"expected each of {_listed(kind.names)} with a whole number, and no other", None
    scores = {str(k): v for k, v in raw.items()}
    for name in kind.names:
        if not _is_int(scores[name]):
            return f"the score {name} must be a whole number", None
        problem = _out_of_range(kind, scores[name])
        if problem:
            return f"{name}: {problem}", None
    return None, Fact(kind, scores=tuple((name, scores[name]) for name in kind.names))


ATTACK_KEYS = {"name", "to_hit", "damage", "type", "note"}


def _attacks_fact(kind: FactKind, raw: Any) -> FactRead:
    """A list of attacks, each a name, a whole to_hit, damage dice, and optionally words for type and note."""
    if not isinstance(raw, list) or not raw:
        return "expected a list of one or more attacks", None
    attacks = []
    for x in raw:
        if not isinstance(x, dict) or set(x) - ATTACK_KEYS or not {"name", "to_hit", "damage"} <= set(x):
            return "each attack has name, to_hit and damage, and may have type and note", None
        if not _is_int(x["to_hit"]) or not all(_words(x[k]) for k in x if k not in ("to_hit", "damage")):
            return f"attack '{x['name']}': to_hit is a whole number; name, type and note are words", None
        if _dice_fact(kind, x["damage"])[0]:
            return f"attack '{x['name']}': damage {x['damage']!r} is no dice such as 2d6+3", None
        attacks.append(Attack(x["name"], x["to_hit"], str(x["damage"]), x.get("type"), x.get("note")))
    return None, Fact(kind, attacks=tuple(attacks))


def _levels_fact(kind: FactKind, raw: Any) -> FactRead:
    """Dice by level: whole-number levels within the kind's min and max, each with its dice."""
    if not isinstance(raw, dict) or not raw or not all(re.fullmatch(r"[0-9]+", str(k)) for k in raw):
        return "expected whole-number levels, each with its dice", None
    levels = {int(k): v for k, v in raw.items()}  # YAML's keys are read as text
    for level, dice in levels.items():
        problem = _out_of_range(kind, level) or _dice_fact(kind, dice)[0]
        if problem:
            return f"level {level}: {problem}", None
    return None, Fact(kind, levels=tuple(sorted((level, str(dice)) for level, dice in levels.items())))


def _kind_word_problem(kind: str, key: str, written: str, taken: dict[str, str]) -> tuple[str, str, str] | None:
    """Whether a kind's label or plural (`key`) is a word of search's own or of another kind (`taken`: each word,
    with the kind that has it; this one's are added): the code, message and hint of the error, or None."""
    word, reserved, me = " ".join(written.split()).casefold(), site_words(), f"kind '{kind}'"
    if word in reserved:
        own = dict.fromkeys(w for entry, (hit, _) in OWN_ENTRIES.items() for w in (entry, hit.lower()))
        return ("E0344", f"{me} has the {key} '{written}', which search uses for its {reserved[word]} (it keeps "
                f"{', '.join(own)} and their plurals for its own entries)",
                "name the kind in other words, e.g. 'Game term' or 'Calculation'")
    if taken.setdefault(word, me) != me:
        return ("E0345", f"{me} has the {key} '{written}', as {taken[word]} has: search's filters and the index "
                "tables would show both as one",
                "name each kind in words of its own (declare one of rulesc's kinds, such as table, to rename it)")
    return None


def attack_calculators(rule: str, name: str, facts: tuple[Fact, ...]) -> tuple[Calculator, ...]:
    """A calculator for each attack of a stat block: its chance to hit and expected damage against the target the
    reader sets, by the formulas the system's attacks kind names (no attacks kind, no calculators)."""
    return tuple(_attack_calculator(rule, name, fact, attack) for fact in facts if fact.kind.attack is not None
                 for attack in fact.attacks)


def _attack_calculator(rule: str, name: str, fact: Fact, attack: Attack) -> Calculator:
    roll = fact.kind.attack
    assert roll is not None and fact.span is not None
    target, span = roll.target, fact.span
    to_hit, pool = f"({attack.to_hit})", f"({_dice(attack.damage)})"  # as the formula language spells the pool
    outputs = (Output("hit", "Chance to hit", _made_expr(f"{roll.hit}({to_hit}, {target.name})", span), None,
                      "percent"),
               Output("damage", "Expected damage", _made_expr(f"{roll.damage}({to_hit}, {pool}, {target.name})",
                                                              span), None, "decimal"))
    return Calculator(attack_calculator_id(rule, attack), f"{name}: {attack.name}", (target,), outputs, rule, span)


def attack_calculator_id(rule: str, attack: Attack) -> str:
    """The id of an attack's calculator: the rule's id and the attack's name, e.g. goblin-scimitar."""
    slug = re.sub(r"[^a-z0-9]+", "-", attack.name.lower()).strip("-") or "attack"
    return f"{rule}-{slug}"


def _made_expr(source: str, span: Span) -> Expr:
    """An expression rulesc writes itself (a stat block's attack), located at what it was made from."""
    try:
        node: nodes.Node | None = parse_formula(source, lambda _offset: span)
    except FormulaSyntaxError:
        node = None  # a formula name that is no name: the kind's schema already refuses it
    return Expr(source, node, span)


# Characters that reorder the text around them (embeddings, overrides, isolates, marks): in a name or a title
# they make it display in another order than it reads, and than search and links match.
BIDI = DIRECTION


def _describe_path(path: JsonPath) -> str:
    """`rules[0].name` for a path, as the schema's messages write it."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path).lstrip(".")


VALUE_REF = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


def _raw_tables(chapter_docs: list[Document]) -> dict[str, dict[str, Any]]:
    """Every table the chapters declare, as written, by name (an input's options_from reads one)."""
    return {rule["table"]["name"]: rule["table"] for doc in chapter_docs if isinstance(doc.data, dict)
            for rule in doc.data.get("rules", ()) if isinstance(rule.get("table"), dict) and "name" in rule["table"]}


def _whole_values(chapter_docs: list[Document]) -> dict[str, int]:
    """Every whole-number value the chapters declare (under values:, or as a fact's named amount), by name."""
    found: dict[str, int] = {}
    for doc in chapter_docs:
        for rule in doc.data.get("rules", ()) if isinstance(doc.data, dict) else ():
            found.update({k: v for k, v in rule.get("values", {}).items() if _is_int(v)})
            for fact in rule.get("facts", {}).values():
                if isinstance(fact, dict) and _is_int(fact.get("amount")) and isinstance(fact.get("value"), str):
                    found[fact["value"]] = fact["amount"]
    return found


def _fact_values(facts: tuple[Fact, ...]) -> tuple[tuple[str, Value], ...]:
    """The amounts of a rule's facts that are named with value:, as values of the system."""
    return tuple((f.amount.value, f.amount.amount) for f in facts
                 if f.amount is not None and f.amount.value is not None and f.amount.amount is not None)


def _shown_raw(raw: Any) -> str:
    return _shown(raw) if isinstance(raw, (int, str)) else json.dumps(raw, default=str)


NO_KEY = (0, -1)  # covers no number: rows of tables keyed by text or dice, and keys that did not parse
RANGE = re.compile(r"\s*(-?[0-9]+)\s*(?:([-\u2013])\s*(-?[0-9]+)|(\+))?\s*")
RANGE_HINT = "write a whole number (5), a range (1-4, -5--1) or a number and up (20+)"


def parse_range(raw: Scalar) -> tuple[int, int, str | None]:
    """A range cell as (low, high, None), or (0, -1, what is wrong with it)."""
    if isinstance(raw, bool):
        return (0, -1, "true and false are not numbers")
    if isinstance(raw, int):
        return (raw, raw, None) if abs(raw) <= MAX_INT else (0, -1, f"it is beyond {MAX_INT}")
    match = RANGE.fullmatch(raw)
    if match is None:
        return (0, -1, "it is not a number, two numbers joined by '-', or a number followed by '+'")
    low = int(match.group(1))
    high = MAX_INT if match.group(4) else int(match.group(3)) if match.group(2) else low
    if max(abs(low), abs(high)) > MAX_INT:
        return (0, -1, f"it reaches beyond {MAX_INT}, the largest whole number rulesc computes with")
    if high < low:
        return (0, -1, f"it runs backwards; write {high}-{low}")
    return (low, high, None)


def _unreached_hint(raw: Scalar, roll: TableRoll) -> str:
    """What to do about a row no outcome reaches; YAML reads an unquoted 00 as 0."""
    highest = roll.outcomes[-1][0]
    if raw == 0 and not isinstance(raw, bool) and re.fullmatch(r"10+", str(highest)):
        zeros = "0" * (len(str(highest)) - 1)
        return f'quote the book\'s {zeros}, "{zeros}", for {highest}: unquoted, YAML reads it as the number 0'
    return "give the row outcomes the roll can show, or remove it"


def _shown(raw: Scalar) -> str:
    return ("true" if raw else "false") if isinstance(raw, bool) else repr(raw) if isinstance(raw, str) else str(raw)


def _shown_range(key: tuple[int, int]) -> str:
    low, high = key
    return str(low) if low == high else f"{low}+" if high == MAX_INT else f"{low}-{high}"


def default_of(param: Param) -> Any:
    """The value a calculator input starts from."""
    if param.default is not None:
        return param.default
    if param.type == "bool":
        return False
    if param.type == "upgrades":
        return ()
    if param.type == "dice":
        return Dice()  # no dice
    if param.options:
        return param.options[0].value
    return max(param.min or 0, min(param.max if param.max is not None else 0, 0))
