"""Stage 3, model: validated documents become frozen dataclasses that keep their spans."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeAlias

from generator.diagnostics.core import Diagnostics, Span, did_you_mean
from generator.formula import nodes
from generator.formula.lexer import FormulaSyntaxError
from generator.formula.parser import parse_formula
from generator.load import Document, JsonPath, locate_in_scalar, scalar_locator
from generator.runtime.rulesc_runtime import MAX_INT, Dice, RulesError, parse_dice

Scalar: TypeAlias = int | bool | str
_KINDS = {"int": "a whole number (int)", "bool": "true or false (bool)", "dice": "dice (dice)"}
FRACTION = re.compile(r"-?\d+\s*/\s*\d+")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_' -]*")
"""An expected name (a named outcome, a word from a table), as opposed to a dice pool such as 2d6+1."""


def _outcome_key(key: object) -> int | str | bool:
    """A key of an expected distribution: an outcome number, a name, or yes/no (true/false)."""
    if isinstance(key, bool):
        return key
    text = str(key).strip()
    if text in ("true", "false"):
        return text == "true"
    return int(text) if re.fullmatch(r"-?\d+", text) else text


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
        return locate_in_scalar(self.doc, self.path, offset)


@dataclass(frozen=True)
class Source:
    id: str
    file: str
    title: str
    note: str | None
    span: Span


@dataclass(frozen=True)
class Term:
    id: str
    name: str
    abbreviations: tuple[str, ...]
    aliases: tuple[str, ...]
    definition: Text
    rule: str | None
    span: Span


@dataclass(frozen=True)
class Gap:
    what: str
    reasoning: str


@dataclass(frozen=True)
class Provenance:
    source: str
    section: str
    unstated: tuple[Gap, ...]
    span: Span


@dataclass(frozen=True)
class Option:
    value: int
    label: str


@dataclass(frozen=True)
class Param:
    name: str
    type: str
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


@dataclass(frozen=True)
class Formula:
    id: str
    summary: str
    params: tuple[Param, ...]
    returns: str | None
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
class Table:
    name: str
    caption: str | None
    columns: tuple[Column, ...]
    rows: tuple[tuple[Value, ...], ...]
    keys: tuple[tuple[int, int], ...]
    span: Span


@dataclass(frozen=True)
class Limit:
    count: int
    per: str


@dataclass(frozen=True)
class Maneuver:
    type: str
    base: str | None
    exploit: str | None


@dataclass(frozen=True)
class Upgrade:
    requires: tuple[str, ...]
    excludes: tuple[str, ...]
    max_times: int | None


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
    cost: tuple[tuple[str, str], ...]
    limits: tuple[Limit, ...]
    maneuver: Maneuver | None
    upgrade: Upgrade | None
    formulas: tuple[Formula, ...]
    calculators: tuple[Calculator, ...]
    chapter: str
    span: Span
    # Where the rule's mapping is, to find its fields' positions when a diagnostic asks (few ever are).
    doc: Document | None = field(default=None, repr=False, compare=False)
    path: JsonPath = field(default=(), repr=False, compare=False)

    def field_span(self, name: str) -> Span:
        """Where the rule's field `name` starts; the rule's own span if it has no such field."""
        if self.doc is None or name not in _at(self.doc.data, self.path):
            return self.span
        return self.doc.span(self.path + (name,))

    def value_span(self, name: str) -> Span:
        """Where the value `name` is written under the rule's values:; the rule's own span without a document."""
        return self.span if self.doc is None else self.doc.span(self.path + ("values", name))


@lru_cache(maxsize=1024)
def _dice(text: str) -> Dice:
    """parse_dice, once per distinct text: tables repeat the same few pools in every row (Dice is immutable)."""
    return parse_dice(text)


def _at(data: Any, path: JsonPath) -> Any:
    for part in path:
        data = data[part]
    return data


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    order: int
    summary: Text
    rules: tuple[Rule, ...]
    file: str
    span: Span


@dataclass(frozen=True)
class System:
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

    @property
    def module(self) -> str:
        return self.id.replace("-", "_")

    def rules(self) -> list[Rule]:
        return [rule for chapter in self.chapters for rule in chapter.rules]


def build_system(system_doc: Document, chapter_docs: list[Document], diags: Diagnostics) -> System:
    """Turn one validated system.yaml and its chapter documents into a System."""
    data = system_doc.data
    b = _Builder(system_doc, diags)
    chapters = sorted((_Builder(doc, diags).chapter() for doc in chapter_docs), key=lambda c: (c.order, c.id))
    return System(
        id=data["id"], title=data["title"], summary=b.text(("summary",)), name_note=data.get("name_note"),
        sources=tuple(Source(s["id"], s["file"], s["title"], s.get("note"), b.span(("sources", i)))
                      for i, s in enumerate(data["sources"])),
        dice_summary=b.text(("dice", "summary")), base_die=data["dice"].get("base_die"),
        terms=tuple(b.term(i) for i in range(len(data["terms"]))),
        chapters=tuple(chapters), span=Span(system_doc.path, 1, 1))


class _Builder:
    """Reads one validated document; every accessor takes the JSON path of what it builds."""

    def __init__(self, doc: Document, diags: Diagnostics):
        self.doc = doc
        self.diags = diags

    def get(self, path: JsonPath) -> Any:
        return _at(self.doc.data, path)

    def span(self, path: JsonPath) -> Span:
        return self.doc.span(path)

    def text(self, path: JsonPath) -> Text:
        return Text(self.get(path), self.doc, path)

    def term(self, index: int) -> Term:
        path: JsonPath = ("terms", index)
        t = self.get(path)
        return Term(t["id"], t["name"], tuple(t.get("abbreviations", ())), tuple(t.get("aliases", ())),
                    self.text(path + ("definition",)), t.get("rule"), self.span(path))

    def chapter(self) -> Chapter:
        c = self.doc.data
        rules = tuple(self.rule(("rules", i), c["id"]) for i in range(len(c["rules"])))
        return Chapter(c["id"], c["title"], c["order"], self.text(("summary",)), rules, self.doc.path,
                       Span(self.doc.path, 1, 1))

    def rule(self, path: JsonPath, chapter: str) -> Rule:
        r = self.get(path)
        prov = r["provenance"]
        provenance = Provenance(prov["source"], prov["section"],
                                tuple(Gap(g["what"], g["reasoning"]) for g in prov.get("unstated", ())),
                                self.span(path + ("provenance",)))
        upgrade = r.get("upgrade")
        maneuver = r.get("maneuver")
        return Rule(
            id=r["id"], name=r["name"], kind=r["kind"], parent=r.get("parent"), aliases=tuple(r.get("aliases", ())),
            text=self.text(path + ("text",)), provenance=provenance,
            values=tuple((k, self.value(v)) for k, v in r.get("values", {}).items()),
            table=self.table(path + ("table",)) if "table" in r else None,
            items=tuple(self.text(path + ("items", i)) for i in range(len(r.get("items", ())))),
            cost=tuple(sorted(r.get("cost", {}).items())),
            limits=tuple(Limit(x["count"], x["per"]) for x in r.get("limits", ())),
            maneuver=Maneuver(maneuver["type"], maneuver.get("base"), maneuver.get("exploit")) if maneuver else None,
            upgrade=Upgrade(tuple(upgrade.get("requires", ())), tuple(upgrade.get("excludes", ())),
                            upgrade.get("max_times")) if upgrade is not None else None,
            formulas=tuple(self.formula(path + ("formulas", i), r["id"]) for i in range(len(r.get("formulas", ())))),
            calculators=tuple(self.calculator(path + ("calculators", i), r["id"])
                              for i in range(len(r.get("calculators", ())))),
            chapter=chapter, span=self.span(path), doc=self.doc, path=path)

    def value(self, raw: Scalar) -> Value:
        if isinstance(raw, str):
            try:
                return _dice(raw)
            except RulesError:
                return raw
        return raw

    def typed(self, raw: Scalar, type_: str, path: JsonPath) -> Value:
        """A scalar read as `type_`; a dice text becomes a Dice pool."""
        if type_ == "dice" and isinstance(raw, str):
            try:
                return _dice(raw)
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
        p = self.get(path)
        default = self.typed(p["default"], p["type"], path + ("default",)) if "default" in p else None
        return Param(p["name"], p["type"], p.get("label", p["name"].replace("_", " ").capitalize()), p.get("help"),
                     p.get("min"), p.get("max"), default,
                     tuple(Option(o["value"], o["label"]) for o in p.get("options", ())), self.span(path))

    def expr(self, path: JsonPath) -> Expr:
        source = self.get(path)
        span = self.span(path)
        try:
            node = parse_formula(source, scalar_locator(self.doc, path))
        except FormulaSyntaxError as exc:
            self.diags.error("E0401", f"formula syntax error: {exc.message}",
                             locate_in_scalar(self.doc, path, exc.offset), exc.hint)
            node = None
        return Expr(source, node, span)

    def formula(self, path: JsonPath, rule: str) -> Formula:
        f = self.get(path)
        params = tuple(self.param(path + ("params", i)) for i in range(len(f["params"])))
        types = {p.name: p.type for p in params}
        examples = tuple(self.example(path + ("examples", i), types)
                         for i in range(len(f.get("examples", ()))))
        return Formula(f["id"], f["summary"], params, f.get("returns"), self.expr(path + ("expr",)), examples, rule,
                       self.span(path))

    def example(self, path: JsonPath, types: dict[str, str]) -> Example:
        e = self.get(path)
        args = tuple((k, self.typed(v, types[k], path + ("args", k)) if k in types else v)
                     for k, v in e["args"].items())
        expect = e["expect"]
        if isinstance(expect, dict):
            expect = {_outcome_key(k): Fraction(str(v).replace(" ", "")) for k, v in expect.items()}
        elif isinstance(expect, str) and FRACTION.fullmatch(expect.strip()):
            expect = Fraction(expect.strip())
        elif isinstance(expect, str) and WORD.fullmatch(expect) and not _is_pool(expect):
            pass  # a name: one of a formula's named outcomes, or a word from a table
        elif isinstance(expect, str):
            expect = self.typed(expect, "dice", path + ("expect",))
        return Example(args, expect, e.get("note"), self.span(path),
                       tuple((k, self.span(path + ("args", k))) for k in e["args"]))

    def calculator(self, path: JsonPath, rule: str) -> Calculator:
        c = self.get(path)
        inputs = tuple(self.param(path + ("inputs", i)) for i in range(len(c["inputs"])))
        outputs = tuple(Output(o["name"], o["label"], self.expr(path + ("outputs", i, "expr")), o.get("suffix"),
                               o.get("format", "decimal"))
                        for i, o in enumerate(c["outputs"]))
        return Calculator(c["id"], c["title"], inputs, outputs, rule, self.span(path))

    def table(self, path: JsonPath) -> Table:
        t = self.get(path)
        columns = tuple(Column(c["key"], c["label"], c["type"]) for c in t["columns"])
        rows: list[tuple[Value, ...]] = []
        keys: list[tuple[int, int]] = []
        names = [c.key for c in columns]
        for i, row in enumerate(t["rows"]):
            rpath = path + ("rows", i)
            if not self.row_fits(row, names, rpath):
                continue
            rows.append(tuple(self.cell(row[c.key], c, rpath + (c.key,)) for c in columns))
            keys.append(self.key(row[names[0]], columns[0], rpath + (names[0],)))
        self.no_overlaps(t["name"], [(key, self.span(path + ("rows", i, names[0])), row[0])
                                     for i, (key, row) in enumerate(zip(keys, rows, strict=True))])
        return Table(t["name"], t.get("caption"), columns, tuple(rows), tuple(keys), self.span(path))

    def row_fits(self, row: dict[str, Scalar], names: list[str], path: JsonPath) -> bool:
        for key in row:
            if key not in names:
                self.diags.error("E0303", f"table row has a cell for unknown column '{key}'",
                                 self.doc.key_span(path + (key,)), did_you_mean(key, names))
        missing = [name for name in names if name not in row]
        if missing:
            self.diags.error("E0303", f"table row has no cell for column(s) {', '.join(missing)}", self.span(path))
        return not missing and all(key in names for key in row)

    def cell(self, raw: Scalar, column: Column, path: JsonPath) -> Value:
        if column.type == "dice":
            return self.typed(raw if isinstance(raw, str) else str(raw), "dice", path)
        if column.type == "int":
            return self.typed(raw, "int", path)
        if column.type == "range":
            self.range(raw, path)
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
    if param.options:
        return param.options[0].value
    return max(param.min or 0, min(param.max if param.max is not None else 0, 0))
