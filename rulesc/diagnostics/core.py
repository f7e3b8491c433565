"""The one error vocabulary every stage reports in: spans, diagnostics and their rendering."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from rulesc.files import Unreadable, open_project_file

SNIPPET_BYTES = 4096  # a line is read at most this far: a file of one endless line is not read whole
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # shown as \ufffd so a bad byte cannot garble the terminal
# The invisible characters that reorder the text around them: refused in names (model.py, E0311), and written as
# their code points, <U+202E>, in what check prints, so an excerpt reads in the order it is stored.
DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


@dataclass(frozen=True, order=True)
class Span:
    """A position in a source file; line and col are 1-based."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    code: str
    message: str
    span: Span | None
    hint: str | None = None


@dataclass
class Diagnostics:
    """Problems collected during one stage; the stage boundary raises if any is an error."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.items.append(Diagnostic("error", code, message, span, hint))

    def warning(self, code: str, message: str, span: Span | None, hint: str | None = None) -> None:
        self.items.append(Diagnostic("warning", code, message, span, hint))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise ContentError(sorted_diagnostics(self.items))


class ContentError(Exception):
    """Raised at a stage boundary when the content has errors; carries all of them."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        super().__init__(f"{len(diagnostics)} problem(s) in content")
        self.diagnostics = list(diagnostics)


def sorted_diagnostics(items: Iterable[Diagnostic]) -> list[Diagnostic]:
    def key(d: Diagnostic) -> tuple[str, int, int, str]:
        s = d.span or Span("", 0, 0)
        return (s.file, s.line, s.col, d.code)

    return sorted(items, key=key)


def did_you_mean(word: str, known: Iterable[str]) -> str | None:
    """A hint naming the closest known names to `word`, or None."""
    close = difflib.get_close_matches(word, sorted(set(known)), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(repr(c) for c in close) + "?"


def render(diag: Diagnostic, root: Path | None = None) -> str:
    """Compiler-style text: location, message, the source line with a caret, then the hint."""
    head = f"{diag.severity}[{diag.code}]: {visible(diag.message)}"
    lines = [f"{diag.span}: {head}" if diag.span else head]
    source = _source_line(diag.span, root)
    if source is not None and diag.span is not None:
        gutter = f"{diag.span.line:>4} | "
        lines.append(gutter + visible(source))
        offset = len(visible(source[:_caret_offset(source, diag.span.col)]))
        lines.append(" " * (len(gutter) - 2) + "| " + " " * offset + "^")
    if diag.hint:
        lines.append(f"  = hint: {visible(diag.hint)}")
    return "\n".join(lines)


def visible(text: str) -> str:
    """Text with each direction control written as its code point, <U+202E>."""
    return DIRECTION.sub(lambda m: f"<U+{ord(m.group()):04X}>", text) if DIRECTION.search(text) else text


def _source_line(span: Span | None, root: Path | None) -> str | None:
    if span is None or span.line < 1:
        return None
    project = Path(".") if root is None else root
    try:
        with open_project_file(project / span.file, project) as handle:  # never a file outside the project
            raw = _nth_line(handle, span.line)
    except (OSError, Unreadable):
        return None
    line = None if raw is None else raw.decode("utf-8", errors="replace")
    return None if line is None or "\x00" in line else _CONTROL.sub("\ufffd", line.rstrip("\n\r")[:300])


def _nth_line(handle: BinaryIO, wanted: int) -> bytes | None:
    """The start (at most SNIPPET_BYTES) of line `wanted` (1-based) of a file."""
    number = 1
    for chunk in iter(lambda: handle.readline(SNIPPET_BYTES), b""):
        if number == wanted:
            return chunk
        number += chunk.endswith(b"\n")
    return None


def _caret_offset(source: str, col: int) -> int:
    return max(0, min(col - 1, len(source)))
