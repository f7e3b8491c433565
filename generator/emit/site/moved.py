"""The map a page carries when what it held moved to other pages: an old link `page/#id` goes on to the new page."""

from __future__ import annotations

import json

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
