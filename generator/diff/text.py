"""Diff, text side: a word diff of two pieces of rule text, as segments of kept, removed and added words."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

CONTEXT = 6  # words kept on each side of a change


@dataclass(frozen=True)
class Segment:
    op: str  # equal, delete, insert
    text: str


@dataclass(frozen=True)
class WordDiff:
    old: str
    new: str
    segments: tuple[Segment, ...]


def word_diff(old: str, new: str) -> WordDiff | None:
    """The word-level difference of two texts, or None when only their spacing or line breaks differ."""
    a, b = old.split(), new.split()
    if a == b:
        return None
    segments: list[Segment] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            segments.append(Segment("delete", " ".join(a[i1:i2])))
        if op in ("insert", "replace"):
            segments.append(Segment("insert", " ".join(b[j1:j2])))
        if op == "equal":
            segments.append(Segment("equal", " ".join(a[i1:i2])))
    return WordDiff(" ".join(a), " ".join(b), tuple(segments))


def markdown(diff: WordDiff, deleted: str = "~~{}~~", inserted: str = "**{}**") -> str:
    """Removed words struck through, added words in bold, long unchanged stretches shortened to their ends (or
    the removed and added words marked as `deleted` and `inserted` say, e.g. "[-{}-]" and "{{+{}+}}")."""
    parts: list[str] = []
    last = len(diff.segments) - 1
    for index, segment in enumerate(diff.segments):
        if segment.op == "delete":
            parts.append(deleted.format(segment.text))
        elif segment.op == "insert":
            parts.append(inserted.format(segment.text))
        else:
            parts.append(_trim(segment.text.split(), head=index > 0, tail=index < last))
    return " ".join(parts)


def _trim(words: list[str], head: bool, tail: bool) -> str:
    """Keep CONTEXT words after the previous change (head) and before the next one (tail)."""
    if head and tail and len(words) > 2 * CONTEXT:
        return " ".join(words[:CONTEXT] + ["…"] + words[-CONTEXT:])
    if head and not tail and len(words) > CONTEXT:
        return " ".join(words[:CONTEXT] + ["…"])
    if tail and not head and len(words) > CONTEXT:
        return " ".join(["…"] + words[-CONTEXT:])
    return " ".join(words)
