"""`rulesc roll`: roll a roll table (system.table, chains followed), a formula (system.formula) or a calculator
(system/calculator) from the terminal, by the runtimes' one sampler, so a seed repeats the rolls anywhere."""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from rulesc.analyze.program import Program, show
from rulesc.analyze.rolls import runtime_book
from rulesc.cli.answers import encode
from rulesc.cli.check import add_variant_option, with_variants
from rulesc.cli.inputs import parse_input
from rulesc.cli.query import _answer, _assignments, _inputs, _no_extra, _system_of, _unknown, calculator_answers
from rulesc.cli.usage import UsageError
from rulesc.compile import Project, compile_project
from rulesc.runtime import rulesc_runtime as R

MAX_TIMES = 1_000_000


def register(commands: Any) -> None:
    roll = commands.add_parser("roll", help="roll a roll table (system.table), a formula (system.formula) or a "
                               "calculator (system/calculator)")
    roll.add_argument("id", help="e.g. system.table, system.formula or system/calculator")
    roll.add_argument("assignments", nargs="*", metavar="name=value")
    roll.add_argument("--times", type=int, default=1, help="how many rolls (1 by default)")
    roll.add_argument("--seed", type=int, help="a whole number: the same seed gives the same rolls, here, in the "
                      "engine (random.Random(seed)) and in JavaScript")
    roll.add_argument("--json", action="store_true", help='print JSON: {"id", "inputs", "rolls": [...]}')
    add_variant_option(roll, "roll with a variant applied (several: applied in order)")
    roll.set_defaults(run=run_roll)


def run_roll(project: Project, args: argparse.Namespace) -> int:
    if not 1 <= args.times <= MAX_TIMES:
        raise UsageError(f"--times takes a whole number from 1 to {MAX_TIMES}, got {args.times}")
    rng: R.RandomBits = random.SystemRandom() if args.seed is None else random.Random(args.seed)
    project = with_variants(project, args.variant) if args.variant else project
    programs = {p.system.id: p for p in compile_project(project).programs}
    given = _assignments(args.assignments)
    separator = "/" if "/" in args.id else "."
    system_id, _, name = args.id.partition(separator)
    program = _system_of(programs, system_id, args.id)
    if separator == "/":
        found = _calculator_rolls(program, args.id, name, given, rng, args.times)
    elif name in program.tables and program.tables[name].roll is not None:
        found = _table_rolls(program, args.id, name, given, rng, args.times)
    else:
        found = _formula_rolls(program, args.id, name, given, rng, args.times)
    inputs, rolls, lines = found
    while lines and not lines[-1]:
        lines.pop()
    print(json.dumps({"id": args.id, "inputs": inputs, "rolls": rolls}) if args.json else "\n".join(lines))
    return 0


Rolled = tuple[dict[str, Any], list[dict[str, Any]], list[str]]
"""What a command prints: the inputs and the rolls as JSON, and the lines of its text."""


def _table_rolls(program: Program, full_id: str, name: str, given: dict[str, str], rng: R.RandomBits,
                 times: int) -> Rolled:
    if given:
        raise UsageError(f"{full_id} is a roll table; it takes no inputs")
    from rulesc.emit.site.markup import Markup

    table = runtime_book(program.tables, Markup.of(program).plain)[name]
    rolls = [_answer(lambda: R.roll_on(table, rng)) for _ in range(times)]
    found = [{"value": steps[0].value, "key": steps[0].key, "text": steps[0].text,
              "results": [s.text for s in steps if s.kept],
              "steps": [{"table": s.table, "value": s.value, "key": s.key, "text": s.text, "depth": s.depth,
                         "kept": s.kept} for s in steps]} for steps in rolls]
    return {}, found, [line for steps in rolls for line in _step_lines(name, steps, times > 1)]


def _step_lines(name: str, steps: list[R.RollStep], apart: bool) -> list[str]:
    """One line a step, indented by its depth, naming the table where it is another and the value rolled where
    the key is a range ("06-50 (37): Clash"); a blank line after a roll of several steps when there are several
    rolls."""
    lines = ["  " * s.depth + ("" if s.table == name else f"{s.table} ") + s.key
             + ("" if s.key == str(s.value) else f" ({s.value})") + f": {s.text}" for s in steps]
    return lines + ([""] if apart and len(steps) > 1 else [])


def _formula_rolls(program: Program, full_id: str, name: str, given: dict[str, str], rng: R.RandomBits,
                   times: int) -> Rolled:
    formula = program.formulas.get(name)
    if formula is None:
        raise UsageError(_unknown("formula or roll table", full_id, name, [*program.formulas, *_rolled(program)],
                                  "rulesc list"))
    _no_extra(given, formula.params, full_id)
    missing = [p.name for p in formula.params if p.name not in given]
    if missing:
        raise UsageError(f"{full_id} needs " + " ".join(f"{p}=..." for p in missing))
    values = {p.name: parse_input(full_id, p, given[p.name], program.upgrades) for p in formula.params}
    result = _answer(lambda: program.call(name, [values[p.name] for p in formula.params]))
    rolled = R.samples(result, rng, times)
    return (_inputs(formula.params, values), [{"value": encode(value)} for value in rolled],
            [show(value) for value in rolled])


def _calculator_rolls(program: Program, full_id: str, name: str, given: dict[str, str], rng: R.RandomBits,
                      times: int) -> Rolled:
    calc, values, results = calculator_answers(program, full_id, name, given)
    rolls = [{o.name: R.sample(results[o.name], rng) for o in calc.outputs} for _ in range(times)]
    width = max(len(o.label) for o in calc.outputs)
    lines = [line for rolled in rolls for line in [
        *(f"{o.label:<{width}}  {show(rolled[o.name])}" for o in calc.outputs), *([""] if times > 1 else [])]]
    return _inputs(calc.inputs, values), [{"outputs": {k: encode(v) for k, v in r.items()}} for r in rolls], lines


def _rolled(program: Program) -> list[str]:
    return [name for name, table in program.tables.items() if table.roll is not None]
