"""Links and values where the site shows text as written: E0607, so no raw [[...]] or {{...}} ever reaches a page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulesc.analyze.lint import texts
from rulesc.analyze.program import LINK, VALUE, Program
from rulesc.diagnostics.core import Diagnostics, did_you_mean
from rulesc.load import Document, JsonPath, locate_in_scalar

NOTES = ("what", "reasoning")
"""A provenance gap's fields: the site renders them as text, so their [[links]] and {{values}} work."""
RESOLVED = ("min", "max", "default")
"""Fields where a whole {{name}} is read as the value it names (the model resolves it)."""


def check_verbatim(program: Program, diags: Diagnostics) -> None:
    """E0607 for a link or value in a field shown as written; E0602/E0603 for an unknown one in a gap's notes."""
    markup = {(text.doc.path, text.path) for text in texts(program)}
    for doc in _documents(program):
        for path, value in _strings(doc.data, ()):
            if (doc.path, path) in markup or not (LINK.search(value) or VALUE.search(value)):
                continue
            if _is_note(path):
                _check_note(program, doc, path, value, diags)
            elif not (path and path[-1] in RESOLVED and VALUE.fullmatch(value.strip())):
                _refuse(doc, path, value, diags)


def _documents(program: Program) -> Iterator[Document]:
    """The system's files: its system.yaml and chapters, each once, in order."""
    seen: dict[str, Document] = {}
    for text in texts(program):
        seen.setdefault(text.doc.path, text.doc)
    for rule in program.system.rules():
        if rule.doc is not None:
            seen.setdefault(rule.doc.path, rule.doc)
    return iter(seen.values())


def _strings(data: Any, path: JsonPath) -> Iterator[tuple[JsonPath, str]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _strings(value, (*path, i))
    elif isinstance(data, str):
        yield path, data


def _is_note(path: JsonPath) -> bool:
    return len(path) >= 3 and path[-3] == "unstated" and path[-1] in NOTES


def _refuse(doc: Document, path: JsonPath, value: str, diags: Diagnostics) -> None:
    match = LINK.search(value) or VALUE.search(value)
    if match is None:
        return
    diags.error("E0607", f"{match.group(0)} in {_field(path)} would show on the site as written: links and values "
                "work only in a rule's text and items, a term's definition, the system's and chapters' summaries "
                "and the notes of what a source leaves unstated",
                locate_in_scalar(doc, path, match.start()),
                "write the name out here, or move the sentence into the rule's text")


def _field(path: JsonPath) -> str:
    """The end of a JSON path as a reader finds it in the file: formulas[0].summary."""
    start = max(0, len(path) - 3)
    while start > 0 and isinstance(path[start], int):
        start -= 1
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path[start:]).lstrip(".")


def _check_note(program: Program, doc: Document, path: JsonPath, value: str, diags: Diagnostics) -> None:
    for match in LINK.finditer(value):
        target = match.group(1).strip()
        if program.resolve(target) is None:
            diags.error("E0602", f"link to unknown rule or term '{target}'",
                        locate_in_scalar(doc, path, match.start(1)),
                        did_you_mean(target, [*program.rules, *program.aliases, *program.terms]))
    for match in VALUE.finditer(value):
        if match.group(1) not in program.value_names:
            diags.error("E0603", f"unknown value '{match.group(1)}' in text",
                        locate_in_scalar(doc, path, match.start(1)), did_you_mean(match.group(1), program.value_names))
