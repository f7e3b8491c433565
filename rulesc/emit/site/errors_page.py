"""Error pages emitter: errors/, the codes by section, and a page per section with each code's bad and fixed example.

A page's phone load time grows with its size (see split.py), so the codes are not on one page: the landing page
lists every section's codes, and its map of moved anchors sends an old link `errors/#e0401` on to the code's page.
"""

from __future__ import annotations

import difflib
import re
from html import escape

from rulesc.diagnostics.catalog import SECTIONS, Entry, FileText, Generated, Placed, effective
from rulesc.emit.site.fragments import front, html_block, md_escape
from rulesc.emit.site.links import href
from rulesc.emit.site.moved import moved_block, part_steps
from rulesc.emit.writer import Writer

CONTEXT = 3  # lines shown around the lines a fix changes
PAGE = "errors/index.md"
SOURCE = "rulesc/diagnostics/catalog.py"
Section = tuple[str, str, list[Entry]]  # title, one-line intro, entries


def section_path(title: str) -> str:
    """A section's page, served at `errors/<slug>/` (its title in lower case, words joined by hyphens)."""
    return f"errors/{'-'.join(re.findall(r'[a-z0-9]+', title.lower()))}.md"


def emit_errors_page(sections: list[Section] = SECTIONS) -> dict[str, str]:
    """The landing page and one page per section, by path."""
    files = {PAGE: _landing(sections)}
    for number, section in enumerate(sections, 1):
        files[section_path(section[0])] = _section_page(sections, number)
    return files


def _landing(sections: list[Section]) -> str:
    w = front("Error codes", SOURCE)
    w.writeline("# Error codes")
    w.writeline()
    html_block(w, "rulesc-moved", _moved_script(sections))
    w.writeline("`rulesc check` reports every problem at once as `FILE:LINE:COL: error[CODE]: message`, then the "
                "source line with a caret under the spot and often a hint. Find the code below: its page has an "
                "example that gives it and the same example fixed. Codes starting with W are warnings.")
    w.writeline()
    for title, intro, entries in sections:
        w.writeline(f"## {md_escape(title)}")
        w.writeline()
        w.writeline(intro)
        w.writeline()
        html_block(w, "rulesc-list", "\n".join(["<ul>", *(_code_item(title, e) for e in entries), "</ul>"]))
    return w.getvalue()


def _code_item(title: str, entry: Entry) -> str:
    target = href(PAGE, section_path(title), entry.code.lower())
    return f'<li><a href="{target}">{entry.code}: {escape(entry.title)}</a></li>'


def _moved_script(sections: list[Section]) -> str:
    """Every code's anchor, which was on this page when it held every code, to its section's page."""
    moved = {entry.code.lower(): href(PAGE, section_path(title)) for title, _, entries in sections
             for entry in entries}
    return moved_block(moved, "Links to an error code on this page now lead to its section, listed below.")


def _section_page(sections: list[Section], number: int) -> str:
    """One section's codes, each with its examples, then links to the sections before and after."""
    title, intro, entries = sections[number - 1]
    page = section_path(title)
    w = front(f"{title} (Error codes)", SOURCE, intro.replace("`", ""))
    w.writeline(f"# {md_escape(title)}")
    w.writeline()
    html_block(w, "rulesc-part-of", f'<p class="rulesc-muted">Section {number} of {len(sections)} of '
                                    f'<a href="{href(page, PAGE)}">Error codes</a></p>')
    w.writeline(intro)
    w.writeline()
    for entry in entries:
        _entry(w, entry)
    steps = [(section_path(other[0]), other[0]) for other in sections]
    html_block(w, "rulesc-part-steps", part_steps(steps, number, "Sections of the error codes", "section",
                                                        listed=True))
    return w.getvalue()


def _entry(w: Writer, entry: Entry) -> None:
    w.writeline(f"## {entry.code}: {entry.title} {{#{entry.code.lower()}}}")
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
    if isinstance(file, (Generated, Placed)):
        return file.shown
    if isinstance(file, bytes):
        return file.decode("latin-1")
    return file


def _excerpt(file: FileText, other: FileText) -> str | None:
    """The lines of `file` around where it differs from `other`, with '# ...' where lines are left out."""
    text, against = _text(file), _text(other)
    if text is None or against is None or isinstance(file, (Generated, Placed)):
        return text
    lines, others = text.splitlines(), against.splitlines()
    opcodes = difflib.SequenceMatcher(None, lines, others).get_opcodes()
    changed = [(i1, i2) for op, i1, i2, _, _ in opcodes if op != "equal"]
    if not changed:
        return text
    start, end = max(0, changed[0][0] - CONTEXT), min(len(lines), changed[-1][1] + CONTEXT)
    return "\n".join((["# ..."] if start > 0 else []) + lines[start:end] + (["# ..."] if end < len(lines) else []))
