"""The built site's 404 page made to work under any path prefix, for a site built without site_url.

A static host answers every unknown address with the site's 404.html, at whatever depth the address has. MkDocs
roots that page's links at site_url's path, "/" when there is none: a site served under a prefix (a project's
GitHub Pages, `https://host/<repo>/`) got a 404 page whose scripts, icons and links all pointed at the host's root.
Here its links become relative to a `<base>`, "/" as written, and its scripts and icons wait for a few lines that
find the site's root, the nearest folder above the address holding 404.html (fetched as any page's files are, so the
offline worker answers it too), point the base there and load them. A folder followed by one of the site's own
top-level folders is tried first: under any folder of the site the first request finds the root, and the console
shows no failed one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

PAGE = "404.html"
ROOTED = re.compile(r'(\s(?:href|src|action|data-rulesc-root)=")/(?!/)([^"]*)"')
LINK = re.compile(r'<link rel="(?!stylesheet")([^"]+)" href="/(?!/)([^"]*)"')
"""An icon or the manifest, which the browser would fetch as parsed: its address waits for the root too."""
SCRIPT = re.compile(r'^[ \t]*<script src="/(?!/)([^"]*)" defer></script>\n', re.M)
CHARSET = '<meta charset="utf-8">'
FIND_ROOT = """<base href="/">
<script>(function () {
  /* rulesc: this page answers any unknown address, and the site may be served under a path prefix: its root is the
     nearest folder above the address that holds 404.html. The links are relative to the base, pointed there; the
     page's scripts are loaded from there once it is found. */
  var SCRIPTS = %s, TOP = %s, base = document.querySelector("base");
  var folders = location.pathname.split("/").slice(1, -1), depths = [], depth;
  /* how many folders the root keeps, in the order tried: those followed by one of the site's top-level folders
     (an address under a page of the site), then the rest, each deepest first; the host's root is never fetched */
  for (depth = folders.length - 1; depth > 0; depth--) if (TOP.indexOf(folders[depth]) >= 0) depths.push(depth);
  for (depth = folders.length; depth > 0; depth--) if (depths.indexOf(depth) < 0) depths.push(depth);
  function start(root) {
    base.href = root;
    document.querySelectorAll("link[data-rulesc-href]").forEach(function (link) {
      link.href = link.getAttribute("data-rulesc-href");
    });
    SCRIPTS.forEach(function (src) {
      var tag = document.createElement("script");
      tag.src = src;
      tag.async = false;
      document.head.appendChild(tag);
    });
  }
  function probe(tried) {
    if (tried === depths.length) { start("/"); return; }
    var root = "/" + folders.slice(0, depths[tried]).map(function (f) { return f + "/"; }).join("");
    fetch(root + "404.html", {cache: "no-store"}).then(function (response) {
      if (response.ok) start(root); else probe(tried + 1);
    }, function () { probe(tried + 1); });
  }
  probe(0);
})();</script>
"""


def portable_404(site: Path) -> None:
    """Rewrite the site's 404 page, if it has one, to find the site's root wherever it is served."""
    path = site / PAGE
    if path.is_file():
        top = sorted(folder.name for folder in site.iterdir() if folder.is_dir())
        path.write_text(portable(path.read_text(encoding="utf-8"), top), encoding="utf-8", newline="\n")


def portable(page: str, top: list[str]) -> str:
    """A 404 page whose URLs start at the host's root, with them relative to a base its scripts point at the
    site's root, found with the help of `top`, the site's top-level folders; a page without its charset line, where
    the base must go first, is left as it is."""
    if CHARSET not in page:
        return page
    scripts = SCRIPT.findall(page)
    page = ROOTED.sub(lambda m: f'{m.group(1)}{m.group(2) if m.group(2) not in ("", ".") else "./"}"',
                      LINK.sub(r'<link rel="\1" data-rulesc-href="\2"', SCRIPT.sub("", page)))
    return page.replace(CHARSET, CHARSET + "\n" + FIND_ROOT % (script_json(scripts), script_json(top)), 1)


def script_json(names: list[str]) -> str:
    """`names` as a JSON array that cannot end the inline script it is written into."""
    return json.dumps(names).replace("<", "\\u003c")
