"""Front-end emitter: the white space of a built page's theme (its head, header, navigation and sidebars) cut down.

Material's templates indent every tag of the navigation and the table of contents, and their blank lines stay in
the page: 7-13 KB of each page before its content is white space (the navigation holds half its bytes in it), all
read by the parser before the first paint. Here each run of white space that holds a line break, between tags or
around a text, becomes one line break. Where white space collapses (all of the theme: only code, keyboard keys and
preformatted text keep theirs, and those are skipped, as are scripts, styles and every tag's attributes), one line
break renders as the run did: the same elements, the same texts, the same boxes. The content, which rulesc writes
without indenting, is left as it is. `rulesc build` runs this over the built site with the styles
(rulesc/build/styles.py), `rulesc serve` over each page MkDocs writes (page_styles.py).
"""

from __future__ import annotations

import re

from rulesc.emit.site.copy_buttons import CONTENT

KEPT = re.compile(r"<(script|style|pre|textarea|code|kbd)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>|([ \t\r\f]*\n[ \t\r\n\f]*)",
                  re.S | re.I)
"""What is kept as written (an element whose text is not HTML or keeps its white space, a comment, a tag), or a
run of HTML's white space (not a no-break space) holding a line break."""


def compact_theme(page: str) -> str:
    """The page with each run of white space holding a line break before its content written as one line break
    (unchanged if it has no content)."""
    start = page.find(CONTENT)
    if start < 0:
        return page
    return KEPT.sub(_kept, page[:start]) + page[start:]


def _kept(match: re.Match[str]) -> str:
    return match.group(0) if match.group(2) is None else "\n"
