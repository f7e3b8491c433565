"""Sources as publications: citations with pages, the license notices on the home page, in every footer and in the
export (tests/cases/good/publications), and the footer's neighbours' titles escaped once."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import REPO
from tests.run_case import run_rulesc

CASE = REPO / "tests/cases/good/publications"
CC_BY = ("\u201cThe Open Book\u201d (2nd edition) by Ada Writer and Ben Maker (Open Press, 2021), "
         '<a href="https://example.invalid/open-book">https://example.invalid/open-book</a>, is licensed under '
         '<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>. '
         "The rules are restated in this reference&#x27;s own words.")
ORC = "This product uses the ORC License; its reserved material is not used here."
NOTICES = f'<p class="rulesc-attribution">{CC_BY}</p><p class="rulesc-attribution">{ORC}</p>'


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The case built with its site; its chapter titled with an ampersand and Material's footer links turned on."""
    root = tmp_path_factory.mktemp("publications")
    shutil.copytree(CASE / "content", root / "content")
    shutil.copytree(REPO / "site_overrides", root / "site_overrides")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    footer = config.replace("    - toc.follow\n", "    - toc.follow\n    - navigation.footer\n")
    (root / "mkdocs.yml").write_text(footer)
    chapter = root / "content/open/basics.yaml"
    chapter.write_text(chapter.read_text().replace("title: Basics\n", "title: Basics & more\n"))
    status, _, err = run_rulesc("--root", str(root), "build")
    assert (status, err) == (0, "")
    return root


def _footer(html: str) -> str:
    found = re.search(r'<div class="md-copyright__highlight rulesc-attribution">\s*(.*?)\s*</div>', html, re.S)
    return found.group(1) if found else ""


def test_the_home_page_lists_each_publication_and_shows_the_notices(built: Path) -> None:
    page = (built / "site/open/index.html").read_text()
    assert ("<li>\u201cThe Open Book\u201d (2nd edition) by Ada Writer and Ben Maker (Open Press, 2021), "
            '<a href="https://example.invalid/open-book">https://example.invalid/open-book</a>. Licensed under '
            '<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.</li>') in page
    assert ('<li>\u201cOpen Game Wiki\u201d, <a href="https://example.invalid/wiki">https://example.invalid/wiki</a>. '
            'Licensed under <a href="https://creativecommons.org/publicdomain/zero/1.0/">CC0 1.0</a>.</li>') in page
    assert "<li>\u201cDesigner&#x27;s notes\u201d. Kept beside the rulebook.</li>" in page
    assert "notes.txt" not in page
    assert f'<div class="rulesc-attributions" markdown="0">\n{NOTICES}\n</div>' in page


@pytest.mark.parametrize("page", ["index.html", "open/index.html", "open/basics/index.html", "open/glossary/index.html",
                                  "search/index.html", "errors/index.html", "dice-notation/index.html"])
def test_every_page_footer_carries_the_notices(built: Path, page: str) -> None:
    assert _footer((built / "site" / page).read_text()) == NOTICES


def test_players_read_the_title_and_page_not_a_file_name(built: Path) -> None:
    page = (built / "site/open/basics/index.html").read_text()
    found = re.findall(r'<p class="rulesc-provenance"><span>Source:</span> (.*?)</p>', page)
    assert found == ["The Open Book (2nd edition), p. 78, section \u201cDoubling\u201d.",
                     "Creatures of the Open Road, pp. 12-13, section \u201cHalving\u201d.",
                     "Open Game Wiki, section \u201cTripling\u201d.",
                     "Designer&#x27;s notes, section \u201cQuarters\u201d, lines 3-4."]


def test_the_footer_names_a_neighbour_with_an_ampersand_escaped_once(built: Path) -> None:
    page = (built / "site/open/index.html").read_text()
    assert re.findall(r'aria-label="Next: ([^"]*)"', page) == ["GM screen"]
    page = (built / "site/open/gm-screen/index.html").read_text()
    assert re.findall(r'aria-label="Next: ([^"]*)"', page) == ["Basics &amp; more"]


def test_the_export_carries_the_publications_and_their_notices(built: Path) -> None:
    export = json.loads((built / "build/export/open.json").read_text())
    core, bestiary, wiki, notes = export["sources"]
    assert core == {"id": "core", "file": None, "title": "The Open Book", "authors": ["Ada Writer", "Ben Maker"],
                    "edition": "2nd edition", "publisher": "Open Press", "year": 2021, "pages": 96,
                    "url": "https://example.invalid/open-book", "license": "CC-BY-4.0",
                    "license_url": "https://creativecommons.org/licenses/by/4.0/",
                    "attribution": "\u201cThe Open Book\u201d (2nd edition) by Ada Writer and Ben Maker (Open Press, "
                    "2021), https://example.invalid/open-book, is licensed under CC BY 4.0 "
                    "(https://creativecommons.org/licenses/by/4.0/). The rules are restated in this reference's own "
                    "words.", "note": None}
    assert (bestiary["attribution"], bestiary["license_url"]) == (ORC, "https://paizo.com/orclicense")
    assert (wiki["attribution"], notes["attribution"], notes["file"], notes["license"]) == \
        (None, None, "notes.txt", None)
    rules = {r["id"]: r["provenance"] for c in export["chapters"] for r in c["rules"]}
    assert [(p["page"], p["lines"]) for p in rules.values()] == [("78", None), ("12-13", None), (None, None),
                                                                 (None, "3-4")]
    assert export["terms"][0]["provenance"]["page"] == "4"
    schema = json.loads((built / "build/export/rulesc-export.schema.json").read_text())
    assert [e.message for e in Draft202012Validator(schema).iter_errors(export)] == []
    core["year"] = "2021"  # the schema says what each field holds
    assert [e.message for e in Draft202012Validator(schema).iter_errors(export)] == [
        "'2021' is not of type 'integer', 'null'"]


def test_the_engine_module_carries_the_notices(built: Path) -> None:
    module = (built / "build/engine/rules_engine/open.py").read_text(encoding="utf-8")
    doc = " ".join(module.split('"""')[1].split())
    assert doc.endswith("Attribution: \u201cThe Open Book\u201d (2nd edition) by Ada Writer and Ben Maker (Open Press, "
                        "2021), https://example.invalid/open-book, is licensed under CC BY 4.0 "
                        "(https://creativecommons.org/licenses/by/4.0/). The rules are restated in this reference's "
                        f"own words. Attribution: {ORC}")
