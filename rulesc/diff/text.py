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
    if len(a) * len(b) <= WORD_PAIRS:
        return WordDiff(" ".join(a), " ".join(b), tuple(_matched(a, b)))
    head = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    tail = next((i for i, (x, y) in enumerate(zip(reversed(a[head:]), reversed(b[head:]), strict=False)) if x != y),
                min(len(a), len(b)) - head)
    middle = (a[head:len(a) - tail], b[head:len(b) - tail])
    inner = _matched(*middle) if len(middle[0]) * len(middle[1]) <= WORD_PAIRS else \
        [Segment("delete", " ".join(middle[0])), Segment("insert", " ".join(middle[1]))]
    outer = ([Segment("equal", " ".join(a[:head]))] if head else [], [Segment("equal", " ".join(a[len(a) - tail:]))]
             if tail else [])
    return WordDiff(" ".join(a), " ".join(b), tuple(s for s in (*outer[0], *inner, *outer[1]) if s.text))


WORD_PAIRS = 1_000_000
"""The most word pairs difflib compares at once: its matcher takes time near the product of the two lengths, and
on repetitive text far more (4,000 words of 'a b' against 'b a' took 5 s, 16,000 two minutes). Longer texts keep
their common start and end, and a middle still too long is one removal and one insertion."""


def _matched(a: list[str], b: list[str]) -> list[Segment]:
    segments: list[Segment] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            segments.append(Segment("delete", " ".join(a[i1:i2])))
        if op in ("insert", "replace"):
            segments.append(Segment("insert", " ".join(b[j1:j2])))
        if op == "equal":
            segments.append(Segment("equal", " ".join(a[i1:i2])))
    return segments


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
