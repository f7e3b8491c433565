"""Front-end emitter: each rule and term heading of a built page given its "Copy link" button in the HTML.

site.js used to add the buttons once the page was parsed: on a phone's first visit that was a second style and
layout pass over every heading after the first frame (the glossary's 50: 100 elements restyled, 208 boxes laid
out again, then a forced layout), on the way to the load event. Written into the page, the buttons are laid out
with the rest in the first frame, and site.js only listens for their clicks (site/copy_link.js; it still adds any
a page lacks). Without scripts they are hidden (site.css), as they did nothing. `rulesc build` runs this over the
built site with the styles (rulesc/build/styles.py), `rulesc serve` over each page MkDocs writes (page_styles.py).
"""

from __future__ import annotations

import html
import re

CONTENT = '<div class="md-content"'
"""Where a page's content starts in Material's template: site.js gives a button to the headings under it only, the
theme is what comes before it (compact.py), the previews' list goes first in it (preview_table.py)."""
HEADING = re.compile(r'(<h([2-6])\b(?=[^>]*\sdata-kind=")(?=[^>]*\sid=")[^>]*>)(.*?)(</h\2>)', re.S)
"""A rule's or term's heading (data-kind and an id), its opening tag, level and content."""
HEADERLINK = re.compile(r'<a\b(?=[^>]*\sclass="headerlink")(?![^>]*\stabindex=)')
"""The opening of a heading's pilcrow link that is still a tab stop."""
TAG = re.compile(r"<[^>]+>")
TRAILING = re.compile(r"[\u00b6\s]+$")


def with_copy_buttons(page: str) -> str:
    """The page with a button after the content of each rule heading under its content that has none yet."""
    start = page.find(CONTENT)
    if start < 0:
        return page
    return page[:start] + HEADING.sub(_with_button, page[start:])


def _with_button(heading: re.Match[str]) -> str:
    opening, _, content, closing = heading.groups()
    if 'class="rulesc-copy"' in content:
        return heading.group(0)
    # one tab stop per rule: the button; the pilcrow stays for the mouse and leaves the tab order
    content = HEADERLINK.sub('<a tabindex="-1"', content)
    label = html.escape("Copy link to " + heading_text(content))
    button = f'<button type="button" class="rulesc-copy" aria-label="{label}">Copy link</button>'
    return opening + content + button + closing


def heading_text(content: str) -> str:
    """A heading's text as the button's label names it: its words without the pilcrow after them."""
    return TRAILING.sub("", html.unescape(TAG.sub("", content))).strip()
