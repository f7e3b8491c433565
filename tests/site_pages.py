"""Where a rule's page is in a built project: the tests' one way to find it, as the site's addresses make it."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from rulesc.analyze.program import Program
from rulesc.emit.site.links import rule_page, url_of

PREVIEW_LIST = re.compile(r'<script type="application/json" id="rulesc-previews">(.*?)</script>', re.S)
PREVIEW_INDEX = re.compile(r'( data-rulesc-preview=")([0-9]+)"')


def rule_html(root: Path, program: Program, rule_id: str) -> Path:
    """The built site's HTML file holding the rule."""
    return root / "site" / url_of(rule_page(program.system, program.rules[rule_id])) / "index.html"


def previews_inline(page: str) -> str:
    """A built page with each link's preview back in the link, escaped as markup.py writes it there, and without the
    list the build wrote each once in (rulesc/emit/site/preview_table.py)."""
    found = PREVIEW_LIST.search(page)
    if found is None:
        return page
    previews = json.loads(found.group(1))
    written = page[:found.start()] + page[found.end():]
    return PREVIEW_INDEX.sub(lambda m: m.group(1) + html.escape(previews[int(m.group(2))], quote=False).replace(
        '"', "&quot;") + '"', written)
