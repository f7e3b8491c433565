"""Diff, impact side: formula and calculator changes, the worked examples and defaults whose results change,
and the engine functions and pages they reach."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rulesc.analyze.lint import names_in
from rulesc.analyze.mismatch import brief, briefs
from rulesc.analyze.program import VALUE, Program, runtime_table, show
from rulesc.diff.examples import ExampleEdit, example_edits
from rulesc.emit.engine import python_names
from rulesc.emit.site.links import gm_calculator_page, rule_page, url_of
from rulesc.model import Calculator, Formula, Rule, default_of
from rulesc.runtime.rulesc_runtime import RulesError

NO_ANSWER = "no answer"


@dataclass(frozen=True)
class ResultChange:
    """One computed result that differs, e.g. subject "damage(level=12)", old "3", new "4"."""

    subject: str
    old: str
    new: str


@dataclass(frozen=True)
class FormulaChange:
    id: str
    rule: str  # the name of the rule it belongs to
    status: str  # added, removed, changed (its definition), affected (same definition, other results), examples
    expr: tuple[str, str] | None = None
    signature: tuple[str, str] | None = None
    results: tuple[ResultChange, ...] = ()
    examples: tuple[ExampleEdit, ...] = ()  # its worked examples as the author edited them


@dataclass(frozen=True)
class CalculatorChange:
    id: str
    title: str
    status: str  # added, removed, changed, affected
    results: tuple[ResultChange, ...] = ()


@dataclass(frozen=True)
class Impact:
    formulas: tuple[FormulaChange, ...] = ()
    calculators: tuple[CalculatorChange, ...] = ()
    engine: tuple[str, ...] = ()
    pages: tuple[str, ...] = ()
    breaking: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.formulas or self.calculators or self.engine or self.pages)


def assess(old: Program, new: Program) -> Impact:
    """What changed in the computations of a system, and everything that the change reaches."""
    touched = _touched_names(old, new)
    formulas = [_formula_change(old, new, fid, touched) for fid in _ids(old.formulas, new.formulas)]
    formulas_found = [f for f in formulas if f is not None]
    calculators = [_calculator_change(old, new, cid, touched) for cid in _ids(old.calculators, new.calculators)]
    calculators_found = [c for c in calculators if c is not None]
    function = _engine_functions(old, new)
    engine = tuple(function[f.id] for f in formulas_found)
    breaking = [f"engine function `{function[f.id]}` removed" for f in formulas_found if f.status == "removed"]
    breaking += [f"engine function `{function[f.id]}` now takes {f.signature[1]} (was {f.signature[0]})"
                 for f in formulas_found if f.signature and f.status == "changed"]
    pages = _pages(old, new, touched, formulas_found, calculators_found)
    return Impact(tuple(formulas_found), tuple(calculators_found), engine, pages, breaking)


def _engine_functions(old: Program, new: Program) -> dict[str, str]:
    """Each formula's function as the engine publishes it (a Python keyword gets a `_`), as of the revision that
    has it."""
    return {fid: f"rules_engine.{program.system.module}.{name}"
            for program in (old, new) for fid, name in python_names(program).formulas.items()}


def _ids(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return list(after) + [k for k in before if k not in after]


def _touched_names(old: Program, new: Program) -> set[str]:
    """Names whose meaning changed: values, tables, formulas (directly or through what they use)."""
    touched = {k for k in set(old.constants) | set(new.constants)
               if _differs(old.constants.get(k), new.constants.get(k))}
    touched |= {t for t in set(old.tables) | set(new.tables) if t not in old.tables or t not in new.tables
                or runtime_table(old.tables[t]) != runtime_table(new.tables[t])}
    touched |= {f for f in _ids(old.formulas, new.formulas) if _definition(old, f) != _definition(new, f)}
    while True:  # formulas that use a touched name are touched too
        more = {f for f, formula in new.formulas.items()
                if f not in touched and set(names_in(formula.expr.node)) & touched}
        if not more:
            return touched
        touched |= more


def _differs(a: Any, b: Any) -> bool:
    return a != b or type(a) is not type(b)


def _definition(program: Program, formula_id: str) -> tuple[str, str] | None:
    formula = program.formulas.get(formula_id)
    return None if formula is None else (" ".join(formula.expr.source.split()), _signature(program, formula))


def _signature(program: Program, formula: Formula) -> str:
    params = ", ".join(f"{p.name}: {p.type}" for p in formula.params)
    return f"({params}) -> {program.returns.get(formula.id, formula.returns or 'int')}"


def _formula_change(old: Program, new: Program, fid: str, touched: set[str]) -> FormulaChange | None:
    before, after = old.formulas.get(fid), new.formulas.get(fid)
    if before is None or after is None:
        some = after or before
        assert some is not None
        owner = (new if before is None else old).rules[some.rule].name
        return FormulaChange(fid, owner, "added" if before is None else "removed")
    edits = example_edits(before, after)
    if fid not in touched:
        return FormulaChange(fid, new.rules[after.rule].name, "examples", examples=edits) if edits else None
    expr = (_one_line(before.expr.source), _one_line(after.expr.source))
    signature = (_signature(old, before), _signature(new, after))
    status = "changed" if expr[0] != expr[1] or signature[0] != signature[1] else "affected"
    return FormulaChange(fid, new.rules[after.rule].name, status, expr if expr[0] != expr[1] else None,
                         signature if signature[0] != signature[1] else None, _example_results(old, new, before, after),
                         edits)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _example_results(old: Program, new: Program, before: Formula, after: Formula) -> tuple[ResultChange, ...]:
    """Every worked example of either revision whose result differs between them."""
    cases: list[tuple[tuple[str, Any], ...]] = []
    for example in (*before.examples, *after.examples):
        if example.args not in cases:
            cases.append(example.args)
    found = []
    for args in cases:
        a = _outcome(partial(_call, old, before, dict(args)))
        b = _outcome(partial(_call, new, after, dict(args)))
        if a is not None and b is not None and a[0] != b[0]:
            call = f"{after.id}({', '.join(f'{k}={brief(v)}' for k, v in args)})"
            found.append(ResultChange(call, *briefs(a[1], b[1])))
    return tuple(found)


def _call(program: Program, formula: Formula, args: dict[str, Any]) -> Any:
    if set(args) != {p.name for p in formula.params}:
        raise LookupError("the example does not fit this revision's parameters")
    return program.call(formula.id, [args[p.name] for p in formula.params])


def _outcome(compute: Callable[[], Any]) -> tuple[str, Any] | None:
    """A result as compared (shown whole, with its type, so 1 and true differ) and the result itself, NO_ANSWER for
    both, or None when it cannot be asked."""
    try:
        value = compute()
    except RulesError:
        return NO_ANSWER, NO_ANSWER
    except LookupError:
        return None
    return show(value), value


def _calculator_change(old: Program, new: Program, cid: str, touched: set[str]) -> CalculatorChange | None:
    before, after = old.calculators.get(cid), new.calculators.get(cid)
    if before is None or after is None:
        some = after or before
        assert some is not None
        return CalculatorChange(cid, some.title, "added" if before is None else "removed")
    defined_differently = _calc_definition(before) != _calc_definition(after)
    if not defined_differently and not (_calc_names(after) & touched):
        return None
    results = _default_results(old, new, before, after)
    status = "changed" if defined_differently else "affected"
    return CalculatorChange(cid, after.title, status, results) if results or defined_differently else None


def _calc_definition(calc: Calculator) -> tuple[Any, ...]:
    inputs = tuple((p.name, p.type, p.label, p.min, p.max, show(p.default) if p.default is not None else None,
                    p.options) for p in calc.inputs)
    return inputs, tuple((o.name, o.label, _one_line(o.expr.source), o.suffix) for o in calc.outputs), calc.title


def _calc_names(calc: Calculator) -> set[str]:
    return {name for output in calc.outputs for name in names_in(output.expr.node)}


def _default_results(old: Program, new: Program, before: Calculator, after: Calculator) -> tuple[ResultChange, ...]:
    """The outputs at the new revision's defaults that differ between the revisions."""
    defaults = {p.name: default_of(p) for p in after.inputs}
    if {p.name for p in before.inputs} != set(defaults):
        return ()
    a = _outputs(old, before.id, defaults)
    b = _outputs(new, after.id, defaults)
    call = f"{after.id}({', '.join(f'{k}={brief(v)}' for k, v in defaults.items())})"
    labels = {o.name: o.label for o in after.outputs}
    return tuple(ResultChange(f"{call} {labels[name]}", *briefs(a[name][1], b[name][1]))
                 for name in b if name in a and a[name][0] != b[name][0])


def _outputs(program: Program, calc_id: str, inputs: dict[str, Any]) -> dict[str, tuple[str, Any]]:
    """Each output at the inputs, as compared (shown whole) and itself; none when the calculator has no answer."""
    try:
        return {name: (show(value), value) for name, value in program.calculate(calc_id, inputs).items()}
    except RulesError:
        return {}


def rule_url(program: Program, rule: Rule) -> str:
    """The address of the page that holds the rule: its chapter's, or the part page of a split chapter."""
    return url_of(rule_page(program.system, rule))


def _pages(old: Program, new: Program, touched: set[str], formulas: list[FormulaChange],
           calculators: list[CalculatorChange]) -> tuple[str, ...]:
    """Pages that show a changed formula, calculator or value: the rule's page, and for a calculator the GM
    screen page (or part of it) that holds its copy."""
    pages: set[str] = set()
    for change in formulas:
        program = old if change.status == "removed" else new
        formula = program.formulas.get(change.id)
        if formula is not None:
            pages.add(rule_url(program, program.rules[formula.rule]))
    for calc_change in calculators:
        program = old if calc_change.status == "removed" else new
        calc = program.calculators.get(calc_change.id)
        if calc is not None:
            pages |= {rule_url(program, program.rules[calc.rule]),
                      url_of(gm_calculator_page(program.system, calc.id))}
    pages |= _pages_showing(new, touched)
    return tuple(sorted(pages))


def _pages_showing(program: Program, names: set[str]) -> set[str]:
    """The pages of the rules whose text shows one of `names` with {{name}}."""
    pages = set()
    for rule in program.system.rules():
        for text in rule.texts():
            if {m.group(1) for m in VALUE.finditer(text.source)} & names:
                pages.add(rule_url(program, rule))
    return pages


