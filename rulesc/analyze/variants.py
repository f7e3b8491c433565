"""Variants: a house rule, optional rule or homebrew applied to its system's model by id, with what it changed."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulesc.analyze.program import show
from rulesc.diagnostics.core import Diagnostics, Span, did_you_mean
from rulesc.load import Document, JsonPath
from rulesc.model import Calculator, Chapter, Fact, Formula, Rule, Scalar, System, Value, builder_over
from rulesc.patches import Patch, Variant, read_variant
from rulesc.runtime.rulesc_runtime import Dice

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
    merge = _Merge(system, read_variant(doc, name), diags, dict(marks or {}), origin or system)
    merge.run()
    return merge.result(), merge.marks


class _Merge:
    """One variant over one system: every patch looked up by id, every problem reported where it is written."""

    def __init__(self, system: System, variant: Variant, diags: Diagnostics, marks: Marks, origin: System):
        self.system, self.variant, self.name, self.diags, self.marks = system, variant, variant.name, diags, marks
        self.origin = {k: v for r in origin.rules() for k, v in r.values}
        self.origin_exprs = {f.id: _one_line(f.expr.source) for r in origin.rules() for f in r.formulas}
        self.chapters: dict[str, list[Rule]] = {c.id: list(c.rules) for c in system.chapters}
        self.builder = builder_over(system, variant.doc, diags)
        self.base = {r.id: r for r in system.rules()}

    def run(self) -> None:
        self.mark(SYSTEM_KEY, "applied")
        for patch in self.variant.patches:
            getattr(self, f"{patch.op}_{patch.part}")(patch)

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
        title, kind = self.variant.title, self.variant.kind
        found = list(self.marks.get(rule_id, ()))
        mine = next((m for m in found if m.variant == self.name), None)
        if mine is None:
            mine = VariantMark(self.name, title, kind, what, (), base.name if base else None,
                               base.text.source if base else None, self.variant.summary)
            found.append(mine)
        changes = mine.changes + ((change,) if change else ())
        updated = dataclasses.replace(mine, changes=changes, what=what if what != "changed" else mine.what)
        if base is not None and mine.base_text is None:  # replaced after this variant changed a part of it
            updated = dataclasses.replace(updated, base_name=base.name, base_text=base.text.source)
        self.marks[rule_id] = tuple(updated if m is mine else m for m in found)

    def unknown(self, what: str, key: str, span: Span | None, known: list[str]) -> None:
        renamed = next((r.id for r in self.rules() if key in r.aliases), None) if what == "rule" else None
        hint = (f"the base renamed it to '{renamed}': update the variant" if renamed else
                did_you_mean(key, known) or f"the {what} may have been removed from the base rules")
        self.diags.error("E0901", f"variant '{self.name}': no {what} '{key}' in system '{self.system.id}'", span,
                         hint)

    def duplicate(self, what: str, key: str, span: Span, where: Span) -> None:
        self.diags.error("E0902", f"variant '{self.name}' adds {what} '{key}', which the system already has "
                         f"(defined at {where})", span,
                         f"give it a new {'name' if what == 'value' else 'id'}, or replace the existing one")

    # --- rules ---------------------------------------------------------------------------------------------

    def remove_rules(self, patch: Patch) -> None:
        gone = self.find_rule(patch.key)
        if gone is None:
            return self.unknown("rule", patch.key, patch.key_span, [r.id for r in self.rules()])
        for chapter, rules in self.chapters.items():
            self.chapters[chapter] = [r for r in rules if r.id != patch.key]
        self.mark(SYSTEM_KEY, "applied", f"removes the rule {gone.name} ({gone.id})")
        return None

    def replace_rules(self, patch: Patch) -> None:
        old = self.find_rule(patch.key)
        if old is None:
            return self.unknown("rule", patch.key, patch.key_span, [r.id for r in self.rules()])
        self.put(self.builder.rule(patch.body, old.chapter))
        self.mark(patch.key, "replaced", base=self.base.get(patch.key))
        return None

    def add_rules(self, patch: Patch) -> None:
        taken = next((r for r in self.rules() if patch.key in (r.id, *r.aliases)), None)
        if taken is not None:
            return self.duplicate("rule", patch.key, patch.key_span, taken.span)
        if patch.owner not in self.chapters:
            return self.unknown("chapter", patch.owner, patch.owner_span, list(self.chapters))
        self.chapters[patch.owner].append(self.builder.rule(patch.body, patch.owner))
        self.mark(patch.key, "added")
        return None

    # --- values --------------------------------------------------------------------------------------------

    def remove_values(self, patch: Patch) -> None:
        rule = self._value_owner(patch.key, patch.key_span)
        if rule is not None:
            self.put(dataclasses.replace(rule, values=tuple(v for v in rule.values if v[0] != patch.key)))
            self.mark(rule.id, "changed", f"removes value {patch.key}")

    def replace_values(self, patch: Patch) -> None:
        name = patch.key
        rule = self._value_owner(name, patch.key_span)
        if rule is None:
            return None
        old, new = dict(rule.values)[name], self.builder.value(*self._raw(patch, "value"))
        was, base = self.builder.value(*self._raw(patch, "was")), self.origin.get(name, old)
        if not _same(base, was):
            self.diags.error("E0903", f"variant '{self.name}' replaces value '{name}', written against {_shown(was)}"
                             f", but the base value is now {_shown(base)}", patch.was_span,
                             f"check that the variant still fits the changed rule, then write was: {_shown(base)}")
        values = tuple((k, new if k == name else v) for k, v in rule.values)
        facts = tuple(_with_amount(f, name, new) for f in rule.facts)
        self.put(dataclasses.replace(rule, values=values, facts=facts))
        self.mark(rule.id, "changed", f"value {name}: {_shown(old)} -> {_shown(new)}")
        return None

    def add_values(self, patch: Patch) -> None:
        name, rule = patch.key, self.find_rule(patch.owner)
        taken = self.owner("values", name)
        if taken is not None:
            return self.duplicate("value", name, patch.key_span, taken.value_span(name))
        if rule is None:
            return self.unknown("rule", patch.owner, patch.owner_span, [r.id for r in self.rules()])
        value = self.builder.value(*self._raw(patch, "value"))
        self.put(dataclasses.replace(rule, values=(*rule.values, (name, value))))
        self.mark(rule.id, "changed", f"adds value {name} = {_shown(value)}")
        return None

    def _raw(self, patch: Patch, key: str) -> tuple[Scalar, JsonPath]:
        """A value patch's value (or was) as written, and where: the builder reads it as the system's format does."""
        path = patch.body + (key,)
        return self.builder.get(path), path

    def _value_owner(self, name: str, span: Span) -> Rule | None:
        rule = self.owner("values", name)
        if rule is None:
            self.unknown("value", name, span, [k for r in self.rules() for k, _ in r.values])
        return rule

    # --- formulas and calculators --------------------------------------------------------------------------

    def remove_formulas(self, patch: Patch) -> None:
        self._remove("formulas", "formula", patch)

    def remove_calculators(self, patch: Patch) -> None:
        self._remove("calculators", "calculator", patch)

    def _owner_or_unknown(self, kind: str, what: str, key: str, span: Span) -> Rule | None:
        """The rule holding the formula or calculator `key`, or None with the unknown-id error reported at `span`."""
        rule = self.owner(kind, key)
        if rule is None:
            self.unknown(what, key, span, [k for r in self.rules() for k in _keys(r, kind)])
        return rule

    def _remove(self, kind: str, what: str, patch: Patch) -> None:
        rule = self._owner_or_unknown(kind, what, patch.key, patch.key_span)
        if rule is None:
            return None
        kept = tuple(x for x in getattr(rule, kind) if x.id != patch.key)
        self.put(_with(rule, kind, kept))
        self.mark(rule.id, "changed", f"removes {what} {patch.key}")
        return None

    def replace_formulas(self, patch: Patch) -> None:
        key = patch.key
        rule = self._owner_or_unknown("formulas", "formula", key, patch.key_span)
        if rule is None:
            return None
        old = _one_line(next(f for f in rule.formulas if f.id == key).expr.source)
        base = self.origin_exprs.get(key, old)
        if patch.was is not None and _one_line(str(patch.was)) != base:
            self.diags.error("E0903", f"variant '{self.name}' replaces formula '{key}', written against "
                             f"'{_one_line(str(patch.was))}', but the base formula is now '{base}'",
                             patch.was_span, "check that the variant still fits the changed rule, then update was:")
        new = self.builder.formula(patch.body, rule.id)
        self.put(dataclasses.replace(rule, formulas=tuple(new if f.id == key else f for f in rule.formulas)))
        expr = _one_line(new.expr.source)
        self.mark(rule.id, "changed", f"formula {key}: {expr} (base rules: {old})" if expr != old else
                  f"formula {key}: the same expression, with the variant's own worked examples")
        return None

    def replace_calculators(self, patch: Patch) -> None:
        rule = self._owner_or_unknown("calculators", "calculator", patch.key, patch.key_span)
        if rule is None:
            return None
        new = self.builder.calculator(patch.body, rule.id)
        calculators = tuple(new if c.id == patch.key else c for c in rule.calculators)
        self.put(dataclasses.replace(rule, calculators=calculators))
        self.mark(rule.id, "changed", f"calculator {new.title}")
        return None

    def add_formulas(self, patch: Patch) -> None:
        self._add("formulas", "formula", patch, self.builder.formula)

    def add_calculators(self, patch: Patch) -> None:
        self._add("calculators", "calculator", patch, self.builder.calculator)

    def _add(self, kind: str, what: str, patch: Patch, build: Callable[[JsonPath, str], Formula | Calculator]) -> None:
        rule = self.find_rule(patch.owner)
        taken = self.owner(kind, patch.key)
        if taken is not None:
            found: Formula | Calculator = next(x for x in getattr(taken, kind) if x.id == patch.key)
            return self.duplicate(what, patch.key, patch.key_span, found.span)
        if rule is None:
            return self.unknown("rule", patch.owner, patch.owner_span, [r.id for r in self.rules()])
        self.put(_with(rule, kind, (*getattr(rule, kind), build(patch.body, rule.id))))
        self.mark(rule.id, "changed", f"adds {what} {patch.key}")
        return None


def _with(rule: Rule, kind: str, items: tuple[Formula | Calculator, ...]) -> Rule:
    """The rule with these formulas or calculators (`kind`), each of that kind."""
    if kind == "formulas":
        return dataclasses.replace(rule, formulas=tuple(x for x in items if isinstance(x, Formula)))
    return dataclasses.replace(rule, calculators=tuple(x for x in items if isinstance(x, Calculator)))


def _keys(rule: Rule, kind: str) -> list[str]:
    if kind == "values":
        return [k for k, _ in rule.values]
    items: tuple[Formula | Calculator, ...] = getattr(rule, kind)
    return [x.id for x in items]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _same(a: Value | None, b: Value | None) -> bool:
    return a == b and type(a) is type(b)


def _shown(value: Value | None) -> str:
    return str(value) if isinstance(value, Dice) else show(value)


def _with_amount(fact: Fact, name: str, value: Value) -> Fact:
    """A fact whose amount is the value `name`, showing `value` instead."""
    amount = fact.amount
    if amount is None or amount.value != name or not isinstance(value, int) or isinstance(value, bool):
        return fact
    return dataclasses.replace(fact, amount=dataclasses.replace(amount, amount=value))


__all__ = ["Chapter", "KIND_LABELS", "SYSTEM_KEY", "Marks", "VariantMark", "apply_variant", "variant_files"]
