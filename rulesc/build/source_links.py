"""The generated pages' links restated for Zensical, which reads a relative link as relative to its Markdown file.

rulesc writes each link in build/docs relative to the address the page is served at: `game/rules.md` is served at
`game/rules/`, so a link to the glossary reads `../glossary/`. MkDocs leaves links in raw HTML as written. Zensical
(0.0.35 and later) resolves every relative `href` and `src` of an element against the folder of the Markdown file,
as it does a Markdown link, and writes it again relative to the served address: `../glossary/` in `game/rules.md`
became `../../glossary/` on the page, one folder too far up. Its own site showed 2,900 such broken links of 7,600.

Zensical builds from a copy of build/docs in which each page that is not its folder's index has its links said
relative to its file (`../glossary/` -> `glossary/`, `#a` unchanged, `sub/` -> `rules/sub/`), so that Zensical's
rewrite gives back the link rulesc wrote. build/docs itself stays the same for either builder.
"""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

INDEX_PAGES = ("index.md", "README.md")
"""A folder's own page: served at the folder's address, so its links already are relative to its file."""
ATTRIBUTE = re.compile(r"""(\s(?:href|src)\s*=\s*)(["'])(.*?)\2""", re.I | re.S)
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def copy_for_zensical(docs: Path, target: Path) -> None:
    """`docs` copied to `target`, each page's links restated relative to its Markdown file (module docstring)."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(docs, target)
    for page in sorted(target.rglob("*.md")):
        if page.name not in INDEX_PAGES:
            text = page.read_bytes().decode("utf-8")
            page.write_bytes(relative_to_file(text, page.stem).encode("utf-8"))


def relative_to_file(text: str, stem: str) -> str:
    """The Markdown `text` of the page `stem`.md with each element's relative link said from the file's folder."""
    tags = _StartTags(text)
    out, last = [], 0
    for start, tag in tags.found:
        out += [text[last:start], ATTRIBUTE.sub(lambda m: _restated(m, stem), tag)]
        last = start + len(tag)
    return "".join(out) + text[last:]


def _restated(attribute: re.Match[str], stem: str) -> str:
    lead, quote, value = attribute.groups()
    return f"{lead}{quote}{from_file(value, stem)}{quote}"


def from_file(link: str, stem: str) -> str:
    """`link`, relative to the address `stem`/ of a page, said relative to the folder of `stem`.md."""
    if not link or link.startswith(("/", "#", "?")) or SCHEME.match(link):
        return link  # another site, the site's root, this page: Zensical leaves these as written
    return link[3:] if link.startswith("../") else f"{quote(stem)}/{link}"


class _StartTags(HTMLParser):
    """Each element's start tag in a text, as written, with its offset."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[int, str]] = []
        self.lines = [0] + [newline.end() for newline in re.finditer("\n", text)]  # as getpos() counts lines
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line, column = self.getpos()
        self.found.append((self.lines[line - 1] + column, self.get_starttag_text() or ""))

    handle_startendtag = handle_starttag
