"""The subcommands: each registers its arguments and a run(project, args) -> exit status."""

from __future__ import annotations

import argparse
import sys

from .pipeline import Project, compile_project


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    check = commands.add_parser("check", help="validate all of content/")
    check.set_defaults(run=run_check)
    build = commands.add_parser("build", help="build site/, build/engine, build/docs and build/export")
    build.add_argument("--no-site", action="store_true", help="generate build/ only; skip the MkDocs site")
    build.set_defaults(run=run_build)


def run_check(project: Project, args: argparse.Namespace) -> int:
    compiled = compile_project(project)
    programs = compiled.programs
    rules = sum(len(p.rules) for p in programs)
    formulas = sum(len(p.formulas) for p in programs)
    examples = sum(len(f.examples) for p in programs for f in p.formulas.values())
    calculators = sum(len(p.calculators) for p in programs)
    print(f"rulesc: ok: {len(programs)} system(s), {rules} rules, {formulas} formulas, "
          f"{examples} examples passed, {calculators} calculators")
    return 0


def run_build(project: Project, args: argparse.Namespace) -> int:
    from .build import build_project

    result = build_project(project, site=not args.no_site)
    outputs = "build/docs, build/engine, build/export" + ("" if args.no_site else " and site/")
    print(f"rulesc: built {len(result.compiled.programs)} system(s) into {outputs} ({result.files} generated files)")
    return 0
