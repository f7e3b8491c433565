"""Subcommands `dice` and `bench`: register their arguments and run them."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from .commands import UsageError
from .dice_cli import DiceUsageError, bench_dice, bench_table, run_dice
from .pipeline import Project, compile_project
from .runtime import JS_RUNTIME


def register(commands: Any) -> None:
    dice = commands.add_parser("dice", help='print the exact distribution of a dice expression, e.g. "4d6kh3"')
    dice.add_argument("expression", help="an expression in rulesc's dice notation (see the site's Dice notation page)")
    dice.add_argument("--json", action="store_true", help="print {expression, distribution, mean, sd} as JSON")
    dice.set_defaults(run=run_dice_command)
    bench = commands.add_parser("bench", help="benchmarks: --dice, --calculators, --rules N (build stages at scale), --content")
    bench.add_argument("--dice", action="store_true", help="time the dice runtime against icepool and in Node")
    bench.add_argument("--calculators", action="store_true",
                       help="time every calculator's recompute at the top of its input ranges in headless Chromium")
    bench.add_argument("--rules", type=int, metavar="N", help="time every build stage on a synthetic book of N rules")
    bench.add_argument("--content", action="store_true", help="time every build stage on the project's own content")
    bench.add_argument("--repeat", type=int, default=1, metavar="K", help="with --rules/--content: median of K runs")
    bench.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    bench.set_defaults(run=run_bench_command)


def run_dice_command(project: Project, args: argparse.Namespace) -> int:
    try:
        print(run_dice(args))
    except DiceUsageError as exc:
        raise UsageError(str(exc)) from None
    return 0


def _bench_calculators(project: Project, args: argparse.Namespace) -> int:
    from .bench_calculators import TARGET_MS, bench_calculators, calculator_table, summary

    pages = bench_calculators(project)
    print(calculator_table(pages))
    if args.json:
        print(json.dumps(summary(pages)))
    return 0 if summary(pages)["worst_ms"] <= TARGET_MS else 1


def _import_engine(project: Project, compiled: Any, folder: Path) -> Any:
    """Generate the engine for the bundled content into `folder` and import its DBU module."""
    from .build import generate

    for relative, text in generate(project, compiled)["build/engine"].items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("rules_engine", folder / "rules_engine" / "__init__.py",
                                                  submodule_search_locations=[str(folder / "rules_engine")])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["rules_engine"] = package
    spec.loader.exec_module(package)
    return importlib.import_module("rules_engine.dbu")


def run_bench_command(project: Project, args: argparse.Namespace) -> int:
    if getattr(args, "calculators", False):
        return _bench_calculators(project, args)
    if args.rules is not None or args.content:
        from .commands_bench import run_rules_bench

        return run_rules_bench(project, args)
    if not args.dice:
        raise UsageError("choose a benchmark: --dice, --calculators, --rules N or --content")
    compiled = compile_project(project)
    if not any(p.system.id == "dbu" for p in compiled.programs):
        raise UsageError("the dice benchmark uses the bundled DBU content (content/dbu)")
    with tempfile.TemporaryDirectory(prefix="rulesc-bench-") as folder:
        engine = _import_engine(project, compiled, Path(folder))
        try:
            rows, note = bench_dice(lambda name, args: getattr(engine, name)(*args), JS_RUNTIME)
        except DiceUsageError as exc:
            raise UsageError(str(exc)) from None
    print(bench_table(rows))
    if note:
        print(f"note: {note}")
    if args.json:
        print(json.dumps({"dice": rows}))
    return 0 if all(row["identical"] for row in rows) else 1
