"""The built site's styles: each page's stylesheets replaced by the rules it can use, inline in its head.

A phone on a slow link paints nothing until every stylesheet in a page's head has arrived: Material's two and
rulesc's two, 170 KB (29 KB gzipped), held a first visit's first paint back by about a second (Lighthouse, mobile).
After the site builder, a page whose stylesheets are all the site's own gets them as one `<style>`: the rules whose
classes, ids and attributes (and exact attribute values: one palette of Material's nineteen) its HTML or the scripts
it may load name, minified, without the custom properties and keyframes nothing left reads (about 36 KB, 7-9 KB
gzipped). The page then fetches no stylesheet at all: nothing to wait for before painting, nothing it does not use,
and no second pass over the page's styles when a deferred sheet arrives. A page that links a stylesheet from
elsewhere is left as it is.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from rulesc.emit.site import css
from rulesc.emit.site.bundle import SCRIPTS as FRONT_END

LINK = re.compile(r'^[ \t]*<link rel="stylesheet" href="([^"]+)">\n?', re.M)
HEAD_END = "</head>"
CHARSET = re.compile(r'@charset "[^"]*";')
CLOSE_STYLE = re.compile(r"</(style)", re.I)
SCRIPT = re.compile(r'<script src="([^"]+)"')
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
"""A string literal of a script: the class names and attributes it sets are written as strings."""
OWN_SCRIPTS = tuple(f"assets/rulesc/{name}.js" for name in FRONT_END)
"""rulesc's front end, which any page may load (site.js loads calculators.js where a page has calculators)."""


@dataclass(frozen=True)
class Page:
    """A built page and the site files its head links as stylesheets, in order."""

    path: Path
    text: str
    sheets: tuple[str, ...]
    scripts: tuple[str, ...]


def inline_styles(site: Path, base: str = "/") -> list[str]:
    """Rewrite every page of `site` whose stylesheets are all the site's own; returns the sheets they replaced.
    `base` is the path the site is served under, which a page linking by absolute path (404.html) starts with."""
    pages = [_page(site, path, base) for path in sorted(site.rglob("*.html"))]
    pages = [p for p in pages if p.sheets]
    groups = sorted({p.sheets for p in pages})
    scripts = {name: _script_words(site / name) for name in _scripts(site, pages)}
    own = frozenset().union(*(scripts[name] for name in OWN_SCRIPTS if name in scripts))
    replaced: set[str] = set()
    for sheets in groups:
        rules = css.parse(_joined(site, sheets))
        for page in (p for p in pages if p.sheets == sheets):
            _rewrite(page, css.used(rules, css.words([page.text]).union(own, *(scripts[s] for s in page.scripts))))
        replaced.update(sheets)
    return sorted(replaced)


def _page(site: Path, path: Path, base: str) -> Page:
    text = path.read_text(encoding="utf-8")
    head = text[: text.find(HEAD_END)]
    hrefs = [html.unescape(m.group(1)) for m in LINK.finditer(head)]
    files = [_site_file(site, path, href, base) for href in hrefs]
    local = [f for f in files if f is not None]
    scripts = [_site_file(site, path, html.unescape(src), base) for src in SCRIPT.findall(text)]
    return Page(path, text, tuple(local) if len(local) == len(files) else (), tuple(s for s in scripts if s))


def _site_file(site: Path, page: Path, href: str, base: str) -> str | None:
    """The file under the site's root a page's href names, or None for one elsewhere."""
    if "://" in href or href.startswith("//") or "?" in href or "#" in href:
        return None
    if href.startswith("/"):
        relative = href[len(base):] if href.startswith(base) else None
    else:
        relative = posixpath.normpath(posixpath.join(page.parent.relative_to(site).as_posix(), href))
    if relative is None or relative.startswith("../") or not (site / relative).is_file():
        return None
    return relative


def _scripts(site: Path, pages: list[Page]) -> list[str]:
    """The scripts some page loads, and rulesc's front end."""
    own = [name for name in OWN_SCRIPTS if (site / name).is_file()]
    return sorted({*own, *(s for page in pages for s in page.scripts)})


def _script_words(path: Path) -> frozenset[str]:
    """The words of a script's strings: the class names and attribute values it may give an element."""
    return css.words(STRING.findall(path.read_text(encoding="utf-8")))


def _joined(site: Path, sheets: tuple[str, ...]) -> str:
    """The sheets in order as one minified stylesheet, without their @charset (the site's pages are UTF-8)."""
    return "".join(CHARSET.sub("", css.minify((site / s).read_text(encoding="utf-8"))) for s in sheets)


def _rewrite(page: Page, rules: str) -> None:
    """The page's stylesheet links replaced, where the first was, by the rules it can use, inline."""
    head, first = page.text.find(HEAD_END), LINK.search(page.text)
    assert first is not None  # a page with sheets links one
    styles = "<style>" + CLOSE_STYLE.sub(r"<\\/\1", rules) + "</style>\n"
    rest = LINK.sub("", page.text[first.start():head])
    page.path.write_text(page.text[: first.start()] + styles + rest + page.text[head:], encoding="utf-8",
                         newline="\n")
