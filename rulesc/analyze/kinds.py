"""Stage 4, analyze: a rule's named outcomes against its formula's, and the formula its roll names."""

from __future__ import annotations

from rulesc.analyze.program import Program
from rulesc.diagnostics.core import Diagnostics, did_you_mean
from rulesc.formula import nodes
from rulesc.model import Formula, Rule


def check_kinds(program: Program, diags: Diagnostics) -> None:
    """E0615 for outcomes that do not match their formula's one to one, E0616 for a roll's unknown formula."""
    for rule in program.rules.values():
        for formula in _outcome_formulas(program, rule, diags) if rule.outcomes else ():
            _match_outcomes(program, rule, formula, diags)


def outcome_formula(program: Program, rule: Rule) -> Formula | None:
    """The formula that rolls the rule's outcomes (the first, if its own formulas have several); None without one."""
    named = rule.roll.formula if rule.roll is not None else None
    if named is not None:
        return program.formulas.get(named)
    return next((f for f in rule.formulas if program.returns.get(f.id) == "outcome"), None)


def _outcome_formulas(program: Program, rule: Rule, diags: Diagnostics) -> list[Formula]:
    """The formula the rule's roll names, else the rule's own formulas that return named outcomes."""
    named = rule.roll.formula if rule.roll is not None else None
    if named is None:
        return [f for f in rule.formulas if program.returns.get(f.id) == "outcome"]
    if named not in program.formulas:
        assert rule.roll is not None
        diags.error("E0616", f"roll names the formula '{named}', which the system does not have", rule.roll.span,
                    did_you_mean(named, program.formulas) or "name a formula that returns named outcomes")
        return []
    return [program.formulas[named]]


def _match_outcomes(program: Program, rule: Rule, formula: Formula, diags: Diagnostics) -> None:
    """Each outcome of the rule is a name the formula returns, and each name it returns is an outcome of the rule."""
    returned = result_names(program, formula.expr.node, set()) if formula.expr.node is not None else None
    if returned is None:
        return  # names the formula works out (from an input, say): nothing to hold the outcomes to
    given = [outcome.name for outcome in rule.outcomes]
    for outcome in rule.outcomes:
        if outcome.name not in returned:
            diags.error("E0615", f"outcome '{outcome.name}' is no name that formula '{formula.id}' returns "
                        f"({_listed(returned)})", outcome.span,
                        did_you_mean(outcome.name, returned) or "name each outcome as the formula returns it")
    for name in sorted(returned - set(given)):
        diags.error("E0615", f"formula '{formula.id}' returns '{name}', which rule '{rule.id}' has no outcome for",
                    formula.expr.span, f"give the rule an outcome named '{name}' with its text")


def _listed(names: set[str]) -> str:
    return ", ".join(f"'{name}'" for name in sorted(names))


def result_names(program: Program, node: nodes.Node | None, seen: set[str]) -> set[str] | None:
    """The names an expression may result in, following its branches, lets and calls of formulas; None when a
    result comes from anything else (an input, a table's column)."""
    if isinstance(node, nodes.Text):
        return {node.value}
    if isinstance(node, nodes.IfElse):
        then, other = result_names(program, node.then, seen), result_names(program, node.other, seen)
        return None if then is None or other is None else then | other
    if isinstance(node, nodes.Let):
        return result_names(program, node.body, seen)
    if isinstance(node, nodes.Call) and node.func in program.formulas and node.func not in seen:
        return result_names(program, program.formulas[node.func].expr.node, seen | {node.func})
    return None
