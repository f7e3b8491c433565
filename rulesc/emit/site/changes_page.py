"""The "What changed" page of a system: each version with what changed since the one before, from plain data
that the build computes from the repository's history before emitting (the diff stage comes after emit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from rulesc.emit.site.fragments import front, html_block, md_escape
from rulesc.emit.site.rule_notes import history_html
from rulesc.model import System


@dataclass(frozen=True)
class Section:
    title: str  # e.g. "Rules changed"
    lines: tuple[str, ...]


@dataclass(frozen=True)
class VersionChanges:
    name: str
    since: str
    date: str | None
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class SystemHistory:
    """A system's versions, newest first, what changed in each, and per rule id its own lines; `note` says why
    there is nothing (or less) to show: no repository, a shallow clone, no versions."""

    versions: tuple[VersionChanges, ...] = ()
    first: str | None = None
    note: str | None = None
    rules: dict[str, tuple[str, ...]] = field(default_factory=dict)


def changes_path(system: System) -> str:
    return f"{system.id}/what-changed.md"


def changes_page(system: System, history: SystemHistory) -> str:
    w = front(f"{system.title}: what changed", f"content/{system.id}/", f"What changed in each version of "
              f"{system.title}.")
    w.writeline("# What changed")
    w.writeline()
    if history.note:
        html_block(w, "rulesc-text rulesc-history-note", f"<p>{escape(history.note)}.</p>")
    for version in history.versions:
        w.writeline(f"## {md_escape(f'{version.name} ({version.date})' if version.date else version.name)}")
        w.writeline()
        body = [f"<p>Since {escape(version.since)}.</p>"] if version.sections else \
            [f"<p>Nothing changed in these rules since {escape(version.since)}.</p>"]
        for section in version.sections:
            items = "".join(f"<li>{history_html(line)}</li>" for line in section.lines)
            body.append(f"<h3>{escape(section.title)}</h3><ul>{items}</ul>")
        html_block(w, "rulesc-text rulesc-changes", "\n".join(body))
    if history.first:
        html_block(w, "rulesc-text", f"<p>First version: {escape(history.first)}.</p>")
    return w.getvalue()
