"""An input's help in every output: the engine's Args sections (quoted so text never closes or runs a docstring) and
the JSON export (beside the calculator's field help the site shows)."""

from __future__ import annotations

import doctest
import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulesc.pipeline import Project, build_project
from tests.backends import built_engine, drop_engine, import_engine

CASE = Path(__file__).resolve().parent / "cases" / "good" / "input-help"
N_HELP = ('How many "words" in triple quotes """ and a back\\slash \\N\nover two lines; the next line of this help '
          'starts with a prompt, which stays plain text, as written in the book:\n>>> print("ran")')


@pytest.fixture(scope="module")
def helped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The input-help case built without its site."""
    root = tmp_path_factory.mktemp("helped")
    shutil.copytree(CASE / "content", root / "content")
    build_project(Project(root), site=False)
    return root


def test_the_args_section_quotes_each_help_and_runs_none_of_it(helped: Path) -> None:
    try:
        mini = import_engine(helped / "build/engine", "mini")
        assert mini.scaled.__doc__.split("\n\n")[2] == (
            '    Args:\n'
            '        n: How many "words" in triple quotes """ and a back\\slash \\N over two lines; the next\n'
            '            line of this help starts with a prompt, which stays plain text, as written in the book:\n'
            '            \\>>> print("ran")\n'
            '        class_: The class of the number (1 to 3).')
        result = doctest.testmod(mini)
        assert (result.failed, result.attempted) == (0, 1)
    finally:
        drop_engine(helped)


def test_a_function_without_help_has_no_args_section(tmp_path: Path) -> None:
    shutil.copytree(CASE / "content", tmp_path / "content")
    chapter = tmp_path / "content/mini/basics.yaml"
    text = chapter.read_text(encoding="utf-8")
    chapter.write_text(text[:text.index("            help: |-")] + text[text.index("          - {name: class"):]
                       .replace(", help: The class of the number (1 to 3).", ""), encoding="utf-8")
    with built_engine(tmp_path) as (_, _, mini):
        assert "Args:" not in mini.scaled.__doc__
        assert mini.scaled.__doc__.endswith("Parameter 'class': passed as class_= or by position\n\n"
                                            "    >>> scaled(n=3, class_=2, bonus=1)\n    7\n    ")


def test_text_with_nul_or_a_prompt_first_stays_in_the_docstring(tmp_path: Path) -> None:
    shutil.copytree(CASE / "content", tmp_path / "content")
    chapter = tmp_path / "content/mini/basics.yaml"
    chapter.write_text(chapter.read_text(encoding="utf-8").replace(
        "summary: A number times a factor, plus a bonus.", 'summary: ">>> print(\\"ran\\") then a NUL:\\0."'),
        encoding="utf-8")
    with built_engine(tmp_path) as (_, _, mini):
        assert mini.scaled.__doc__.startswith('\\>>> print("ran") then a NUL:\0.\n\n')
        result = doctest.testmod(mini)
        assert (result.failed, result.attempted) == (0, 1)


def test_the_export_carries_help_where_an_input_has_it(helped: Path) -> None:
    schema = json.loads((helped / "build/export/rulesc-export.schema.json").read_text(encoding="utf-8"))
    data = json.loads((helped / "build/export/mini.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
    rule = data["chapters"][0]["rules"][0]
    params = rule["formulas"][0]["params"]
    assert [p.get("help") for p in params] == [N_HELP, "The class of the number (1 to 3).", None]
    assert "help" not in params[2]
    inputs = rule["calculators"][0]["inputs"]
    assert [p.get("help") for p in inputs] == ["The number to scale,\nas typed.", None]
    assert "help" in schema["$defs"]["param"]["properties"]
