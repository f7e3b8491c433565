"""Table keys: every form a range cell may take is read as the numbers it covers, anything else is an error at the
row, overlapping rows are an error, and the keys run alike in the interpreter, the Python engine and JavaScript."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesc.diagnostics.core import ContentError, Diagnostic
from rulesc.model import parse_range
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime.rulesc_runtime import MAX_INT
from tests.backends import agree, encode, import_engine, run_js

CASE = Path(__file__).resolve().parent / "cases" / "good" / "table-keys"

SYSTEM = """\
id: odd
title: Odd
summary: Tables keyed in awkward ways.
sources:
  - {id: src, file: src.txt, title: Source}
dice:
  summary: Roll a d6.
terms: []
"""


def chapter(rows: str, first: str = "range") -> str:
    """A chapter whose one rule has a table keyed by a `first` column, with `rows`, and a formula that looks it up."""
    return f"""\
id: table-rows
title: Tables
order: 1
summary: Tables.
rules:
  - id: bands
    name: Bands
    kind: table
    text: The bands.
    provenance: {{source: src, section: Bands}}
    table:
      name: bands
      columns:
        - {{key: k, label: Key, type: {first}}}
        - {{key: v, label: Value, type: int}}
      rows:
{rows}
    formulas:
      - id: band_of
        summary: The value of the band a number falls in.
        params:
          - {{name: n, type: int}}
        expr: lookup(bands, v, n)
"""


def problems(tmp_path: Path, rows: str, first: str = "range") -> list[Diagnostic]:
    """The errors `rulesc check` finds in the table with `rows`; [] when it is clean."""
    (tmp_path / "content/odd").mkdir(parents=True)
    (tmp_path / "content/odd/system.yaml").write_text(SYSTEM, encoding="utf-8")
    (tmp_path / "content/odd/tables.yaml").write_text(chapter(rows, first), encoding="utf-8")
    try:
        compile_project(Project(tmp_path))
    except ContentError as exc:
        return exc.diagnostics
    return []


def keys_of(tmp_path: Path, rows: str) -> tuple[tuple[int, int], ...]:
    (tmp_path / "content/odd").mkdir(parents=True)
    (tmp_path / "content/odd/system.yaml").write_text(SYSTEM, encoding="utf-8")
    (tmp_path / "content/odd/tables.yaml").write_text(chapter(rows), encoding="utf-8")
    return compile_project(Project(tmp_path)).programs[0].tables["bands"].keys


@pytest.mark.parametrize(("raw", "covers"), [
    (5, (5, 5)), (-5, (-5, -5)), (0, (0, 0)), ("5", (5, 5)), ("-5", (-5, -5)),
    ("1-4", (1, 4)), ("-5--1", (-5, -1)), ("-3-2", (-3, 2)), ("0-0", (0, 0)), ("5+", (5, MAX_INT)),
    ("-2+", (-2, MAX_INT)), (" 6 - 8 ", (6, 8)), ("9\u201311", (9, 11)), ("12 +", (12, MAX_INT)),
    (MAX_INT, (MAX_INT, MAX_INT)), (f"-{MAX_INT}-{MAX_INT}", (-MAX_INT, MAX_INT)),
])
def test_every_range_form_covers_the_numbers_it_says(raw: int | str, covers: tuple[int, int]) -> None:
    assert parse_range(raw) == (*covers, None)


@pytest.mark.parametrize(("raw", "problem"), [
    ("5-1", "it runs backwards; write 1-5"),
    ("-1--5", "it runs backwards; write -5--1"),
    ("five", "it is not a number, two numbers joined by '-', or a number followed by '+'"),
    ("1-", "it is not a number, two numbers joined by '-', or a number followed by '+'"),
    ("1..4", "it is not a number, two numbers joined by '-', or a number followed by '+'"),
    ("+5", "it is not a number, two numbers joined by '-', or a number followed by '+'"),
    ("5+-1", "it is not a number, two numbers joined by '-', or a number followed by '+'"),
    ("\u0665", "it is not a number, two numbers joined by '-', or a number followed by '+'"),  # an Arabic-Indic 5
    ("", "it is not a number, two numbers joined by '-', or a number followed by '+'"),
    (True, "true and false are not numbers"),
    (MAX_INT + 1, f"it is beyond {MAX_INT}"),
    (f"1-{MAX_INT + 1}", f"it reaches beyond {MAX_INT}, the largest whole number rulesc computes with"),
])
def test_anything_else_says_what_is_wrong_with_it(raw: int | str, problem: str) -> None:
    assert parse_range(raw) == (0, -1, problem)


def test_the_model_keeps_every_rows_keys_in_file_order(tmp_path: Path) -> None:
    rows = '        - {k: "5+", v: 3}\n        - {k: "-5--1", v: 1}\n        - {k: "0-4", v: 2}\n'
    assert keys_of(tmp_path, rows) == ((5, MAX_INT), (-5, -1), (0, 4))


def test_a_bad_range_is_an_error_at_its_cell_saying_what_was_expected(tmp_path: Path) -> None:
    rows = '        - {k: "1-4", v: 1}\n        - {k: "9-5", v: 2}\n        - {k: lots, v: 3}\n'
    found = problems(tmp_path, rows)
    assert [(d.code, d.span.line if d.span else 0, d.span.col if d.span else 0, d.message) for d in found] == [
        ("E0304", 18, 15, "expected a range of whole numbers, got '9-5': it runs backwards; write 5-9"),
        ("E0304", 19, 15, "expected a range of whole numbers, got 'lots': it is not a number, two numbers joined "
                          "by '-', or a number followed by '+'"),
    ]
    assert found[0].hint == "write a whole number (5), a range (1-4, -5--1) or a number and up (20+)"


def test_overlapping_rows_are_an_error_at_the_later_row(tmp_path: Path) -> None:
    rows = '        - {k: "10+", v: 1}\n        - {k: "1-4", v: 2}\n        - {k: "3-12", v: 3}\n'
    found = problems(tmp_path, rows)
    assert [(d.code, d.span.line if d.span else 0, d.message) for d in found] == [
        ("E0305", 19, "rows 1-4 and 3-12 of table 'bands' overlap at 3-4"),
        ("E0305", 19, "rows 10+ and 3-12 of table 'bands' overlap at 10-12"),
    ]
    assert found[0].hint == ("the other row is at content/odd/tables.yaml:18:15; a lookup must find one row for "
                             "each number")


def test_two_open_rows_overlap_from_the_higher_start_up(tmp_path: Path) -> None:
    found = problems(tmp_path, '        - {k: "5+", v: 1}\n        - {k: "7+", v: 2}\n')
    assert [d.message for d in found] == ["rows 5+ and 7+ of table 'bands' overlap at 7+"]


def test_a_repeated_whole_number_key_overlaps(tmp_path: Path) -> None:
    found = problems(tmp_path, "        - {k: 3, v: 1}\n        - {k: 3, v: 2}\n", first="int")
    assert [(d.code, d.message) for d in found] == [("E0305", "rows 3 and 3 of table 'bands' overlap at 3")]


def test_rows_that_only_touch_and_gaps_between_rows_are_fine(tmp_path: Path) -> None:
    rows = '        - {k: "-3--1", v: 1}\n        - {k: "0", v: 2}\n        - {k: "4-6", v: 3}\n'
    assert problems(tmp_path, rows) == []


def test_a_true_key_is_reported_once_at_its_cell(tmp_path: Path) -> None:
    found = problems(tmp_path, "        - {k: true, v: 1}\n        - {k: 2, v: 2}\n")
    assert [(d.code, d.message) for d in found] == [
        ("E0304", "expected a range of whole numbers, got true: true and false are not numbers")]


@pytest.fixture(scope="module")
def table_keys(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """tests/cases/good/table-keys built without the site; afterwards its engine leaves sys.path."""
    root = tmp_path_factory.mktemp("table-keys")
    shutil.copytree(CASE / "content", root / "content")
    build_project(Project(root), site=False)
    yield root
    sys.path.remove(str(root / "build/engine"))
    for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
        del sys.modules[name]


def test_every_key_form_runs_alike_in_the_interpreter_python_and_javascript(table_keys: Path) -> None:
    program = compile_project(Project(table_keys)).programs[0]
    frost = import_engine(table_keys / "build/engine", "frost")
    calls, expected = [], []
    for formula in program.formulas.values():
        types = {p.name: p.type for p in formula.params}
        for example in formula.examples:
            args = dict(example.args)
            calls.append({"system": "frost", "formula": formula.id, "args": args, "types": types,
                          "order": [p.name for p in formula.params]})
            ordered = [args[p.name] for p in formula.params]
            expected.append((encode(example.expect), encode(getattr(frost, formula.id)(*ordered)),
                             encode(program.call(formula.id, ordered))))
    results = run_js(table_keys / "build/docs", calls)
    assert len(results) == len(expected) == 16
    assert [c["args"] for c, r, (book, python, interpreted) in zip(calls, results, expected, strict=True)
            if not (agree(python, book) and agree(interpreted, book) and agree(r.get("value"), book))] == []


def test_below_the_lowest_row_every_backend_says_there_is_no_answer(table_keys: Path) -> None:
    frost = import_engine(table_keys / "build/engine", "frost")
    with pytest.raises(Exception, match="^-41 is not in the table$"):
        frost._chill_at(-41)  # the body, as other formulas call it; the public function checks the range first
    with pytest.raises(Exception, match=r"^chill_at\(degrees=-41\): degrees is a whole number from -40 to "):
        frost.chill_at(-41)
    result = run_js(table_keys / "build/docs", [{"system": "frost", "formula": "chill_at", "args": {"degrees": -41},
                                                 "types": {"degrees": "int"}, "order": ["degrees"]}])
    assert result == [{"error": "RulesError: -41 is not in the table"}]


def test_the_open_row_covers_the_largest_whole_number_in_javascript(table_keys: Path) -> None:
    calc = [{"system": "frost", "calculator": "chill-calculator", "types": {"degrees": "int", "wet": "bool"},
             "args": {"degrees": MAX_INT - 1, "wet": False}}]
    assert run_js(table_keys / "build/docs", calc) == [{"value": {"chill": -1, "frostbite": {"dice": "0"}}}]
