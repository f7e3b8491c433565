"""Forked workers: shares of independent work done side by side, each child's result sent back pickled.

Game systems are independent compilation units, so a build gives each process a share of them. Fork (not spawn)
lets a child start at once with everything this process has imported; it writes its pickled result to a pipe
and leaves with os._exit, so it never runs this process's exit handlers or flushes its buffers.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rulesc.compile import Timings

Share = TypeVar("Share")
Result = TypeVar("Result")
JOBS_VARIABLE = "RULESC_JOBS"  # a number of processes; 1 keeps all the work in this one
SHARES_PER_CPU = 4


class WorkerFailed(Exception):
    """A child raised or died; the caller redoes the work in one process, where any error shows as usual."""


def plan(sizes: Sequence[int]) -> list[list[int]]:
    """How to share tasks of these sizes between processes: lists of task indices, one per process.

    One share where forking is unsafe (another thread runs, whose locks a child would inherit held) or there is
    one CPU. RULESC_JOBS sets the number of processes. Otherwise the kernel shares the CPUs between more
    processes than CPUs: five equal systems take three systems' time as two processes on two CPUs, but 2.5 as
    three (2, 2 and 1) or five. Of the counts up to SHARES_PER_CPU per CPU, the fewest processes whose shares
    end within 1% of the soonest are used.
    """
    if not hasattr(os, "fork") or threading.active_count() > 1 or len(sizes) < 2:
        return [list(range(len(sizes)))]
    wanted = os.environ.get(JOBS_VARIABLE, "")
    if wanted.isdigit() and int(wanted) > 0:
        return balanced(sizes, min(len(sizes), int(wanted)))
    cpus = len(os.sched_getaffinity(0))
    if cpus < 2:
        return [list(range(len(sizes)))]
    options = [balanced(sizes, count) for count in range(cpus, min(len(sizes), SHARES_PER_CPU * cpus) + 1)]
    if not options:
        return balanced(sizes, len(sizes))
    ends = [makespan([sum(sizes[i] for i in share) for share in option], cpus) for option in options]
    return next(option for option, end in zip(options, ends, strict=True) if end <= min(ends) * 1.01)


def makespan(loads: Sequence[float], cpus: int) -> float:
    """When the last of these loads ends, run side by side with the CPUs shared equally between the processes
    still running (as the kernel shares them between equally busy processes)."""
    elapsed = done = 0.0
    remaining = sorted(loads)
    for index, load in enumerate(remaining):
        running = len(remaining) - index
        elapsed += (load - done) / min(1.0, cpus / running)
        done = load
    return elapsed


def balanced(sizes: Sequence[int], count: int) -> list[list[int]]:
    """Indices of `sizes` in `count` shares of about equal total size (largest first, each to the lightest
    share); each share keeps its indices in order, and the lightest share comes first."""
    shares: list[list[int]] = [[] for _ in range(count)]
    totals = [0] * count
    for index in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        lightest = min(range(count), key=lambda s: (totals[s], s))
        shares[lightest].append(index)
        totals[lightest] += sizes[index]
    order = sorted(range(count), key=lambda s: (totals[s], s))
    return [sorted(shares[s]) for s in order if shares[s]]


def run_shares(work: Callable[[Share], Result], shares: Sequence[Share],
               timings: Timings | None = None) -> list[Result]:
    """work(share) for every share, in order: the first in this process, each other one in a forked child.

    What work records in `timings` in a child (its copy starts empty there) comes back and is merged into
    `timings` here, with how much memory the child grew by. An exception in the first share propagates once the
    children are stopped; a child that raised or died raises WorkerFailed.
    """
    children = [_fork(work, share, timings) for share in shares[1:]]
    try:
        results = [work(shares[0])]
    except BaseException:
        for pid, pipe in children:
            os.kill(pid, signal.SIGKILL)
            _collect(pid, pipe)
        raise
    outcomes = [_collect(pid, pipe) for pid, pipe in children]
    if any(outcome is None for outcome in outcomes):
        raise WorkerFailed("a worker process failed")
    for result, recorded in (outcome for outcome in outcomes if outcome is not None):
        if timings is not None:
            timings.merge(recorded)
        results.append(result)
    return results


def _fork(work: Callable[[Share], Result], share: Share, timings: Timings | None) -> tuple[int, int]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            os.close(read)
            recorded = _start_recording(timings)
            result = work(share)
            payload = pickle.dumps((result, _recorded(recorded)), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as out:
                out.write(payload)
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    return pid, read


def _start_recording(timings: Timings | None) -> tuple[Timings, int]:
    """In a child: empty its copy of `timings` (the parent's figures are the parent's), and note its memory."""
    timings = timings or Timings()
    timings.wall.clear()
    timings.cpu.clear()
    return timings, _rss_kib()


def _recorded(recording: tuple[Timings, int]) -> Timings:
    """What the child recorded, as one worker that grew from the memory it started with to its peak."""
    import resource

    timings, start_kib = recording
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return Timings(dict(timings.wall), dict(timings.cpu), 1, max(0, peak_kib - start_kib))


def _rss_kib() -> int:
    """This process's resident set now, in KiB (0 where /proc is missing: then a child's whole peak counts)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except OSError:
        return 0


def _collect(pid: int, pipe: int) -> tuple[Any, Timings] | None:
    """What the child sent, once it has exited; None if it failed."""
    chunks = []
    with os.fdopen(pipe, "rb") as source:
        while chunk := source.read(1 << 20):
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        return None
    return pickle.loads(b"".join(chunks))  # type: ignore[no-any-return]
