"""Where each rule lives on the site: page paths and permalinks shared by every emitter."""

from __future__ import annotations

from ..model import Rule, System


def page_path(system: System, chapter_id: str) -> str:
    """The Markdown file of a chapter, relative to the docs folder."""
    return f"{system.id}/{chapter_id}.md"


def page_url(system: System, chapter_id: str) -> str:
    return f"{system.id}/{chapter_id}/"


def permalink(system: System, rule: Rule, site_url: str = "") -> str:
    return f"{site_url.rstrip('/') + '/' if site_url else ''}{page_url(system, rule.chapter)}#{rule.id}"
