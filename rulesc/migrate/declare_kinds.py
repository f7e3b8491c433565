"""Migration step: write the kinds of rule a system uses, which it had without declaring them, into system.yaml."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rulesc.analyze.variants import variant_files
from rulesc.diagnostics.core import Diagnostics
from rulesc.kinds import FORMAT_1_KINDS, FORMAT_1_UPGRADES, PARTS
from rulesc.load import Document, load_document
from rulesc.migrate.edits import Edit
from rulesc.migrate.plan import Step, SystemSource


def declare_kinds(source: SystemSource) -> list[Edit]:
    """A `kinds:` list before `terms:` naming each undeclared kind the system's rules (and its variants' rules) have,
    with the fields they give; nothing when system.yaml already has `kinds:`, so the step runs once, in any format."""
    path = source.path(source.program.system.span)
    doc = _document(source, path)
    if "kinds" in doc.data:
        return []
    rules = [*_written_rules(source), *_variant_rules(source)]
    fact_order = [kind.id for kind in source.program.system.fact_kinds]
    lines = [_declaration(kind, [r for r in rules if r.get("kind") == kind], fact_order)
             for kind in FORMAT_1_KINDS if any(r.get("kind") == kind for r in rules)]
    if not lines:
        return []
    text = source.texts[path]
    end = "\r\n" if "\r\n" in text else "\n"
    start = source.at(doc.key_span(("terms",)))
    start -= len(text[:start]) - len(text[:start].rstrip(" "))
    return [Edit(path, start, start, end.join(["kinds:", *lines, ""]))]


def _declaration(kind: str, rules: list[dict[str, Any]], fact_order: list[str]) -> str:
    """One kind as a line of flow YAML: its id, today's label and plural, the fields its rules give, upgrade."""
    label, plural = FORMAT_1_KINDS[kind]
    facts = {key for rule in rules for key in rule.get("facts", {})}
    fields = [fact for fact in fact_order if fact in facts] + [part for part in PARTS if any(part in r for r in rules)]
    parts = [f"id: {kind}", f"label: {label}", f"plural: {plural}"]
    parts += [f"fields: [{', '.join(fields)}]"] if fields else []
    parts += ["upgrade: true"] if kind in FORMAT_1_UPGRADES else []
    return "  - {" + ", ".join(parts) + "}"


def _written_rules(source: SystemSource) -> Iterator[dict[str, Any]]:
    """The system's rules as written (their facts and parts by key)."""
    for rule in source.program.system.rules():
        if rule.doc is not None:
            yield _at(rule.doc.data, rule.path)


def _variant_rules(source: SystemSource) -> Iterator[dict[str, Any]]:
    """Every rule a variant of the system adds or replaces, as written: a mapping with a kind and a provenance."""
    folder = source.path(source.program.system.span).parent
    for _, path in variant_files(folder):
        yield from _rule_shaped(_document(source, path).data)


def _rule_shaped(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        if isinstance(data.get("kind"), str) and "provenance" in data:
            yield data
        for value in data.values():
            yield from _rule_shaped(value)
    elif isinstance(data, list):
        for item in data:
            yield from _rule_shaped(item)


def _at(data: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _document(source: SystemSource, path: Path) -> Document:
    doc = load_document(path, source.project.display(path), Diagnostics(), source.project.root)
    assert doc is not None, "a project that checks has readable files"
    return doc


DECLARE_KINDS = Step("declare-kinds", "write the kinds of rule the system uses under kinds: in system.yaml, with the "
                     "fields their rules give", declare_kinds, every_format=True)
