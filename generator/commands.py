"""The subcommands: each registers its arguments and a run(project, args) -> exit status."""

from __future__ import annotations

import argparse
import sys

from .pipeline import Project, compile_project


def register(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    check = commands.add_parser("check", help="validate all of content/")
    check.set_defaults(run=run_check)


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
