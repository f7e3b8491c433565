"""`rulesc check`: validate all of content/, run every worked example and lint; report like a compiler."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rulesc.analyze.lint import lint
from rulesc.build.site_config import read_settings
from rulesc.cli.usage import UsageError
from rulesc.compile import Project, check_variants, compile_project, discover, variants_of
from rulesc.diagnostics import report
from rulesc.diagnostics.core import ContentError, Diagnostics, sorted_diagnostics


def register(commands: Any) -> None:
    check = commands.add_parser("check", help="validate all of content/ and run every worked example")
    check.add_argument("--format", choices=report.FORMATS, default="human",
                       help="human (default; colour on a terminal), github (workflow annotations) or json")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    add_variant_option(check, "check the rules with a variant applied (several: applied in order); every variant "
                       "is always checked against its base on its own")
    check.set_defaults(run=run_check)


def add_variant_option(parser: Any, text: str) -> None:
    parser.add_argument("--variant", action="append", default=[], metavar="NAME", help=text)


def with_variants(project: Project, names: list[str]) -> Project:
    """The project with the named variants (NAME or SYSTEM/NAME), or a usage error naming those there are."""
    known = [qualified for qualified, _ in variants_of(project, discover(project, Diagnostics()))]
    for name in names:
        if not any(name in (qualified, qualified.split("/", 1)[1]) for qualified in known):
            listed = ", ".join(known) if known else "none (a variant is content/<system>/variants/<name>/variant.yaml)"
            raise UsageError(f"no variant named {name!r}; the variants are: {listed}")
    return Project(project.root, tuple(names))


def run_check(project: Project, args: argparse.Namespace) -> int:
    base = compile_project(project)
    broken = check_variants(project)
    if broken:
        raise ContentError(broken)
    compiled = compile_project(with_variants(project, args.variant)) if args.variant else base
    programs = compiled.programs
    site_problems = list(read_settings(project.root).problems)  # MkDocs' own checks take a second: build runs them
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
