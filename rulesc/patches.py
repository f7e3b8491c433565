"""Model: a validated variant file as typed patches, each with where it is written; analyze/variants.py applies them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from rulesc.diagnostics.core import Span
from rulesc.load import Document, JsonPath

Op = Literal["remove", "replace", "add"]
Part = Literal["rules", "values", "formulas", "calculators"]
OPS: tuple[Op, ...] = ("remove", "replace", "add")  # the order they are applied in
PARTS: tuple[Part, ...] = ("rules", "values", "formulas", "calculators")
PIECE = {"rules": "rule", "formulas": "formula", "calculators": "calculator"}  # the key of what an item writes


@dataclass(frozen=True)
class Patch:
    """One operation of a variant on one rule, value, formula or calculator, found by its id (a value's name).

    A new or replacing rule, formula or calculator is built from `body` when the patch is applied, against the
    system as the variants before left it (its values, tables and kinds)."""

    op: Op
    part: Part
    key: str
    key_span: Span
    body: JsonPath = ()  # where the new rule, formula, calculator or value is written in the variant
    owner: str = ""  # add: the rule it goes under; for a rule, its chapter
    owner_span: Span | None = None
    was: str | None = None  # what a replaced formula was when the variant was written (None: not said)
    was_span: Span | None = None


@dataclass(frozen=True)
class Variant:
    """A house rule, optional rule or homebrew: its name (its folder's), what the site says of it, its patches."""

    name: str
    title: str
    kind: str
    summary: str
    doc: Document  # the file the patches' bodies are built from
    patches: tuple[Patch, ...]  # removals, then replacements, then additions, each part in PARTS order


def read_variant(doc: Document, name: str) -> Variant:
    """The typed patches of a variant file that its schema has validated."""
    data = doc.data
    patches = tuple(_patch(doc, op, part, index, item) for op in OPS for part in PARTS
                    for index, item in enumerate(data.get(op, {}).get(part, ())))
    return Variant(name, data["title"], data["kind"], data["summary"], doc, patches)


def _patch(doc: Document, op: Op, part: Part, index: int, item: dict[str, Any]) -> Patch:
    path: JsonPath = (op, part, index)
    if op == "remove":
        key = "name" if part == "values" else "id"
        return Patch(op, part, item[key], doc.span(path + (key,)))
    if part == "values":
        return _value_patch(doc, op, path, item)
    piece = PIECE[part]
    key_span, body = doc.span(path + (piece, "id")), path + (piece,)
    owner = "chapter" if part == "rules" else "rule"
    if op == "add":
        return Patch(op, part, item[piece]["id"], key_span, body, item[owner], doc.span(path + (owner,)))
    was = item.get("was") if part == "formulas" else None
    return Patch(op, part, item[piece]["id"], key_span, body, was=was, was_span=_was_span(doc, path, was))


def _value_patch(doc: Document, op: Op, path: JsonPath, item: dict[str, Any]) -> Patch:
    """A value's patch: its value (and was) are read where `body` points when it is applied, as the system's content
    format reads them (a format 1 d66 is one die of 66 sides there)."""
    if op == "add":
        return Patch(op, "values", item["name"], doc.span(path + ("name",)), path, owner=item["rule"],
                     owner_span=doc.span(path + ("rule",)))
    return Patch(op, "values", item["name"], doc.span(path + ("name",)), path, was_span=doc.span(path + ("was",)))


def _was_span(doc: Document, path: JsonPath, was: object) -> Span | None:
    return None if was is None else doc.span(path + ("was",))


def patches_of(variant: Variant, op: Op, part: Part) -> Iterator[Patch]:
    """The variant's patches of one operation on one part, in the order written."""
    return (p for p in variant.patches if p.op == op and p.part == part)
