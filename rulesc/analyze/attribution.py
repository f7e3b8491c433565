"""What a source's license asks a copy to show: the author's notice, or one composed from the source's fields."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from rulesc.licenses import license_of
from rulesc.model import Source

RESTATED = "The rules are restated in this reference's own words."
"""What this reference changed, when a source does not say (rulesc content restates rules; it never copies them)."""


@dataclass(frozen=True)
class Notice:
    """A notice as pieces of text, each with the address it links to (or None)."""

    parts: tuple[tuple[str, str | None], ...]

    def text(self) -> str:
        """The notice as plain text, each address in brackets after the words that link to it."""
        return "".join(f"{words} ({url})" if url and url != words else words for words, url in self.parts)

    def html(self) -> str:
        """The notice as escaped HTML, its links written out."""
        return "".join(f'<a href="{escape(url)}">{escape(words)}</a>' if url else escape(words)
                       for words, url in self.parts)


def notice(source: Source) -> Notice | None:
    """The attribution the source's license asks for: as written, else composed (CC BY's title, author, source,
    license and changes); None where the license asks for none or the source names no license."""
    if source.attribution is not None:
        return Notice(((source.attribution, None),))
    known = license_of(source.license)
    if known is None or not known.attribution or not known.composed:
        return None
    return Notice((*citation(source), (", is licensed under ", None), (known.name, known.url),
                   (f". {source.changes or RESTATED}", None)))


def citation(source: Source) -> tuple[tuple[str, str | None], ...]:
    """The publication as a reference list names it: “Title” (edition) by authors (publisher, year)."""
    parts: list[tuple[str, str | None]] = [(f"\u201c{source.title}\u201d", None)]
    if source.edition:
        parts.append((f" ({source.edition})", None))
    if source.authors:
        parts.append((f" by {_names(source.authors)}", None))
    published = ", ".join(x for x in (source.publisher, str(source.year) if source.year else None) if x)
    if published:
        parts.append((f" ({published})", None))
    if source.url:
        parts += [(", ", None), (source.url, source.url)]
    return tuple(parts)


def _names(authors: tuple[str, ...]) -> str:
    """"A", "A and B", "A, B and C"."""
    return authors[0] if len(authors) == 1 else f"{', '.join(authors[:-1])} and {authors[-1]}"
