"""The subcommands: each registers its arguments and a run(project, args) -> exit status."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from .analyze import Program, show
from . import report
from .diagnostics import ContentError, render, sorted_diagnostics
from .diff_git import GitError
from .lint import lint
from .model import Param
from .pipeline import Project, compile_project
from .runtime.rulesc_runtime import Dice, RulesError, parse_dice

Subparsers = "argparse._SubParsersAction[argparse.ArgumentParser]"


class UsageError(Exception):
    """A command used wrongly: an unknown id, a bad argument. Exit status 2."""


def register(commands: Any) -> None:
    _register_check(commands)
    _register_diff(commands)
    build = commands.add_parser("build", help="build site/, build/engine, build/docs and build/export")
    build.add_argument("--no-site", action="store_true", help="generate build/ only; skip the MkDocs site")
    build.set_defaults(run=run_build)
    listing = commands.add_parser("list", help="list systems, rules, formulas and calculators with their ids")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(run=run_list)
    calc = commands.add_parser("calc", help="evaluate a formula (system.formula) or calculator (system/calculator)")
    calc.add_argument("id", help="e.g. dbu.tier_of_power or dbu/tier-of-power")
    calc.add_argument("assignments", nargs="*", metavar="name=value")
    calc.add_argument("--json", action="store_true", help="print JSON")
    calc.set_defaults(run=run_calc)
    serve = commands.add_parser("serve", help="preview the site; rebuild when content/ or schema/ change")
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", metavar="HOST:PORT")
    serve.set_defaults(run=run_serve)
    from . import commands_dice  # dice and bench live in their own module

    commands_dice.register(commands)


def _register_check(commands: Any) -> None:
    check = commands.add_parser("check", help="validate all of content/ and run every worked example")
    check.add_argument("--format", choices=report.FORMATS, default="human",
                       help="human (default; colour on a terminal), github (workflow annotations) or json")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    check.set_defaults(run=run_check)


def _register_diff(commands: Any) -> None:
    diff = commands.add_parser("diff", help="what a change does to the rules: compare two git revisions")
    diff.add_argument("base", metavar="BASE", help="the git revision to compare from, e.g. origin/main")
    diff.add_argument("head", metavar="HEAD", nargs="?", default=None,
                      help="the git revision to compare to (default: the working tree)")
    diff.add_argument("--format", choices=("markdown", "json"), default="markdown",
                      help="markdown (default; for a pull request comment or job summary) or json")
    diff.add_argument("--fail-on-breaking", action="store_true",
                      help="exit 1 when a change is breaking (a permalink or engine function removed)")
    diff.set_defaults(run=run_diff)


def run_check(project: Project, args: argparse.Namespace) -> int:
    compiled = compile_project(project)
    programs = compiled.programs
    warnings = sorted_diagnostics([*compiled.warnings, *lint(programs)])
    if args.strict and warnings:
        raise ContentError(report.promote(warnings))
    summary = report.Summary(
        systems=len(programs), rules=sum(len(p.rules) for p in programs),
        formulas=sum(len(p.formulas) for p in programs),
        examples=sum(len(f.examples) for p in programs for f in p.formulas.values()),
        calculators=sum(len(p.calculators) for p in programs))
    if args.format == "json":
        print(report.json_report(warnings, summary))
    elif args.format == "github":
        print(report.github_report(warnings, summary.line(len(warnings))))
    else:
        colour = report.use_colour(sys.stderr)
        for warning in warnings:
            print(report.human(warning, project.root, colour), file=sys.stderr)
        print(summary.line(len(warnings)))
    return 0


def run_diff(project: Project, args: argparse.Namespace) -> int:
    from .diff import diff_revisions
    from .diff_render import diff_json, diff_markdown

    try:
        changes = diff_revisions(project, args.base, args.head)
    except GitError as exc:
        raise UsageError(str(exc)) from None
    print(diff_json(changes) if args.format == "json" else diff_markdown(changes), end="")
    return 1 if args.fail_on_breaking and changes.breaking else 0


def run_build(project: Project, args: argparse.Namespace) -> int:
    from .build import build_project

    result = build_project(project, site=not args.no_site)
    outputs = "build/docs, build/engine, build/export" + ("" if args.no_site else " and site/")
    print(f"rulesc: built {result.systems} system(s) into {outputs} ({result.files} generated files)")
    return 0


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
    return 0


def _listing(program: Program) -> dict[str, Any]:
    system = program.system
    return {
        "id": system.id, "title": system.title,
        "rules": [{"id": r.id, "kind": r.kind, "name": r.name} for r in system.rules()],
        "formulas": [{"id": f"{system.id}.{f.id}", "params": [p.name for p in f.params], "returns": program.returns[f.id]}
                     for f in program.formulas.values()],
        "calculators": [{"id": f"{system.id}/{c.id}", "title": c.title} for c in program.calculators.values()],
    }


def run_calc(project: Project, args: argparse.Namespace) -> int:
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
        from .diagnostics import did_you_mean

        raise UsageError(f"unknown system {system_id!r} in {full_id!r}" +
                         (f"; {did_you_mean(system_id, programs)}" if did_you_mean(system_id, programs) else ""))
    return programs[system_id]


def _formula(programs: dict[str, Program], full_id: str, given: dict[str, str], as_json: bool) -> int:
    system_id, _, formula_id = full_id.partition(".")
    program = _system_of(programs, system_id, full_id)
    formula = program.formulas.get(formula_id)
    if formula is None:
        raise UsageError(_unknown("formula", full_id, formula_id, program.formulas, "rulesc list"))
    _no_extra(given, formula.params, full_id)
    missing = [p.name for p in formula.params if p.name not in given]
    if missing:
        raise UsageError(f"{full_id} needs " + " ".join(f"{name}=..." for name in missing))
    values = {p.name: _parse(p, given[p.name]) for p in formula.params}
    result = _answer(lambda: program.call(formula_id, [values[p.name] for p in formula.params]))
    if as_json:
        print(json.dumps({"id": full_id, "inputs": _jsonable(values), "result": _jsonable(result)}))
    else:
        print(show(result))
    return 0


def _calculator(programs: dict[str, Program], full_id: str, given: dict[str, str], as_json: bool) -> int:
    from .emit.calculator_html import default_of, display

    system_id, _, calc_id = full_id.partition("/")
    program = _system_of(programs, system_id, full_id)
    calc = program.calculators.get(calc_id)
    if calc is None:
        raise UsageError(_unknown("calculator", full_id, calc_id, program.calculators, "rulesc list"))
    _no_extra(given, calc.inputs, full_id)
    values = {p.name: _parse(p, given[p.name]) if p.name in given else default_of(p) for p in calc.inputs}
    results = _answer(lambda: program.calculate(calc_id, values))
    if as_json:
        print(json.dumps({"id": full_id, "inputs": _jsonable(values), "outputs": _jsonable(results)}))
        return 0
    width = max(len(o.label) for o in calc.outputs)
    for output in calc.outputs:
        print(f"{output.label:<{width}}  {display(results[output.name], output.format)}")
    return 0


def _unknown(what: str, full_id: str, name: str, known: dict[str, Any], command: str) -> str:
    from .diagnostics import did_you_mean

    hint = did_you_mean(name, known)
    return f"unknown {what} {full_id!r}" + (f"; {hint}" if hint else f"; `{command}` shows them")


def _no_extra(given: dict[str, str], params: tuple[Param, ...], full_id: str) -> None:
    names = [p.name for p in params]
    for name in given:
        if name not in names:
            raise UsageError(f"{full_id} has no input {name!r}; it takes {', '.join(names)}")


def _parse(param: Param, text: str) -> Any:
    if param.type == "upgrades":
        return tuple(part.strip() for part in text.split(",") if part.strip())
    try:
        if param.type == "dice":
            return parse_dice(text)
        if param.type == "bool":
            return {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[text.lower()]
        value = int(text)
    except (KeyError, ValueError, RulesError):
        kinds = {"int": "a whole number", "bool": "true or false", "dice": "dice like 1d10+1d4"}
        raise UsageError(f"{param.name} must be {kinds[param.type]}, got {text!r}") from None
    if (param.min is not None and value < param.min) or (param.max is not None and value > param.max):
        raise UsageError(f"{param.name}={value} is outside {param.min}..{param.max}")
    return value


def _answer(compute: Any) -> Any:
    try:
        return compute()
    except RulesError as exc:
        raise UsageError(f"no answer: {exc}") from None


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return str(value) if isinstance(value, Dice) else value


def run_serve(project: Project, args: argparse.Namespace) -> int:
    import threading

    from mkdocs.commands.serve import serve

    from .build import build_project

    result = build_project(project)
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(project, stop), daemon=True)
    watcher.start()
    try:
        serve(config_file=str(project.root / "mkdocs.yml"), livereload=True, dev_addr=args.dev_addr,
              nav=result.nav, build_type="dirty", strict=False)  # the preview; `build` stays strict
    finally:
        stop.set()
    return 0


def _snapshot(project: Project) -> dict[Path, float]:
    paths = list(project.content.rglob("*.yaml")) + list(project.schema.glob("*.json"))
    return {p: p.stat().st_mtime for p in paths if p.is_file()}


def _watch(project: Project, stop: Any) -> None:
    """Regenerate build/ when content or schema change; MkDocs notices build/docs and rebuilds the site."""
    from .build import PREVIEW_OUTPUTS, refresh_outputs

    seen = _snapshot(project)
    while not stop.wait(0.3):
        now = _snapshot(project)
        if now == seen:
            continue
        seen = now
        started = time.perf_counter()
        try:
            written = refresh_outputs(project, PREVIEW_OUTPUTS)
        except ContentError as exc:
            for diag in exc.diagnostics:
                print(render(diag, project.root), file=sys.stderr)
            print("rulesc: content has errors; the preview keeps the last good build", file=sys.stderr)
            continue
        print(f"rulesc: regenerated {written} file(s) in {time.perf_counter() - started:.2f}s", file=sys.stderr)
