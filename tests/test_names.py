"""Names: one resolution rule for the interpreter and both backends, refusals at the definition, and hygienic
generated code, so that every name the schema accepts works in Python and in JavaScript.

tests/cases/good/host-names is a rulebook whose names are Python and JavaScript keywords, host built-ins, the
engine's own names (R, UPGRADES, check_upgrades, show, __all__, __proto__) and lets named like them; the
hypothesis test draws such names at random into a small rulebook of its own."""

from __future__ import annotations

import builtins
import doctest
import keyword
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulesc.analyze.program import Program
from rulesc.emit.engine import local_names, python_names
from rulesc.emit.scripts import RESERVED, js_formula
from rulesc.formula import names
from rulesc.formula.lexer import KEYWORDS
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime.rulesc_runtime import Dice
from tests.backends import agree, drop_engine, encode, import_engine, run_js
from tests.run_case import case_transcript
from tests.scripts import formulas_text

CASE = Path(__file__).resolve().parent / "cases" / "good" / "host-names"
NAME = re.compile(r"[a-z_][a-z0-9_]*")


@pytest.fixture(scope="module")
def host_names(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Program, ModuleType]]:
    root = tmp_path_factory.mktemp("host-names")
    shutil.copytree(CASE / "content", root / "content")
    build_project(Project(root), site=False)
    program = compile_project(Project(root)).programs[0]
    yield root, program, import_engine(root / "build/engine", program.system.module)
    drop_engine(root)


def test_a_formula_named_like_a_built_in_is_refused_and_any_other_name_is_not() -> None:
    assert names.refusal("p_tie", "formula") == "'p_tie' is a built-in function"
    assert names.refusal("in", "parameter") == "'in' is a word of the formula language"
    assert names.refusal("mean", "parameter") is None  # a value never meets the function mean(roll)
    assert names.refusal("lambda", "formula") is None


def test_plain_names_are_local_before_constant_and_calls_built_in_before_formula() -> None:
    assert names.resolve_name("n", {"n"}, {"n"}) == "local"
    assert names.resolve_name("n", set(), {"n"}) == "constant"
    assert names.resolve_name("n", set(), set()) is None
    assert names.resolve_call("mean") == "builtin" and names.resolve_call("lambda") == "formula"


def test_allocate_keeps_safe_names_and_never_gives_two_items_one_spelling() -> None:
    found = names.allocate([("a", "lambda"), ("b", "lambda_"), ("c", "x"), ("d", "x")], names.among({"lambda"}))
    assert found == {"a": "lambda__", "b": "lambda_", "c": "x", "d": "x_"}


def test_the_host_names_case_checks_clean() -> None:
    assert case_transcript(CASE) == (CASE / "expected.txt").read_text(encoding="utf-8")


def test_engine_spells_only_what_collides_and_says_so(host_names: tuple[Path, Program, ModuleType]) -> None:
    _, program, module = host_names
    spelled = python_names(program)
    assert spelled.formulas == {"lambda": "lambda_", "len": "len_", "show": "show", "int": "int_",
                                "check_upgrades": "check_upgrades_", "tie": "tie", "__all__": "__all___",
                                "__proto__": "__proto__"}
    assert spelled.constants["r"] == "R_" and spelled.constants["upgrades"] == "UPGRADES_"
    assert spelled.tables == {"dict": "DICT_", "r": "R__"}
    assert module.R.__name__.endswith("_runtime") and module.R_ == 3 and module.DICT == 4
    assert isinstance(module.__all__, list) and "lambda_" in module.__all__
    assert module.check_upgrades(["a-lambda-upgrade"]) == []
    assert "Python name: lambda_ (the formula 'lambda' of the content)" in module.lambda_.__doc__
    assert "Parameter 'class': passed as class_= or by position" in module.lambda_.__doc__


def test_keyword_parameters_are_passed_by_their_documented_names(
        host_names: tuple[Path, Program, ModuleType]) -> None:
    _, program, module = host_names
    assert module.lambda_(class_=1, function=2, var=3, this=4) == 6
    assert local_names(program, program.formulas["check_upgrades"]) == {"len": "len__", "lambda": "lambda_"}
    assert module.check_upgrades_(len__=2, lambda_=3) == 22
    assert module.int_(1, 2, 10, 4) == 18


def test_the_host_names_doctests_pass(host_names: tuple[Path, Program, ModuleType]) -> None:
    _, program, module = host_names
    result = doctest.testmod(module)
    assert result.failed == 0
    assert result.attempted == sum(len(f.examples) for f in program.formulas.values()) == 12


def examples(program: Program) -> list[tuple[str, dict[str, Any]]]:
    return [(f.id, dict(e.args)) for f in program.formulas.values() for e in f.examples]


def js_calls(program: Program, calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    def call(formula_id: str, args: dict[str, Any]) -> dict[str, Any]:
        formula = program.formulas[formula_id]
        given = {k: str(v) if isinstance(v, Dice) else v for k, v in args.items()}
        return {"system": program.system.id, "formula": js_formula(formula_id),
                "order": [p.name for p in formula.params], "types": {p.name: p.type for p in formula.params},
                "args": given}
    return [call(formula_id, args) for formula_id, args in calls]


def three_ways(root: Path, program: Program, module: ModuleType, calls: list[tuple[str, dict[str, Any]]]) -> None:
    """Each call through the interpreter, the engine (by position) and the JavaScript gives the same answer."""
    js = run_js(root / "build/docs", js_calls(program, calls))
    spelled = python_names(program).formulas
    for (formula_id, args), from_js in zip(calls, js, strict=True):
        order = [args[p.name] for p in program.formulas[formula_id].params]
        expected = encode(program.call(formula_id, order))
        engine_order = [module.parse_dice(str(v)) if isinstance(v, Dice) else v for v in order]  # its own Dice
        assert agree(encode(getattr(module, spelled[formula_id])(*engine_order)), expected), (formula_id, args)
        assert agree(from_js.get("value"), expected), (formula_id, args, from_js)


def test_host_names_agree_in_the_interpreter_python_and_javascript(
        host_names: tuple[Path, Program, ModuleType]) -> None:
    root, program, module = host_names
    three_ways(root, program, module, examples(program))


def test_the_host_names_calculator_runs_in_javascript(host_names: tuple[Path, Program, ModuleType]) -> None:
    root, program, _ = host_names
    inputs = {"v": 1, "this": 4, "__proto__": 2, "class": 1}
    found = run_js(root / "build/docs", [{"system": program.system.id, "calculator": "odd-calculator",
                                          "types": {k: "int" for k in inputs}, "args": inputs}])[0]
    expected = encode(program.calculate("odd-calculator", inputs))
    assert expected == {"var": 6, "lambda": 16, "r": 6, "tie": {"exact": "1/6"}}
    assert agree(found["value"], expected), found


def test_generated_javascript_has_no_prototype_on_its_name_tables(host_names: tuple[Path, Program, ModuleType]) -> None:
    root, _, _ = host_names
    script = formulas_text(root / "build/docs")
    assert "var C = Object.create(null), T = Object.create(null), F = Object.create(null);" in script
    assert "F.check_upgrades$ = function (len, lambda)" in script and "function$" in script


HOST = sorted({name for name in [*keyword.kwlist, *keyword.softkwlist, *dir(builtins), *RESERVED,
                                 "r", "c", "t", "f", "u", "v", "math", "final", "sequence", "annotations",
                                 "upgrades", "check_upgrades", "show", "parse_dice", "exact", "constructor",
                                 "__proto__", "__all__", "__name__", "__debug__", "to_string", "prototype",
                                 *names.BUILTIN_FUNCTIONS]
               if NAME.fullmatch(name) and name not in KEYWORDS})
"""Every lowercase name that means something to Python, JavaScript, the runtimes or the formula language."""
def plain_yaml_text(name: str) -> bool:
    """Whether YAML reads the bare name as text: `null`, `true` or `on` need quotes in any YAML file (written bare
    they are E0203 "expected text", rightly), and the drawn rulebook writes names bare."""
    return isinstance(yaml.safe_load(f"key: {name}")["key"], str)


DRAWN = st.sampled_from(HOST).flatmap(lambda name: st.sampled_from([name, name + "_", "l_" + name])).filter(
    plain_yaml_text)

RULEBOOK = """\
id: names
title: Names
order: 1
summary: Drawn names.
rules:
  - id: drawn
    name: Drawn
    kind: general
    text: A rule with the value {{{{{a}}}}}.
    provenance: {{source: src, section: Drawn}}
    values:
      {a}: 3
    table:
      name: {table}
      columns:
        - {{key: level, label: Level, type: range}}
        - {{key: bonus, label: Bonus, type: int}}
      rows:
        - {{level: "0-5", bonus: 1}}
        - {{level: "6-10", bonus: 2}}
    formulas:
      - id: {c}
        summary: Two parameters, a let, a value and a table.
        params:
          - {{name: {d}, type: int, min: 0, max: 10}}
          - {{name: {e}, type: int, min: 0, max: 10}}
        expr: let {g} = {d} + {a} in {g} * {e} + lookup({table}, bonus, {d})
        examples:
          - {{args: {{{d}: 2, {e}: 3}}, expect: 16}}
      - id: {h}
        summary: A parameter named like the formula it calls.
        params:
          - {{name: {c}, type: int, min: 0, max: 10}}
        expr: {c}({c}, {c}) + {a}
        examples:
          - {{args: {{{c}: 2}}, expect: 14}}
"""


def drawn_rulebook(root: Path, picked: list[str], same_table: bool) -> None:
    a, b, c, d, e, g, h = picked
    content = root / "content" / "drawn"
    content.mkdir(parents=True)
    system = (CASE / "content/odd-names/system.yaml").read_text(encoding="utf-8")
    (content / "system.yaml").write_text(system.replace("id: odd-names", "id: drawn"), encoding="utf-8")
    chapter = RULEBOOK.format(a=a, table=a if same_table else b, c=c, d=d, e=e, g=g, h=h)
    (content / "names.yaml").write_text(chapter, encoding="utf-8")


@pytest.mark.slow  # builds a drawn rulebook per example
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# Found by this test: the value `_` took `_`, so the table `_` became `__`, which the formula `__` then redefined.
@example(picked=["_", "b_", "__all__", "__all___", "__build_class__", "nil", "__"], same_table=True)
# And in CI: the value `__all__`, written {{__all__}} in the text, reached the page as "{{<strong>all</strong>}}".
@example(picked=["__all__", "_", "__", "l__", "__all___", "l___all__", "__build_class__"], same_table=False)
@given(picked=st.lists(DRAWN, min_size=7, max_size=7, unique=True).filter(
    lambda p: all(names.refusal(p[i], "formula") is None for i in (2, 6))), same_table=st.booleans())
def test_any_host_names_build_an_engine_that_agrees_with_the_interpreter(
        picked: list[str], same_table: bool, tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("drawn")
    drawn_rulebook(root, picked, same_table)
    assert case_transcript(root).startswith("exit: 0\n"), case_transcript(root)
    build_project(Project(root), site=False)
    program = compile_project(Project(root)).programs[0]
    try:
        module = import_engine(root / "build/engine", "drawn")
        result = doctest.testmod(module)
        assert (result.failed, result.attempted) == (0, 2)
        c, h = picked[2], picked[6]
        three_ways(root, program, module, [(c, {picked[3]: x, picked[4]: y}) for x, y in ((0, 0), (7, 10))]
                   + [(h, {c: x}) for x in (0, 6, 10)])
    finally:
        drop_engine(root)
