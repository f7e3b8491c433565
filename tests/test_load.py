"""Stage 1, load: YAML to data with the span of every key and value, and every way a file can be unreadable."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rulesc import load
from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.load import MAX_BYTES, MAX_DEPTH, Document, load_document
from rulesc.runtime.rulesc_runtime import MAX_INT
from tests.conftest import REPO


def read(tmp_path: Path, content: str | bytes) -> tuple[Document | None, list[tuple[str, str, int, int]]]:
    """Load `content` from a file; returns the document and (code, message, line, col) of each diagnostic."""
    file = tmp_path / "chapter.yaml"
    if isinstance(content, bytes):
        file.write_bytes(content)
    else:
        file.write_text(content, encoding="utf-8", newline="")
    diags = Diagnostics()
    doc = load_document(file, "chapter.yaml", diags)
    return doc, [(d.code, d.message, d.span.line, d.span.col) for d in diags.items if d.span]


def test_data_and_the_span_of_every_key_and_value(tmp_path: Path) -> None:
    doc, problems = read(tmp_path, "id: basics\nrules:\n  - id: a\n    tags: [x, 'y']\n")
    assert problems == [] and doc is not None
    assert doc.data == {"id": "basics", "rules": [{"id": "a", "tags": ["x", "y"]}]}
    assert doc.key_span(("rules",)) == Span("chapter.yaml", 2, 1)
    assert doc.span(("id",)) == Span("chapter.yaml", 1, 5)
    assert doc.span(("rules", 0)) == Span("chapter.yaml", 3, 5)
    assert doc.span(("rules", 0, "tags", 1)) == Span("chapter.yaml", 4, 15)
    assert sorted(doc.values, key=str) == sorted([(), ("id",), ("rules",), ("rules", 0), ("rules", 0, "id"),
                                                  ("rules", 0, "tags"), ("rules", 0, "tags", 0),
                                                  ("rules", 0, "tags", 1)], key=str)
    assert doc.span(("rules", 0, "missing")) == Span("chapter.yaml", 3, 5)


def test_plain_scalars_follow_the_yaml_1_2_core_schema(tmp_path: Path) -> None:
    doc, _ = read(tmp_path, "a: yes\nb: 0o17\nc: 0x1F\nd: -12\ne: 1.5\nf: ~\ng: True\nh: '1'\ni: 1d10+1d4\nj: 5-9\n"
                            "k: .inf\nl:\n")
    assert doc is not None
    assert doc.data == {"a": "yes", "b": 15, "c": 31, "d": -12, "e": 1.5, "f": None, "g": True, "h": "1",
                        "i": "1d10+1d4", "j": "5-9", "k": float("inf"), "l": None}


@pytest.mark.parametrize("content, line, col", [
    ("notes: " + "[" * 10_000 + "]" * 10_000, 1, 8 + (MAX_DEPTH - 1)),
    ("notes: " + "{a: " * 10_000 + "}" * 10_000, 1, 8 + 4 * (MAX_DEPTH - 1)),
    ("- " * 10_000 + "x", 1, 1 + 2 * MAX_DEPTH),
    ("".join(" " * i + "a:\n" for i in range(2_000)), MAX_DEPTH + 1, MAX_DEPTH + 1),
])
def test_deep_nesting_stops_at_the_level_that_is_too_deep(tmp_path: Path, content: str, line: int, col: int) -> None:
    doc, problems = read(tmp_path, content + "\n")
    assert doc is None
    assert problems == [("E0106", f"nesting deeper than {MAX_DEPTH} levels", line, col)]


@pytest.mark.parametrize("content, line, col", [
    ("a: x\nb: [1, {c: " + "[" * 5_000, 2, 11 + (MAX_DEPTH - 2)),  # mixed, unclosed: the scanner gives up first
    ("a:\n  - " + "{k: [" * 3_000, 2, 5 + 5 * 31),  # flow inside block: levels 1-2 are block
])
def test_nesting_is_reported_at_rulesc_s_limit_whichever_scanner_stops_first(
        tmp_path: Path, content: str, line: int, col: int) -> None:
    assert read(tmp_path, content)[1] == [("E0106", f"nesting deeper than {MAX_DEPTH} levels", line, col)]


def test_a_scanner_limit_below_rulesc_s_is_reported_at_the_scanner_s_place(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a libyaml refuse nesting below rulesc's limit, the text up to its stop holds no level too deep for
    rulesc, and E0106 is reported where the scanner stopped. Built by hand: which libyaml refuses what depends on
    the PyYAML release (6.0.2's has no limit of its own, 6.0.4's stops at 1,000 levels)."""
    monkeypatch.setattr(load, "MAX_DEPTH", 100_000)
    text = "a: " + "[" * 5_000
    stop = yaml.error.Mark("chapter.yaml", 1_003, 0, 1_003, text, 1_003)
    diags = Diagnostics()
    load._report_depth(Document("chapter.yaml", None), diags, text,
                       yaml.scanner.ScannerError("while increasing flow level", None,
                                                 "exceeded maximum nesting depth", stop))
    assert [(d.code, d.message, d.span) for d in diags.items] == [
        ("E0106", "nesting deeper than 100000 levels", Span("chapter.yaml", 1, 1_004))]


def test_nesting_up_to_the_limit_loads(tmp_path: Path) -> None:
    doc, problems = read(tmp_path, "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n")
    assert problems == [] and doc is not None


def test_an_alias_bomb_is_refused_at_its_first_anchor(tmp_path: Path) -> None:
    bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 30))
    doc, problems = read(tmp_path, bomb)
    assert doc is None
    assert problems == [("E0103", "YAML anchors are not allowed in content", 1, 5)]


def test_an_alias_without_an_anchor_is_refused(tmp_path: Path) -> None:
    assert read(tmp_path, "a: 1\nb: *a\n")[1] == [("E0103", "YAML aliases are not allowed in content", 2, 4)]


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    doc, problems = read(tmp_path, b"a: " + b"x" * MAX_BYTES + b"\n")
    assert doc is None
    assert problems == [("E0105", f"the file is {MAX_BYTES + 4} bytes; content files may be at most {MAX_BYTES} bytes",
                         1, 1)]


@pytest.mark.parametrize("content, expected", [
    (b"a: 1\nb: caf\xe9\n", ("E0102", "the file is not valid UTF-8 (byte 0xe9)", 2, 7)),
    (b"a: \xc3\xa9\xff\n", ("E0102", "the file is not valid UTF-8 (byte 0xff)", 1, 5)),
    ("a: 1\n".encode("utf-16"), ("E0102", "the file is UTF-16, not UTF-8", 1, 1)),
    ("a: x\x00y\n", ("E0108", "the file contains the control character U+0000, which YAML does not allow", 1, 5)),
    ("a: 1\nb: [\x1b[31m]\n",
     ("E0108", "the file contains the control character U+001B, which YAML does not allow", 2, 5)),
    ("", ("E0104", "the file is empty; expected a mapping of keys to values", 1, 1)),
    ("# only a comment\n\n", ("E0104", "the file is empty; expected a mapping of keys to values", 1, 1)),
    ("a: 1\n---\nb: 2\n", ("E0110", "the file holds more than one YAML document", 2, 1)),
    ("a: !!str 1\n", ("E0109", "YAML tags such as 'tag:yaml.org,2002:str' are not allowed in content", 1, 4)),
    ("? [a, b]\n: 1\n", ("E0111", "a mapping key must be plain text, not a list or mapping", 1, 3)),
    (f"a: {MAX_INT + 1}\n", ("E0112", f"the number {MAX_INT + 1} is outside the range rulesc computes with, "
                                      f"-{MAX_INT}..{MAX_INT}", 1, 4)),
    ("a: -" + "9" * 5000 + "\n", ("E0112", "the number -9999999999999999999... (5000 digits) is outside the range "
                                           f"rulesc computes with, -{MAX_INT}..{MAX_INT}", 1, 4)),
])
def test_unreadable_files(tmp_path: Path, content: str | bytes, expected: tuple[str, str, int, int]) -> None:
    doc, problems = read(tmp_path, content)
    assert doc is None
    assert problems == [expected]


def test_the_largest_whole_numbers_load(tmp_path: Path) -> None:
    doc, problems = read(tmp_path, f"a: {MAX_INT}\nb: -{MAX_INT}\n")
    assert problems == [] and doc is not None and doc.data == {"a": MAX_INT, "b": -MAX_INT}


def test_every_duplicate_key_is_reported(tmp_path: Path) -> None:
    doc, problems = read(tmp_path, "a: 1\nb: 2\na: 3\nc: {x: 1, x: 2}\n")
    assert doc is None
    assert problems == [("E0107", "duplicate key 'a' in a mapping", 3, 1),
                        ("E0107", "duplicate key 'x' in a mapping", 4, 11)]


def test_tabs_inside_text_and_comments_are_fine(tmp_path: Path) -> None:
    doc, problems = read(tmp_path, "a: \"x\ty\"\nb: |\n  one\ttwo\nc: 1  # a\tcomment\nd: p\tq\n")
    assert problems == [] and doc is not None
    assert doc.data == {"a": "x\ty", "b": "one\ttwo\n", "c": 1, "d": "p\tq"}


@pytest.mark.parametrize("content, line, col", [
    ("a: 1\nb:\t2\n", 2, 3),
    ("a:\n\t- 1\n", 2, 1),
    ("a: [1,\t2]\n", 1, 7),
    ("a: 1\nb: 2\n\tc: 3\n", 3, 1),
])
def test_tabs_where_yaml_needs_spaces(tmp_path: Path, content: str, line: int, col: int) -> None:
    doc, problems = read(tmp_path, content)
    assert doc is None
    assert problems == [("E0101", "YAML syntax error: a tab character where YAML expects spaces", line, col)]


@pytest.mark.parametrize("content, message, line, col", [
    ("title: [Basics\norder: 1\n", "expected ',' or ']', found ':'", 2, 6),
    ("a: {b: 1\n", "expected ',' or '}', found the end of the file", 2, 1),
    ("a: 1\nsummary: \"open\nb: 2\n", "this quote is never closed", 2, 10),
    ("a: 1\nname Doubling\nkind: general\n", "this line has no ':' after its key", 2, 1),
    ("title: Basics: the start\n", "a ': ' where no mapping can start", 1, 14),
    ("a:\n  - b\n  c: 1\n", "expected a '- ' list item, found 'c'", 3, 3),
    ("a: 'x' y\n", "expected a key, found 'y'", 1, 8),
    ("a: @x\n", "a value cannot start with '@'", 1, 4),
])
def test_syntax_errors_point_at_the_place_to_fix(tmp_path: Path, content: str, message: str, line: int,
                                                 col: int) -> None:
    doc, problems = read(tmp_path, content)
    assert doc is None
    assert problems == [("E0101", f"YAML syntax error: {message}", line, col)]


@pytest.mark.parametrize("file", sorted(REPO.glob("content/*/*.yaml")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_pure_python_parser_reads_content_exactly_as_libyaml(file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = load_document(file, file.name, Diagnostics())
    monkeypatch.setattr(load, "_LOADER", yaml.SafeLoader)
    slow = load_document(file, file.name, Diagnostics())
    assert fast is not None and slow is not None
    assert fast.data == slow.data and list(fast.values) == list(slow.values) and list(fast.keys) == list(slow.keys)
    assert [fast.span(p) for p in fast.values] == [slow.span(p) for p in slow.values]
    assert [fast.key_span(p) for p in fast.keys] == [slow.key_span(p) for p in slow.keys]
