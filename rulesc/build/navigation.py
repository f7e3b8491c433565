"""The site's navigation: home, search and each system's pages, and the pages left to the page that lists them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesc.analyze.program import Program
from rulesc.compile import Compiled
from rulesc.emit.site.changes_page import changes_path
from rulesc.emit.site.dice_page import DICE_PAGE
from rulesc.emit.site.errors_page import PAGE as ERRORS_PAGE
from rulesc.emit.site.fragments import theme_text
from rulesc.emit.site.links import SEARCH_PAGE, glossary_path, gm_screen_path, landing_path, page_path, tables_path

AUTHORS_PAGES = (DICE_PAGE, ERRORS_PAGE)
"""Pages for the rulebook's authors: linked from the home page's end, and left out of the players' navigation."""


def nav(systems: list[dict[str, list[Any]]]) -> list[Any]:
    """The players' navigation: home, search and each system's nav_entry() (AUTHORS_PAGES are left out)."""
    return [{"Home": "index.md"}, {"Search": SEARCH_PAGE}, *systems]


def compiled_nav(compiled: Compiled) -> list[Any]:
    return nav([nav_entry(program) for program in compiled.programs])


def nav_entry(program: Program, changes: bool = False) -> dict[str, list[Any]]:
    """A system in the navigation: its landing page, GM screen, chapters, glossary and index tables (and its
    What changed page, when the build has its history); titles escaped, as the theme prints them as they are."""
    system = program.system
    pages: list[Any] = [{"Overview": landing_path(system)}, {"GM screen": gm_screen_path(system)}]
    pages += [{theme_text(c.title): page_path(system, c.id)} for c in system.chapters]  # parts: on its page
    pages += [{"Glossary": glossary_path(system)}, {"Index tables": tables_path(system)}]
    pages += [{"What changed": changes_path(system)}] if changes else []
    return {theme_text(system.title): pages}


def listed_by_their_section(docs: Path, navigation: list[Any]) -> str:
    """The pages the navigation leaves to a page it lists, as MkDocs' not_in_nav patterns: every other page in the
    folder of a listed `folder/index.md` (a split chapter's parts, a big system's index tables by kind: each landing
    page lists its own), and the pages for authors with the error codes' sections, which the home page links. The
    sidebar stays one entry each, as Material writes the whole navigation into every page."""
    listed = set(_nav_pages(navigation))
    folders = sorted(page[: -len("index.md")] for page in {*listed, *AUTHORS_PAGES} if page.endswith("/index.md"))
    pages = [f"{folder}{path.name}" for folder in folders for path in sorted((docs / folder).glob("*.md"))]
    pages += [page for page in AUTHORS_PAGES if page not in pages]
    return "\n".join(f"/{page}" for page in pages if page not in listed)


def _nav_pages(entries: list[Any]) -> list[str]:
    """Every page a navigation (MkDocs' nested lists of {title: page or entries}) names."""
    found: list[str] = []
    for entry in entries:
        for value in entry.values() if isinstance(entry, dict) else [entry]:
            found += _nav_pages(value) if isinstance(value, list) else [value]
    return found
