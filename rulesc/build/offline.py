"""The built site's service worker: the precache list of every file the site serves, versioned by their hash."""

from __future__ import annotations

import hashlib
import posixpath
import re
from pathlib import Path

from rulesc.emit.site.offline import WORKER, site_worker

# Never fetched by a page of the site: source maps, the compressed sitemap for crawlers (Material's instant
# navigation reads sitemap.xml), and Material's own search (lunr and its worker), which rulesc's Pagefind search
# replaces. The worker itself is fetched by the browser, never from cache.
LEFT_OUT_SUFFIXES = (".map", "sitemap.xml.gz")
LEFT_OUT_FOLDERS = ("assets/javascripts/lunr/", "assets/javascripts/workers/")
VERSION_DIGITS = 16
# Material's own script: left out too where no page loads it (rulesc's theme.js runs the theme instead).
MATERIAL_BUNDLE = re.compile(r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js")
STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+\.css)"')


def precache(site: Path) -> list[str]:
    """Every file of the site a visit may fetch, as URLs relative to its root (a folder's index.html as the
    folder, as its pages are linked), in path order."""
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    kept = [f for f in files if f != WORKER and not f.endswith(LEFT_OUT_SUFFIXES)
            and not f.startswith(LEFT_OUT_FOLDERS)]
    pages = [f for f in kept if f.endswith(".html")]
    if not _loads_material_bundle(site, pages):
        kept = [f for f in kept if not MATERIAL_BUNDLE.fullmatch(f)]
    linked = _linked_sheets(site, pages)
    return [_url(f) for f in kept if not f.endswith(".css") or posixpath.basename(f) in linked]


def _linked_sheets(site: Path, pages: list[str]) -> set[str]:
    """The file names of the stylesheets some page links (each page's own rules are inline in it: the theme's
    sheets they were taken from are never fetched)."""
    return {posixpath.basename(href) for page in pages
            for href in STYLESHEET.findall((site / page).read_text(encoding="utf-8"))}


def _loads_material_bundle(site: Path, pages: list[str]) -> bool:
    return any(MATERIAL_BUNDLE.search((site / page).read_text(encoding="utf-8")) for page in pages)


def _url(path: str) -> str:
    if path == "index.html":
        return "./"
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def _file(site: Path, url: str) -> Path:
    return site / (url + "index.html" if url.endswith("/") else url)


def version(site: Path, urls: list[str]) -> str:
    """A hash of every precached file's path and bytes: any change to the site gives a new version."""
    digest = hashlib.sha256()
    for url in urls:
        digest.update(url.encode("utf-8") + b"\0" + hashlib.sha256(_file(site, url).read_bytes()).digest())
    return digest.hexdigest()[:VERSION_DIGITS]


def write_site_worker(site: Path) -> None:
    """Replace the preview's worker in the built site with one that can save the whole site for offline use."""
    urls = precache(site)
    size = sum(_file(site, url).stat().st_size for url in urls)
    (site / WORKER).write_text(site_worker(urls, version(site, urls), size), encoding="utf-8", newline="\n")
