"""Analyze, call trees: how many formula calls one evaluation of a formula makes, against a budget (E0410).

The generated Python and JavaScript call a formula each time its name is written, as a reader of the code
expects; a formula that calls another three times, which calls another three times, and so on, makes 3^n calls.
Thirty such formulas checked in seconds (the interpreter caches answers) but never answered in the engine or the
page. Rather than give both backends a cache keyed by their arguments (dice pools, rolls and upgrade sets as keys,
the same in both languages), check refuses the tree where it passes the budget: the fix, a `let`, is one line.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesc.diagnostics.core import Diagnostics
from rulesc.formula import nodes
from rulesc.model import Formula

MAX_CALLS = 1_000  # formula calls in one evaluation; the bundled content makes at most a dozen


def check_call_trees(formulas: Mapping[str, Formula], diags: Diagnostics) -> None:
    """E0410 at each formula whose call tree passes the budget while every formula it calls stays within it: the
    one place to fix (the formulas calling it pass the budget only through it)."""
    sizes = call_tree_sizes(formulas)
    for formula in formulas.values():
        size, callees = sizes[formula.id], _calls(formula, formulas)
        if size > MAX_CALLS and all(sizes[callee] <= MAX_CALLS for callee in callees):
            heaviest = max(set(callees), key=lambda name: (sizes[name] + 1) * callees.count(name))
            diags.error("E0410", f"formula '{formula.id}' makes {size:,} formula calls in one evaluation, past "
                        f"the budget of {MAX_CALLS:,}: it calls '{heaviest}' {callees.count(heaviest)} times, "
                        f"which makes {sizes[heaviest]:,} more each time", formula.expr.span,
                        f"compute each call once with let, e.g. let x = {heaviest}(...) in x + x; the engine and "
                        "the calculators call a formula every time it is written")


def call_tree_sizes(formulas: Mapping[str, Formula]) -> dict[str, int]:
    """Each formula's calls of formulas in one evaluation, at most (both branches of an if are counted), the calls
    its callees make included; a formula in a cycle of calls (E0405) counts its calls of the cycle once."""
    sizes: dict[str, int] = {}
    for start in (name for name in formulas if name not in sizes):
        stack, open_ = [start], {start}  # depth-first without recursion: a chain of calls may be long
        while stack:
            name = stack[-1]
            pending = [c for c in _calls(formulas[name], formulas) if c not in sizes and c not in open_]
            if pending:
                stack.extend(dict.fromkeys(pending))
                open_.update(pending)
                continue
            stack.pop()
            open_.discard(name)
            sizes[name] = sum(1 + sizes.get(callee, 0) for callee in _calls(formulas[name], formulas))
    return sizes


def _calls(formula: Formula, formulas: Mapping[str, Formula]) -> list[str]:
    """The formulas a formula's expression calls, once per call written."""
    if formula.expr.node is None:
        return []
    return [node.func for node in nodes.walk(formula.expr.node) if isinstance(node, nodes.Call)
            and node.func in formulas]
