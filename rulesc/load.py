"""Stage 1, load: YAML files to plain data plus the file:line:col of every key and value."""

from __future__ import annotations

import contextlib
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

import yaml

from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.files import Unreadable, read_project_file
from rulesc.runtime.rulesc_runtime import MAX_INT

JsonPath = tuple[str | int, ...]
MAX_DEPTH = 64
MAX_BYTES = 8 * 1024 * 1024
# libyaml's C parser reads about 50 times faster than a pure-Python one; PyYAML ships it in its wheels.
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# YAML 1.2 core schema: how plain (unquoted) scalars resolve; everything else is text.
_CONSTANTS = {"": None, "~": None, "null": None, "Null": None, "NULL": None,
              "true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
# Characters YAML forbids in a stream (C0 controls but tab and line breaks, DEL, C1 controls but NEL, surrogates).
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_TAB = re.compile("\t")
_SCALAR: Final = yaml.ScalarEvent  # Final: mypy narrows `type(event) is _SCALAR` as it does the class itself
_ENDS = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
_MAPPING = yaml.MappingStartEvent
_NODES = (yaml.ScalarEvent, yaml.CollectionStartEvent)  # the events that carry an anchor and a tag
_EMPTY = object()


class Mark(Protocol):
    """Where an event starts or ends, as libyaml's and PyYAML's marks both give it (0-based line and column)."""

    line: int
    column: int
    index: int


@dataclass
class Document:
    """One YAML file: its data, and the spans of each value and each mapping key by JSON path."""

    path: str
    data: Any
    # Where each value and each mapping key starts, by JSON path: libyaml's own marks (0-based line and column),
    # kept as they come so that loading makes no object per value; span() and key_span() turn them into Spans.
    # PyYAML types an event's mark as optional (a hand-made event may lack one); the parser marks every event.
    values: dict[JsonPath, Mark | None] = field(default_factory=dict)
    keys: dict[JsonPath, Mark | None] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    # A number written with a point but whole (`2.0`): JSON Schema counts it an integer, rulesc does not (schema.py).
    whole_floats: bool = False

    def span(self, path: JsonPath) -> Span:
        """The span of the value at `path`, or of its nearest ancestor that has one."""
        for cut in range(len(path), -1, -1):
            found = self.values.get(tuple(path[:cut]))
            if found is not None:
                return _span(self.path, found)
        return Span(self.path, 1, 1)

    def key_span(self, path: JsonPath) -> Span:
        found = self.keys.get(tuple(path))
        return _span(self.path, found) if found is not None else self.span(path)


class _Refused(Exception):
    """Reading stops at a problem that makes the rest of the file meaningless (an alias, deep nesting)."""


def load_document(file: Path, display: str, diags: Diagnostics, root: Path | None = None) -> Document | None:
    """Read one YAML file of the project at `root` (by default the file's own folder); report every problem found
    into `diags` and return None on failure."""
    text = _read_text(file, display, diags, file.parent if root is None else root)
    if text is None:
        return None
    doc = Document(display, None, lines=text.splitlines())
    errors = len(diags.errors)
    composer = _Composer(doc, diags, "\t" in text)
    try:
        root = composer.compose(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if _scanner_too_deep(exc):
            _report_depth(doc, diags, text, exc)
        elif not composer.check_tabs(text, mark.index if mark is not None else len(text)):
            _report_syntax(exc, doc, text, diags)
        return None
    except (_Refused, yaml.YAMLError) as exc:
        if not isinstance(exc, _Refused):
            diags.error("E0101", f"YAML syntax error: {_clean(str(exc))}", Span(display, 1, 1))
        return None
    if root is _EMPTY or root is None:
        diags.error("E0104", "the file is empty; expected a mapping of keys to values", Span(display, 1, 1))
        return None
    doc.data = root
    return doc if len(diags.errors) == errors else None


def _scanner_too_deep(exc: yaml.MarkedYAMLError) -> bool:
    """libyaml 0.2.5 as PyYAML 6.0.4 bundles it refuses flow nesting past 1,000 levels while scanning ahead for a
    key, before any event of the nesting reaches the composer; PyYAML says so only in the problem's words."""
    return isinstance(exc, yaml.scanner.ScannerError) and "maximum nesting depth" in (exc.problem or "")


def _report_depth(doc: Document, diags: Diagnostics, text: str, exc: yaml.MarkedYAMLError) -> None:
    """Report E0106 where the nesting passes rulesc's limit, not where the scanner's own limit stopped it: the text
    up to the scanner's stop holds fewer levels than its limit, so composing it reaches MAX_DEPTH first."""
    end = exc.problem_mark.index if exc.problem_mark is not None else len(text)
    scratch = Diagnostics()
    with contextlib.suppress(_Refused, yaml.YAMLError):
        _Composer(Document(doc.path, None), scratch, False).compose(text[:end])
    found = [item for item in scratch.items if item.code == "E0106"]
    if found:
        diags.extend(found[:1])
    else:  # the scanner's limit is below rulesc's: report it at the scanner's place, in rulesc's words
        diags.error("E0106", f"nesting deeper than {MAX_DEPTH} levels", _span(doc.path, exc.problem_mark), _DEEP_HINT)


def _read_text(file: Path, display: str, diags: Diagnostics, root: Path) -> str | None:
    try:
        raw = read_project_file(file, root, MAX_BYTES)
    except Unreadable as exc:
        diags.error(exc.code, exc.message, Span(display, 1, 1), exc.hint)
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        _report_encoding(raw, exc, display, diags)
        return None
    bad = _FORBIDDEN.search(text)
    if bad is not None:
        line, col = _position(text, bad.start())
        diags.error("E0108", f"the file contains the control character U+{ord(bad.group()):04X}, "
                    "which YAML does not allow", Span(display, line, col),
                    "delete it; such characters usually come from pasting out of another program")
        return None
    return text


def _report_encoding(raw: bytes, exc: UnicodeDecodeError, display: str, diags: Diagnostics) -> None:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        diags.error("E0102", "the file is UTF-16, not UTF-8", Span(display, 1, 1),
                    "save the file as UTF-8 (in most editors: Save As, Encoding: UTF-8)")
        return
    line = raw[: exc.start].count(b"\n") + 1
    col = len(raw[raw.rfind(b"\n", 0, exc.start) + 1: exc.start].decode("utf-8", errors="replace")) + 1
    diags.error("E0102", f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})", Span(display, line, col),
                "save the file as UTF-8")


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


class _Frame:
    """An open mapping or sequence while composing; a mapping remembers its keys and the key awaiting a value."""

    __slots__ = ("container", "path", "key", "seen")  # one per mapping and list of the content: kept light

    def __init__(self, container: dict[str, Any] | list[Any], path: JsonPath):
        self.container = container
        self.path = path
        self.key: str | None = None
        self.seen: dict[str, Mark | None] = {}  # where each key was first given


class _Composer:
    """YAML events to plain data without recursion, so nesting depth costs no stack and aliases never expand."""

    def __init__(self, doc: Document, diags: Diagnostics, track_scalars: bool):
        self.doc = doc
        self.diags = diags
        self.stack: list[_Frame] = []
        self.root: Any = _EMPTY
        self.scalars: list[tuple[int, int]] | None = [] if track_scalars else None

    def compose(self, text: str) -> Any:
        """Compose the text's events, read straight from libyaml (a generator around it cost more per event)."""
        loader = _LOADER(text)
        try:
            self._compose(iter(loader.get_event, None))
        finally:
            loader.dispose()
        self.check_tabs(text, len(text))
        return self.root

    def _compose(self, events: Iterator[yaml.Event]) -> None:
        """Compose every event; the common ones (a plain or quoted scalar as a key, a mapping value or a list item,
        a mapping or list as a value or item, and the end of a collection) take an inlined path, as most of the
        load time is spent per event; the rest, and anything to report, goes through event()."""
        stack, values, keys = self.stack, self.doc.values, self.doc.keys
        fast = self.scalars is None  # with tabs in the file, every scalar's extent is kept for the tab check
        for event in events:
            kind = type(event)
            if kind in _ENDS:
                stack.pop()
                continue
            if not (fast and stack) or not isinstance(event, _NODES) or event.anchor is not None \
                    or event.tag is not None:
                self.event(event)
                continue
            top = stack[-1]
            container, key = top.container, top.key
            if key is None and type(container) is dict:  # the event is the mapping's next key
                if type(event) is not _SCALAR:
                    self.event(event)  # a list or mapping as a key: reported there
                elif event.value in top.seen:
                    self.key(top, event)  # a duplicate key, reported there
                else:
                    name = top.key = event.value
                    top.seen[name] = keys[top.path + (name,)] = event.start_mark
                continue
            if type(event) is _SCALAR:
                value = self.resolve(event)  # resolved even after a duplicate key: it may be out of range
            elif len(stack) < MAX_DEPTH:
                value = {} if kind is _MAPPING else []
            else:  # too deep: reported there
                self.event(event)
                continue
            if isinstance(container, list):
                path = top.path + (len(container),)
                container.append(value)
            else:
                assert key is not None  # a mapping's value: a mapping awaiting its key was handled above
                path = top.path + (key,)
                container.setdefault(key, value)
                top.key = None
            if path not in values:
                values[path] = event.start_mark
            if kind is not _SCALAR:
                stack.append(_Frame(value, path))

    def event(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.ScalarEvent):
            self.node(event)
        elif isinstance(event, yaml.DocumentStartEvent) and self.root is not _EMPTY:
            self.refuse("E0110", "the file holds more than one YAML document", event,
                        "remove the '---' line; each content file is one mapping")
        elif isinstance(event, yaml.AliasEvent):
            self.refuse("E0103", "YAML aliases are not allowed in content", event,
                        "write the value out; content files must read the same to every editor")
        elif isinstance(event, yaml.CollectionStartEvent):
            self.node(event)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.stack.pop()

    def node(self, event: yaml.ScalarEvent | yaml.CollectionStartEvent) -> None:
        if event.anchor is not None:
            self.refuse("E0103", "YAML anchors are not allowed in content", event,
                        "write the value out; content files must read the same to every editor")
        if event.tag is not None:
            self.refuse("E0109", f"YAML tags such as '{event.tag}' are not allowed in content", event,
                        "remove the tag; quote a value to make it text")
        if isinstance(event, yaml.ScalarEvent):
            self.scalar(event)
        else:
            self.collection(event)

    def scalar(self, event: yaml.ScalarEvent) -> None:
        if self.scalars is not None:
            start, end = event.start_mark, event.end_mark
            assert start is not None and end is not None  # the parser marks every event
            self.scalars.append((start.index, end.index))
        top = self.stack[-1] if self.stack else None
        if top is not None and isinstance(top.container, dict) and top.key is None:
            self.key(top, event)
        else:
            self.place(self.resolve(event), event)

    def collection(self, event: yaml.CollectionStartEvent) -> None:
        top = self.stack[-1] if self.stack else None
        if top is not None and isinstance(top.container, dict) and top.key is None:
            self.refuse("E0111", "a mapping key must be plain text, not a list or mapping", event,
                        "write 'key: value'; a '?' or a '[' / '{' before the ':' makes a complex key")
        if len(self.stack) >= MAX_DEPTH:
            self.refuse("E0106", f"nesting deeper than {MAX_DEPTH} levels", event, _DEEP_HINT)
        container: dict[str, Any] | list[Any] = {} if isinstance(event, yaml.MappingStartEvent) else []
        path = self.place(container, event)
        self.stack.append(_Frame(container, path))

    def key(self, top: _Frame, event: yaml.ScalarEvent) -> None:
        name = event.value
        path = top.path + (name,)
        span = _span(self.doc.path, event.start_mark)
        if name in top.seen:
            self.diags.error("E0107", f"duplicate key '{name}' in a mapping", span,
                             f"it is first given at line {_span(self.doc.path, top.seen[name]).line}; "
                             "each key may appear once")
        else:
            top.seen[name] = self.doc.keys[path] = event.start_mark
        top.key = name

    def place(self, value: Any, event: yaml.ScalarEvent | yaml.CollectionStartEvent) -> JsonPath:
        """Put a composed value where the open collection expects it; returns its JSON path."""
        mark = event.start_mark
        if not self.stack:
            self.root = value
            self.doc.values[()] = mark
            return ()
        top = self.stack[-1]
        if isinstance(top.container, list):
            path = top.path + (len(top.container),)
            top.container.append(value)
        else:
            assert top.key is not None
            path = top.path + (top.key,)
            top.container.setdefault(top.key, value)
            top.key = None
        self.doc.values.setdefault(path, mark)
        return path

    def resolve(self, event: yaml.ScalarEvent) -> Any:
        """A scalar's value under the YAML 1.2 core schema: quoted scalars are always text."""
        text = event.value
        if event.style or not event.implicit[0]:
            return text
        if text in _CONSTANTS:
            return _CONSTANTS[text]
        if text[0] not in "0123456789+-.":
            return text
        if _INT.fullmatch(text):
            return self.integer(text, event)
        if _FLOAT.fullmatch(text):
            number = float(text.lower().replace(".inf", "inf").replace(".nan", "nan"))
            self.doc.whole_floats = self.doc.whole_floats or number.is_integer()
            return number
        return text

    def integer(self, text: str, event: yaml.ScalarEvent) -> int:
        digits = text.lstrip("+-")
        if len(digits) <= 20:
            value = int(text, 0) if digits.startswith(("0o", "0x")) else int(text, 10)
            if abs(value) <= MAX_INT:
                return value
        shown = text if len(text) <= 24 else f"{text[:20]}... ({len(digits)} digits)"
        self.diags.error("E0112", f"the number {shown} is outside the range rulesc computes with, "
                         f"-{MAX_INT}..{MAX_INT}", _span(self.doc.path, event.start_mark),
                         "whole numbers must fit in 53 bits so that the Python engine and the calculators agree")
        return 0

    def refuse(self, code: str, message: str, event: yaml.Event, hint: str) -> None:
        self.diags.error(code, message, _span(self.doc.path, event.start_mark), hint)
        raise _Refused

    def check_tabs(self, text: str, end: int) -> bool:
        """Report the first tab before `end` outside text values and comments, where YAML needs spaces."""
        if self.scalars is None:
            return False
        starts = [start for start, _ in self.scalars]
        for match in _TAB.finditer(text, 0, end):
            offset = match.start()
            if _inside(self.scalars, starts, offset) or _in_comment(text, offset, self.scalars, starts):
                continue
            line, col = _position(text, offset)
            self.diags.error("E0101", "YAML syntax error: a tab character where YAML expects spaces",
                             Span(self.doc.path, line, col), _TAB_HINT)
            return True
        return False


_DEEP_HINT = "content is a few levels deep; check the indentation and that every '[' and '{' is closed"
_TAB_HINT = "use spaces to indent and to separate keys from values; tabs may appear only inside text"


def _span(path: str, mark: Mark | None) -> Span:
    return Span(path, mark.line + 1, mark.column + 1) if mark is not None else Span(path, 1, 1)


def _inside(ranges: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    index = bisect_right(starts, offset) - 1
    return index >= 0 and ranges[index][0] <= offset < ranges[index][1]


def _in_comment(text: str, offset: int, ranges: list[tuple[int, int]], starts: list[int]) -> bool:
    line_start = text.rfind("\n", 0, offset) + 1
    hashes = (m.start() for m in re.finditer("#", text[line_start:offset]))
    return any(not _inside(ranges, starts, line_start + h) for h in hashes)


def _report_syntax(exc: yaml.MarkedYAMLError, doc: Document, text: str, diags: Diagnostics) -> None:
    """libyaml's error, said for editors: the place to fix, what is wrong there, and how to fix it."""
    problem = _clean(exc.problem or exc.context or "invalid YAML")
    hint: str | None
    context, opened = exc.context or "", exc.context_mark
    mark = exc.problem_mark or opened
    found = text[mark.index] if mark is not None and mark.index < len(text) else ""
    if found == "\t":
        problem, hint = "a tab character where YAML expects spaces", _TAB_HINT
    elif "cannot start any token" in problem:
        problem, hint = f"a value cannot start with {found!r}", "put the value in quotes"
    elif opened is not None and context in _AT_OPENING and ("':'" in problem or "end of stream" in problem):
        mark = opened  # the place to fix is where the unfinished key or quote starts
        problem, hint = _AT_OPENING[context]
    else:
        problem, hint = _reword(problem, found), _syntax_hint(problem, context, opened)
    span = _span(doc.path, mark) if mark is not None else Span(doc.path, 1, 1)
    diags.error("E0101", f"YAML syntax error: {problem}", span, hint)


_AT_OPENING = {
    "while scanning a simple key": ("this line has no ':' after its key",
                                    "write 'key: value', with a space after the ':'"),
    "while scanning a quoted scalar": ("this quote is never closed",
                                       "close it; inside \"...\" write \\\" for a quote, inside '...' write ''"),
}


def _reword(problem: str, found: str) -> str:
    """libyaml's phrases in plainer words: 'did not find expected X' becomes 'expected X, found Y'."""
    if problem.startswith("mapping values are not allowed"):
        return "a ': ' where no mapping can start"
    if not problem.startswith("did not find expected "):
        return problem
    ends = {"": "the end of the file", "\n": "the end of the line", "\r": "the end of the line"}
    shown = ends.get(found, repr(found))
    expected = problem.removeprefix("did not find expected ")
    expected = {"'-' indicator": "a '- ' list item", "key": "a key", "node content": "a value"}.get(expected, expected)
    return f"expected {expected}, found {shown}"


_CONTEXT_HINTS = {
    "while parsing a flow sequence": "the '[' at line {line}, column {col} opens a list that is not closed with ']'",
    "while parsing a flow mapping":
        "the '{{' at line {line}, column {col} opens a mapping that is not closed with '}}'",
    "while parsing a block collection":
        "the list starting at line {line} has its '- ' items at column {col}; indent an item's keys past its '- '",
    "while parsing a block mapping":
        "the keys of the mapping starting at line {line} line up at column {col}: check this line's indentation, "
        "or put the whole value in quotes",
}
_PROBLEM_HINTS = {
    "mapping values are not allowed": "put the value in quotes if it contains ': ', or check this line's indentation",
    "found unknown escape character": "inside \"...\" a backslash starts an escape such as \\n; write \\\\ for a "
                                      "backslash, or use '...' quotes",
}


def _syntax_hint(problem: str, context: str, mark: Mark | None) -> str | None:
    for start, hint in _PROBLEM_HINTS.items():
        if problem.startswith(start):
            return hint
    template = _CONTEXT_HINTS.get(context)
    if template is None or mark is None:
        return None
    return template.format(line=mark.line + 1, col=mark.column + 1)


def _clean(message: str) -> str:
    return " ".join(message.split())


def locate_in_scalar(doc: Document, path: JsonPath, offset: int) -> Span:
    """The span of character `offset` of the string at `path`, following block and quoted styles."""
    return scalar_locator(doc, path)(offset)


def scalar_locator(doc: Document, path: JsonPath) -> Callable[[int], Span]:
    """locate_in_scalar for many offsets of one string (a formula's tokens): its source lines are read once."""
    start = doc.span(path)
    raw = doc.lines[start.line - 1] if 0 < start.line <= len(doc.lines) else ""
    indicator = raw[start.col - 1: start.col] if start.col - 1 < len(raw) else ""
    segments = _scalar_segments(doc, start, indicator)
    read: list[tuple[int, int, int, str]] = []  # (position in the string, line, column, text) of each line so far

    def locate(offset: int) -> Span:
        for position, line_number, col, content in read:
            if offset <= position + len(content):
                return Span(doc.path, line_number, col + offset - position)
        position = read[-1][0] + len(read[-1][3]) + 1 if read else 0  # +1: the line break, kept or folded
        for line_number, col, content in segments:
            read.append((position, line_number, col, content))
            if offset <= position + len(content):
                return Span(doc.path, line_number, col + offset - position)
            position += len(content) + 1
        return start

    return locate


def _scalar_segments(doc: Document, start: Span, indicator: str) -> Iterator[tuple[int, int, str]]:
    """(line, column, text) of each source line of a scalar, in the order its characters appear in the value."""
    if indicator in ("|", ">"):
        lines = doc.lines[start.line:]
        indent = next((len(text) - len(text.lstrip(" ")) for text in lines if text.strip()), 0)
        for number, line in enumerate(lines, start=start.line + 1):
            if line.strip() and len(line) - len(line.lstrip(" ")) < indent:
                return
            if line.strip() or indicator == "|":
                yield number, indent + 1, line[indent:]
        return
    quote = 1 if indicator in ("'", '"') else 0
    first = doc.lines[start.line - 1] if 0 < start.line <= len(doc.lines) else ""
    yield start.line, start.col + quote, first[start.col - 1 + quote:]
    for number, line in enumerate(doc.lines[start.line:], start=start.line + 1):
        stripped = line.lstrip(" ")
        yield number, len(line) - len(stripped) + 1, stripped
