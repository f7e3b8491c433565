"""Random hostile strings in every free-text field of the hostile-text case, built into the site: an HTML parser
finds no element or attribute the same site built from plain text lacks, and no page gains a script or the like;
and any string written into a page's front matter reads back as written."""

from __future__ import annotations

import json
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulesc.emit.site.fragments import yaml_string
from rulesc.pipeline import Project, build_project
from tests.hostile import hostile_content

FRAGMENTS = ["<", ">", '"', "'", "&", "&amp;", "&#x3c;", "</title>", "<script>", "</script>",
             "<img src=x onerror=pwn()>", '"><svg onload=pwn()>', "' onfocus='pwn()", "<!--", "-->", "]]", "{{", "`",
             "*", "_", "~~", "#", "|", "\\", "${", "javascript:", "](javascript:pwn())", "[x", "<a href=x>",
             "{#id onclick=pwn()}", "{: onclick=pwn() }", "\u00e9", "\U0001f47e", " ", "x"]
"""Pieces of hostile text. No piece ends with `[` or starts with `}`, so no draw writes a [[link]] or a {{value}}
(those are checked references, not text); digits are left out, so no draw retypes a value (W0705)."""
ACTIVE = {"script", "style", "iframe", "object", "embed", "img", "svg", "math", "link", "meta", "base", "form",
          "template", "frame", "frameset", "noscript", "video", "audio", "source", "input", "textarea", "button"}
"""Elements that run, load or ask for something: each page must have exactly as many as its plain build."""


class Elements(HTMLParser):
    """Every start tag of a page: its (tag, attribute) pairs and how many of each active element it has."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: set[tuple[str, str]] = set()
        self.active: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.pairs |= {(tag, "")} | {(tag, name) for name, _ in attrs}
        self.active.update([tag] if tag in ACTIVE else [])


def read_site(site: Path) -> dict[str, Elements]:
    pages = {}
    for path in sorted(site.rglob("*.html")):
        pages[path.relative_to(site).as_posix()] = found = Elements()
        found.feed(path.read_text(encoding="utf-8"))
    return pages


def built(root: Path, text: str) -> dict[str, Elements]:
    root = hostile_content(root, text)
    build_project(Project(root, ("loud",)))
    return read_site(root / "site")


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Elements]:
    return built(tmp_path_factory.mktemp("plain"), "plain")


@pytest.mark.slow  # builds a site per drawn text
@settings(max_examples=2, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=12).map("".join))
@example(text="".join(FRAGMENTS))
def test_hostile_text_adds_no_element_or_attribute(text: str, plain: dict[str, Elements],
                                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    pages = built(tmp_path_factory.mktemp("fuzzed"), text)
    assert sorted(pages) == sorted(plain)
    known = set().union(*(page.pairs for page in plain.values()))
    assert {name: sorted(page.pairs - known) for name, page in pages.items() if page.pairs - known} == {}
    assert {name: page.active for name, page in pages.items() if page.active != plain[name].active} == {}


@settings(max_examples=300, deadline=None, database=None)
@given(st.text())
def test_front_matter_strings_read_back_as_written_by_mkdocs_loader(text: str) -> None:
    loaded = yaml.load(f"title: {yaml_string(text)}\n", Loader=yaml.CSafeLoader)
    assert loaded == {"title": "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)}


def test_front_matter_strings_escape_what_libyaml_refuses_and_keep_the_rest_as_json_writes_it() -> None:
    assert yaml_string("Caf\u00e9 \"x\" \\ \n") == json.dumps("Caf\u00e9 \"x\" \\ \n")
    assert yaml_string("\U0001f47e\x7f\ud800") == '"\\U0001f47e\\u007f\\ufffd"'
