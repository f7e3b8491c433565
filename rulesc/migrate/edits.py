"""Text edits on files as written: a span of characters and what replaces it, so comments and layout stay."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, pairwise
from pathlib import Path

from rulesc.diagnostics.core import Span


@dataclass(frozen=True, order=True)
class Edit:
    """Replace characters `start` to `end` (0-based, end excluded) of the file at `path` with `text`."""

    path: Path
    start: int
    end: int
    text: str


class Overlap(Exception):
    """Two edits of one file touch the same characters: the steps that made them disagree."""


def offset(text: str, span: Span) -> int:
    """The 0-based character offset in `text` of a span's line and column (both 1-based), lines split as the loader
    splits them."""
    starts = line_starts(text)
    return starts[min(span.line - 1, len(starts) - 1)] + span.col - 1


@lru_cache(maxsize=16)
def line_starts(text: str) -> tuple[int, ...]:
    """The offset of each line's first character, and the text's length last: kept for the few files a migration
    reads, since every token of every formula asks (splitting a long chapter once a token took most of the time)."""
    return (0, *accumulate(len(line) for line in text.splitlines(keepends=True)))


def apply(text: str, edits: Iterable[Edit]) -> str:
    """`text` with every edit made; edits may come in any order but must not overlap."""
    ordered = sorted(edits, key=lambda edit: (edit.start, edit.end))
    for before, after in pairwise(ordered):
        if after.start < before.end:
            raise Overlap(f"{before.path}: edits at characters {before.start}-{before.end} and "
                          f"{after.start}-{after.end} overlap")
    for edit in reversed(ordered):
        text = text[:edit.start] + edit.text + text[edit.end:]
    return text
