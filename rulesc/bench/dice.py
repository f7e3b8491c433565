"""`rulesc bench --dice`: each dice formula of the content timed in the generated engine (Python) and the generated
JavaScript (Node) on workloads taken from the content, with the two runtimes' results compared call by call."""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

from rulesc.analyze.program import Program
from rulesc.bench import icepool_side
from rulesc.bench.icepool_side import CACHES, IcepoolRun, Model, comparable, icepool_once
from rulesc.compile import Compiled, Project
from rulesc.emit.engine import python_names
from rulesc.emit.scripts import FORMULAS_FOLDER, RUNTIME_SCRIPT, js_formula
from rulesc.model import Formula, Param, Value, default_of
from rulesc.runtime.rulesc_runtime import MAX_INT, Dice, die_of

DICE_TYPES = frozenset(["dist", "num", "dice", "outcome", "event"])
"""What a formula returns when it rolls or builds dice."""
NODE_TIMEOUT_S = 600
NODE_WARMUP_RUNS = 20
"""Untimed runs of a workload in Node before the timed ones. V8 runs a function in its interpreter first and
compiles it with its optimizing compiler (TurboFan) once it is hot, on background threads whose CPU time
process.cpuUsage() counts: on this machine the compile of one runtime function took from 1 to 360 ms, so the
first runs of cthulhu/skill_roll took 10 to 35 ms where it settles at 1 to 2 ms (3.5 ms with the optimizing
compiler turned off, --no-opt), the first of savage/trait 6 to 15 ms against 3 ms settled by the tenth run or
so, darkness/ten_again 7 to 9 ms against 0.8 ms by the twentieth. A page pays that compile once per load, not
once per recompute; the Python engine's compile happens at import. The first run's time is kept too (--json:
node_first_ms)."""


NODE_RUNS = 15
"""Node's timed runs of each workload, at least (more when --repeat asks more). Its runs spread far wider than
Python's: on this machine cthulhu/skill_roll's 15 runs after the warm-up went from 0.84 to 5.4 ms (Python's
from 1.5 to 2.6 ms), as garbage collection of the BigInts and Maps the runtime makes, on threads whose CPU time
counts, falls on some runs and not others; the median of 5 was 4.7 ms in one bench and 1.6 ms in the next."""


def node_runs(runs: int) -> int:
    """How many timed runs Node makes when Python makes `runs`."""
    return max(runs, NODE_RUNS)


class DiceBenchError(Exception):
    """The benchmark could not run: no Node.js, or the generated JavaScript failed to load."""


@dataclass(frozen=True)
class Workload:
    """The calls one formula is timed on: its worked examples' inputs, then every parameter at its top."""

    system: str  # the system's id (its key in the generated JavaScript)
    module: str  # the system's module in the generated engine
    formula: str
    python: str  # the formula's function in the engine module (its id unless Python refuses that name)
    javascript: str  # its property in the generated JavaScript
    types: tuple[str, ...]  # each parameter's type, in order
    calls: tuple[tuple[Any, ...], ...]  # arguments as JSON: dice pools as text
    examples: int  # how many of the calls are worked examples

    @property
    def name(self) -> str:
        return f"{self.system}/{self.formula}"


@dataclass(frozen=True)
class Row:
    """One formula's workload as each runtime ran it: median milliseconds of K runs and the results of a run."""

    workload: Workload
    python_ms: float
    node_ms: float
    differences: tuple[tuple[tuple[Any, ...], Any, Any], ...]  # (arguments, Python's result, Node's result)
    refused: int  # calls the engine refused (a RulesError): the time is that of refusing
    python_results: tuple[Any, ...] = ()  # the engine's answer to each call (as JSON)
    icepool: IcepoolRun | None = None  # icepool computing the same answers, when a model is given for the formula
    warm_ms: float | None = None  # with a model: the engine's median run with its caches kept from the run before
    icepool_warm_ms: float | None = None  # icepool's, likewise
    icepool_differences: tuple[tuple[tuple[Any, ...], Any, Any], ...] = ()  # (arguments, engine's, icepool's)
    node_first_ms: float | None = None  # Node's first run of the workload, before its warm-up (NODE_WARMUP_RUNS)

    @property
    def same(self) -> bool:
        return not self.differences and not self.icepool_differences


@dataclass(frozen=True)
class Timed:
    """One runtime's run of a workload: the milliseconds of each of K runs, and each call's result (as JSON)."""

    runs_ms: list[float]
    results: list[Any]
    first_ms: float | None = None  # Node's first run, its functions compiled while it runs (NODE_WARMUP_RUNS)


def dice_workloads(compiled: Compiled) -> list[Workload]:
    """A workload for every formula that returns a roll, a probability or a pool, or takes a pool."""
    return [workload(program, formula) for program in compiled.programs for formula in program.formulas.values()
            if program.returns[formula.id] in DICE_TYPES or any(p.type == "dice" for p in formula.params)]


def workload(program: Program, formula: Formula) -> Workload:
    examples = [_arguments(formula, dict(example.args)) for example in formula.examples]
    top = [_top(param, formula) for param in formula.params]
    calls = (*examples, *([tuple(_json(v) for v in top)] if all(v is not None for v in top) else []))
    return Workload(program.system.id, program.system.module, formula.id, python_names(program).formulas[formula.id],
                    js_formula(formula.id), tuple(p.type for p in formula.params), calls, len(examples))


def _arguments(formula: Formula, given: dict[str, Value]) -> tuple[Any, ...]:
    return tuple(_json(given[p.name] if p.name in given else default_of(p)) for p in formula.params)


def _top(param: Param, formula: Formula) -> Any:
    """The top of a parameter's declared range: its largest option or maximum, true for a flag; for a pool or a
    list, which have no range, the largest its worked examples use (else its default)."""
    if param.options:
        return max(option.value for option in param.options)
    if param.type == "bool":
        return True
    if param.max is not None:
        return param.max
    seen = [dict(example.args)[param.name] for example in formula.examples if param.name in dict(example.args)]
    return max(seen, key=_size) if seen else default_of(param)


def _size(value: Any) -> tuple[int, str]:
    if isinstance(value, Dice):
        return sum(count * max(die_of(key).outcomes) for key, count in value.counts) + value.const, str(value)
    return (len(value) if isinstance(value, (list, tuple)) else int(value)), str(value)


def _json(value: Any) -> Any:
    if isinstance(value, Dice):
        return str(value)
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True)
class Models:
    """icepool's side: the models file's module (whose dice are emptied of caches too) and its models."""

    module: ModuleType
    models: Mapping[str, Model]


def bench_dice(project: Project, compiled: Compiled, runs: int, models: Models | None = None) -> list[Row]:
    """Generate the engine and the site's scripts into a temporary folder, run every workload `runs` times in
    each, and compare their results; with models, only the formulas they model, each also run by icepool and
    compared with the engine; slowest first."""
    from rulesc.pipeline import generate

    workloads = dice_workloads(compiled)
    if models is not None:
        workloads = [w for w in workloads if w.name in models.models]
    if not workloads:
        return []
    files = generate(project, compiled)
    with tempfile.TemporaryDirectory(prefix="rulesc-bench-dice-") as folder:
        engine, docs = Path(folder) / "engine", Path(folder) / "docs"
        _write(engine, files["build/engine"])
        _write(docs, {path: text for path, text in files["build/docs"].items() if _is_script(path)})
        node = run_node(docs, workloads, runs)
        with imported_engine(engine) as package:
            if models is None:
                rows = [_row(w, p, n) for w, p, n in zip(workloads, run_python(package, workloads, runs), node,
                                                         strict=True)]
            else:
                rows = [_with_icepool(_row(w, p, n), models, ice, warm) for w, n in zip(workloads, node, strict=True)
                        for p, ice, warm in [_time_with_icepool(package, w, models, runs)]]
    return sorted(rows, key=lambda row: (-max(row.python_ms, row.node_ms), row.workload.name))


def _time_with_icepool(package: ModuleType, workload: Workload, models: Models,
                       runs: int) -> tuple[Timed, IcepoolRun, tuple[float, float]]:
    """The engine's runs of a workload and icepool's, taking turns (engine, icepool, engine, ...), so that both
    run under the same load from the rest of the machine: the ratio of their medians is fair on a busy one. Then
    as many warm runs each, taking turns too: the same calls again with every cache kept (the medians of those).
    Each timed run comes right after an untimed run of its own (_primed())."""
    function, calls = _engine_calls(package, workload)
    model = models.models[workload.name]
    engine_ms: list[float] = []
    icepool_ms: list[float] = []
    for _ in range(runs):
        took, results = _primed(lambda: _python_once(package, function, calls))
        engine_ms.append(took)
        took, answers = _primed(lambda: icepool_once(models.module, model, workload.calls))
        icepool_ms.append(took)
    warm = [(_primed(lambda: _python_once(package, function, calls, cold=False))[0],
             _primed(lambda: icepool_once(models.module, model, workload.calls, cold=False))[0])
            for _ in range(runs)]
    return (Timed(engine_ms, [encode(result) for result in results]),
            IcepoolRun(icepool_ms, [icepool_side.encode(answer) for answer in answers]),
            (statistics.median(e for e, _ in warm), statistics.median(i for _, i in warm)))


def _primed(run: Callable[[], tuple[float, list[Any]]]) -> tuple[float, list[Any]]:
    """A run timed right after an untimed run of the same calls, each from emptied caches when cold: so that
    each side starts its timed run with its own code and data in the processor's caches, as the other does.
    Taking turns alone put the engine's run right after icepool's, whose work (5 to 100 times the engine's)
    had pushed the engine's out of those caches, and icepool's after the engine's small one: cold, the
    engine's 20 us of reroll/average_damage took 3 times as long after icepool as after itself, while
    icepool's took as long after the engine as after itself (within 7%); warm, fifth/attack_roll took 1.3
    times as long. The rest of the machine's load still falls on both alike."""
    run()
    return run()


def _is_script(path: str) -> bool:
    """The scripts Node runs: the runtime and each system's compiled formulas (as a calculator's page loads them)."""
    return path == RUNTIME_SCRIPT or path.startswith(f"{FORMULAS_FOLDER}/")


def _write(folder: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text, encoding="utf-8")


def _row(workload: Workload, python: Timed, node: Timed) -> Row:
    differences = tuple((call, ours, theirs) for call, ours, theirs in zip(workload.calls, python.results,
                                                                           node.results, strict=True)
                        if not agree(ours, theirs))
    refused = sum(1 for result in python.results if isinstance(result, dict) and "error" in result)
    return Row(workload, statistics.median(python.runs_ms), statistics.median(node.runs_ms), differences, refused,
               tuple(python.results), node_first_ms=node.first_ms)


def _with_icepool(row: Row, models: Models, found: IcepoolRun, warm: tuple[float, float]) -> Row:
    """The row with icepool's run of the same calls, both warm medians, and every call on which icepool's answer
    differs from the engine's."""
    workload = row.workload
    return replace(row, icepool=found, warm_ms=warm[0], icepool_warm_ms=warm[1], icepool_differences=tuple(
        (call, ours, theirs) for call, ours, theirs in zip(workload.calls, row.python_results, found.results,
                                                          strict=True) if not agree(comparable(ours), theirs)))


_ENGINES = itertools.count()


@contextmanager
def imported_engine(folder: Path) -> Iterator[ModuleType]:
    """The generated package in `folder` imported under a name of its own (a rules_engine already imported is
    left alone), and forgotten afterwards."""
    name = f"rulesc_bench_engine_{next(_ENGINES)}"
    package_dir = folder / "rules_engine"
    spec = importlib.util.spec_from_file_location(name, package_dir / "__init__.py",
                                                  submodule_search_locations=[str(package_dir)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    try:
        spec.loader.exec_module(package)
        yield package
    finally:
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[module]


def run_python(package: ModuleType, workloads: Sequence[Workload], runs: int) -> list[Timed]:
    """Each workload `runs` times through the generated engine's functions, every run from empty caches."""
    return [_time_python(package, w, runs) for w in workloads]


def _time_python(package: ModuleType, workload: Workload, runs: int) -> Timed:
    function, calls = _engine_calls(package, workload)
    _python_once(package, function, calls)  # once untimed, as in Node (see run_node())
    runs_ms: list[float] = []
    results: list[Any] = []
    for _ in range(runs):
        took, results = _python_once(package, function, calls)
        runs_ms.append(took)
    return Timed(runs_ms, [encode(result) for result in results])


def _engine_calls(package: ModuleType, workload: Workload) -> tuple[Callable[..., Any], list[list[Any]]]:
    """A workload's function in the engine, and its calls' arguments as the engine takes them."""
    function = getattr(importlib.import_module(f"{package.__name__}.{workload.module}"), workload.python)
    return function, [[package.parse_dice(v) if t == "dice" else v for t, v in zip(workload.types, call, strict=True)]
                      for call in workload.calls]


def _python_once(package: ModuleType, function: Callable[..., Any], calls: list[list[Any]],
                 cold: bool = True) -> tuple[float, list[Any]]:
    """One run of the engine on every call, from empty caches (as icepool's runs) unless not `cold`: its
    milliseconds and its results."""
    if cold:
        _empty_caches(package)
    start = time.process_time()
    results = [_call(function, arguments) for arguments in calls]
    return (time.process_time() - start) * 1000, results


def _empty_caches(package: ModuleType) -> None:
    """Empty every cache the engine keeps (functools caches), so that each run computes everything again."""
    for name, module in list(sys.modules.items()):
        if name.startswith(package.__name__ + ".") or name == package.__name__:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def _call(function: Callable[..., Any], arguments: list[Any]) -> Any:
    try:
        return function(*arguments)
    except Exception as exc:  # a rule with no answer here: both runtimes must refuse it alike
        return _Refused(type(exc).__name__)


@dataclass(frozen=True)
class _Refused:
    error: str


def encode(value: Any) -> Any:
    """A result as JSON, as the Node side reports it, exactly: pools as {"dice": text}, rolls as
    {"dist": [[x, "n/d"], ...]}, fractions (and whole numbers beyond MAX_INT, which JavaScript holds as fractions)
    as {"exact": "n/d"}, floats (sd) as {"float": x}, errors as {"error": name}."""
    kind = type(value).__name__  # the engine has its own copies of the runtime's classes
    if isinstance(value, _Refused):
        return {"error": value.error}
    if kind == "Dice":
        return {"dice": str(value)}
    if kind == "Dist":
        return {"dist": [[x, str(p)] for x, p in value.items()]}
    if kind == "Outcomes":
        return {"outcomes": [[label, str(p)] for label, p in value.items()]}
    if isinstance(value, Fraction) or (type(value) is int and abs(value) > MAX_INT):
        return {"exact": str(value)}
    if isinstance(value, float):
        return {"float": value}
    return list(value) if isinstance(value, (list, tuple)) else value


def agree(ours: Any, theirs: Any) -> bool:
    """The same result, exactly: both runtimes compute exact fractions, and the same float where one is made."""
    if isinstance(ours, list) and isinstance(theirs, list):
        return len(ours) == len(theirs) and all(agree(a, b) for a, b in zip(ours, theirs, strict=True))
    return bool(ours == theirs) and type(ours) is type(theirs)


def run_node(docs: Path, workloads: Sequence[Workload], runs: int) -> list[Timed]:
    """Each workload node_runs(runs) times through the site's scripts (the runtime, each system's) in one Node process,
    after NODE_WARMUP_RUNS untimed runs (the first of them timed apart): V8 compiles a function when it is first
    called and again, with its optimizing compiler, once it is hot, so the first runs would pay for compiling the
    runtime every formula shares (Python compiled it at import); the timed runs still start from empty caches."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise DiceBenchError("bench --dice runs the generated JavaScript in Node.js, and there is no node on PATH")
    spec = {"runs": node_runs(runs), "warmup": NODE_WARMUP_RUNS,
            "workloads": [{"system": w.system, "formula": w.javascript, "types": list(w.types),
                           "calls": [list(call) for call in w.calls]} for w in workloads]}
    done = subprocess.run([node, "-e", NODE_BENCH, str(docs)], input=json.dumps(spec), capture_output=True,
                          text=True, check=False, timeout=NODE_TIMEOUT_S)
    if done.returncode != 0:
        raise DiceBenchError(f"the generated JavaScript failed in Node: {done.stderr.strip()[-2000:]}")
    return [Timed(list(entry["runs_ms"]), list(entry["results"]), entry["first_ms"])
            for entry in json.loads(done.stdout)]


# Runs in Node: load the site's runtime.js and every system's script, then time each workload as the Python side does.
NODE_BENCH = r"""
"use strict";
const path = require("path");
const docs = process.argv[1];
require(path.resolve(docs, "assets/rulesc/runtime.js"));
const formulas = path.resolve(docs, "assets/rulesc/formulas");
for (const name of require("fs").readdirSync(formulas).sort()) require(path.join(formulas, name));
const R = globalThis.RulesRuntime;

class Refused { constructor(name) { this.name = name; } }

function call(f, args) {
  try { return f(...args); } catch (e) { return new Refused(e && e.name ? e.name : "Error"); }
}

function encode(value) {
  if (value instanceof Refused) return {error: value.name};
  if (value instanceof R.Dice) return {dice: String(value)};
  if (value instanceof R.Dist) {
    const out = [];
    value.weights.forEach((w, i) => { if (w) out.push([value.offset + i, String(R.ratio(w, value.total))]); });
    return {dist: out};
  }
  if (value instanceof R.Outcomes) {
    return {outcomes: value.labels.map((l, i) => [l, String(R.ratio(value.weights[i], value.total))])};
  }
  if (value instanceof R.Q) return {exact: String(value)};
  if (value instanceof R.Real) return {float: value.v};
  return value;
}

function timed(f, calls) {
  R.emptyCaches();
  const start = process.cpuUsage();
  const results = calls.map((args) => call(f, args));
  const used = process.cpuUsage(start);
  return [(used.user + used.system) / 1000, results];
}

function time(spec, runs, warmup) {
  const f = globalThis.RulesSystems[spec.system].formulas[spec.formula];
  const calls = spec.calls.map((args) => args.map((v, i) => spec.types[i] === "dice" ? R.parseDice(v) : v));
  const runs_ms = [];
  let [first_ms, results] = timed(f, calls);  /* untimed, but for the first: compiles what this formula calls */
  for (let run = 1; run < warmup; run++) results = timed(f, calls)[1];
  for (let run = 0; run < runs; run++) {
    const [took, found] = timed(f, calls);
    runs_ms.push(took);
    results = found;
  }
  return {runs_ms: runs_ms, first_ms: first_ms, results: results.map(encode)};
}

let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const spec = JSON.parse(input);
  process.stdout.write(JSON.stringify(spec.workloads.map((w) => time(w, spec.runs, spec.warmup))));
});
"""


def dice_table(rows: Sequence[Row], runs: int) -> str:
    """The rows, slowest first, under a header that says what was timed; then any disagreement, call by call."""
    lines = ["each dice formula of the content, on a workload from it: its worked examples' inputs, then every",
             "parameter at the top of its declared range (one call each); timed in the generated engine (Python; its",
             "caches emptied before each run) and in the generated JavaScript (Node; one process for all formulas, its",
             "caches emptied before each run too), each after untimed runs (Python one; Node "
             f"{NODE_WARMUP_RUNS}: V8 compiles a",
             "function on its first call and again, optimized, once it is hot, on threads whose CPU time counts;",
             "Python compiles at import; --json gives Node's first run as node_first_ms):",
             f"median of {runs} run(s) of the workload in each, in CPU time (Node's of {node_runs(runs)}, as its runs "
             "spread wider; the",
             "process's CPU time: the rest of a busy machine does not count). same: the two runtimes' results agree",
             "call by call, exactly",
             f"{'formula':<50} {'ex+top':>9} {'Python ms':>11} {'Node ms':>11} {'same':>5}"]
    for row in rows:
        calls = f"{row.workload.examples}+{len(row.workload.calls) - row.workload.examples}"
        lines.append(f"{row.workload.name:<50} {calls:>9} {row.python_ms:11.3f} {row.node_ms:11.3f} "
                     f"{'yes' if row.same else 'NO':>5}")
    lines.append(_summary(rows))
    return "\n".join(lines + _differences(rows))


def icepool_table(rows: Sequence[Row], runs: int) -> str:
    """One line per modelled formula: the engine, the JavaScript and icepool on the same calls, icepool's time over
    the engine's, and whether all three answers agree; then each disagreement."""
    lines = ["each modelled dice formula on its workload (its worked examples' inputs, then every parameter at the",
             "top of its range): the generated engine (Python) and the generated JavaScript (Node), each with its",
             "caches emptied before each run, and icepool computing the same answers in this Python process, its",
             "runs taking turns with the engine's, so that both see the same load from the rest of the machine; each",
             "timed run right after an untimed one of its own, so that each starts with its own work in the",
             "processor's caches (Node "
             f"{NODE_WARMUP_RUNS} untimed runs, as V8 compiles hot functions again, optimized, on",
             "threads whose CPU time counts; --json gives Node's first run as node_first_ms).",
             CACHES + ".",
             f"median of {runs} run(s) each ({node_runs(runs)} in Node, whose runs spread wider), in CPU time; ratio:",
             f"icepool ms / engine ms; warm: {runs} more run(s) of the engine and of icepool, taking turns, with every",
             "cache kept from the run before (ms each, and the ratio); equal: engine, JavaScript and icepool give the",
             "same answers, exactly",
             f"{'formula':<34} {'calls':>5} {'engine ms':>10} {'JS ms':>9} {'icepool ms':>10} {'ratio':>7} "
             f"{'warm ms':>8} {'icepool':>8} {'ratio':>7} {'equal':>5}"]
    for row in rows:
        assert row.icepool is not None and row.warm_ms is not None and row.icepool_warm_ms is not None
        lines.append(f"{row.workload.name:<34} {len(row.workload.calls):>5} {row.python_ms:10.3f} "
                     f"{row.node_ms:9.3f} {row.icepool.median_ms:10.3f} {_ratio(row.icepool.median_ms, row.python_ms)} "
                     f"{row.warm_ms:8.3f} {row.icepool_warm_ms:8.3f} {_ratio(row.icepool_warm_ms, row.warm_ms)} "
                     f"{_yes(row.same):>5}")
    slowest = min((row.icepool.median_ms / row.python_ms, row.workload.name) for row in rows
                  if row.icepool is not None and row.python_ms)
    warm = min((row.icepool_warm_ms / row.warm_ms, row.workload.name) for row in rows
               if row.icepool_warm_ms is not None and row.warm_ms)
    lines.append(f"{len(rows)} formulas; the engine is {slowest[0]:.1f}x faster than icepool at the least "
                 f"({slowest[1]}), warm {warm[0]:.1f}x ({warm[1]})")
    lines += _differences(rows)
    return "\n".join(lines)


def _ratio(icepool_ms: float, engine_ms: float) -> str:
    return f"{icepool_ms / engine_ms if engine_ms else float('inf'):6.1f}x"


def _yes(same: bool) -> str:
    return "yes" if same else "NO"


def _differences(rows: Sequence[Row]) -> list[str]:
    lines = []
    for row in rows:
        for call, ours, theirs in row.differences:
            lines.append(f"differs: {row.workload.name}({_shown(call)}): Python {json.dumps(ours)}, "
                         f"Node {json.dumps(theirs)}")
        for call, ours, theirs in row.icepool_differences:
            lines.append(f"differs: {row.workload.name}({_shown(call)}): engine {json.dumps(ours)}, "
                         f"icepool {json.dumps(theirs)}")
    return lines


def _shown(call: Sequence[Any]) -> str:
    return ", ".join(json.dumps(v) for v in call)


def _summary(rows: Sequence[Row]) -> str:
    calls = sum(len(row.workload.calls) for row in rows)
    python, node = sum(row.python_ms for row in rows), sum(row.node_ms for row in rows)
    differing, refused = sum(1 for row in rows if not row.same), sum(row.refused for row in rows)
    verdict = "the runtimes agree on every call" if not differing else f"{differing} formula(s) DISAGREE"
    return (f"{len(rows)} formulas, {calls} calls, {refused} refused by the engine: {python:.1f} ms in Python, "
            f"{node:.1f} ms in Node (medians added up)\n{verdict}")


def summary(rows: Sequence[Row]) -> dict[str, Any]:
    """The figures as JSON (for --json)."""
    return {"rows": [{"formula": row.workload.name, "calls": len(row.workload.calls),
                      "examples": row.workload.examples, "python_ms": round(row.python_ms, 3),
                      "node_ms": round(row.node_ms, 3), "same": row.same, "refused": row.refused,
                      **({"node_first_ms": round(row.node_first_ms, 3)} if row.node_first_ms is not None else {}),
                      **({"icepool_ms": round(row.icepool.median_ms, 3)} if row.icepool else {}),
                      **({"warm_ms": round(row.warm_ms, 3)} if row.warm_ms is not None else {}),
                      **({"icepool_warm_ms": round(row.icepool_warm_ms, 3)} if row.icepool_warm_ms is not None
                         else {})} for row in rows],
            "same": all(row.same for row in rows)}
