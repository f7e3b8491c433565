"""The built site's styles: each page's stylesheets replaced by the rules it can use, inline in its head.

A phone on a slow link paints nothing until every stylesheet in a page's head has arrived: Material's two and
rulesc's two, 170 KB (29 KB gzipped), held a first visit's first paint back by about a second (Lighthouse, mobile).
After the site builder, a page whose stylesheets are all the site's own gets them as one `<style>`: the rules whose
classes, ids and attributes (and exact attribute values: one palette of Material's nineteen) its HTML or the scripts
it may load name, minified, without the custom properties and keyframes nothing left reads (about 36 KB, 7-9 KB
gzipped). The page then fetches no stylesheet at all: nothing to wait for before painting, nothing it does not use,
and no second pass over the page's styles when a deferred sheet arrives. A page that links a stylesheet from
elsewhere is left as it is. Each page's rule headings get their "Copy link" buttons here too (copy_buttons.py), its
links' previews are written once each (preview_table.py) and its theme's white space is cut down (compact.py): the
one pass that rewrites every built page.
"""

from __future__ import annotations

from pathlib import Path

from rulesc.emit.site.page_styles import Inliner, finished


def inline_styles(site: Path, base: str = "/") -> list[str]:
    """Rewrite every page of `site` whose stylesheets are all the site's own, or that finished() changes (a heading's
    button, the previews, the theme's white space: page_styles.py); returns the sheets they replaced. `base` is the
    path the site is served under, which a page linking by absolute path (404.html) starts with."""
    inliner, replaced = Inliner(site, base), set[str]()
    for path in sorted(site.rglob("*.html")):
        built = path.read_text(encoding="utf-8")
        page = inliner.page(path, finished(built))
        if page.sheets or page.text != built:
            path.write_text(inliner.inlined(page), encoding="utf-8", newline="\n")
            replaced.update(page.sheets)
    return sorted(replaced)
