"""Differential test (hypothesis): random well-typed rulebooks give the same answers, the same branches and the
same errors in the interpreter, the generated Python engine and the generated JavaScript, compared exactly.

The rulebooks (tests/differential.py) use every name that means something to Python, JavaScript, the runtimes or
the formula language; one in eight has a name the checker must refuse, and then the refusal must be a clean
diagnostic. The example count is fixed and the draws derandomized, so CI runs the same rulebooks every time; set
RULESC_FUZZ_EXAMPLES to try many more locally. A failure prints the rulebook's YAML and every call that differed;
`python -m tests.differential "max(3)" "if true then 5 else 1d6"` runs expressions the three ways by hand.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Iterator
from fractions import Fraction
from importlib.machinery import FileFinder, SourceFileLoader
from types import CodeType
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rulesc.formula import names
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime import rulesc_runtime as R
from tests.backends import NodeHarness, drop_engine, import_engine
from tests.differential import (
    CALCULATOR,
    HARNESS,
    Book,
    Call,
    arguments,
    calculator_run,
    canon,
    engine_run,
    interpreter_run,
    js_run,
    python_value,
    rulebook_yaml,
    rulebooks,
    write_project,
)
from tests.run_case import case_transcript

EXAMPLES = int(os.environ.get("RULESC_FUZZ_EXAMPLES", "75"))
SHRINK = os.environ.get("RULESC_FUZZ_SHRINK") == "1"
"""Shrinking a failure to a smaller rulebook can take minutes: CI reports the rulebook as found; set
RULESC_FUZZ_SHRINK=1 to shrink it."""
CALLS = 3
"""Calls of each formula, and of the calculator."""
DIAGNOSTIC = re.compile(r"content/fuzz/\w+\.yaml:\d+:\d+: error\[E\d{4}\]: ")


@pytest.fixture(scope="module")
def javascript() -> Iterator[NodeHarness]:
    """One Node process for every drawn rulebook."""
    with NodeHarness(HARNESS) as running:
        yield running


class CompiledOnce(SourceFileLoader):
    """Loads a drawn rulebook's engine as Python does, but compiles a source it compiled before only once: every
    engine carries the same runtime (_runtime.py, 2,800 lines), whose compiling was a third of the test's time."""

    def source_to_code(self, data: Any, path: Any, *, _optimize: int = -1) -> CodeType:  # type: ignore[override]
        return at_path(compiled(bytes(data)), str(path))


@functools.cache
def compiled(source: bytes) -> CodeType:
    return compile(source, "<engine>", "exec", dont_inherit=True)


def at_path(code: CodeType, path: str) -> CodeType:
    """The code, and each function's in it, named after the file it was read from (as its tracebacks show it)."""
    inner = tuple(at_path(c, path) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=path, co_consts=inner)


def engine_finder(path: str) -> FileFinder:
    """The finder of a built engine's folders (build/engine and its package), loading with CompiledOnce."""
    if not re.search(r"/build/engine(/rules_engine)?$", path):
        raise ImportError(path)
    return FileFinder(path, (CompiledOnce, [".py"]))


@pytest.fixture(scope="module", autouse=True)
def engines_compiled_once() -> Iterator[None]:
    sys.path_hooks.insert(0, engine_finder)
    yield
    sys.path_hooks.remove(engine_finder)


@pytest.mark.slow  # builds 75 drawn rulebooks
@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
          phases=[Phase.explicit, Phase.generate, *([Phase.shrink] if SHRINK else [])],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(book=rulebooks(), data=st.data())
def test_the_interpreter_the_engine_and_javascript_agree(book: Book, data: st.DataObject,
                                                         tmp_path_factory: pytest.TempPathFactory,
                                                         javascript: NodeHarness) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    write_project(root, book)
    transcript = case_transcript(root)
    if book.refused is not None:
        assert_clean_refusal(book, transcript)
        return
    errors = [line for line in transcript.splitlines() if DIAGNOSTIC.match(line)]
    if errors and all("error[E0505]" in line for line in errors):
        return  # a drawn calculator with no answer at its defaults: check refuses it cleanly, before any build
    assert transcript.startswith("exit: 0\n"), f"{transcript}\n{rulebook_yaml(book)}"
    try:
        build_project(Project(root), site=False)
    except Exception as exc:  # noqa: BLE001 - `rulesc build` would say "internal error: this is a bug in rulesc"
        pytest.fail(f"rulesc check passed, but rulesc build failed: {type(exc).__name__}: {exc}\n{rulebook_yaml(book)}")
    program = compile_project(Project(root)).programs[0]
    calls: list[Call] = [(f.id, data.draw(arguments(f.params))) for f in book.formulas for _ in range(CALLS)]
    module = import_engine(root / "build/engine", "fuzz")
    try:
        three = [(interpreter_run(program, call), engine_run(program, module, call)) for call in calls]
    finally:
        drop_engine(root)
    forms = [(CALCULATOR, data.draw(arguments(book.inputs))) for _ in range(CALLS if book.inputs else 0)]
    two = [(calculator_run(program, form[1]), None) for form in forms]
    js = js_run(root / "build/docs", program, calls + forms, javascript)
    differ = [(call, a, b, c) for call, (a, b), c in zip(calls + forms, three + two, js, strict=True)
              if not (a == c and b in (a, None)) or "crash" in a]  # a crash is a bug, even in all three
    assert not differ, report(book, differ)


def assert_clean_refusal(book: Book, transcript: str) -> None:
    """A rulebook with a refused name fails `rulesc check` with diagnostics, each at a file:line:col, no crash."""
    lines = transcript.splitlines()
    context = f"{transcript}\n{rulebook_yaml(book)}"
    assert lines[0] == "exit: 1", context
    assert DIAGNOSTIC.match(lines[1]), context
    assert "Traceback" not in transcript and "internal error" not in transcript, context
    assert book.refused in transcript, context


def report(book: Book, differ: list[tuple[Call, Any, Any, Any]]) -> str:
    """The rulebook and every call whose three answers are not all equal, for a reader to reproduce; a call of
    the calculator gives its inputs in order."""
    lines = ["The interpreter, the engine and JavaScript disagree.", "", rulebook_yaml(book)]
    for (formula, args), interpreted, engine, js in differ:
        lines += [f"{formula}{tuple(args)}:", f"  interpreter: {interpreted}",
                  f"  engine:      {'(no calculators)' if engine is None else engine}", f"  javascript:  {js}"]
    return "\n".join(lines)


def test_one_encoding_for_every_runtime_tells_apart_only_what_differs() -> None:
    """canon() gives equal encodings to equal answers from any runtime, and different ones to anything else."""
    assert canon("num", python_value(Fraction(1, 2))) == canon("num", {"exact": "1/2"}) == "1/2"
    assert canon("num", python_value(Fraction(2))) == canon("num", 2) == canon("num", {"exact": "2"}) == "2/1"
    assert canon("num", python_value(Fraction(1, 2))) != canon("num", 0.5)  # a float is not the exact half
    assert canon("num", 0.1 + 0.2) != canon("num", 0.3) and canon("num", 1.5) == 1.5
    assert canon("int", 1) != canon("int", True) and canon("bool", 1) == {"unexpected": 1}
    assert canon("int", 2.5) == {"unexpected": 2.5}
    roll = python_value(R.as_dist(R.parse_dice("1d2")))
    assert canon("dist", roll) == canon("dist", {"exact": {"1": "1/2", "2": "1/2"}}) == {1: "1/2", 2: "1/2"}
    assert canon("dist", {"dist": [[1, 0.5], [2, 0.5], [3, 0.0]]}) == {1: 0.5, 2: 0.5}
    assert canon("dist", 5) == {"unexpected": 5}  # a number where a roll was promised
    assert canon("dice", python_value(R.parse_dice("1d4+1d10"))) == canon("dice", {"exact": "1d10+1d4"})


def test_names_that_read_as_dice_notation_are_refused() -> None:
    """Found by the differential test: a table named d10kh1 was accepted, and lookup(d10kh1, ...) then read it as
    a roll; a value or parameter named d6 could never be used."""
    assert names.refusal("d6", "value") == "'d6' reads as dice notation in a formula"
    assert names.refusal("d10kh1", "table") is not None and names.refusal("d99999999999999999999", "value")
    assert names.refusal("d", "value") is None and names.refusal("d6_", "parameter") is None
    assert names.refusal("kh1", "value") is None
