"""The built pages' rule headings carry their "Copy link" buttons (rulesc/emit/site/copy_buttons.py): exactly the
button and tab order site.js would give them, once, and nothing else touched."""

from __future__ import annotations

from rulesc.emit.site.copy_buttons import heading_text, with_copy_buttons

PERMALINK = '<a class="headerlink" href="#{0}" title="Permanent link">&para;</a>'
BUTTON = '<button type="button" class="rulesc-copy" aria-label="Copy link to {0}">Copy link</button>'


def _page(body: str) -> str:
    return f'<header><h2 data-kind="rule" id="top">Top{PERMALINK.format("top")}</h2></header>\n' \
           f'<div class="md-content" data-md-component="content"><article>\n{body}\n</article></div>'


def test_each_rule_heading_gets_one_button_after_its_pilcrow_which_leaves_the_tab_order() -> None:
    page = _page(f'<h2 data-kind="term" id="ki">Ki{PERMALINK.format("ki")}</h2>\n<p>Ki is energy.</p>\n'
                 f'<h3 data-kind="rule" id="b">B &amp; C{PERMALINK.format("b")}</h3>\n<h2 id="plain">Plain</h2>')
    assert with_copy_buttons(page) == _page(
        '<h2 data-kind="term" id="ki">Ki<a tabindex="-1" class="headerlink" href="#ki" title="Permanent link">'
        f'&para;</a>{BUTTON.format("Ki")}</h2>\n<p>Ki is energy.</p>\n'
        '<h3 data-kind="rule" id="b">B &amp; C<a tabindex="-1" class="headerlink" href="#b" title="Permanent link">'
        f'&para;</a>{BUTTON.format("B &amp; C")}</h3>\n<h2 id="plain">Plain</h2>')


def test_a_page_is_given_its_buttons_once_and_a_page_without_content_is_left_alone() -> None:
    once = with_copy_buttons(_page(f'<h4 id="x" data-kind="rule">X{PERMALINK.format("x")}</h4>'))
    assert once.count('class="rulesc-copy"') == 1 and with_copy_buttons(once) == once
    header_only = f'<h2 data-kind="rule" id="top">Top{PERMALINK.format("top")}</h2>'
    assert with_copy_buttons(header_only) == header_only


def test_the_label_is_the_headings_text_without_its_pilcrow_as_site_js_names_it() -> None:
    assert heading_text(f'Botch <em>Range</em> {PERMALINK.format("b")}') == "Botch Range"
    assert heading_text("Ki &quot;Surge&quot; &amp; More \u00b6 ") == 'Ki "Surge" & More'
