"""A small source builder for the emitters (writeline, write_doc, indent), and JSON laid out for reading."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rulesc.formula.layout import Doc, layout

JsonObject = dict[str, Any]
"""A JSON object the emitters write out (the export, an editor schema, a calculator's data): its shape is the output
format's, checked by its schema and its tests, not by this type. Content never travels in one."""
WIDTH = 100
"""The column generated code is wrapped at, along its structure."""


class Writer:
    def __init__(self, indent_with: str = "    ", width: int = WIDTH):
        self.lines: list[str] = []
        self.level = 0
        self.indent_with = indent_with
        self.width = width

    def writeline(self, text: str = "") -> None:
        self.lines.append(self.indent_with * self.level + text if text else "")

    def write_block(self, text: str) -> None:
        lines = text.splitlines()
        if self.level == 0 and lines:  # the same lines as one entry: getvalue() joins entries with newlines anyway
            self.lines.append("\n".join(lines))
            return
        for line in lines:
            self.writeline(line)

    def write_doc(self, doc: Doc) -> None:
        """`doc` at the current indentation: on one line if it fits in the width, else broken to fit."""
        for line in layout(doc, self.width, len(self.indent_with) * self.level, self.indent_with):
            self.writeline(line)

    @contextmanager
    def indent(self) -> Iterator[None]:
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    def getvalue(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"


# json.dumps makes an encoder for each call with options; the export and the records encode tens of thousands.
_ENCODERS = {sort: json.JSONEncoder(ensure_ascii=False, sort_keys=sort) for sort in (False, True)}


def json_text(value: Any, levels: int, sort_keys: bool = False, _depth: int = 0) -> str:
    """JSON indented by two spaces for the outer `levels` levels of containers, each deeper one on a single line.

    A record per line reads well in a diff and lets the C encoder write the bulk: `json.dumps` with `indent` runs
    in pure Python, about four times slower on a large export.
    """
    if _depth >= levels or not isinstance(value, (dict, list)) or not value:
        return _ENCODERS[sort_keys].encode(value)
    inner, outer = "  " * (_depth + 1), "  " * _depth
    if isinstance(value, dict):
        keys = sorted(value) if sort_keys else list(value)
        items = [f"{json.dumps(str(k), ensure_ascii=False)}: {json_text(value[k], levels, sort_keys, _depth + 1)}"
                 for k in keys]
        return "{\n" + ",\n".join(inner + item for item in items) + f"\n{outer}}}"
    return json_array([json_text(item, levels, sort_keys, _depth + 1) for item in value], _depth)


def json_array(items: list[str], depth: int) -> str:
    """A JSON array of items already encoded, one to a line, as json_text lays out an array at `depth`."""
    if not items:
        return "[]"
    inner, outer = "  " * (depth + 1), "  " * depth
    return "[\n" + ",\n".join(inner + item for item in items) + f"\n{outer}]"
