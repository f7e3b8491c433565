"""Values of the wrong type: a text value a formula uses is reported once, at the value, with what its use needs
and what the value is, and never again as an unknown name at its uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.analyze.values import text_uses
from rulesc.diagnostics.core import ContentError, Diagnostic, Span
from rulesc.formula.parser import parse_formula
from rulesc.pipeline import Project, compile_project

SYSTEM = """\
id: odd
title: Odd
summary: Values in awkward forms.
sources:
  - {id: src, file: src.txt, title: Source}
dice:
  summary: Roll a d6.
terms: []
"""


def uses(source: str, text_values: tuple[str, ...] = ("txt",), bound: tuple[str, ...] = (),
         need: str | None = None) -> dict[str, str | None]:
    node = parse_formula(source, lambda offset: Span("f.yaml", 1, offset + 1))
    signatures = {"helper": ("dice", "bool")}
    return text_uses(node, text_values, bound, need, signatures.get)


@pytest.mark.parametrize(("source", "need"), [
    ("txt + 1", "int"), ("1 - txt", "int"), ("-txt", "int"), ("txt < 3", "int"), ("txt d6", "int"),
    ("2 d txt", "int"), ("not txt", "bool"), ("txt and true", "bool"), ("if txt then 1 else 2", "bool"),
    ("max(1, txt)", "int"), ("lookup(t, c, txt)", "int"), ("step(txt, 1)", "dice"), ("p_at_least(txt, 3)", "dist"),
    ("mean(roll(txt))", "dist"), ("helper(1d6, txt)", "bool"), ("helper(txt, true)", "dice"),
    ("(if true then txt else 1) + 2", "int"), ("let x = 2 in x * txt", "int"),
])
def test_each_use_says_what_it_needs(source: str, need: str) -> None:
    assert uses(source) == {"txt": need}


def test_a_use_that_does_not_say_takes_the_whole_expressions_need() -> None:
    assert uses("txt") == {"txt": None}
    assert uses("txt", need="bool") == {"txt": "bool"}
    assert uses("if true then txt else 0", need="dice") == {"txt": "dice"}
    assert uses("let x = txt in x + 1") == {"txt": None}
    assert uses("helper(txt)") == {"txt": None}  # the wrong number of arguments says nothing about the value
    assert uses("unknown(txt)") == {"txt": None}


def test_the_first_use_that_says_wins_and_bound_names_are_no_uses() -> None:
    assert uses("let y = txt in not txt") == {"txt": "bool"}
    assert uses("txt + 1", bound=("txt",)) == {}
    assert uses("let txt = 2 in txt + 1") == {}
    assert uses("other + txt", text_values=("txt", "other")) == {"other": "int", "txt": "int"}
    assert uses("lookup(txt, txt, 1)") == {}  # a lookup's table and column are names of a table, not values


def chapter(values: str, formulas: str, calculators: str = "") -> str:
    return f"""\
id: values
title: Values
order: 1
summary: Values.
rules:
  - id: holder
    name: Holder
    kind: general
    text: Holds values.
    provenance: {{source: src, section: Holder}}
    values:
{values}
    formulas:
{formulas}
{calculators}"""


def problems(tmp_path: Path, values: str, formulas: str, calculators: str = "") -> list[Diagnostic]:
    (tmp_path / "content/odd").mkdir(parents=True)
    (tmp_path / "content/odd/system.yaml").write_text(SYSTEM, encoding="utf-8")
    (tmp_path / "content/odd/values.yaml").write_text(chapter(values, formulas, calculators), encoding="utf-8")
    try:
        compile_project(Project(tmp_path))
    except ContentError as exc:
        return exc.diagnostics
    return []


def formula(name: str, expr: str, params: str = "[]", returns: str = "") -> str:
    return (f"      - id: {name}\n        summary: A formula.\n        params: {params}\n"
            + (f"        returns: {returns}\n" if returns else "") + f"        expr: \"{expr}\"\n")


def shown(found: list[Diagnostic]) -> list[tuple[str, int, int, str, str | None]]:
    return [(d.code, d.span.line if d.span else 0, d.span.col if d.span else 0, d.message, d.hint) for d in found]


def test_a_text_value_is_reported_once_at_the_value_and_not_as_an_unknown_name(tmp_path: Path) -> None:
    found = problems(tmp_path, "      bonus: two\n      ok: 1\n",
                     formula("first", "bonus + ok") + formula("second", "bonus * 2") + formula("third", "bonus"))
    assert shown(found) == [("E0407", 12, 14, "value 'bonus' is text ('two'), but formula 'first' uses it as a "
                             "whole number", "write a whole number; text can only be shown in rule text, with "
                             "{{bonus}}")]


def test_the_use_goes_on_as_what_it_needs_so_callers_see_no_second_error(tmp_path: Path) -> None:
    found = problems(tmp_path, "      pool: lots\n",
                     formula("bigger", "step(pool, 1)", returns="dice")
                     + formula("caller", "step(bigger(), 2)", returns="dice"))
    assert [(d.code, d.message) for d in found] == [
        ("E0407", "value 'pool' is text ('lots'), but formula 'bigger' uses it as a dice pool like 1d10+1d4")]


def test_a_declared_return_type_says_what_a_bare_use_needs(tmp_path: Path) -> None:
    found = problems(tmp_path, "      brave: very\n", formula("is_brave", "brave", returns="bool"))
    assert [d.message for d in found] == ["value 'brave' is text ('very'), but formula 'is_brave' uses it as true "
                                          "or false"]


def test_a_calculator_output_that_uses_a_text_value_is_reported_at_the_value(tmp_path: Path) -> None:
    calculators = ("    calculators:\n      - id: calc\n        title: Calc\n        inputs:\n"
                   "          - {name: x, type: int, default: 1}\n        outputs:\n"
                   "          - {name: y, label: Y, expr: label_text}\n")
    found = problems(tmp_path, "      label_text: a long way\n", formula("f", "1"), calculators)
    assert shown(found) == [("E0407", 12, 19, "value 'label_text' is text ('a long way'), but calculator 'calc' "
                             "computes with it", "formulas compute with whole numbers, true or false, and dice pools "
                             "like 1d10+1d4; text can only be shown in rule text, with {{label_text}}")]


def test_a_parameter_with_the_name_of_a_text_value_is_the_parameter(tmp_path: Path) -> None:
    found = problems(tmp_path, "      n: words\n", formula("f", "n + 1", params="[{name: n, type: int}]"))
    assert found == []


def test_text_values_no_formula_uses_are_fine_and_other_errors_still_show(tmp_path: Path) -> None:
    assert problems(tmp_path / "a", "      note: just words\n      pool: 2d6\n", formula("f", "pool")) == []
    found = problems(tmp_path / "b", "      word: yes please\n", formula("f", "word + missing"))
    assert [d.code for d in found] == ["E0407", "E0402"]
    assert found[1].message == "unknown name 'missing'"
