"""Export emitter: each system's validated rule data as JSON for other apps, with its JSON Schema."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from rulesc.analyze.attribution import notice
from rulesc.analyze.program import LINK, Program, output_type
from rulesc.analyze.rolls import result_records, table_titles
from rulesc.emit.site.links import permalink
from rulesc.emit.site.markup import Markup
from rulesc.emit.writer import JsonObject, json_text
from rulesc.kinds import RuleKind
from rulesc.licenses import license_of
from rulesc.model import (
    ANY_TIMES,
    Calculator,
    Fact,
    FactKind,
    Formula,
    Param,
    Provenance,
    Rule,
    Source,
    Table,
    Text,
    Value,
    attack_calculator_id,
)
from rulesc.runtime.rulesc_runtime import Dice
from rulesc.schema import schema_text

EXPORT_VERSION = 2
RECORD_DEPTH = 4  # system, its lists, a chapter, its rules: each rule and term stands on one line


def emit_export(schema_dir: Path) -> dict[str, str]:
    """What the export holds besides the systems' files: the JSON Schema they follow."""
    return {"rulesc-export.schema.json": schema_text(schema_dir, "export.schema.json")}


def system_export(program: Program, site_url: str) -> dict[str, str]:
    """The system's rule data as one JSON file."""
    return {f"{program.system.id}.json": json_text(_system(program, site_url), RECORD_DEPTH) + "\n"}


def _value(value: Value) -> Any:
    """Values as JSON: dice pools and exact fractions as text ("1d10+1d4", "7/16")."""
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in sorted(value.items())}
    return str(value) if isinstance(value, (Dice, Fraction)) else value


def _text(text: Text) -> str:
    return text.source


def _system(program: Program, site_url: str) -> JsonObject:
    system = program.system
    return {
        "$schema": "rulesc-export.schema.json",
        "format_version": EXPORT_VERSION,
        "id": system.id,
        "title": system.title,
        "summary": _text(system.summary),
        "name_note": system.name_note,
        "sources": [_source(s) for s in system.sources],
        "dice": {"summary": _text(system.dice_summary), "base_die": system.base_die},
        "facts": [_kind(kind) for kind in system.fact_kinds],
        "terms": [{"id": t.id, "name": t.name, "abbreviations": list(t.abbreviations), "aliases": list(t.aliases),
                   "definition": _text(t.definition), "rule": t.rule,
                   "provenance": _provenance(t.provenance) if t.provenance else None} for t in system.terms],
        "chapters": [{"id": c.id, "title": c.title, "order": c.order, "summary": _text(c.summary),
                      "rules": [_rule(program, r, site_url) for r in c.rules]} for c in system.chapters],
    } | _declared_kinds(program) | _declared_scalings(program)


def _declared_kinds(program: Program) -> JsonObject:
    """The kinds of rule the system declares, when it declares them (an export of format 1 stays as it was)."""
    declared = [kind for kind in program.system.kinds if kind.span is not None]
    return {"kinds": [_rule_kind(kind) for kind in declared]} if declared else {}


def _declared_scalings(program: Program) -> JsonObject:
    """The scalings amounts carry, as the system declares them, when it declares any: an app reading an amount's
    scaling finds the field's label and range here."""
    scalings = program.system.scalings
    return {"scalings": [{"notation": s.notation, "label": s.label, "term": s.term, "min": s.min, "max": s.max}
                         for s in scalings]} if scalings else {}


def _rule_kind(kind: RuleKind) -> JsonObject:
    return {"id": kind.id, "label": kind.label, "plural": kind.plural, "fields": list(kind.fields),
            "required": list(kind.required), "upgrade": kind.upgrade}


def _plain(program: Program, text: Text) -> JsonObject:
    """Text as other apps read it: plain words (links as their names, values as shown) and the ids it links."""
    linked = (program.resolve(m.group(1).strip()) for m in LINK.finditer(text.source))
    ids = dict.fromkeys(target.id for target in linked if target is not None)
    return {"text": Markup.of(program).plain(text), "links": list(ids)}


def _structure(program: Program, rule: Rule) -> JsonObject:
    """The rule's text and list items in plain words (format 2 on: an export of format 1 stays as it was), and its
    trigger, roll and outcomes, each only when it has one."""
    out: JsonObject = {}
    if program.system.format >= 2:
        out["plain"] = {**_plain(program, rule.text), "items": [Markup.of(program).plain(i) for i in rule.items]}
    if rule.trigger is not None:
        out["trigger"] = _plain(program, rule.trigger)
    if rule.roll is not None:
        out["roll"] = {"stats": list(rule.roll.stats), "adds": rule.roll.adds, "formula": rule.roll.formula}
        if rule.roll.take is not None:
            out["roll"]["take"] = rule.roll.take
    if rule.outcomes:
        out["outcomes"] = [{"name": o.name, **_plain(program, o.text)} for o in rule.outcomes]
    return out


def _calculator(calc: Calculator) -> JsonObject:
    """A calculator as checked (program.calculators: its outputs typed)."""
    return {"id": calc.id, "title": calc.title, "inputs": [_param(p) for p in calc.inputs],
            "outputs": [{"name": o.name, "label": o.label, "expr": o.expr.source, "type": output_type(o),
                         "format": o.format} for o in calc.outputs]}


def _rule(program: Program, rule: Rule, site_url: str) -> JsonObject:
    out: JsonObject = {
        "id": rule.id, "name": rule.name, "kind": rule.kind, "parent": rule.parent, "aliases": list(rule.aliases),
        "permalink": permalink(program.system, rule, site_url), "text": _text(rule.text),
        "provenance": _provenance(rule.provenance),
        "values": {k: _value(v) for k, v in rule.values},
        "items": [_text(i) for i in rule.items],
        "facts": {fact.kind.id: _fact(fact, rule.id) for fact in rule.facts},
        "table": None if not rule.table else {
            "name": rule.table.name, "caption": rule.table.caption,
            "columns": [{"key": c.key, "label": c.label, "type": c.type} for c in rule.table.columns],
            # The model builds each row from the table's columns, one cell per column.
            "rows": [{c.key: _value(v) for c, v in zip(rule.table.columns, row, strict=True)}
                     for row in rule.table.rows], **_roll(program, rule.table)},
        "formulas": [_formula(program, f) for f in rule.formulas],
        "calculators": [_calculator(program.calculators[c.id]) for c in rule.calculators],
    }
    return out | _structure(program, rule)


def _roll(program: Program, table: Table) -> JsonObject:
    """A roll table's roll, each row's exact chance, and what each row rolls next (null: nothing); where a row rolls
    again, the exact chance of each final result, every roll followed (null where they are not finite or too many)."""
    if table.roll is None:
        return {}
    found = {"roll": table.roll.written, "chances": [str(table.chance(i)) for i in range(len(table.rows))],
             "then": [None if c is None else {"table": c.table or table.name, "times": c.times, "keep": c.keep,
                                              "repeats": "reroll" if c.reroll else "allowed"} for c in table.chains]}
    if all(chain is None for chain in table.chains):
        return found
    results = program.roll_results.get(table.name)
    return found | {"results": None if results is None else result_records(
        results, table.name, program.tables, table_titles(program.system), Markup.of(program).plain)}


def _source(source: Source) -> JsonObject:
    """A publication, its license (an SPDX id) and the notice that license asks for, as plain text."""
    known, found = license_of(source.license), notice(source)
    return {"id": source.id, "file": source.file, "title": source.title, "authors": list(source.authors),
            "edition": source.edition, "publisher": source.publisher, "year": source.year, "pages": source.pages,
            "url": source.url,
            "license": source.license, "license_url": known.url if known else None,
            "attribution": found.text() if found else None, "note": source.note}


def _provenance(prov: Provenance) -> JsonObject:
    return {"source": prov.source, "section": prov.section, "page": prov.page, "lines": prov.lines,
            "unstated": [{"what": g.what, "reasoning": g.reasoning, "lines": g.lines, "fact": g.fact}
                         for g in prov.unstated]}


def _fact(fact: Fact, rule: str) -> Any:
    """A fact as typed JSON: an amount, limits, rule ids, a number of times ("any" for no limit) or words."""
    if fact.kind.type == "times":
        return "any" if fact.times == ANY_TIMES else fact.times
    if fact.amount is not None:
        a = fact.amount
        return {"amount": a.amount, "scaling": a.scaling, "unit": a.unit, "value": a.value, "note": a.note,
                "text": a.text}
    if fact.kind.type == "limit":
        return [{"count": x.count, "per": x.per} for x in fact.limits]
    if fact.kind.type in ("requires", "excludes"):
        return list(fact.ids)
    if fact.kind.type == "rule":
        return fact.ids[0]
    return _stat_block_fact(fact, rule) if fact.kind.type in ("scores", "attacks", "levels") else fact.words


def _stat_block_fact(fact: Fact, rule: str) -> Any:
    """Scores by name, attacks (each naming its calculator, if the system rolls them), or dice by level."""
    if fact.kind.type == "scores":
        return dict(fact.scores)
    if fact.kind.type == "levels":
        return [{"level": level, "dice": dice} for level, dice in fact.levels]
    rolled = fact.kind.attack is not None
    return [{"name": a.name, "to_hit": a.to_hit, "damage": a.damage, "type": a.type, "note": a.note,
             "calculator": attack_calculator_id(rule, a) if rolled else None} for a in fact.attacks]


def _kind(kind: FactKind) -> JsonObject:
    return {"id": kind.id, "label": kind.label, "type": kind.type, "term": kind.term, "unit": kind.unit,
            "units": list(kind.units), "scalings": list(kind.scalings), "options": list(kind.options),
            "per": list(kind.per)}


def _param(param: Param) -> JsonObject:
    """An input or parameter; its help (plain text, as the calculator shows it under the field) only when it has
    one."""
    return {"name": param.name, "type": param.type, "label": param.label, "min": param.min, "max": param.max,
            "default": None if param.default is None else _value(param.default),
            "options": [{"value": o.value, "label": o.label} for o in param.options]} | (
        {"help": param.help} if param.help else {})


def _formula(program: Program, formula: Formula) -> JsonObject:
    return {"id": formula.id, "summary": formula.summary, "params": [_param(p) for p in formula.params],
            "returns": program.returns[formula.id], "expr": formula.expr.source,
            "examples": [{"args": {k: _value(v) for k, v in e.args}, "expect": _value(e.expect), "note": e.note}
                         for e in formula.examples]}
