"""Where each rule lives on the site: page paths, permalinks and page-relative hrefs shared by every emitter.

The site is built with `use_directory_urls: true` (mkdocs.yml): `system/chapter.md` is served at `system/chapter/`.
"""

from __future__ import annotations

import posixpath
from functools import cache, lru_cache

from rulesc.emit.site.split import gm_part_of, gm_parts, plans
from rulesc.emit.site.table_plan import split_tables
from rulesc.model import Rule, System, Term

HOME = "index.md"
SEARCH_PAGE = "search.md"


def page_path(system: System, chapter_id: str) -> str:
    """The Markdown file of a chapter, relative to the docs folder: the whole chapter, or the landing page of one
    split into parts (split.py); either is served at `system/chapter/`."""
    plan = plans(system).get(chapter_id)
    return f"{system.id}/{chapter_id}/index.md" if plan and plan.parts else f"{system.id}/{chapter_id}.md"


def part_path(system: System, chapter_id: str, part_id: str) -> str:
    """A part page of a split chapter, served at `system/chapter/part/`."""
    return f"{system.id}/{chapter_id}/{part_id}.md"


def rule_page(system: System, rule: Rule) -> str:
    """The Markdown file the rule is on: its chapter's page, or its part page when the chapter is split."""
    plan = plans(system).get(rule.chapter)
    part = plan.part_of.get(rule.id) if plan else None
    return part_path(system, rule.chapter, part) if part else page_path(system, rule.chapter)


def landing_path(system: System) -> str:
    return f"{system.id}/index.md"


def glossary_path(system: System) -> str:
    return f"{system.id}/glossary.md"


def tables_path(system: System) -> str:
    """The index tables, served at `system/tables/`: one page, or the landing page of a page per kind of rule
    (table_plan.py)."""
    return f"{system.id}/tables/index.md" if split_tables(system) else f"{system.id}/tables.md"


def table_kind_path(system: System, kind: str) -> str:
    """The page holding the index table of one kind of rule: its own, `system/tables/kind/`, when the tables are
    split, else the one index tables page."""
    return f"{system.id}/tables/{kind}.md" if split_tables(system) else tables_path(system)


def page_url(system: System, chapter_id: str) -> str:
    """A chapter's URL; a split chapter's landing page sends its old anchors on to the rules' part pages."""
    return f"{system.id}/{chapter_id}/"


def permalink(system: System, rule: Rule, site_url: str = "") -> str:
    """A rule's canonical address, `system/chapter/#rule-id`: its chapter's page, which holds the rule or, split,
    sends the rule's anchor on to the part page holding it (moved.py), so no other rule and no splitting moves it."""
    return f"{site_url.rstrip('/') + '/' if site_url else ''}{page_url(system, rule.chapter)}#{rule.id}"


@lru_cache(maxsize=4096)
def url_of(md_path: str) -> str:
    """The site URL (relative to the site root) a Markdown page is served at (asked for every link written)."""
    stem = md_path[:-3] if md_path.endswith(".md") else md_path
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def href(from_md: str, to_md: str, anchor: str | None = None) -> str:
    """A link from one generated page to another page (and anchor), relative so site/ works under any prefix."""
    fragment = f"#{anchor}" if anchor else ""
    if from_md == to_md and anchor:
        return fragment
    return _relative(url_of(from_md), url_of(to_md)) + fragment


@cache
def _relative(here: str, there: str) -> str:
    """The relative URL between two page URLs; few distinct pairs exist, so each is worked out once."""
    relative = posixpath.relpath("/" + there.rstrip("/"), "/" + here.rstrip("/"))
    return "./" if relative == "." else relative + "/"


def rule_href(system: System, rule: Rule, from_md: str) -> str:
    return href(from_md, rule_page(system, rule), rule.id)


def term_href(system: System, term: Term, from_md: str) -> str:
    return href(from_md, glossary_path(system), term.id)


def gm_screen_path(system: System) -> str:
    """The system's GM screen: every calculator on one page, or, split (split.py), the landing page that lists them
    all; either is served at `system/gm-screen/`."""
    return f"{system.id}/gm-screen/index.md" if gm_parts(system) else f"{system.id}/gm-screen.md"


def gm_part_path(system: System, part_id: str) -> str:
    """A part page of a split GM screen, served at `system/gm-screen/part/`."""
    return f"{system.id}/gm-screen/{part_id}.md"


def gm_calculator_page(system: System, calculator_id: str) -> str:
    """The Markdown file a calculator's GM screen copy is on: the GM screen, or the part page holding it."""
    part = gm_part_of(system).get(calculator_id)
    return gm_part_path(system, part) if part else gm_screen_path(system)


def calculator_anchor(calculator_id: str) -> str:
    """A calculator's permalink anchor on the GM screen."""
    return f"calc-{calculator_id}"


def calculator_element_id(system: System, calculator_id: str, prefix: str = "calc") -> str:
    """A calculator's element id (and the stem of its fields' ids): `prefix` is "calc" on its rule's page, where the id
    is also the anchor its Share button lands on."""
    return f"{prefix}-{system.id}-{calculator_id}"
