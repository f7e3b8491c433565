"""Builds shared between processes: the same bytes and the same errors as one process, whatever a worker does."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

import rulesc.build.outputs as outputs
import rulesc.pipeline as build
from rulesc.build.outputs import Inputs, assemble, compile_and_emit
from rulesc.build.parallel import JOBS_VARIABLE, WorkerFailed, balanced, makespan, plan, run_shares
from rulesc.build.site_config import read_settings
from rulesc.diagnostics.core import ContentError, Diagnostics
from rulesc.pipeline import Project, compile_project, discover, generate
from tests.conftest import REPO, copy_project


@pytest.fixture
def shares(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Two processes whatever the machine has, and the number of shares each build ran."""
    monkeypatch.setenv(JOBS_VARIABLE, "2")
    counts: list[int] = []

    def counted(work: Any, given: list[Any], *timings: Any) -> list[Any]:
        counts.append(len(given))
        return run_shares(work, given, *timings)

    monkeypatch.setattr(outputs, "run_shares", counted)
    return counts


def emitted(project: Project) -> list[Any]:
    """compile_and_emit as a build runs it: with the project's settings."""
    return compile_and_emit(Inputs(project, read_settings(project.root)))


def errors_of(root: Path, emit: Any) -> list[str]:
    with pytest.raises(ContentError) as failure:
        emit(Project(root))
    return [str(d) for d in failure.value.diagnostics]


@pytest.mark.slow  # compiles the bundled content twice
def test_shared_build_writes_exactly_what_one_process_writes(shares: list[int]) -> None:
    project = Project(REPO)
    inputs = Inputs(project, read_settings(REPO))
    assert assemble(inputs, compile_and_emit(inputs)) == generate(project, compile_project(project))
    assert shares == [2]


@pytest.mark.slow  # compiles the bundled content twice
def test_errors_in_a_worker_are_reported_as_one_process_reports_them(shares: list[int], tmp_path: Path) -> None:
    root = copy_project(tmp_path / "p")
    layout = discover(Project(root), Diagnostics())
    sizes = [sum(p.stat().st_size for p in (system, *chapters)) for system, chapters in layout]
    names = [[layout[i][0].parent.name for i in share] for share in balanced(sizes, 2)]
    first, second = names[0][0], names[1][0]  # a system of each share, whichever the sizes put where
    for system in (first, second):  # a schema error in one, an unknown key in the other
        chapter = sorted((root / "content" / system).glob("*.yaml"))[0]
        text = chapter.read_text(encoding="utf-8")
        chapter.write_text(text.replace("title:", "titel:", 1) if system == first else text + "\nbogus: 1\n",
                           encoding="utf-8")
    reported = errors_of(root, emitted)
    assert reported == errors_of(root, compile_project)
    assert {line.split("/")[1] for line in reported} == {first, second}
    assert shares == [2]


@pytest.mark.slow  # compiles the bundled content twice
def test_a_system_id_used_in_two_shares_is_reported(shares: list[int], tmp_path: Path) -> None:
    root = copy_project(tmp_path / "p")
    systems = sorted(p for p in (root / "content").iterdir() if p.is_dir())
    first, last = systems[0], systems[-1]
    first_id = [line for line in (first / "system.yaml").read_text().splitlines() if line.startswith("id:")][0]
    system_file = last / "system.yaml"
    system_file.write_text("\n".join(first_id if line.startswith("id:") else line
                                     for line in system_file.read_text().splitlines()) + "\n")
    reported = errors_of(root, emitted)
    assert reported == errors_of(root, compile_project)
    assert any("E0601" in line for line in reported)


def test_a_worker_that_dies_makes_the_caller_redo_the_work() -> None:
    def work(share: int) -> int:
        if share == 2:
            os._exit(3)
        return share * 10

    assert run_shares(work, [1, 3]) == [10, 30]
    with pytest.raises(WorkerFailed):
        run_shares(work, [1, 2])


def test_an_error_in_this_process_share_stops_the_children() -> None:
    def work(share: int) -> int:
        if share == 1:
            raise ValueError("first share")
        return share

    with pytest.raises(ValueError, match="first share"):
        run_shares(work, [1, 2, 3])


def test_shares_balance_by_size_and_keep_their_order() -> None:
    assert balanced([5, 5, 5, 5, 5], 2) == [[1, 3], [0, 2, 4]]
    assert balanced([10, 1, 1, 1], 2) == [[1, 2, 3], [0]]
    assert balanced([3], 2) == [[0]]


def test_no_forking_while_another_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, "4")
    assert len(plan([1, 1, 1])) == 3
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert plan([1, 1, 1]) == [[0, 1, 2]]
    finally:
        stop.set()
        other.join()
    monkeypatch.setenv(JOBS_VARIABLE, "1")
    assert plan([1, 1, 1]) == [[0, 1, 2]]


def test_makespan_shares_the_cpus_between_the_processes_still_running() -> None:
    assert makespan([1, 1, 1, 1, 1], 2) == 2.5
    assert makespan([3, 2], 2) == 3
    assert makespan([2, 2, 1], 2) == 2.5
    assert makespan([2, 1, 1, 1], 2) == 3
    assert makespan([4], 2) == 4


def test_the_plan_takes_the_fewest_processes_that_end_soonest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(JOBS_VARIABLE, raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert plan([5, 5, 5, 5, 5]) == [[2], [0, 3], [1, 4]]  # 2.5 systems' time; two processes would take 3
    assert plan([10, 1, 1, 1]) == [[1, 2, 3], [0]]  # the big one alone, the rest beside it
    assert plan([7, 3]) == [[1], [0]]
    assert plan([7]) == [[0]]
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    assert plan([5, 5, 5, 5, 5]) == [[0, 1, 2, 3, 4]]


@pytest.mark.slow  # builds the bundled content twice
def test_workers_write_their_files_as_one_process_would(shares: list[int], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def tree(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted((root / "build").rglob("*"))
                if p.is_file()}

    shared, alone = copy_project(tmp_path / "shared"), copy_project(tmp_path / "alone")
    counted = build.build_project(Project(shared), site=False).files
    monkeypatch.setenv(JOBS_VARIABLE, "1")
    assert build.build_project(Project(alone), site=False).files == counted
    assert shares == [2]  # only the first build shared its systems
    assert tree(shared) == tree(alone) and len(tree(shared)) == counted
