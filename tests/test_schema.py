"""The schema stage's fast path (jsonschema-rs) must pass exactly the documents jsonschema passes."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from rulesc.diagnostics.core import Diagnostics
from rulesc.load import Document, load_document
from rulesc.schema import SCHEMA_DIR, _fast_validators, _validators, fast_verdict

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "content").rglob("*.yaml"), *(ROOT / "tests/cases").rglob("content/**/*.yaml")])


def _loaded() -> list[tuple[str, str, Document]]:
    """(id, kind, document) of every file that loads: the schema stage never sees the loader's bad cases."""
    found = []
    for path in FILES:
        doc = load_document(path, path.name, Diagnostics())
        if doc is not None:
            kind = "system" if path.name == "system.yaml" else "chapter"
            found.append((path.relative_to(ROOT).as_posix(), kind, doc))
    return found


def load_document_text(text: str, tmp: Path) -> Document:
    (tmp / "basics.yaml").write_text(text, encoding="utf-8")
    doc = load_document(tmp / "basics.yaml", "basics.yaml", Diagnostics())
    assert doc is not None
    return doc


DOCUMENTS = _loaded()
MINIMAL = next(doc for name, _, doc in DOCUMENTS if name.endswith("good/minimal/content/mini/basics.yaml"))


def _fast(kind: str, data: object) -> bool:
    return bool(_fast_validators(str(SCHEMA_DIR))[kind].is_valid(data))


def _full(kind: str, data: object) -> bool:
    return not any(True for _ in _validators(str(SCHEMA_DIR))[kind].iter_errors(data))


@pytest.mark.parametrize(("kind", "doc"), [(k, d) for _, k, d in DOCUMENTS], ids=[i for i, _, _ in DOCUMENTS])
def test_fast_and_full_validators_agree(kind: str, doc: Document) -> None:
    assert fast_verdict(doc, kind) == _full(kind, doc.data)


def test_a_whole_number_written_with_a_point_is_left_to_jsonschema(tmp_path: Path) -> None:
    """jsonschema-rs counts 2.0 an integer, as JSON Schema says; rulesc's reading (jsonschema's, redefined) does
    not, so the fast verdict is not trusted for a document that holds one."""
    text = (ROOT / "tests/cases/good/minimal/content/mini/basics.yaml").read_text(encoding="utf-8")
    doc = load_document_text(text.replace("factor: 2", "factor: 2.0"), tmp_path)
    assert doc.whole_floats and _fast("chapter", doc.data)
    assert not fast_verdict(doc, "chapter") and not _full("chapter", doc.data)
    assert not load_document_text(text, tmp_path).whole_floats


def test_the_comparison_covers_documents_the_schema_rejects() -> None:
    rejected = [name for name, kind, doc in DOCUMENTS if not _full(kind, doc.data)]
    assert len(rejected) >= 10, rejected  # the schema stage's bad cases (E02xx) reach the comparison above


@pytest.mark.parametrize("value", ["1/2", "-3", " 1 / 2", "1\n", "1/2\n", "x", "1/", "\u00a01/2", "1\u30002"])
def test_the_validators_agree_on_pattern_edges(value: str) -> None:
    """Python's `$` also matches before a final newline and its `\\s` differs from ECMA's: where they part, the fast
    path must reject (and jsonschema then decides), never pass what jsonschema rejects."""
    chapter = copy.deepcopy(MINIMAL.data)
    chapter["rules"][0]["formulas"][0]["examples"][0]["expect"] = {"0": value}
    assert not _fast("chapter", chapter) or _full("chapter", chapter)


def test_the_edge_cases_start_from_a_valid_chapter() -> None:
    chapter = copy.deepcopy(MINIMAL.data)
    chapter["rules"][0]["formulas"][0]["examples"][0]["expect"] = {"0": "1/2"}
    assert _fast("chapter", chapter) and _full("chapter", chapter)
    chapter["rules"][0]["formulas"][0]["examples"][0]["expect"] = {"0": "x"}
    assert not _fast("chapter", chapter) and not _full("chapter", chapter)


@pytest.mark.parametrize("name", ["", " ", "\t\n", "\u00a0\u3000", "\x85", "\ufeff", "a", " a ", "a\x85"])
def test_the_validators_agree_on_blank_text(name: str) -> None:
    """Text that must say something asks for a character that is no space; the two regex dialects part on which
    characters are spaces (U+0085, U+FEFF; U+001C-001F too, which the loader refuses): the fast path may reject
    more, never pass what jsonschema rejects."""
    chapter = copy.deepcopy(MINIMAL.data)
    chapter["rules"][0]["name"] = name
    chapter["rules"][0]["formulas"][0]["params"][0]["label"] = name
    assert not _fast("chapter", chapter) or _full("chapter", chapter)
    assert _full("chapter", chapter) == bool(name.strip())
