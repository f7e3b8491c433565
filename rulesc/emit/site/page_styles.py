"""Front-end emitter: a built page's stylesheet links replaced by the rules it can use, inline in its head.

`rulesc build` runs it over the whole site after the builder (rulesc/build/styles.py); `rulesc serve` over each page
MkDocs writes (the rulesc-search plugin), with the headings' buttons (copy_buttons.py), the links' previews written
once (preview_table.py) and the theme's white space cut down (compact.py), so the preview's pages are the build's.
"""

from __future__ import annotations

import hashlib
import html
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from rulesc.emit.site import css
from rulesc.emit.site.bundle import SCRIPTS as FRONT_END
from rulesc.emit.site.compact import compact_theme
from rulesc.emit.site.copy_buttons import with_copy_buttons
from rulesc.emit.site.preview_table import with_preview_table

LINK = re.compile(r'^[ \t]*<link rel="stylesheet" href="([^"]+)">\n?', re.M)
HEAD_END = "</head>"
CHARSET = re.compile(r'@charset "[^"]*";')
CLOSE_STYLE = re.compile(r"</(style)", re.I)
SCRIPT = re.compile(r'<script src="([^"]+)"')
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
"""A string literal of a script: the class names and attributes it sets are written as strings."""
OWN_SCRIPTS = tuple(f"assets/rulesc/{name}.js" for name in FRONT_END)
"""rulesc's front end, which any page may load (site.js loads calculators.js where a page has calculators)."""
LOADED_WHERE = {"assets/rulesc/calculators.js": frozenset({"data-calculator", "data-roll-table"})}
"""The scripts site.js loads only on a page with an element that has one of these attributes (site/loader.js): on
any other page no element has the classes they give, and their rules are left out (2.9 KB of a page's styles)."""


@dataclass(frozen=True)
class Page:
    """A built page and the site files its head links as stylesheets, in order (none when one is not the site's)."""

    path: Path
    text: str
    sheets: tuple[str, ...]
    scripts: tuple[str, ...]


@dataclass
class Inliner:
    """Pages of the built site at `site` given their rules inline, one at a time: each set of sheets is parsed once
    and each script read once. `base` is the path the site is served under, which a page linking by absolute path
    (404.html) starts with."""

    site: Path
    base: str = "/"
    _rules: dict[tuple[str, ...], tuple[css.Rule, ...]] = field(default_factory=dict)
    _words: dict[str, frozenset[str]] = field(default_factory=dict)

    def page(self, path: Path, text: str) -> Page:
        """The page at `path` (under the site) with the text `text`, and the site files it links."""
        head = text[: text.find(HEAD_END)]
        files = [self._site_file(path, html.unescape(m.group(1))) for m in LINK.finditer(head)]
        local = tuple(f for f in files if f is not None)
        scripts = [self._site_file(path, html.unescape(src)) for src in SCRIPT.findall(text)]
        return Page(path, text, local if len(local) == len(files) else (), tuple(s for s in scripts if s))

    def inlined(self, page: Page) -> str:
        """The page's text with its stylesheet links replaced, where the first was, by the rules it can use."""
        if not page.sheets:
            return page.text
        words = css.words([page.text])
        known = words.union(self._own(words), *(self._script_words(s) for s in page.scripts))
        styles = "<style>" + CLOSE_STYLE.sub(r"<\\/\1", css.used(self._parsed(page.sheets), known)) + "</style>\n"
        head, first = page.text.find(HEAD_END), LINK.search(page.text)
        assert first is not None  # a page with sheets links one
        rest = LINK.sub("", page.text[first.start():head])
        return page.text[: first.start()] + styles + rest + page.text[head:]

    def fingerprint(self, sheets: set[str]) -> str:
        """A digest of `sheets` and rulesc's scripts as they are now: what the rules inlined depend on."""
        digest = hashlib.sha256()
        for name in sorted(sheets.union(OWN_SCRIPTS)):
            path = self.site / name
            digest.update(name.encode() + b"\0" + (path.read_bytes() if path.is_file() else b"") + b"\0")
        return digest.hexdigest()

    def _site_file(self, page: Path, href: str) -> str | None:
        """The file under the site's root a page's href names, or None for one elsewhere."""
        if "://" in href or href.startswith("//") or "?" in href or "#" in href:
            return None
        if href.startswith("/"):
            relative = href[len(self.base):] if href.startswith(self.base) else None
        else:
            relative = posixpath.normpath(posixpath.join(page.parent.relative_to(self.site).as_posix(), href))
        if relative is None or relative.startswith("../") or not (self.site / relative).is_file():
            return None
        return relative

    def _parsed(self, sheets: tuple[str, ...]) -> tuple[css.Rule, ...]:
        """The sheets in order as one minified stylesheet, without their @charset (the site's pages are UTF-8)."""
        if sheets not in self._rules:
            text = "".join(CHARSET.sub("", css.minify((self.site / s).read_text(encoding="utf-8"))) for s in sheets)
            self._rules[sheets] = css.parsed_sheets(text)
        return self._rules[sheets]

    def _own(self, page: frozenset[str]) -> frozenset[str]:
        """The words of rulesc's scripts that a page whose words are `page` may load."""
        loaded = (name for name in OWN_SCRIPTS if name not in LOADED_WHERE or page & LOADED_WHERE[name])
        return frozenset().union(*(self._script_words(name) for name in loaded if (self.site / name).is_file()))

    def _script_words(self, name: str) -> frozenset[str]:
        """The words of a script's strings: the class names and attribute values it may give an element."""
        if name not in self._words:
            self._words[name] = css.words(STRING.findall((self.site / name).read_text(encoding="utf-8")))
        return self._words[name]


def finished(page: str) -> str:
    """A built page as the site ships it, but for its styles: its headings' buttons, its previews written once, its
    theme's white space cut down."""
    return compact_theme(with_preview_table(with_copy_buttons(page)))


def served_under(site_url: str | None) -> str:
    """The path a site is served under: site_url's path (MkDocs links a 404 page's files from it), else "/"."""
    path = urlsplit(site_url or "").path or "/"
    return path if path.endswith("/") else path + "/"


@dataclass
class LivePages:
    """`rulesc serve`'s pages inlined as MkDocs writes them, so the preview shows the build's pages. A live rebuild
    writes only the pages whose Markdown changed: after an edit to a stylesheet or to rulesc's scripts, every page
    written so far is inlined again from the text MkDocs gave it."""

    written: dict[Path, str] = field(default_factory=dict)
    sheets: set[str] = field(default_factory=set)
    shown: str = ""  # the fingerprint of the sheets and scripts the pages on disk were inlined against
    _inliner: Inliner | None = None

    def page(self, site: Path, base: str, path: Path, text: str) -> str:
        """The page MkDocs is about to write at `path` as `rulesc build` writes it (finished() and inlined); kept so
        for a later rebuild."""
        if self._inliner is None:
            self._inliner = Inliner(site, base)
        text = finished(text)
        self.written[path] = text
        page = self._inliner.page(path, text)
        self.sheets.update(page.sheets)
        return self._inliner.inlined(page)

    def built(self, site: Path, base: str) -> None:
        """After each build: where the sheets or scripts changed since the last, every page written again."""
        inliner, self._inliner = Inliner(site, base), None
        now = inliner.fingerprint(self.sheets)
        if self.shown and now != self.shown:
            for path, text in sorted(self.written.items()):
                if path.is_file():
                    path.write_text(inliner.inlined(inliner.page(path, text)), encoding="utf-8", newline="\n")
        self.shown = now
