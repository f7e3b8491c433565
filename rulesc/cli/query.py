"""`rulesc list` and `rulesc calc`: the ids of systems, rules, formulas, calculators and roll tables, and their
answers. The site's emitters (and their Markdown parser) are imported where an answer is shown in the site's
words, not when the command line is read: `rulesc check` never loads them."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import Any

from rulesc.analyze.mismatch import brief
from rulesc.analyze.program import Program, output_type
from rulesc.analyze.rolls import by_chance, result_records, result_text, roll_tables, table_titles
from rulesc.cli.answers import encode
from rulesc.cli.check import add_variant_option, with_variants
from rulesc.cli.dice import chart, named
from rulesc.cli.inputs import parse_input
from rulesc.cli.usage import UsageError
from rulesc.compile import Project, compile_project
from rulesc.diagnostics.core import did_you_mean
from rulesc.formula.table_rolls import percent
from rulesc.model import Calculator, Param, default_of
from rulesc.runtime import rulesc_runtime as R
from rulesc.runtime.rulesc_runtime import RulesError


def register(commands: Any) -> None:
    listing = commands.add_parser("list", help="list systems, rules, formulas, calculators and roll tables with "
                                  "their ids")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(run=run_list)
    calc = commands.add_parser("calc", help="evaluate a formula (system.formula) or calculator (system/calculator)")
    calc.add_argument("id", help="e.g. system.formula or system/calculator")
    calc.add_argument("assignments", nargs="*", metavar="name=value")
    calc.add_argument("--json", action="store_true",
                      help="print JSON: the inputs, each result's type and value (exact fractions beside floats)")
    add_variant_option(calc, "compute with a variant applied (several: applied in order)")
    calc.set_defaults(run=run_calc)


def run_list(project: Project, args: argparse.Namespace) -> int:
    programs = compile_project(project).programs
    listing = [_listing(p) for p in programs]
    if args.json:
        print(json.dumps(listing, indent=2))
        return 0
    for system in listing:
        print(f"{system['id']}: {system['title']}")
        print(f"  rules ({len(system['rules'])}):")
        for rule in system["rules"]:
            print(f"    {rule['id']:<40} {rule['kind']:<10} {rule['name']}")
        print(f"  formulas ({len(system['formulas'])}):")
        for formula in system["formulas"]:
            print(f"    {formula['id']}({', '.join(formula['params'])}) -> {formula['returns']}")
        print(f"  calculators ({len(system['calculators'])}):")
        for calc in system["calculators"]:
            print(f"    {calc['id']:<40} {calc['title']}")
        if system["roll_tables"]:
            print(f"  roll tables ({len(system['roll_tables'])}):")
        for table in system["roll_tables"]:
            print(f"    {table['id']:<40} {table['roll']}")
    return 0


def _listing(program: Program) -> dict[str, Any]:
    system = program.system
    return {
        "id": system.id, "title": system.title,
        "rules": [{"id": r.id, "kind": r.kind, "name": r.name} for r in system.rules()],
        "formulas": [{"id": f"{system.id}.{f.id}", "params": [p.name for p in f.params],
                      "returns": program.returns[f.id]} for f in program.formulas.values()],
        "calculators": [{"id": f"{system.id}/{c.id}", "title": c.title} for c in program.calculators.values()],
        "roll_tables": [{"id": f"{system.id}.{t.name}", "roll": t.roll.written} for t in roll_tables(program.tables)
                        if t.roll is not None],
    }


def run_calc(project: Project, args: argparse.Namespace) -> int:
    project = with_variants(project, args.variant) if args.variant else project
    programs = {p.system.id: p for p in compile_project(project).programs}
    given = _assignments(args.assignments)
    if "/" in args.id:
        return _calculator(programs, args.id, given, args.json)
    return _formula(programs, args.id, given, args.json)


def _assignments(items: list[str]) -> dict[str, str]:
    given: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UsageError(f"expected name=value, got {item!r}")
        given[name.strip()] = value.strip()
    return given


def _system_of(programs: dict[str, Program], system_id: str, full_id: str) -> Program:
    if system_id not in programs:
        raise UsageError(f"unknown system {system_id!r} in {full_id!r}" +
                         (f"; {did_you_mean(system_id, programs)}" if did_you_mean(system_id, programs) else ""))
    return programs[system_id]


def _formula(programs: dict[str, Program], full_id: str, given: dict[str, str], as_json: bool) -> int:
    system_id, _, formula_id = full_id.partition(".")
    program = _system_of(programs, system_id, full_id)
    formula = program.formulas.get(formula_id)
    if formula is None and formula_id in {t.name for t in roll_tables(program.tables)}:
        return _final_results(program, full_id, formula_id, given, as_json)
    if formula is None:
        raise UsageError(_unknown("formula", full_id, formula_id, program.formulas, "rulesc list"))
    _no_extra(given, formula.params, full_id)
    missing = [p.name for p in formula.params if p.name not in given]
    if missing:
        raise UsageError(f"{full_id} needs " + " ".join(f"{name}=..." for name in missing))
    values = {p.name: parse_input(full_id, p, given[p.name], program.upgrades) for p in formula.params}
    result = _answer(lambda: program.call(formula_id, [values[p.name] for p in formula.params]))
    if as_json:
        returns = program.returns[formula_id]
        print(json.dumps({"id": full_id, "inputs": _inputs(formula.params, values), "type": returns,
                          "result": encode(result, returns)}))
    else:
        print(shown(f"{full_id}({' '.join(f'{p.name}={given[p.name]}' for p in formula.params)})", result))
    return 0


def shown(title: str, result: Any) -> str:
    """A formula's answer for a terminal: a distribution or a roll of names as `rulesc dice` charts it, anything
    else as a failing example shows it (a fraction of hundreds of digits by its size; `--json` has it exact)."""
    if isinstance(result, R.Dist):
        return chart(title, result)
    if isinstance(result, R.Outcomes):
        return named(title, result)
    return brief(result)


def _final_results(program: Program, full_id: str, name: str, given: dict[str, str], as_json: bool) -> int:
    """A roll table's final results, every roll its rows lead to followed: each with its exact chance."""
    from rulesc.emit.site.markup import Markup

    if given:
        raise UsageError(f"{full_id} is a roll table; it takes no inputs")
    results = program.roll_results.get(name)
    if results is None:
        raise UsageError(f"no answer: the final results of {full_id} are not listed: with repeats allowed, a roll can "
                         "go on without a bound, or it has too many results; `rulesc roll` rolls it")
    plain, titles = Markup.of(program).plain, table_titles(program.system)
    if as_json:
        records = result_records(results, name, program.tables, titles, plain)
        print(json.dumps({"id": full_id, "inputs": {}, "type": "results", "result": [
            record | {"float": float(chance)} for record, chance in zip(records, results.values(), strict=True)]}))
        return 0
    rows = [(result_text(result, name, program.tables, titles, plain), str(chance), percent(chance))
            for result, chance in by_chance(results)]
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    for text, exact, shown in rows:
        print(f"{text:<{widths[0]}}  {exact:>{widths[1]}}  {shown:>6}")
    return 0


def calculator_answers(program: Program, full_id: str, calc_id: str,
                       given: dict[str, str]) -> tuple[Calculator, dict[str, Any], dict[str, Any]]:
    """The calculator `calc_id`, its inputs (given as name=value, else their defaults) and its results; a
    UsageError names an unknown calculator, an input it lacks or a value it refuses."""
    calc = program.calculators.get(calc_id)
    if calc is None:
        raise UsageError(_unknown("calculator", full_id, calc_id, program.calculators, "rulesc list"))
    _no_extra(given, calc.inputs, full_id)
    values = {p.name: parse_input(full_id, p, given[p.name], program.upgrades) if p.name in given
              else default_of(p) for p in calc.inputs}
    return calc, values, _answer(lambda: program.calculate(calc_id, values))


def _calculator(programs: dict[str, Program], full_id: str, given: dict[str, str], as_json: bool) -> int:
    system_id, _, calc_id = full_id.partition("/")
    program = _system_of(programs, system_id, full_id)
    calc, values, results = calculator_answers(program, full_id, calc_id, given)
    if as_json:
        types = {o.name: output_type(o) for o in calc.outputs}
        print(json.dumps({"id": full_id, "inputs": _inputs(calc.inputs, values), "types": types,
                          "outputs": {name: encode(results[name], types[name]) for name in types}}))
        return 0
    from rulesc.emit.site.calculators import show_output

    width = max(len(o.label) for o in calc.outputs)
    for output in calc.outputs:
        print(f"{output.label:<{width}}  {show_output(program, output, results)}")
    return 0


def _unknown(what: str, full_id: str, name: str, known: Iterable[str], command: str) -> str:
    hint = did_you_mean(name, known)
    return f"unknown {what} {full_id!r}" + (f"; {hint}" if hint else f"; `{command}` shows them")


def _no_extra(given: dict[str, str], params: tuple[Param, ...], full_id: str) -> None:
    names = [p.name for p in params]
    for name in given:
        if name not in names:
            raise UsageError(f"{full_id} has no input {name!r}; it takes {', '.join(names)}")


def _answer(compute: Any) -> Any:
    try:
        return compute()
    except RulesError as exc:
        raise UsageError(f"no answer: {exc}") from None


def _inputs(params: tuple[Param, ...], values: dict[str, Any]) -> dict[str, Any]:
    return {p.name: encode(values[p.name], p.type) for p in params}
