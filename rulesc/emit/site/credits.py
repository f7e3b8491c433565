"""The sources on the site: each publication as a reference list names it, and the notices their licenses ask for,
on the system's home page and in every page's footer."""

from __future__ import annotations

from html import escape

from rulesc.analyze.attribution import Notice, citation, notice
from rulesc.emit.site.fragments import yaml_string
from rulesc.licenses import license_of
from rulesc.model import Source, System

FOOTER_KEY = "rulesc_attribution"
"""The front matter key holding a page's footer notices as HTML (site_overrides/partials/copyright.html prints it)."""


def source_item(source: Source) -> str:
    """A source in the home page's list: its citation, license and note."""
    known = license_of(source.license)
    license_html = (f' Licensed under <a href="{escape(known.url)}">{escape(known.name)}</a>.' if known else
                    f" License: {escape(source.license)}." if source.license else "")
    note = f" {escape(source.note)}" if source.note else ""
    return f"<li>{Notice(citation(source)).html()}.{license_html}{note}</li>"


def notices(system: System) -> list[Notice]:
    """The notices the system's sources' licenses ask for, in the order the sources are listed."""
    return [found for found in (notice(source) for source in system.sources) if found is not None]


def notices_html(systems: list[System]) -> str:
    """Every notice of the given systems, one paragraph each; empty where none asks for one."""
    return "".join(f'<p class="rulesc-attribution">{n.html()}</p>' for system in systems for n in notices(system))


def with_footer(pages: dict[str, str], footer: str) -> dict[str, str]:
    """The pages with `footer` added to their front matter (each starts "---\\n"); unchanged when it is empty."""
    if not footer:
        return pages
    line = f"---\n{FOOTER_KEY}: {yaml_string(footer)}\n"
    return {path: line + text[len("---\n"):] if text.startswith("---\n") else text for path, text in pages.items()}
