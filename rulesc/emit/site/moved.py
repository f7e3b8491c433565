"""Pages split into parts: the map a landing page carries (an old link `page/#id` goes on to the part holding the
id now), a page left at a part's old address that sends its links on, and the links between neighbouring parts."""

from __future__ import annotations

import json
from html import escape

from rulesc.emit.site.links import href

MOVED_SCRIPT = (
    '(function(){var m=MOVED,here=location.pathname;function go(){if(location.pathname!==here)return;'
    'var id=decodeURIComponent(location.hash.slice(1)),to=Object.prototype.hasOwnProperty.call(m,id)?m[id]:null;'
    'if(to!==null)location.replace(to+(location.protocol==="file:"?"index.html":"")+location.search+location.hash);}'
    'go();addEventListener("hashchange",go);})();')


def moved_block(moved: dict[str, str], notice: str) -> str:
    """The script that replaces the location when its hash names a moved id (`moved`: id -> the folder it moved to,
    relative to this page; the query is kept, so a shared calculator's inputs survive; from file:// it names the
    folder's index.html), and `notice` for a browser without scripts."""
    table = json.dumps(moved, sort_keys=True, separators=(",", ":")).replace("</", "<\\/")
    return f"<script>{MOVED_SCRIPT.replace('MOVED', table)}</script>\n<noscript><p>{notice}</p></noscript>"


REDIRECT = "rulesc-moved rulesc-redirect"
"""The class of the block a page left at an old address holds (the phone bench passes such a page by)."""

REDIRECT_SCRIPT = ('(function(){location.replace(TO+(location.protocol==="file:"?"index.html":"")+location.search'
                   '+location.hash);})();')


def redirect_block(to: str, title: str) -> str:
    """What a page left at an old address holds: the script that replaces the location with `to` (a folder relative
    to this page), keeping the query and the hash, so a shared link's inputs and anchor survive; and the link for a
    browser without scripts."""
    target = json.dumps(to).replace("</", "<\\/")
    return (f"<script>{REDIRECT_SCRIPT.replace('TO', target)}</script>\n"
            f'<p>This page has moved to <a href="{escape(to)}">{escape(title)}</a>.</p>')


def part_steps(parts: list[tuple[str, str]], number: int, name: str, noun: str = "part",
               listed: bool = False) -> str:
    """Links from the number-th (from 1) of `parts` (each its Markdown path and title) to the one before and the one
    after, in a navigation landmark called `name`: the site's navigation lists only the landing page, so Material's
    footer has no neighbours to offer. `listed` gives every part's address and title too (data-rulesc-parts), for
    the phone's drawer where the navigation does not list even the landing page (site.js: place.js)."""
    page = parts[number - 1][0]
    steps = [(rel, f"{word} {noun}", parts[at]) for rel, word, at in (("prev", "Previous", number - 2),
                                                                       ("next", "Next", number))
             if 0 <= at < len(parts)]
    links = [f'<a href="{href(page, path)}" rel="{rel}">{label}: {escape(title)}</a>'
             for rel, label, (path, title) in steps]
    every = json.dumps([[href(page, path), title] for path, title in parts], ensure_ascii=False)
    data = f' data-rulesc-parts="{escape(every)}"' if listed else ""
    return f'<nav class="rulesc-part-steps" aria-label="{escape(name)}"{data}>{" ".join(links)}</nav>'
