"""Helpers to run the same calls through the generated Python engine and the generated JavaScript."""

from __future__ import annotations

import atexit
import functools
import importlib
import json
import select
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from rulesc.analyze.program import Program
from rulesc.bench.dice import encode as bench_encode
from rulesc.pipeline import Project, build_project, compile_project

CASES = Path(__file__).resolve().parent / "cases"
Built = tuple[Path, Program, ModuleType]
"""A rulebook built in a folder of its own: the folder, its compiled system, its engine module imported."""

HARNESS = Path(__file__).resolve().parent / "js_harness.js"


def node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    assert found, "Node.js is needed to run the generated JavaScript (.ci/run installs it)"
    return found


class NodeHarness:
    """A Node process running a harness script (js_harness.js, differential.js) for many requests: starting Node
    for each took most of the time of the tests that ask it little. A request is a line of JSON in, its answer a
    line out; a request that gets no answer (Node crashed, or hung past the timeout) fails with Node's stderr, and
    the next request starts a new process."""

    TIMEOUT = 300

    def __init__(self, script: Path) -> None:
        self.script = script
        self.process: subprocess.Popen[str] | None = None
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by __exit__, after the process

    def __enter__(self) -> NodeHarness:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def ask(self, request: dict[str, Any]) -> Any:
        """The answer to one request, as the script printed it."""
        process = self.process = self.process or subprocess.Popen(
            [node(), str(self.script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], self.TIMEOUT)
        line = process.stdout.readline() if ready else ""
        if not line:
            self.stop()
            self.stderr.seek(0)
            raise AssertionError(f"no answer from Node: {self.stderr.read().decode(errors='replace')[-2000:]}")
        return json.loads(line)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=30)
            self.process = None

    def close(self) -> None:
        self.stop()
        self.stderr.close()


@functools.cache
def js_harness() -> NodeHarness:
    """The js_harness.js process of this test process, started at its first call and ended as it exits."""
    harness = NodeHarness(HARNESS)
    atexit.register(harness.close)
    return harness


def run_js(docs: Path, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each call's result in the generated JavaScript of the build whose docs are `docs`."""
    return list(js_harness().ask({"docs": str(docs), "calls": calls}))


def encode(value: Any) -> Any:
    """Values as both backends report them, exactly, in the encoding `rulesc bench --dice` compares with
    (bench/dice.py's encode(): {'dice': text}, {'dist': [[x, 'n/d'], ...]}, {'outcomes': ...}, {'exact': 'n/d'},
    {'float': x}); an expected distribution (a dict of outcomes) and a calculator's outputs (a dict by name) too."""
    if isinstance(value, dict) and all(isinstance(k, int) for k in value):  # an expected distribution
        return {"dist": [[x, str(Fraction(p))] for x, p in sorted(value.items()) if p]}
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return bench_encode(value)


def agree(a: Any, b: Any) -> bool:
    """Exactly equal: both runtimes compute exactly, so a probability or a branch never differs."""
    return bool(a == b) and type(a) is type(b) and (not isinstance(a, dict) or all(agree(a[k], b[k]) for k in a))


def import_engine(engine_dir: Path, module: str) -> Any:
    """Import rules_engine.<module> from a built engine folder, first on sys.path even if another test left it there
    behind another engine (a shared build's engine is imported by the tests of several files)."""
    if str(engine_dir) in sys.path:
        sys.path.remove(str(engine_dir))
    sys.path.insert(0, str(engine_dir))
    for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
        del sys.modules[name]
    return importlib.import_module(f"rules_engine.{module}")


def drop_engine(root: Path) -> None:
    """Take a built engine off sys.path and out of sys.modules, so the next test imports its own."""
    folder = str(root / "build/engine")
    while folder in sys.path:
        sys.path.remove(folder)
    for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
        del sys.modules[name]


@contextmanager
def built_case(tmp_path_factory: pytest.TempPathFactory, case: str) -> Iterator[Built]:
    """A golden good case (tests/cases/good/<case>) built without its site, its engine imported, for a module's
    tests; the engine is dropped again afterwards."""
    root = tmp_path_factory.mktemp(case)
    shutil.copytree(CASES / "good" / case / "content", root / "content")
    with built_engine(root) as built:
        yield built


@contextmanager
def built_engine(root: Path) -> Iterator[Built]:
    """The project at root built without its site, its (one system's) engine imported while the block runs."""
    build_project(Project(root), site=False)
    program = compile_project(Project(root)).programs[0]
    try:
        yield root, program, import_engine(root / "build/engine", program.system.module)
    finally:
        drop_engine(root)


def icepool_chances(die: Any) -> dict[object, Fraction]:
    """An icepool Die as outcome -> exact chance, to compare with a runtime's items()."""
    total = die.denominator()
    return {k: Fraction(v, total) for k, v in die.items() if v}
