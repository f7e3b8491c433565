"""Error page emitter: errors.md, every error and warning code with a bad and a fixed example."""

from __future__ import annotations

import difflib

from generator.diagnostics.catalog import SECTIONS, Entry, FileText, Generated, effective
from generator.emit.site.fragments import front
from generator.emit.writer import Writer

CONTEXT = 3  # lines shown around the lines a fix changes
PAGE = "errors.md"


def emit_errors_page() -> dict[str, str]:
    w = front("Error codes", "generator/diagnostics/catalog.py")
    w.writeline("# Error codes")
    w.writeline()
    w.writeline("`rulesc check` reports every problem at once as `FILE:LINE:COL: error[CODE]: message`, then the "
                "source line with a caret under the spot and often a hint. Find the code below: each has an example "
                "that gives it and the same example fixed. Codes starting with W are warnings.")
    w.writeline()
    for title, intro, entries in SECTIONS:
        _section(w, title, intro, entries)
    return {PAGE: w.getvalue()}


def _section(w: Writer, title: str, intro: str, entries: list[Entry]) -> None:
    w.writeline(f"## {title}")
    w.writeline()
    w.writeline(intro)
    w.writeline()
    for entry in entries:
        _entry(w, entry)


def _entry(w: Writer, entry: Entry) -> None:
    w.writeline(f"### {entry.code}: {entry.title} {{#{entry.code.lower()}}}")
    w.writeline()
    w.writeline(entry.explanation)
    w.writeline()
    for path, text in entry.bad.items():
        _example(w, "Bad", path, _excerpt(text, effective(entry.fixed, path)))
    for path, text in entry.fixed.items():
        _example(w, "Fixed", path, _excerpt(text, effective(entry.bad, path)))


def _example(w: Writer, label: str, path: str, shown: str | None) -> None:
    if shown is None:
        w.writeline(f"**{label}:** there is no `{path}`.")
        w.writeline()
        return
    w.writeline(f"**{label}:** `{path}`")
    w.writeline()
    w.writeline("```yaml")
    w.write_block(shown)
    w.writeline("```")
    w.writeline()


def _text(file: FileText) -> str | None:
    if file is None:
        return None
    if isinstance(file, Generated):
        return file.shown
    if isinstance(file, bytes):
        return file.decode("latin-1")
    return file


def _excerpt(file: FileText, other: FileText) -> str | None:
    """The lines of `file` around where it differs from `other`, with '# ...' where lines are left out."""
    text, against = _text(file), _text(other)
    if text is None or against is None or isinstance(file, Generated):
        return text
    lines, others = text.splitlines(), against.splitlines()
    opcodes = difflib.SequenceMatcher(None, lines, others).get_opcodes()
    changed = [(i1, i2) for op, i1, i2, _, _ in opcodes if op != "equal"]
    if not changed:
        return text
    start, end = max(0, changed[0][0] - CONTEXT), min(len(lines), changed[-1][1] + CONTEXT)
    return "\n".join((["# ..."] if start > 0 else []) + lines[start:end] + (["# ..."] if end < len(lines) else []))
