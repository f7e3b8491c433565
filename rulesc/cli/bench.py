"""`rulesc bench`: --dice, --calculators, --rules N and --content; each prints its figures and judges its targets.

Each bench's own modules are imported when it runs, so the other commands never load them."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from rulesc.bench.icepool_side import ModelError, icepool_module, load_models
from rulesc.bench.needs import INSTALL, Unavailable
from rulesc.cli.usage import UsageError
from rulesc.compile import Project, compile_project

if TYPE_CHECKING:
    from rulesc.bench.dice import Models

STEPS_PER_RUN = 3  # the full build, the incremental rebuild and `rulesc check`
LABELS = {"build": "full build (rulesc build, timing its own stages)", "search_records": "search records",
          "semantic": "semantic analysis", "formulas": "compile formulas (engine + scripts)", "validate": "schema",
          "swap": "swap in the outputs", "incremental": "incremental rebuild", "check": "rulesc check"}
TARGET_RULES = 5000  # the book size the compile share and check targets are set for
ROWS = ("load", "validate", "model", "semantic", "formulas", "pages", "search_records", "export", "write")
DICE_RUNS = 5  # bench --dice: the median of this many runs unless --repeat says otherwise
ROLL_TIMES = 100_000  # bench --rolls: seeded rolls of each roll


class Progress:
    """Stage names on stderr: a bar redrawn in place on a terminal, one plain line per stage otherwise."""

    def __init__(self, total: int, stream: TextIO = sys.stderr):
        self.total, self.done, self.stream = total, 0, stream
        self.tty = stream.isatty()
        self.start = time.perf_counter()

    def __call__(self, stage: str) -> None:
        self.done = min(self.total, self.done + 1)
        name, _, run = stage.partition(" (")
        label = LABELS.get(name, name) + (f" ({run}" if run else "")
        elapsed = time.perf_counter() - self.start
        if self.tty:
            filled = 24 * self.done // self.total
            self.stream.write(f"\r\x1b[K[{'#' * filled}{'.' * (24 - filled)}] {elapsed:6.1f}s {label}")
        else:
            self.stream.write(f"rulesc bench: {elapsed:6.1f}s {label}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def run_rules_bench(project: Project, args: argparse.Namespace) -> int:
    from rulesc.bench.rules import BenchError, run_bench

    rules = None if args.content else args.rules
    if rules is not None and rules < 1:
        raise UsageError("--rules needs a positive number of rules, e.g. --rules 500")
    repeat = _repeat(args, 1)
    progress = Progress(2 + STEPS_PER_RUN * repeat)
    try:
        figures = run_bench(project, rules, repeat, progress)
    except BenchError as exc:
        raise UsageError(str(exc)) from None
    finally:
        progress.close()
    print(report(figures))
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0


def report(f: dict[str, Any]) -> str:
    lines = [f"{f['rules']} rules in {f['systems']} system(s), {f['chapters']} chapters, {f['pages']} HTML pages"
             f" (median of {f['runs']} run(s); wall seconds, CPU seconds in brackets)"]
    if f.get("compile_processes", 1) > 1:
        lines.append(f"(the compile ran in {f['compile_processes']:g} processes side by side; each stage adds up"
                     " what they all spent on it)")
    cpu = f["cpu_seconds"]
    for name in ROWS:
        lines.append(_row(LABELS.get(name, name), f[f"{name}_seconds"], cpu[name]))
    lines += [_row("= compile (all of rulesc before MkDocs)", f["compile_seconds"], cpu["compile"]),
              _row("mkdocs build", f["mkdocs_seconds"], cpu["mkdocs"]),
              _row("search index (Pagefind)", f["search_index_seconds"], cpu["search_index"]),
              _row("swap in the outputs (after MkDocs)", f["swap_seconds"], cpu["swap"]),
              _row("= total build", f["total_seconds"], cpu["total"]),
              _row("rulesc check (whole command)", f["check_seconds"]),
              _row("incremental (edit -> page rewritten)", f["incremental_seconds"]),
              _row("  rulesc refresh_outputs", f["incremental_refresh_seconds"]),
              _row("  mkdocs rebuild + search index", f["incremental_site_seconds"]),
              f"{'peak memory (build processes together)':<44} {f['peak_mib']:8.1f} MiB",
              f"{'search bytes loaded before typing':<44} {f['search_payload_bytes']:8d} "
              f"({f['search_payload_on_load_bytes']} on page load, the rest when the search box gets focus)",
              f"{'  on the page':<44} {f['payload_page']} ({f['page_load_bytes']} bytes in all; "
              f"{f['search_payload_method']})"]
    return "\n".join(lines + targets(f))


def _row(label: str, seconds: float, cpu: float | None = None) -> str:
    return f"{label:<44} {seconds:8.3f} s" + (f"  ({cpu:.3f})" if cpu is not None else "")


def targets(f: dict[str, Any]) -> list[str]:
    """Each target the run can be judged by: the compile share and `check` time are set for the 5,000-rule
    synthetic book, the incremental rebuild for the bundled content, peak memory for any book."""
    share = f["compile_seconds"] / f["mkdocs_seconds"] if f["mkdocs_seconds"] else 0.0
    at_target_size = f.get("book") == "synthetic" and f.get("rules") == TARGET_RULES
    checks = []
    if at_target_size:
        checks += [(f"compile is {share:.1%} of mkdocs (target <= 25%)", share <= 0.25),
                   (f"rulesc check {f['check_seconds']:.2f} s (target < 5 s)", f["check_seconds"] < 5)]
    checks.append((f"peak memory {f['peak_mib']:.0f} MiB (target < 500 MiB)", f["peak_mib"] < 500))
    if f.get("book") == "content":
        checks.append((f"incremental {f['incremental_seconds']:.2f} s (target < 2 s on the bundled content)",
                       f["incremental_seconds"] < 2))
    judged = [f"target: {text}: {'met' if ok else 'MISSED'}" for text, ok in checks]
    if not at_target_size:
        judged.append(f"(the compile share, {share:.1%} of mkdocs here, and check time are judged at "
                      f"--rules {TARGET_RULES})")
    return judged


def _repeat(args: argparse.Namespace, default: int) -> int:
    if args.repeat is None:
        return default
    if args.repeat < 1:
        raise UsageError("--repeat needs a positive number of runs")
    return int(args.repeat)


def register(commands: Any) -> None:
    bench = commands.add_parser("bench", help="benchmarks: --dice, --rolls, --calculators, --rules N (build stages "
                                              "at scale), --content")
    bench.add_argument("--dice", action="store_true",
                       help="time every dice formula in the generated engine (Python) and the generated JavaScript "
                            "(Node) on its worked examples and the top of its ranges, and compare their results")
    bench.add_argument("--icepool", type=Path, metavar="MODELS",
                       help="with --dice: also run icepool on the formulas MODELS (a Python file whose MODELS maps "
                            "'system/formula' to a function computing the same answer with icepool) models, in "
                            "this process, and print engine, JavaScript and icepool side by side; "
                            "icepool's caches are emptied before every run, as the engine's are")
    bench.add_argument("--rolls", action="store_true",
                       help=f"rolls per second of every roll table and every formula that rolls, {ROLL_TIMES} "
                            "seeded rolls each in the Python and the JavaScript runtime, whose draws must agree")
    bench.add_argument("--calculators", action="store_true",
                       help="time every calculator's recompute at the top of its input ranges in headless Chromium "
                            "(the browser benches drive $RULESC_CHROMIUM, else chromium, chromium-browser or "
                            "google-chrome on PATH, else Playwright's own)")
    bench.add_argument("--phone", action="store_true",
                       help="every page's ready time and input-to-paint latency at a phone's size with the CPU 4x "
                            "slower, in headless Chromium (needs the bench extra: pip install 'rulesc[bench]'); with "
                            "--repeat K, each page's median of K loads, as the machine's speed varies run to run")
    bench.add_argument("--pages", nargs="+", metavar="PAGE",
                       help="with --phone: only these pages, as the table names them ('/' is the home page, "
                            "'my-game/tables/' a page of a system)")
    bench.add_argument("--rules", type=int, metavar="N", help="time every build stage on a synthetic book of N rules")
    bench.add_argument("--content", action="store_true", help="time every build stage on the project's own content")
    bench.add_argument("--repeat", type=int, metavar="K",
                       help=f"the median of K runs (with --rules/--content: 1 unless given; --dice: {DICE_RUNS}; "
                            "--phone: K loads of each page, 1 unless given)")
    bench.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    bench.set_defaults(run=run_bench_command)


def _bench_calculators(project: Project, args: argparse.Namespace) -> int:
    from rulesc.bench.calculators import TARGET_MS, bench_calculators, calculator_table, summary

    pages = bench_calculators(project)
    print(calculator_table(pages))
    if args.json:
        print(json.dumps(summary(pages)))
    return 0 if summary(pages)["worst_ms"] <= TARGET_MS else 1


def run_dice_bench(project: Project, args: argparse.Namespace) -> int:
    from rulesc.bench.dice import DiceBenchError, bench_dice, dice_table, icepool_table
    from rulesc.bench.dice import summary as dice_summary

    runs = _repeat(args, DICE_RUNS)
    models = _models(args.icepool)
    try:
        rows = bench_dice(project, compile_project(project), runs, models)
    except DiceBenchError as exc:
        raise UsageError(str(exc)) from None
    if not rows:
        print("no formula of the content rolls or builds dice: nothing to time" if models is None else
              "no dice formula of the content has an icepool model: nothing to compare")
        return 0
    print(dice_table(rows, runs) if models is None else icepool_table(rows, runs))
    if args.json:
        print(json.dumps(dice_summary(rows), sort_keys=True))
    return 0 if all(row.same for row in rows) else 1


def _bench_phone(project: Project, args: argparse.Namespace) -> int:
    from rulesc.bench.phone import PhoneBenchError, bench_phone, phone_table, summary, targets_met

    try:
        pages = bench_phone(project, args.pages, _repeat(args, 1))
    except PhoneBenchError as exc:
        raise UsageError(str(exc)) from None
    print(phone_table(pages))
    if args.json:
        print(json.dumps(summary(pages), sort_keys=True))
    return 0 if targets_met(pages) else 1


def _models(path: Path | None) -> Models | None:
    """The icepool models of --icepool, or None without it; Unavailable where icepool is not installed."""
    from rulesc.bench.dice import Models

    if path is None:
        return None
    if icepool_module() is None:
        raise Unavailable(f"bench --icepool compares with icepool, which is not installed: {INSTALL}")
    try:
        module, models = load_models(path)
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    return Models(module, models)


def _bench_rolls(project: Project, args: argparse.Namespace) -> int:
    from rulesc.bench.rolls import RollBenchError, bench_rolls, rolls_table, summary

    try:
        rows = bench_rolls(compile_project(project), ROLL_TIMES)
    except RollBenchError as exc:
        raise UsageError(str(exc)) from None
    if not rows:
        print("no roll table and no formula that rolls in the content: nothing to roll")
        return 0
    print(rolls_table(rows, ROLL_TIMES))
    if args.json:
        print(json.dumps(summary(rows), sort_keys=True))
    return 0 if all(row.same for row in rows) else 1


def run_bench_command(project: Project, args: argparse.Namespace) -> int:
    """The chosen bench; exit status 1, with what to install, where it needs what is not here."""
    try:
        return _run_bench(project, args)
    except Unavailable as exc:
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 1


def _run_bench(project: Project, args: argparse.Namespace) -> int:
    if getattr(args, "rolls", False):
        return _bench_rolls(project, args)
    if getattr(args, "phone", False):
        return _bench_phone(project, args)
    if getattr(args, "calculators", False):
        return _bench_calculators(project, args)
    if args.rules is not None or args.content:
        return run_rules_bench(project, args)
    if not args.dice:
        raise UsageError("choose a benchmark: --dice, --rolls, --calculators, --rules N or --content")
    return run_dice_bench(project, args)
