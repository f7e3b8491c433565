"""Front-end emitter: each built page's link previews written once, in a list its links point into.

Every link to a rule or a term carries the preview site.js shows on hover, focus or a tap (markup.py writes it into
the link, as the Markdown and the fragments the tests read keep it). A page links the same terms again and again:
the glossary's 255 links held 127 distinct previews, 36 KB of its 187 KB, all parsed before the first paint. Here
each distinct preview is written once, in a JSON list at the start of the page's content (a script element's text:
parsed as one string, no nodes), and each link keeps its preview's index in the list, in the same attribute.
site/previews.js reads the list the first time a preview shows; a page without the list (one built by a plain
`mkdocs build`) keeps the previews in its links, which it reads as before. Without scripts no preview shows either
way. `rulesc build` runs this over the built site with the styles (rulesc/build/styles.py), `rulesc serve` over each
page MkDocs writes (page_styles.py).
"""

from __future__ import annotations

import html
import json
import re

from rulesc.emit.site.copy_buttons import CONTENT as CONTENT_TAG

ATTRIBUTE = re.compile(r'(<a\b[^<>]*? data-rulesc-preview=")([^"]*)"')
"""A link's preview as markup.py writes it: escaped, in double quotes, inside the link's opening tag."""
CONTENT = re.compile(re.escape(CONTENT_TAG) + r"[^>]*>")
"""Where a page's content starts: the list goes first in it, so an instant navigation (Material's, replacing the
content) brings the new page's list along."""
LIST_ID = "rulesc-previews"


def with_preview_table(page: str) -> str:
    """The page with each link's preview replaced by its index in one list of the page's distinct previews (unchanged
    if it has no preview, or has the list already)."""
    if f'id="{LIST_ID}"' in page:
        return page
    index: dict[str, str] = {}

    def keyed(match: re.Match[str]) -> str:
        key = index.setdefault(match.group(2), str(len(index)))
        return f'{match.group(1)}{key}"'

    linked = ATTRIBUTE.sub(keyed, page)
    if not index:
        return page
    table = preview_list([html.unescape(escaped) for escaped in index])
    content = CONTENT.search(linked)
    at = content.end() if content else linked.rfind("</body>")
    return page if at < 0 else linked[:at] + table + linked[at:]


def preview_list(previews: list[str]) -> str:
    """The script element holding `previews` as a JSON list; `<` written as its escape, so no text in it can end
    the element or open a comment."""
    data = json.dumps(previews, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="{LIST_ID}">{data}</script>'
