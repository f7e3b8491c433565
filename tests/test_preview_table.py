"""A built page writes each distinct link preview once (rulesc/emit/site/preview_table.py): its links keep indexes
into one list at the start of its content, in the order they first appear, and nothing else is touched."""

from __future__ import annotations

import json
import re

from rulesc.emit.site.preview_table import with_preview_table

CONTENT = '<div class="md-content" data-md-component="content">'
POOL = '<a href="../glossary/#pool" class="rulesc-ref rulesc-ref--term" data-rulesc-preview="{0}">pool</a>'
EDGE = ('<a href="#edge" class="rulesc-ref rulesc-ref--rule" data-rulesc-preview="{0}" data-rulesc-rule="#e" '
        'data-rulesc-rule-name="Edge">edge</a>')
LIST = '<script type="application/json" id="rulesc-previews">{0}</script>'


def _page(body: str, content: str = CONTENT) -> str:
    return f"<html><body><header>h</header>\n{content}<article>\n{body}\n</article></div></body></html>"


def test_each_distinct_preview_is_written_once_and_its_links_keep_its_index() -> None:
    pool, edge = "Pool: The dice you &quot;roll&quot; &amp; keep.", "Edge (rule): What &lt;b&gt; adds."
    page = _page(f"<p>{POOL.format(pool)} {EDGE.format(edge)} {POOL.format(pool)}</p>")
    listed = LIST.format('["Pool: The dice you \\"roll\\" & keep.","Edge (rule): What \\u003cb> adds."]')
    assert with_preview_table(page) == _page(f"<p>{POOL.format(0)} {EDGE.format(1)} {POOL.format(0)}</p>",
                                             CONTENT + listed)


def test_no_preview_can_end_the_list_or_open_a_comment_and_every_one_reads_back_exactly() -> None:
    hostile = ["</script><script>alert(1)</script>", "<!-- x", "\u2028 é \\ \"", "</SCRIPT >"]
    page = _page("".join(POOL.format(text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;"))
                         for text in hostile))
    written = with_preview_table(page)
    data = re.search(r'id="rulesc-previews">(.*?)</script>', written, re.S)
    assert data is not None and "<" not in data.group(1)
    assert json.loads(data.group(1)) == hostile and written.count("</script>") == 1


def test_a_page_without_previews_or_with_its_list_already_is_left_alone() -> None:
    plain = _page('<p><a href="#x" class="rulesc-ref rulesc-ref--rule">x</a> data-rulesc-preview="not a link"</p>')
    assert with_preview_table(plain) == plain
    once = with_preview_table(_page(POOL.format("Pool: Dice.")))
    assert once.count('id="rulesc-previews"') == 1 and with_preview_table(once) == once


def test_a_page_without_material_s_content_gets_its_list_at_the_end_of_its_body() -> None:
    page = f"<html><body><p>{POOL.format('Pool: Dice.')}</p></body></html>"
    listed = LIST.format('["Pool: Dice."]')
    assert with_preview_table(page) == f"<html><body><p>{POOL.format(0)}</p>{listed}</body></html>"
    no_body = f"<p>{POOL.format('Pool: Dice.')}</p>"
    assert with_preview_table(no_body) == no_body
