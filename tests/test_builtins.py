"""The one table of built-in functions: every reader takes its names from it, and each row's runtime function is
exported by both runtimes under the contract's spelling."""

from __future__ import annotations

from fractions import Fraction

from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula import evaluate, names
from rulesc.formula.builtins import BUILTINS, ROWS
from rulesc.formula.check import Columns, Scope, check_types
from rulesc.formula.layout import flat
from rulesc.formula.parser import parse_formula
from rulesc.formula.to_js import expr_to_js
from rulesc.formula.to_python import expr_to_python
from rulesc.formula.types import Type
from rulesc.runtime import rulesc_runtime as R
from rulesc.runtime.contract import js_name
from tests.test_runtime_contract import js_exports


def test_the_names_are_the_table_s() -> None:
    assert {row.name for row in ROWS} == names.BUILTIN_FUNCTIONS and len(ROWS) == len(BUILTINS) == 29
    assert set(evaluate._BUILTINS) == names.BUILTIN_FUNCTIONS - {"lookup", "upgrade_problems", "upgrade_count"}


def test_every_runtime_function_of_the_table_is_exported_by_both_runtimes() -> None:
    called = {row.runtime for row in ROWS if row.runtime}
    assert called <= set(R.__all__)
    assert {js_name(name) for name in called} <= js_exports()
    assert {row.name for row in ROWS if not row.runtime} == {"abs", "upgrade_count"}  # the host's abs and length


def written(source: str, types: dict[str, str]) -> tuple[str, str]:
    """An expression's generated Python and JavaScript, its names typed as given."""
    parsed = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    scope = Scope(dict(types), {}, {}, lambda name, span: None)
    typed = check_types(parsed, scope, Diagnostics())
    assert typed is not None
    return flat(expr_to_python(typed, str)), flat(expr_to_js(typed, str))


def test_each_form_is_written_from_its_row() -> None:
    assert written("p_equal(d, 3)", {"d": "dist"}) == ("R.prob_eq(d, 3)", "R.probEq(d, 3)")
    assert written("highest(x, 2)", {"x": "dice"}) == ("R.keep_pool(x, 2, True)", "R.keep(x, 2, true)")
    assert written("lowest(x, 1)", {"x": "dice"}) == ("R.keep_pool(x, 1, False)", "R.keep(x, 1, false)")
    assert written("abs(k)", {"k": "int"}) == ("abs(k)", "Math.abs(k)")
    assert written("max(k, 2)", {"k": "int"}) == ("max(k, 2)", "Math.max(k, 2)")
    assert written("min(d, 2)", {"d": "dist"}) == ("R.dmin(d, 2)", "R.dmin(d, 2)")
    assert written("upgrade_count(u)", {"u": "upgrades"}) == ("len(u)", "(u).length")
    assert written("upgrade_problems(u)", {"u": "upgrades"}) == ("R.upgrade_problems(UPGRADES, u)",
                                                                "R.upgradeProblems(U, u)")
    assert written("count(x, 5, 6)", {"x": "dice"}) == ("R.count_faces(x, 5, 6)", "R.countFaces(x, 5, 6)")


def interpreted(source: str, values: dict[str, tuple[str, object]]) -> object:
    """An expression's value in the interpreter (what `rulesc check` and `rulesc calc` run), its names typed and
    valued as given."""
    parsed = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    scope = Scope({name: kind for name, (kind, _) in values.items()}, {}, {}, lambda name, span: None)
    typed = check_types(parsed, scope, Diagnostics())
    assert typed is not None
    return evaluate.evaluate(typed, {name: value for name, (_, value) in values.items()}, {},
                             lambda name, args: None)


def test_the_interpreter_runs_the_host_s_functions_and_the_runtime_s() -> None:
    """The interpreter's dispatch is built from the table when it is imported: abs is the host's, min and max pick on
    numbers and take the roll's side on a roll whichever argument it is, highest and lowest pass their flag."""
    k, d, x = ("int", -3), ("dist", R.as_dist(R.dice(1, 4))), ("dice", R.dice(3, 6))
    assert interpreted("abs(k)", {"k": k}) == 3
    assert interpreted("min(k, 2)", {"k": k}) == -3 and interpreted("max(k, 2)", {"k": k}) == 2
    assert interpreted("min(d, 2)", {"d": d}) == interpreted("min(2, d)", {"d": d}) == R.dmin(d[1], 2)
    assert interpreted("max(2, d)", {"d": d}) == R.dmax(d[1], 2) != R.dmax(d[1], d[1])
    assert interpreted("highest(x, 1)", {"x": x}) == R.keep_pool(x[1], 1, True)
    assert interpreted("lowest(x, 1)", {"x": x}) == R.keep_pool(x[1], 1, False) != R.keep_pool(x[1], 1, True)


def test_minus_a_roll_is_the_runtime_s_negation_and_minus_a_number_is_python_s() -> None:
    """-roll is a roll whose every result is negated, written as R.dneg() in both backends; -number stays '-'."""
    assert written("-(d + 1)", {"d": "dist"}) == ("R.dneg(R.dadd(d, 1))", "R.dneg(R.dadd(d, 1))")
    assert written("-k", {"k": "int"}) == ("(-k)", "(-k)")
    negated = eval(written("-(d + 1)", {"d": "dist"})[0], {"R": R, "d": R.as_dist(R.parse_dice("1d4"))})
    assert dict(negated.items()) == {-5: Fraction(1, 4), -4: Fraction(1, 4), -3: Fraction(1, 4), -2: Fraction(1, 4)}


def test_one_spelling_function_spells_every_name_but_a_let_s() -> None:
    """expr_to_python and expr_to_js take one function for every name instead of a Spelling: parameters, tables
    and formulas go through it, a let's name is written as it stands."""
    parsed = parse_formula("let step = lookup(tiers, bonus, rank) in step + bonus_of(step)",
                           lambda offset: Span("<test>", 1, offset + 1))
    scope = Scope({"rank": Type.INT}, {}, {"tiers": Columns({"bonus": Type.INT})},
                  lambda name, span: ((Type.INT,), Type.INT) if name == "bonus_of" else None)
    typed = check_types(parsed, scope, Diagnostics())
    assert typed is not None
    assert flat(expr_to_python(typed, str.upper)) == \
        "(lambda step: R.whole(step + BONUS_OF(step)))(R.lookup_int(TIERS, 'bonus', RANK))"
    assert flat(expr_to_js(typed, str.upper)) == \
        '(function (step) { return R.whole(step + BONUS_OF(step)); })(R.lookup(TIERS, "bonus", RANK))'


def test_exact_division_and_powers_are_the_runtime_s_in_both_backends() -> None:
    """'/' gives an exact fraction and '^' a power, each through its own runtime function: 2 / 3 and 2 ^ 3."""
    assert written("a / b", {"a": "int", "b": "int"}) == ("R.divide(a, b)", "R.divide(a, b)")
    assert written("a ^ b", {"a": "int", "b": "int"}) == ("R.power(a, b)", "R.power(a, b)")
    assert [eval(written(source, {"a": "int", "b": "int"})[0], {"R": R, "a": 2, "b": 3})
            for source in ("a / b", "a ^ b")] == [Fraction(2, 3), 8]
