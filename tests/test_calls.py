"""Call trees: each formula's calls in one evaluation, counted without recursion, and E0410 where one passes the
budget first."""

from __future__ import annotations

from rulesc.analyze.calls import MAX_CALLS, call_tree_sizes, check_call_trees
from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula.parser import parse_formula
from rulesc.model import Expr, Formula


def _formulas(**exprs: str) -> dict[str, Formula]:
    span = Span("c.yaml", 1, 1)
    return {name: Formula(name, "A formula.", (), None,
                          Expr(source, parse_formula(source, lambda offset: span), span), (), "r", span)
            for name, source in exprs.items()}


def test_each_call_counts_with_the_calls_it_makes() -> None:
    sizes = call_tree_sizes(_formulas(a="1", b="a() + a()", c="if b() > 1 then b() else a()", d="let x = c() in x"))
    assert sizes == {"a": 0, "b": 2, "c": 3 + 3 + 1, "d": 8}


def test_a_cycle_of_calls_is_counted_once_and_ends() -> None:
    assert call_tree_sizes(_formulas(a="b() + 1", b="a() + 1")) == {"a": 2, "b": 1}


def test_a_chain_of_thousands_of_formulas_needs_no_recursion() -> None:
    chain = {"f0": "1", **{f"f{i}": f"f{i - 1}() + 1" for i in range(1, 5000)}}
    assert call_tree_sizes(_formulas(**chain))["f4999"] == 4999


def test_the_error_is_where_the_budget_is_passed_first_only() -> None:
    chain = {"f0": "1", **{f"f{i}": f"f{i - 1}() + f{i - 1}()" for i in range(1, 30)}}
    diags = Diagnostics()
    check_call_trees(_formulas(**chain), diags)
    assert [d.message for d in diags.errors] == [
        f"formula 'f9' makes 1,022 formula calls in one evaluation, past the budget of {MAX_CALLS:,}: it calls 'f8' "
        "2 times, which makes 510 more each time"]
