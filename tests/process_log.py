"""A pytest plugin that logs the processes and builds the tests start: `pytest -p tests.process_log` (off unless named).

Each pytest process (every xdist worker) appends one JSON line to $RULESC_PROCESS_LOG (default: process-log.jsonl in
the current folder) for every process it starts, with the test that started it and its command line, and for every
build_project() it runs in-process, with the project's root and its CPU seconds (this process and its finished
children). An audit hook sees every start through subprocess, os.exec* or os.spawn*; the processes those processes
start (a build's forked workers, Chromium's renderers) are not counted."""

from __future__ import annotations

import functools
import json
import os
import resource
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import rulesc.pipeline

STARTS = {"subprocess.Popen", "os.exec", "os.spawn"}  # not os.posix_spawn: subprocess raises both for one start
LOG = os.environ.get("RULESC_PROCESS_LOG", "process-log.jsonl")


def pytest_configure() -> None:
    sys.addaudithook(lambda event, args: _started(event, args) if event in STARTS else None)


def _started(event: str, args: tuple[Any, ...]) -> None:
    argv = args[1] if len(args) > 1 and isinstance(args[1], Sequence) and not isinstance(args[1], str | bytes) \
        else args[:1]
    _write({"event": event, "argv": [os.fsdecode(a) if isinstance(a, str | bytes | os.PathLike) else str(a)
                                     for a in argv]})


def _write(record: dict[str, Any]) -> None:
    record["test"] = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(json.dumps(record) + "\n")


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _logged(build: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(build)
    def logged(project: Any, *args: Any, **kwargs: Any) -> Any:
        cpu, wall = _cpu(), time.perf_counter()
        try:
            return build(project, *args, **kwargs)
        finally:
            _write({"event": "build_project", "root": str(project.root), "cpu": round(_cpu() - cpu, 2),
                    "wall": round(time.perf_counter() - wall, 2), "options": {**kwargs}})
    return logged


# Before conftest and the test modules import it by name, so each of them gets the logging one.
rulesc.pipeline.build_project = _logged(rulesc.pipeline.build_project)
