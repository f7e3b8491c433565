"""Stage 1, load: YAML files to plain data plus the file:line:col of every key and value."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from .diagnostics import Diagnostics, Span

JsonPath = tuple[str | int, ...]
MAX_DEPTH = 64
MAX_BYTES = 8 * 1024 * 1024


@dataclass
class Document:
    """One YAML file: its data, and the spans of each value and each mapping key by JSON path."""

    path: str
    data: Any
    values: dict[JsonPath, Span] = field(default_factory=dict)
    keys: dict[JsonPath, Span] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def span(self, path: JsonPath) -> Span:
        """The span of the value at `path`, or of its nearest ancestor that has one."""
        for cut in range(len(path), -1, -1):
            found = self.values.get(tuple(path[:cut]))
            if found is not None:
                return found
        return Span(self.path, 1, 1)

    def key_span(self, path: JsonPath) -> Span:
        return self.keys.get(tuple(path)) or self.span(path)


def load_document(file: Path, display: str, diags: Diagnostics) -> Document | None:
    """Read one YAML file; report every problem found into `diags` and return None on failure."""
    text = _read_text(file, display, diags)
    if text is None:
        return None
    if ("&" in text or "*" in text) and _reject_aliases(text, display, diags):
        return None
    try:
        root = _yaml().load(text)
    except DuplicateKeyError as exc:
        mark = exc.problem_mark
        key = _duplicate_name(exc.problem or "")
        first = _first_key_line(text, key.strip("'"), mark.line, mark.column)
        diags.error("E0107", f"duplicate key {key} in a mapping", Span(display, mark.line + 1, mark.column + 1),
                    f"it is first given at line {first}; each key may appear once" if first else None)
        return None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(display, mark.line + 1, mark.column + 1) if mark else Span(display, 1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        diags.error("E0101", f"YAML syntax error: {_clean(problem)}", span, _yaml_hint(problem))
        return None
    except (YAMLError, RecursionError) as exc:
        diags.error("E0101", f"YAML syntax error: {_clean(str(exc).splitlines()[0] if str(exc) else 'nesting too deep')}",
                    Span(display, 1, 1))
        return None
    doc = Document(display, None, lines=text.splitlines())
    if root is None:
        diags.error("E0104", "the file is empty; expected a mapping of keys to values", Span(display, 1, 1))
        return None
    doc.data = _convert(root, (), doc, 0, diags)
    return doc


def _read_text(file: Path, display: str, diags: Diagnostics) -> str | None:
    raw = file.read_bytes()
    if len(raw) > MAX_BYTES:
        diags.error("E0105", f"the file is {len(raw)} bytes; content files may be at most {MAX_BYTES} bytes",
                    Span(display, 1, 1), "split it into several chapter files")
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        diags.error("E0102", f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})", Span(display, line, col),
                    "save the file as UTF-8")
        return None


def _yaml() -> YAML:
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    return yaml


def _reject_aliases(text: str, display: str, diags: Diagnostics) -> bool:
    """Anchors and aliases are refused before composing, so an alias bomb is never expanded."""
    from ruamel.yaml.tokens import AliasToken, AnchorToken

    try:
        for token in _yaml().scan(text):
            if isinstance(token, (AnchorToken, AliasToken)):
                mark = token.start_mark
                kind = "anchor" if isinstance(token, AnchorToken) else "alias"
                diags.error("E0103", f"YAML {kind}s are not allowed in content", Span(display, mark.line + 1, mark.column + 1),
                            "write the value out; content files must read the same to every editor")
                return True
    except YAMLError:
        return False  # the composer reports the syntax error with its position
    return False


def _convert(node: Any, path: JsonPath, doc: Document, depth: int, diags: Diagnostics) -> Any:
    if depth > MAX_DEPTH and isinstance(node, (CommentedMap, CommentedSeq)):
        diags.error("E0106", f"nesting deeper than {MAX_DEPTH} levels", doc.span(path))
        return None
    if isinstance(node, CommentedMap):
        out: dict[str, Any] = {}
        for key in node:
            line, col = node.lc.key(key)
            child = path + (str(key),)
            doc.keys[child] = Span(doc.path, line + 1, col + 1)
            vline, vcol = node.lc.value(key)
            doc.values[child] = Span(doc.path, vline + 1, vcol + 1)
            out[str(key)] = _convert(node[key], child, doc, depth + 1, diags)
        return out
    if isinstance(node, CommentedSeq):
        items = []
        for index, item in enumerate(node):
            line, col = node.lc.item(index)
            doc.values[path + (index,)] = Span(doc.path, line + 1, col + 1)
            items.append(_convert(item, path + (index,), doc, depth + 1, diags))
        return items
    return _scalar(node)


def _scalar(node: Any) -> Any:
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return str(node)


def _first_key_line(text: str, key: str, before: int, col: int) -> int | None:
    """The 1-based line where `key` first appears at column `col`, above line `before` (0-based)."""
    pattern = re.compile(r"^(?:- )?" + re.escape(key) + r"\s*:")
    for number, line in enumerate(text.splitlines()[:before], start=1):
        if pattern.match(line[col:]) and not line[:col].strip(" -"):
            return number
    return None


def _duplicate_name(problem: str) -> str:
    start = problem.find('"')
    end = problem.find('"', start + 1)
    return problem[start:end + 1].replace('"', "'") if start >= 0 and end > start else "(unnamed)"


def _clean(message: str) -> str:
    return " ".join(message.split())


def _yaml_hint(problem: str) -> str | None:
    if "tab" in problem or "\\t" in problem or "\t" in problem:
        return "indent with spaces; YAML does not allow tabs for indentation"
    return None


def locate_in_scalar(doc: Document, path: JsonPath, text: str, offset: int) -> Span:
    """The span of character `offset` of the string at `path`, following block and quoted styles."""
    start = doc.span(path)
    raw = doc.lines[start.line - 1] if 0 < start.line <= len(doc.lines) else ""
    indicator = raw[start.col - 1: start.col] if start.col - 1 < len(raw) else ""
    before = text[:offset]
    line_offset = before.count("\n")
    in_line = offset - (before.rfind("\n") + 1)
    if indicator in ("|", ">"):
        first = start.line + line_offset
        content = doc.lines[first] if first < len(doc.lines) else ""
        indent = len(content) - len(content.lstrip(" "))
        return Span(doc.path, first + 1, indent + in_line + 1)
    quote = 1 if indicator in ("'", '"') else 0
    if line_offset == 0:
        return Span(doc.path, start.line, start.col + quote + in_line)
    return Span(doc.path, start.line + line_offset, in_line + 1)
