"""Generated code a reviewer can read in a diff: widths, one item a line, doctests in the book's terms.

The rules checked, on the bundled content and on tests/cases/good/long-names (long names, deep nesting):
- every line of every generated .py (the engine's modules and its runtime) is at most 100 columns, unless nothing
  on it can break: after its indentation and an optional `Label: ` there is no space (one over-long name);
- every line of each system's formulas/<id>.js is at most 120 columns, with no exception;
- __all__ (and the package's SYSTEMS) hold one name a line, tables one row a line, in Python and in JavaScript;
- each doctest prints its answer in the book's terms, which read back as exactly the content's expectation.
"""

from __future__ import annotations

import ast
import doctest
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.analyze.program import Program
from rulesc.formula.layout import STRING_PIECE, Group, concat, conditional, flat, infix, layout, string
from rulesc.formula.to_python import CHAINS, expr_to_python, py_call
from rulesc.model import Example, default_of
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime.rulesc_runtime import Dice, parse_dice
from tests.backends import agree, encode, import_engine, run_js
from tests.scripts import formulas_files, formulas_text

CASE = Path(__file__).resolve().parent / "cases" / "good" / "long-names"
PY_WIDTH, JS_WIDTH = 100, 120


def build_case(root: Path) -> Path:
    """tests/cases/good/long-names built (without the site) in a folder of its own."""
    shutil.copytree(CASE / "content", root / "content")
    build_project(Project(root), site=False)
    return root


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The long-names rulebook built; afterwards its engine leaves sys.path, so others import their own."""
    root = build_case(tmp_path_factory.mktemp("long-names"))
    yield root
    engine = str(root / "build/engine")
    if engine in sys.path:  # put there by the first test that loaded the engine, if one ran
        sys.path.remove(engine)
    for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
        del sys.modules[name]


@pytest.fixture(scope="module", params=[pytest.param("bundled", marks=pytest.mark.slow), "long-names"])  # built
def project(request: pytest.FixtureRequest) -> tuple[Path, tuple[Program, ...]]:
    """A built project and its compiled programs: the bundled content, then the long-names rulebook."""
    root = request.getfixturevalue("built" if request.param == "bundled" else "long_names")
    return root, compile_project(Project(root)).programs


def modules(root: Path) -> list[Path]:
    return sorted((root / "build/engine/rules_engine").glob("*.py"))


def unbreakable(line: str) -> bool:
    """Nothing to break at: after the indentation and an optional `Label: `, no space is left."""
    return " " not in re.sub(r"^\w+: ", "", line.strip())


def load_engine(root: Path, module_name: str) -> ModuleType:
    """rules_engine.<module_name> from the project's engine, which goes first on sys.path: two engines (the
    bundled and the long-names one) are both there, and each is a package named rules_engine."""
    folder = str(root / "build/engine")
    if folder in sys.path:
        sys.path.remove(folder)
    module: ModuleType = import_engine(root / "build/engine", module_name)
    return module


def system_module(root: Path, program: Program) -> ModuleType:
    return load_engine(root, program.system.module)


# ---- widths --------------------------------------------------------------------------------------------------


def test_every_python_line_is_within_100_columns(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, _ = project
    long = [(path.name, number, line) for path in modules(root)
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if len(line) > PY_WIDTH and not unbreakable(line)]
    assert long == []
    assert len(modules(root)) >= 3  # __init__, _runtime and at least one system


def test_every_formulas_js_line_is_within_120_columns(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, programs = project
    files = formulas_files(root / "build/docs")
    assert [path.stem for path in files] == sorted(program.system.id for program in programs)
    lines = [(path.name, number, len(line)) for path in files
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)]
    assert len(lines) > 50
    assert [line for line in lines if line[2] > JS_WIDTH] == []


def test_the_width_rule_catches_a_long_line() -> None:
    assert not unbreakable("    return (a_long_name + another_long_name)")
    assert not unbreakable("    Formula: a + b")
    assert unbreakable("    Permalink: https://example.org/" + "x" * 120)
    assert unbreakable("        " + "a" * 120 + ",")


# ---- one item a line -----------------------------------------------------------------------------------------


def one_per_line(node: ast.expr) -> bool:
    """A list or tuple written with each item on a line of its own, between its brackets' lines."""
    assert isinstance(node, (ast.List, ast.Tuple))
    lines = [item.lineno for item in node.elts]
    return (all(item.lineno == item.end_lineno for item in node.elts)
            and lines == list(range(node.lineno + 1, node.lineno + 1 + len(node.elts)))
            and node.end_lineno == node.lineno + len(node.elts) + 1)


def assigned(tree: ast.Module, name: str) -> ast.expr:
    """The value a module assigns to `name` at its top level (annotated or not)."""
    found = [node.value for node in tree.body
             if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == [name]
             or isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == name]
    assert len(found) == 1 and found[0] is not None, name
    return found[0]


def test_all_lists_one_name_a_line(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, programs = project
    package = ast.parse((root / "build/engine/rules_engine/__init__.py").read_text(encoding="utf-8"))
    assert one_per_line(assigned(package, "__all__")) and one_per_line(assigned(package, "SYSTEMS"))
    for program in programs:
        path = root / f"build/engine/rules_engine/{program.system.module}.py"
        names = assigned(ast.parse(path.read_text(encoding="utf-8")), "__all__")
        assert one_per_line(names), path
        assert len(names.elts) >= len(program.formulas)  # type: ignore[attr-defined]


def test_tables_are_written_one_row_a_line(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, programs = project
    assert any(program.tables for program in programs)
    for program in programs:
        tree = ast.parse((root / f"build/engine/rules_engine/{program.system.module}.py").read_text())
        module = system_module(root, program)
        for name, table in program.tables.items():
            call = assigned(tree, name.upper())
            assert isinstance(call, ast.Call)
            rows = call.args[1:]
            assert len(rows) == len(table.rows)
            assert [row.lineno for row in rows] == list(range(rows[0].lineno, rows[0].lineno + len(rows)))
            assert all(row.lineno == row.end_lineno for row in rows), name
            assert getattr(module, name.upper()).keys == table.keys


def test_formulas_js_tables_are_written_one_row_a_line(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, programs = project
    script = formulas_text(root / "build/docs")
    for program in programs:
        for name, table in program.tables.items():
            body = script.split(f"  T.{name} = R.table(\n", 1)[1].split("\n  );\n", 1)[0].splitlines()
            rows = [line for line in body if line.lstrip().startswith("[[")]
            assert len(rows) == len(table.rows), name
            keys = [json.loads(row.strip().rstrip(",").split("]", 1)[0] + "]]")[0] for row in rows]
            assert keys == [list(key) for key in table.keys]


# ---- doctests in the book's terms ----------------------------------------------------------------------------


def read_back(want: str, expected: Any) -> Any:
    """A doctest's output read back as the kind of value the content expects."""
    text = want.strip()
    if isinstance(expected, Dice):
        return parse_dice(text)
    if isinstance(expected, Fraction):
        return Fraction(text)
    if isinstance(expected, dict):
        shown = ast.literal_eval(text)
        assert all(isinstance(p, str) for p in shown.values()), text
        return {outcome: Fraction(p) for outcome, p in shown.items()}
    return ast.literal_eval(text)


def book(expected: Any) -> Any:
    """The content's expectation as read_back() reads a doctest: a roll without its impossible outcomes."""
    if isinstance(expected, dict):
        return {outcome: Fraction(p) for outcome, p in expected.items() if p}
    return expected


def shown_examples(root: Path, programs: tuple[Program, ...]) -> Iterator[tuple[Example, doctest.Example]]:
    """Each worked example of the content with the doctest the engine shows it as."""
    for program in programs:
        module = system_module(root, program)
        for formula in program.formulas.values():
            shown = doctest.DocTestParser().get_examples(getattr(module, formula.id).__doc__)
            assert len(shown) == len(formula.examples), formula.id
            yield from zip(formula.examples, shown, strict=True)


def test_doctests_show_exactly_what_the_book_says(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, programs = project
    checked = 0
    for example, doc in shown_examples(root, programs):
        value = read_back(doc.want, example.expect)
        assert value == book(example.expect) and type(value) is type(book(example.expect)), doc.source
        checked += 1
    assert checked >= 13


def test_rolls_fractions_and_pools_are_shown_in_the_books_terms(project: tuple[Path, tuple[Program, ...]]) -> None:
    wants: dict[type, str] = {type(example.expect): doc.want for example, doc in shown_examples(*project)}
    assert re.fullmatch(r"\{-?\d+: '\d+(/\d+)?',?(\n? -?\d+: '\d+(/\d+)?',?)*\}\n", wants[dict]), wants[dict]
    assert re.fullmatch(r"\d+(/\d+)?\n", wants[Fraction])
    assert re.fullmatch(r"(\d+d\d+\+?)*(-?\d+)?\n", wants[Dice]) and "Dice(" not in wants[Dice]


def test_every_modules_doctests_pass(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, programs = project
    for program in programs:
        result = doctest.testmod(system_module(root, program))
        assert result.failed == 0
        assert result.attempted == sum(len(f.examples) for f in program.formulas.values())


def test_python_m_doctest_runs_each_module_as_a_file(project: tuple[Path, tuple[Program, ...]],
                                                     tmp_path: Path) -> None:
    root, programs = project
    for program in programs:
        path = root / f"build/engine/rules_engine/{program.system.module}.py"
        done = subprocess.run([sys.executable, "-m", "doctest", "-v", str(path)], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
        examples = sum(len(f.examples) for f in program.formulas.values())
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert f"{examples} passed and 0 failed." in done.stdout


def called_names(source: str) -> set[str]:
    """The functions a doctest calls, as written: `show`, `R.show`, a formula's name, ..."""
    calls = [node.func for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)]
    return {ast.unparse(func) for func in calls}


def test_doctests_call_only_the_public_api(project: tuple[Path, tuple[Program, ...]]) -> None:
    root, programs = project
    for program in programs:
        module = system_module(root, program)
        package = sys.modules["rules_engine"]
        assert {"show", "exact", "parse_dice"} <= set(package.__all__)
        public = set(package.__all__) | set(module.__all__)
        for formula in program.formulas.values():
            for doc in doctest.DocTestParser().get_examples(getattr(module, formula.id).__doc__):
                assert called_names(doc.source) <= public, doc.source


def test_the_engine_shows_a_roll_as_exact_fractions(long_names: Path) -> None:
    sprawl = load_engine(long_names, "sprawl")
    package = sys.modules["rules_engine"]
    roll = sprawl.the_margin_an_overextended_attack_rolls_over_the_defenders_carefully_kept_guard(0, False, 5, 0)
    assert package.exact(roll) == {0: "5/6", 1: "1/15", 2: "1/20", 3: "1/30", 4: "1/60"}
    assert package.exact(package.parse_dice("1d10+1d4+2")) == "1d10+1d4+2"
    assert package.exact([Fraction(1, 3), 2]) == ["1/3", 2]


# ---- the wrapping keeps the code's meaning ---------------------------------------------------------------------


def test_wrapped_python_parses_exactly_as_its_one_line_form(project: tuple[Path, tuple[Program, ...]]) -> None:
    _, programs = project
    for program in programs:
        for formula in program.formulas.values():
            assert formula.expr.node is not None
            doc = expr_to_python(formula.expr.node, str.upper)
            narrow = "\n".join(layout(concat("x = ", doc), 30))
            assert ast.dump(ast.parse(narrow)) == ast.dump(ast.parse("x = " + flat(doc))), formula.id


def test_long_names_run_the_same_in_python_and_javascript(long_names: Path) -> None:
    programs = compile_project(Project(long_names)).programs
    sprawl = load_engine(long_names, "sprawl")
    calls, expected = [], []
    for program in programs:
        for formula in program.formulas.values():
            types = {p.name: p.type for p in formula.params}
            for example in formula.examples:
                args = {k: str(v) if types[k] == "dice" else v for k, v in example.args}
                calls.append({"system": program.system.id, "formula": formula.id, "args": args, "types": types,
                              "order": [p.name for p in formula.params]})
                python = getattr(sprawl, formula.id)(*(dict(example.args)[p.name] for p in formula.params))
                expected.append((encode(example.expect), encode(python)))
    results = run_js(long_names / "build/docs", calls)
    assert len(results) == len(expected) == 13
    assert [c["formula"] for c, r, (book_value, python) in zip(calls, results, expected, strict=True)
            if not (agree(python, book_value) and agree(r.get("value"), book_value))] == []


def test_long_names_calculator_runs_in_javascript(long_names: Path) -> None:
    program = compile_project(Project(long_names)).programs[0]
    calc = program.calculators["overextended-attack-calculator"]
    inputs = {p.name: default_of(p) for p in calc.inputs}
    types = {p.name: p.type for p in calc.inputs}
    result = run_js(long_names / "build/docs", [{"system": "sprawl", "calculator": calc.id, "types": types,
                                                 "args": inputs}])[0]
    assert agree(result["value"], encode(program.calculate(calc.id, inputs)))
    assert result["value"]["dice"] == 17


def test_two_builds_of_the_long_names_rulebook_are_byte_identical(long_names: Path, tmp_path: Path) -> None:
    again = build_case(tmp_path / "again")
    files = sorted(p.relative_to(long_names) for p in (long_names / "build").rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)
    assert len(files) > 10
    assert all((long_names / f).read_bytes() == (again / f).read_bytes() for f in files)


# ---- the layout printer ----------------------------------------------------------------------------------------


def test_a_group_stays_on_one_line_when_it_fits_and_breaks_outermost_first() -> None:
    doc = concat("return ", py_call("f", ["alpha", py_call("g", ["beta", "gamma"])]))
    assert layout(doc, 40) == ["return f(alpha, g(beta, gamma))"]
    assert layout(doc, 25) == ["return f(", "    alpha,", "    g(beta, gamma),", ")"]
    assert layout(doc, 40, column=20) == layout(doc, 20)


def test_what_follows_a_group_counts_against_its_line() -> None:
    doc = concat(Group("[", ("a", "b"), "]"), " + tail_of_nine")
    assert layout(doc, 21) == ["[a, b] + tail_of_nine"]
    assert layout(doc, 20) == ["[", "    a,", "    b", "] + tail_of_nine"]


def test_operator_chains_lose_only_parentheses_the_language_does_not_need() -> None:
    assert flat(infix("+", infix("-", "a", "b", CHAINS), "c", CHAINS)) == "(a - b + c)"
    assert flat(infix("-", "a", infix("+", "b", "c", CHAINS), CHAINS)) == "(a - (b + c))"
    assert flat(infix("*", infix("+", "a", "b", CHAINS), "c", CHAINS)) == "((a + b) * c)"
    compared = flat(infix("==", infix("==", "1", "2", CHAINS), "False", CHAINS))
    assert compared == "((1 == 2) == False)" and eval(compared) is True  # chained, 1 == 2 == False is False


def test_an_else_if_chain_is_flat_but_a_conditional_in_front_keeps_its_parentheses() -> None:
    words = ("if", "else")
    chain = conditional("1", "c", conditional("2", "d", "3", words), words)
    assert flat(chain) == "(1 if c else 2 if d else 3)"
    assert [eval(flat(chain), {"c": c, "d": d}) for c, d in ((1, 0), (0, 1), (0, 0))] == [1, 2, 3]
    assert flat(conditional(conditional("1", "c", "2", words), "d", "3", words)) == "((1 if c else 2) if d else 3)"
    assert layout(chain, 12) == ["(", "    1", "    if c", "    else 2", "    if d", "    else 3", ")"]


@pytest.mark.parametrize("text", ["word " * 40, "x" * 200, "\u2013\u00e9 " * 60, 'say "yes" \\ no + ' * 12])
def test_a_long_string_breaks_into_javascript_literals_that_join_back(text: str) -> None:
    doc = string(text, json.dumps, " +")
    assert isinstance(doc, Group) and flat(doc) == json.dumps(text)
    lines = layout(doc, 100)
    pieces = [line.strip().removesuffix(" +") for line in lines[1:-1]]
    assert len(pieces) > 1 and all(len(piece) <= STRING_PIECE for piece in pieces)
    assert [lines[0], lines[-1]] == ["(", ")"] and all(line.endswith(" +") for line in lines[1:-2])
    assert "".join(json.loads(piece) for piece in pieces) == text


@pytest.mark.parametrize("text", ["word " * 40, "x" * 200, "\u2013\u00e9 " * 60, "it's \"so\" \\ " * 12])
def test_a_long_string_breaks_into_python_literals_that_join_back(text: str) -> None:
    doc = string(text, repr, "")
    lines = layout(doc, 100)
    assert len(lines) > 3 and all(len(line.strip()) <= STRING_PIECE for line in lines)
    assert ast.literal_eval("\n".join(lines)) == text
