"""The generated engine checks each argument of a public function (type and range) and raises its own ArgumentError
naming the function, the parameter as the author named it, what it takes and what it got; other formulas call the
unchecked body, as the interpreter does; the package exports the public helpers and its docstrings use only them.

The rulebook is tests/cases/good/engine-arguments: parameters named class, lambda's r (a range below zero), a flag, a
pool, one bound or none, options, upgrades, and formulas named lambda and parse_dice."""

from __future__ import annotations

import ast
import doctest
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
from rulesc.emit.engine import local_names, python_names
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime.rulesc_runtime import Dice, Dist
from tests.backends import import_engine

CASES = Path(__file__).resolve().parent / "cases" / "good"
PUBLIC = ["parse_dice", "Dice", "Dist", "mean", "sd", "p_at_least", "p_at_most", "p_equal", "show", "exact",
          "roll", "RulesError", "ArgumentError"]


def build_case(name: str, root: Path) -> Path:
    shutil.copytree(CASES / name / "content", root / "content")
    build_project(Project(root), site=False)
    return root / "build/engine"


def forget_engine(engine: Path) -> None:
    """Take an imported engine off sys.path and out of sys.modules, so that other tests import their own."""
    if str(engine) in sys.path:
        sys.path.remove(str(engine))
    for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ModuleType, ModuleType]]:
    """The engine-arguments rulebook's engine: its module guarded and the package, imported."""
    folder = build_case("engine-arguments", tmp_path_factory.mktemp("guarded"))
    module = import_engine(folder, "guarded")
    yield module, sys.modules["rules_engine"]
    forget_engine(folder)


@pytest.fixture
def guarded(engine: tuple[ModuleType, ModuleType]) -> ModuleType:
    return engine[0]


@pytest.fixture
def package(engine: tuple[ModuleType, ModuleType]) -> ModuleType:
    return engine[1]


REFUSED = [
    ("lunge(10)", "lunge(tier=10): tier is a whole number from 1 to 9, got 10"),
    ("lunge(0)", "lunge(tier=0): tier is a whole number from 1 to 9, got 0"),
    ("lunge(True)", "lunge(tier=True): tier is a whole number from 1 to 9, got True"),
    ("lunge('3')", "lunge(tier='3'): tier is a whole number from 1 to 9, got '3'"),
    ("lunge(3.0)", "lunge(tier=3.0): tier is a whole number from 1 to 9, got 3.0"),
    ("lambda_(3, -1, True, '1d6')", "lambda(class=3): class is one of 1 (Light), 2 (Heavy), got 3"),
    ("lambda_(class_=True, r=-1, braced=True, pool='1d6')",
     "lambda(class=True): class is one of 1 (Light), 2 (Heavy), got True"),
    ("lambda_(1, 0, True, '1d6')", "lambda(r=0): r is a whole number from -5 to -1, got 0"),
    ("lambda_(1, -6, True, '1d6')", "lambda(r=-6): r is a whole number from -5 to -1, got -6"),
    ("lambda_(1, -1, 1, '1d6')", "lambda(braced=1): braced is True or False, got 1"),
    ("lambda_(1, -1, 'yes', '1d6')", "lambda(braced='yes'): braced is True or False, got 'yes'"),
    ("lambda_(1, -1, True, '2x6')",
     "lambda(pool='2x6'): pool is a dice pool (a Dice, or text such as '1d10+1d4'), got '2x6'"),
    ("lambda_(1, -1, True, 6)", "lambda(pool=6): pool is a dice pool (a Dice, or text such as '1d10+1d4'), got 6"),
    ("lambda_(1, -1, True, '1000d100+1000d99')",
     "lambda(pool='1000d100+1000d99'): pool is a dice pool whose roll can be worked out exactly, got "
     "'1000d100+1000d99': a roll too large to work out exactly is refused: its answer would pass the roll budget of "
     "1073741824 bits (197001 outcomes of 13274 bits)"),
    ("lambda_(1, -1, True, '1001d6')", "lambda(pool='1001d6'): pool is a dice pool whose roll can be worked out "
                                       "exactly, got '1001d6': a roll of more than 1000 dice is refused (1001 asked)"),
    ("reach(1.5, 0, 0)", "reach(n=1.5): n is a whole number, got 1.5"),
    ("reach(False, 0, 0)", "reach(n=False): n is a whole number, got False"),
    ("reach(0, -1, 0)", "reach(floor=-1): floor is a whole number of at least 0, got -1"),
    ("reach(0, 0, 4)", "reach(cap=4): cap is a whole number of at most 3, got 4"),
    ("parse_dice('1d6', 31)", "parse_dice(target=31): target is a whole number from 1 to 30, got 31"),
    ("picked('steady')", "picked(chosen='steady'): chosen is a list of the system's upgrade ids, got 'steady'"),
    ("picked([1])", "picked(chosen=[1]): chosen is a list of the system's upgrade ids, got [1]"),
    ("picked(['steady', 'swift'])", "picked(chosen=['steady', 'swift']): chosen is a list of the system's upgrade "
                                    "ids, got ['steady', 'swift']: 'swift' is not one of them"),
]


@pytest.mark.parametrize(("call", "message"), REFUSED, ids=[call for call, _ in REFUSED])
def test_a_wrong_argument_raises_argument_error_naming_it(guarded: ModuleType, package: ModuleType, call: str,
                                                           message: str) -> None:
    with pytest.raises(package.ArgumentError) as caught:
        eval(call, vars(guarded))  # noqa: S307 - the calls above, in the engine module's namespace
    assert str(caught.value) == message
    assert isinstance(caught.value, package.RulesError) and isinstance(caught.value, ValueError)


def test_the_first_wrong_argument_in_order_is_reported(guarded: ModuleType) -> None:
    with pytest.raises(ValueError, match=re.escape("lambda(r=9): r is")):
        guarded.lambda_(1, 9, "no", "2x6")


def test_a_pool_may_be_given_as_text_and_answers_as_the_parsed_pool(guarded: ModuleType, package: ModuleType) -> None:
    as_text = guarded.lambda_(2, -3, True, "2d6")
    parsed = guarded.lambda_(2, -3, True, package.parse_dice("2d6"))
    assert as_text == parsed and str(as_text) == "2d6+2" and isinstance(as_text, package.Dice)
    assert guarded.lambda_(class_=1, r=-5, braced=False, pool=" 1d8 + 1d4 ") == package.parse_dice("1d8+1d4-5")
    assert guarded.parse_dice("1d6", 5) == Fraction(1, 3)
    assert guarded.lambda_(1, -2, False, "-") == package.parse_dice("-2")  # no dice, as parse_dice reads it


def test_valid_edge_arguments_pass(guarded: ModuleType) -> None:
    assert guarded.reach(-(2**51), 0, -(2**51)) == -(2**52) + 3  # no range: any whole number within MAX_INT
    with pytest.raises(Exception, match=r"reach\(n=1180591620717411303424\): n is a whole number within "
                                        r"\+/-9007199254740991, got 1180591620717411303424"):
        guarded.reach(2**70, 0, 0)
    with pytest.raises(Exception, match="a whole number went beyond 9007199254740991"):
        guarded.reach(-(2**52), 0, -(2**52))  # within range each, but their sum is not
    assert guarded.reach(0, 10**6, 3) == 10**6 + 6
    assert guarded.picked(["steady", "steady"]) == 2 and guarded.picked(()) == 0  # counting is check_upgrades' job
    assert str(guarded.lambda_(1, -1, True, "1d6")) == "1d6+1" and str(guarded.lambda_(2, -5, False, "1d6")) == "1d6-5"


def test_formulas_call_each_other_unchecked_as_the_interpreter_does(guarded: ModuleType, package: ModuleType,
                                                                   tmp_path: Path) -> None:
    """lunge() passes lambda an r of tier - 20, below lambda's range: the interpreter does not check calls
    between formulas (only the public entry and the worked examples are checked), so neither does the engine."""
    shutil.copytree(CASES / "engine-arguments/content", tmp_path / "content")
    program = compile_project(Project(tmp_path)).programs[0]
    for tier in range(1, 10):
        assert str(guarded.lunge(tier)) == str(program.call("lunge", [tier])) == f"1d6-{20 - tier}"
    with pytest.raises(package.ArgumentError):
        guarded.lambda_(1, -18, False, "1d6")  # the same call from outside is refused


def test_the_package_exports_the_public_helpers(guarded: ModuleType, package: ModuleType) -> None:
    assert package.__all__[:len(PUBLIC)] == PUBLIC and package.__all__[len(PUBLIC):] == ["guarded"]
    documented = re.findall(r"^(\w+)[(:]", package.__doc__, re.MULTILINE)
    assert documented == PUBLIC
    roll = guarded.spread("2d6")
    assert isinstance(roll, package.Dist) and isinstance(package.parse_dice("1d6"), package.Dice)
    assert package.mean(roll) == 6 and package.mean(package.parse_dice("1d6")) == Fraction(7, 2)
    assert package.sd(package.parse_dice("1d2")) == 0.5
    assert package.p_at_least(roll, 10) == Fraction(3, 36) and package.p_at_most(roll, 2) == Fraction(3, 36)
    assert package.p_equal(roll, 6) == Fraction(6, 36)
    assert package.exact(roll)[1] == "1/36" and package.exact(Fraction(2, 4)) == "1/2"
    assert issubclass(package.ArgumentError, package.RulesError)


def docstrings(source: str) -> Iterator[tuple[str, str]]:
    """Every docstring of a module (its own, its functions') with where it is."""
    tree = ast.parse(source)
    for node in [tree, *ast.walk(tree)]:
        if isinstance(node, (ast.Module, ast.FunctionDef)):
            doc = ast.get_docstring(node)
            if doc:
                yield getattr(node, "name", "module"), doc


def test_docstrings_never_mention_the_private_runtime(guarded: ModuleType, built: Path, tmp_path: Path) -> None:
    engines = [Path(guarded.__file__).parent.parent, build_case("host-names", tmp_path), built / "build/engine"]
    checked = 0
    for engine in engines:
        for source in (engine / "rules_engine").glob("*.py"):
            if source.name == "_runtime.py":
                continue
            for where, doc in docstrings(source.read_text(encoding="utf-8")):
                assert not re.search(r"\bR\.", doc), f"{source.name}: {where}"
                checked += 1
    assert checked > 150


def test_shadowed_helpers_are_called_through_the_package_and_the_doctests_pass(guarded: ModuleType) -> None:
    """The formula parse_dice takes the helper's name in the module: its examples call rules_engine.parse_dice,
    in the package and when the module runs as a file of its own beside the runtime."""
    examples = doctest.DocTestParser().get_examples(guarded.lambda_.__doc__)
    assert examples[0].source.startswith("show(lambda_(class_=2, r=-3, braced=True, pool=rules_engine.parse_dice(")
    assert doctest.testmod(guarded) == (0, 8)
    done = subprocess.run([sys.executable, "-m", "doctest", "-v", guarded.__file__], capture_output=True, text=True,
                          timeout=300, cwd=Path(guarded.__file__).parent.parent.parent)
    assert done.returncode == 0 and "8 passed and 0 failed." in done.stdout, done.stdout[-2000:]


def same(ours: Any, theirs: Any) -> bool:
    """The engine's answer and the interpreter's, exactly equal (the engine has its own copies of the classes)."""
    if type(ours).__name__ != type(theirs).__name__:
        return False
    if isinstance(theirs, Dist):
        return list(ours.items()) == list(theirs.items())
    return str(ours) == str(theirs) if isinstance(theirs, Dice) else bool(ours == theirs)


def run_examples(engine: Path, program: Program) -> int:
    """Call the engine's public function with every worked example (pools as text) and compare to the
    interpreter's answer; the number of calls made."""
    if str(engine) in sys.path:  # ahead of any other engine another test left on the path
        sys.path.remove(str(engine))
    module = import_engine(engine, program.system.module)
    calls = 0
    for formula in program.formulas.values():
        function = getattr(module, python_names(program).formulas[formula.id])
        local = local_names(program, formula)
        for example in formula.examples:
            args = dict(example.args)
            given = {local[p.name]: str(args[p.name]) if p.type == "dice" else args[p.name] for p in formula.params}
            expected = program.call(formula.id, [args[p.name] for p in formula.params])
            assert same(function(**given), expected), (formula.id, example.args)
            calls += 1
    return calls


def test_every_bundled_worked_example_passes_through_the_checked_engine(built: Path) -> None:
    programs = compile_project(Project(built)).programs
    try:
        calls = sum(run_examples(built / "build/engine", program) for program in programs)
    finally:
        forget_engine(built / "build/engine")
    assert calls == sum(len(f.examples) for p in programs for f in p.formulas.values()) and calls > 100
