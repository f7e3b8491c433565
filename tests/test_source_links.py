"""Links restated for Zensical: relative to a page's Markdown file, not its address (rulesc/build/source_links)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.build.source_links import copy_for_zensical, from_file, relative_to_file


@pytest.mark.parametrize(("link", "restated"), [
    ("../glossary/", "glossary/"),
    ("../../other/#a-b", "../other/#a-b"),
    ("../", ""),
    ("sub/", "rules/sub/"),
    ("./", "rules/./"),
    ("..", "rules/.."),
    ("part/?x=1#y", "rules/part/?x=1#y"),
    ("#anchor", "#anchor"),
    ("?tier=3", "?tier=3"),
    ("", ""),
    ("/root/", "/root/"),
    ("//host/x", "//host/x"),
    ("https://example.org/a/", "https://example.org/a/"),
    ("mailto:gm@example.org", "mailto:gm@example.org"),
])
def test_a_link_is_said_from_the_file_s_folder(link: str, restated: str) -> None:
    assert from_file(link, "rules") == restated


def test_an_awkward_page_name_is_quoted_as_its_address_is() -> None:
    assert from_file("sub/", "Räume & mehr") == "R%C3%A4ume%20%26%20mehr/sub/"


def test_only_the_links_of_elements_change() -> None:
    text = ('# Title\n\n<p class="x"><a data-href="x/" href="../a/">one</a> <A HREF=\'b/\'>two</A>\n'
            '<img src="../i.png" alt="href=&quot;../q/&quot;"/> text href="../t/" and '
            '<code>src=&quot;../c/&quot;</code></p>\n<span title=\'href="../w/"\'>three</span>\n')
    assert relative_to_file(text, "page") == (
        '# Title\n\n<p class="x"><a data-href="x/" href="a/">one</a> <A HREF=\'page/b/\'>two</A>\n'
        '<img src="i.png" alt="href=&quot;../q/&quot;"/> text href="../t/" and '
        '<code>src=&quot;../c/&quot;</code></p>\n<span title=\'href="../w/"\'>three</span>\n')


def test_the_copy_restates_pages_but_not_index_pages_and_leaves_the_docs_alone(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "sys").mkdir(parents=True)
    page, index = '<a href="../glossary/">g</a>\r\n', '<a href="glossary/">g</a>\n'
    (docs / "sys/rules.md").write_bytes(page.encode())
    (docs / "sys/index.md").write_text(index, encoding="utf-8")
    (docs / "sys/README.md").write_text(index, encoding="utf-8")
    copy_for_zensical(docs, tmp_path / "copy")
    assert (tmp_path / "copy/sys/rules.md").read_bytes() == b'<a href="glossary/">g</a>\r\n'
    assert (tmp_path / "copy/sys/index.md").read_text(encoding="utf-8") == index
    assert (tmp_path / "copy/sys/README.md").read_text(encoding="utf-8") == index
    assert (docs / "sys/rules.md").read_bytes() == page.encode()
