"""`rulesc check`: validate all of content/, run every worked example and lint; report like a compiler."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from generator.analyze.lint import lint
from generator.build.site_config import syntax_problems
from generator.diagnostics import report
from generator.diagnostics.core import ContentError, sorted_diagnostics
from generator.pipeline import Project, compile_project


def register(commands: Any) -> None:
    check = commands.add_parser("check", help="validate all of content/ and run every worked example")
    check.add_argument("--format", choices=report.FORMATS, default="human",
                       help="human (default; colour on a terminal), github (workflow annotations) or json")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    check.set_defaults(run=run_check)


def run_check(project: Project, args: argparse.Namespace) -> int:
    compiled = compile_project(project)
    programs = compiled.programs
    site_problems = syntax_problems(project.root)  # MkDocs' own checks of the settings take a second: build runs them
    if site_problems:
        raise ContentError(site_problems)
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
