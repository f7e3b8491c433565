"""Variants: a house rule, optional rule or homebrew applied to its system's model by id, with what it changed."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.analyze.program import show
from generator.diagnostics.core import Diagnostics, Span, did_you_mean
from generator.load import Document, JsonPath
from generator.model import Calculator, Chapter, Formula, Rule, System, _Builder
from generator.runtime.rulesc_runtime import Dice

VARIANTS_DIR = "variants"
VARIANT_FILE = "variant.yaml"
KIND_LABELS = {"house-rule": "House rule", "optional-rule": "Optional rule", "homebrew": "Homebrew"}
SYSTEM_KEY = ""  # the marks of the system itself: each variant applied, its summary and the rules it removed


@dataclass(frozen=True)
class VariantMark:
    """What one variant did to one rule, for its page: `what` is added, replaced or changed; `changes` says how."""

    variant: str
    title: str
    kind: str
    what: str
    changes: tuple[str, ...] = ()
    base_name: str | None = None  # a replaced rule's name and text in the base rules
    base_text: str | None = None
    summary: str = ""

    @property
    def label(self) -> str:
        return f"{KIND_LABELS.get(self.kind, 'House rule')}: {self.title}"


Marks = dict[str, tuple[VariantMark, ...]]  # by rule id


def variant_files(system_folder: Path) -> list[tuple[str, Path]]:
    """Each variant of a system folder, by name (its folder's name), in name order."""
    folder = system_folder / VARIANTS_DIR
    if not folder.is_dir():
        return []
    return [(p.name, p / VARIANT_FILE) for p in sorted(folder.iterdir())
            if p.is_dir() and not p.name.startswith(".") and os.path.lexists(p / VARIANT_FILE)]


def apply_variant(system: System, doc: Document, name: str, diags: Diagnostics, marks: Marks | None = None,
                  origin: System | None = None) -> tuple[System, Marks]:
    """The system with the variant applied (removals, then replacements, then additions), and its marks so far;
    `origin` is the system before any variant (its values are what each variant's was: records)."""
    merge = _Merge(system, doc, name, diags, dict(marks or {}), origin or system)
    merge.run()
    return merge.result(), merge.marks


class _Merge:
    """One variant over one system: every operation looked up by id, every problem reported at its line."""

    def __init__(self, system: System, doc: Document, name: str, diags: Diagnostics, marks: Marks, origin: System):
        self.system, self.doc, self.name, self.diags, self.marks = system, doc, name, diags, marks
        self.origin = {k: v for r in origin.rules() for k, v in r.values}
        self.origin_exprs = {f.id: _one_line(f.expr.source) for r in origin.rules() for f in r.formulas}
        self.data: dict[str, Any] = doc.data
        self.chapters: dict[str, list[Rule]] = {c.id: list(c.rules) for c in system.chapters}
        self.builder = _Builder(doc, diags, system.fact_kinds, _whole_values(system), _raw_tables(system),
                                system.format, system.kinds)
        self.base = {r.id: r for r in system.rules()}

    def run(self) -> None:
        self.mark(SYSTEM_KEY, "applied")
        for kind in ("rules", "values", "formulas", "calculators"):
            for index, item in self._items("remove", kind):
                getattr(self, f"remove_{kind}")(("remove", kind, index), item)
        for kind in ("rules", "values", "formulas", "calculators"):
            for index, item in self._items("replace", kind):
                getattr(self, f"replace_{kind}")(("replace", kind, index), item)
        for kind in ("rules", "values", "formulas", "calculators"):
            for index, item in self._items("add", kind):
                getattr(self, f"add_{kind}")(("add", kind, index), item)

    def _items(self, op: str, kind: str) -> Iterator[tuple[int, dict[str, Any]]]:
        yield from enumerate(self.data.get(op, {}).get(kind, ()))

    def result(self) -> System:
        chapters = tuple(dataclasses.replace(c, rules=tuple(self.chapters[c.id])) for c in self.system.chapters)
        return dataclasses.replace(self.system, chapters=chapters,
                                   many_sides=self.system.many_sides + tuple(self.builder.many_sides))

    # --- lookups -------------------------------------------------------------------------------------------

    def rules(self) -> Iterator[Rule]:
        for rules in self.chapters.values():
            yield from rules

    def find_rule(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules() if r.id == rule_id), None)

    def owner(self, kind: str, key: str) -> Rule | None:
        """The rule that holds the value, formula or calculator `key`."""
        for rule in self.rules():
            if key in _keys(rule, kind):
                return rule
        return None

    def put(self, rule: Rule) -> None:
        """Put `rule` in the place of the rule with its id."""
        for rules in self.chapters.values():
            for index, old in enumerate(rules):
                if old.id == rule.id:
                    rules[index] = rule

    def mark(self, rule_id: str, what: str, change: str | None = None, base: Rule | None = None) -> None:
        title, kind = self.data["title"], self.data["kind"]
        found = list(self.marks.get(rule_id, ()))
        mine = next((m for m in found if m.variant == self.name), None)
        if mine is None:
            mine = VariantMark(self.name, title, kind, what, (), base.name if base else None,
                               base.text.source if base else None, self.data["summary"])
            found.append(mine)
        changes = mine.changes + ((change,) if change else ())
        updated = dataclasses.replace(mine, changes=changes, what=what if what != "changed" else mine.what)
        if base is not None and mine.base_text is None:  # replaced after this variant changed a part of it
            updated = dataclasses.replace(updated, base_name=base.name, base_text=base.text.source)
        self.marks[rule_id] = tuple(updated if m is mine else m for m in found)

    def unknown(self, what: str, key: str, path: JsonPath, known: list[str]) -> None:
        renamed = next((r.id for r in self.rules() if key in r.aliases), None) if what == "rule" else None
        hint = (f"the base renamed it to '{renamed}': update the variant" if renamed else
                did_you_mean(key, known) or f"the {what} may have been removed from the base rules")
        self.diags.error("E0901", f"variant '{self.name}': no {what} '{key}' in system '{self.system.id}'",
                         self.doc.span(path), hint)

    def duplicate(self, what: str, key: str, path: JsonPath, where: Span) -> None:
        self.diags.error("E0902", f"variant '{self.name}' adds {what} '{key}', which the system already has "
                         f"(defined at {where})", self.doc.span(path),
                         f"give it a new {'name' if what == 'value' else 'id'}, or replace the existing one")

    # --- rules ---------------------------------------------------------------------------------------------

    def remove_rules(self, path: JsonPath, item: dict[str, Any]) -> None:
        gone = self.find_rule(item["id"])
        if gone is None:
            return self.unknown("rule", item["id"], path + ("id",), [r.id for r in self.rules()])
        for chapter, rules in self.chapters.items():
            self.chapters[chapter] = [r for r in rules if r.id != item["id"]]
        self.mark(SYSTEM_KEY, "applied", f"removes the rule {gone.name} ({gone.id})")
        return None

    def replace_rules(self, path: JsonPath, item: dict[str, Any]) -> None:
        rule_id = item["rule"]["id"]
        old = self.find_rule(rule_id)
        if old is None:
            return self.unknown("rule", rule_id, path + ("rule", "id"), [r.id for r in self.rules()])
        self.put(self.builder.rule(path + ("rule",), old.chapter))
        self.mark(rule_id, "replaced", base=self.base.get(rule_id))
        return None

    def add_rules(self, path: JsonPath, item: dict[str, Any]) -> None:
        rule_id, chapter = item["rule"]["id"], item["chapter"]
        taken = next((r for r in self.rules() if rule_id in (r.id, *r.aliases)), None)
        if taken is not None:
            return self.duplicate("rule", rule_id, path + ("rule", "id"), taken.span)
        if chapter not in self.chapters:
            return self.unknown("chapter", chapter, path + ("chapter",), list(self.chapters))
        self.chapters[chapter].append(self.builder.rule(path + ("rule",), chapter))
        self.mark(rule_id, "added")
        return None

    # --- values --------------------------------------------------------------------------------------------

    def remove_values(self, path: JsonPath, item: dict[str, Any]) -> None:
        rule = self._value_owner(item["name"], path + ("name",))
        if rule is not None:
            self.put(dataclasses.replace(rule, values=tuple(v for v in rule.values if v[0] != item["name"])))
            self.mark(rule.id, "changed", f"removes value {item['name']}")

    def replace_values(self, path: JsonPath, item: dict[str, Any]) -> None:
        name = item["name"]
        rule = self._value_owner(name, path + ("name",))
        if rule is None:
            return None
        old, new = dict(rule.values)[name], self.builder.value(item["value"], path + ("value",))
        was, base = self.builder.value(item["was"], path + ("was",)), self.origin.get(name, old)
        if not _same(base, was):
            self.diags.error("E0903", f"variant '{self.name}' replaces value '{name}', written against {_shown(was)}"
                             f", but the base value is now {_shown(base)}", self.doc.span(path + ("was",)),
                             f"check that the variant still fits the changed rule, then write was: {_shown(base)}")
        values = tuple((k, new if k == name else v) for k, v in rule.values)
        facts = tuple(_with_amount(f, name, new) for f in rule.facts)
        self.put(dataclasses.replace(rule, values=values, facts=facts))
        self.mark(rule.id, "changed", f"value {name}: {_shown(old)} -> {_shown(new)}")
        return None

    def add_values(self, path: JsonPath, item: dict[str, Any]) -> None:
        name, rule = item["name"], self.find_rule(item["rule"])
        taken = self.owner("values", name)
        if taken is not None:
            return self.duplicate("value", name, path + ("name",), taken.value_span(name))
        if rule is None:
            return self.unknown("rule", item["rule"], path + ("rule",), [r.id for r in self.rules()])
        value = self.builder.value(item["value"], path + ("value",))
        self.put(dataclasses.replace(rule, values=(*rule.values, (name, value))))
        self.mark(rule.id, "changed", f"adds value {name} = {_shown(value)}")
        return None

    def _value_owner(self, name: str, path: JsonPath) -> Rule | None:
        rule = self.owner("values", name)
        if rule is None:
            self.unknown("value", name, path, [k for r in self.rules() for k, _ in r.values])
        return rule

    # --- formulas and calculators --------------------------------------------------------------------------

    def remove_formulas(self, path: JsonPath, item: dict[str, Any]) -> None:
        self._remove("formulas", "formula", path, item["id"])

    def remove_calculators(self, path: JsonPath, item: dict[str, Any]) -> None:
        self._remove("calculators", "calculator", path, item["id"])

    def _owner_or_unknown(self, kind: str, what: str, key: str, at: JsonPath) -> Rule | None:
        """The rule holding the formula or calculator `key`, or None with the unknown-id error reported at `at`."""
        rule = self.owner(kind, key)
        if rule is None:
            self.unknown(what, key, at, [k for r in self.rules() for k in _keys(r, kind)])
        return rule

    def _remove(self, kind: str, what: str, path: JsonPath, key: str) -> None:
        rule = self._owner_or_unknown(kind, what, key, path + ("id",))
        if rule is None:
            return None
        kept = tuple(x for x in getattr(rule, kind) if x.id != key)
        self.put(_with(rule, kind, kept))
        self.mark(rule.id, "changed", f"removes {what} {key}")
        return None

    def replace_formulas(self, path: JsonPath, item: dict[str, Any]) -> None:
        key = item["formula"]["id"]
        rule = self._owner_or_unknown("formulas", "formula", key, path + ("formula", "id"))
        if rule is None:
            return None
        old = _one_line(next(f for f in rule.formulas if f.id == key).expr.source)
        base = self.origin_exprs.get(key, old)
        if "was" in item and _one_line(item["was"]) != base:
            self.diags.error("E0903", f"variant '{self.name}' replaces formula '{key}', written against "
                             f"'{_one_line(item['was'])}', but the base formula is now '{base}'",
                             self.doc.span(path + ("was",)), "check that the variant still fits the changed rule, "
                             "then update was:")
        new = self.builder.formula(path + ("formula",), rule.id)
        self.put(dataclasses.replace(rule, formulas=tuple(new if f.id == key else f for f in rule.formulas)))
        expr = _one_line(new.expr.source)
        self.mark(rule.id, "changed", f"formula {key}: {expr} (base rules: {old})" if expr != old else
                  f"formula {key}: the same expression, with the variant's own worked examples")
        return None

    def replace_calculators(self, path: JsonPath, item: dict[str, Any]) -> None:
        key = item["calculator"]["id"]
        rule = self._owner_or_unknown("calculators", "calculator", key, path + ("calculator", "id"))
        if rule is None:
            return None
        new = self.builder.calculator(path + ("calculator",), rule.id)
        self.put(dataclasses.replace(rule, calculators=tuple(new if c.id == key else c for c in rule.calculators)))
        self.mark(rule.id, "changed", f"calculator {new.title}")
        return None

    def add_formulas(self, path: JsonPath, item: dict[str, Any]) -> None:
        self._add("formulas", "formula", path, item, lambda p, r: self.builder.formula(p, r))

    def add_calculators(self, path: JsonPath, item: dict[str, Any]) -> None:
        self._add("calculators", "calculator", path, item, lambda p, r: self.builder.calculator(p, r))

    def _add(self, kind: str, what: str, path: JsonPath, item: dict[str, Any], build: Any) -> None:
        key, rule = item[what]["id"], self.find_rule(item["rule"])
        taken = self.owner(kind, key)
        if taken is not None:
            found: Formula | Calculator = next(x for x in getattr(taken, kind) if x.id == key)
            return self.duplicate(what, key, path + (what, "id"), found.span)
        if rule is None:
            return self.unknown("rule", item["rule"], path + ("rule",), [r.id for r in self.rules()])
        self.put(_with(rule, kind, (*getattr(rule, kind), build(path + (what,), rule.id))))
        self.mark(rule.id, "changed", f"adds {what} {key}")
        return None


def _with(rule: Rule, kind: str, items: tuple[Any, ...]) -> Rule:
    return dataclasses.replace(rule, formulas=items) if kind == "formulas" else \
        dataclasses.replace(rule, calculators=items)


def _keys(rule: Rule, kind: str) -> list[str]:
    if kind == "values":
        return [k for k, _ in rule.values]
    items: tuple[Formula | Calculator, ...] = getattr(rule, kind)
    return [x.id for x in items]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


def _shown(value: Any) -> str:
    return str(value) if isinstance(value, Dice) else show(value)


def _with_amount(fact: Any, name: str, value: Any) -> Any:
    """A fact whose amount is the value `name`, showing `value` instead."""
    amount = fact.amount
    if amount is None or amount.value != name or not isinstance(value, int) or isinstance(value, bool):
        return fact
    return dataclasses.replace(fact, amount=dataclasses.replace(amount, amount=value))


def _whole_values(system: System) -> dict[str, int]:
    return {k: v for r in system.rules() for k, v in r.values if isinstance(v, int) and not isinstance(v, bool)}


def _raw_tables(system: System) -> dict[str, dict[str, Any]]:
    """The system's tables as written, by name, for an added input's options_from."""
    found = {}
    for rule in system.rules():
        raw = _raw(rule).get("table") if rule.doc is not None else None
        if isinstance(raw, dict) and "name" in raw:
            found[raw["name"]] = raw
    return found


def _raw(rule: Rule) -> dict[str, Any]:
    data: Any = rule.doc.data if rule.doc is not None else {}
    for part in rule.path:
        data = data[part]
    return data if isinstance(data, dict) else {}


__all__ = ["Chapter", "KIND_LABELS", "SYSTEM_KEY", "Marks", "VariantMark", "apply_variant", "variant_files"]
