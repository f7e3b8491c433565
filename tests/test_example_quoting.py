"""Worked examples whose expected results are quoted ("9", "0.5", "true") mean what their authors meant, in check,
the engine's doctests and the JavaScript; W0710 where the formula leaves its type open."""

from __future__ import annotations

import doctest
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from rulesc.runtime.rulesc_runtime import Dice
from tests.backends import Built, built_case, run_js
from tests.run_case import run_rulesc
from tests.test_backends import _example_calls, _failures, _python_results

CASE = Path(__file__).resolve().parent / "cases" / "good" / "quoted-expectations"


@pytest.fixture(scope="module")
def quoted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "quoted-expectations") as found:
        yield found


def test_each_quoted_expectation_is_read_by_what_its_formula_returns(quoted: Built) -> None:
    _, program, _ = quoted
    expected = {formula.id: [example.expect for example in formula.examples] for formula in
                program.formulas.values()}
    assert expected == {"dice_count": [9, 9], "undeclared": [9], "half": [0.5, Fraction(1, 2)], "many": [True],
                        "label": ["9", "9"], "fixed_pool": [Dice((), 9)], "rolled": [9]}
    assert [type(value) for values in expected.values() for value in values] == [
        int, int, int, float, Fraction, bool, str, str, Dice, int]


def test_they_pass_in_the_engine_s_doctests_and_in_javascript(quoted: Built) -> None:
    root, program, module = quoted
    assert doctest.testmod(module).failed == 0
    calls = _example_calls((program,))
    assert len(calls) == 10
    js = run_js(root / "build/docs", [call for call, _ in calls])
    assert _failures(calls, _python_results(root / "build/engine", calls), js) == []


def test_a_quoted_number_without_a_declared_type_is_read_with_w0710() -> None:
    assert run_rulesc("--root", str(CASE), "check") == (0, "rulesc: ok: 1 system(s), 1 rules, 7 formulas, 10 examples "
                                                          "passed, 0 calculators, 1 warning(s)\n", (
        "content/quoted/examples.yaml:25:32: warning[W0710]: the expected result '9' is quoted: read as the number 9, "
        "as without the quotes\n  25 |           - {args: {}, expect: \"9\"}\n     |                                ^\n"
        "  = hint: write expect: 9 without quotes, or declare returns: text if the formula gives the words '9'\n"))


def test_a_quoted_number_the_formula_does_not_give_fails_naming_both(tmp_path: Path) -> None:
    root = tmp_path / "project"
    (root / "content").mkdir(parents=True)
    for file in (CASE / "content" / "quoted").iterdir():
        (root / "content" / "quoted").mkdir(exist_ok=True)
        text = file.read_text(encoding="utf-8")
        (root / "content" / "quoted" / file.name).write_text(text.replace('expect: "0.5"', 'expect: "0.25"'))
    status, _, err = run_rulesc("--root", str(root), "check")
    assert status == 1
    assert "content/quoted/examples.yaml:32:13: error[E0501]: example failed: half() gives 1/2 (~0.5), " \
        "expected 0.25\n" in err


def test_a_quoted_number_of_thousands_of_digits_is_an_error_not_a_crash(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(CASE / "content", root / "content")
    examples = root / "content" / "quoted" / "examples.yaml"
    examples.write_text(examples.read_text(encoding="utf-8").replace('expect: "0.5"', f'expect: "{"9" * 5000}"'))
    status, _, err = run_rulesc("--root", str(root), "check")
    assert status == 1 and f"content/quoted/examples.yaml:32:32: error[E0301]: '{'9' * 5000}' is not a dice pool\n" \
        in err and "internal error" not in err
