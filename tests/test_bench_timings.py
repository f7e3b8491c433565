"""The build's own stage timings, which `rulesc bench --rules` reads: recorded in every process, merged in one."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from rulesc.build.parallel import JOBS_VARIABLE, run_shares
from rulesc.pipeline import Project, Timings, build_project

ROOT = Path(__file__).resolve().parent.parent
COMPILE_STAGES = {"load", "validate", "model", "semantic", "formulas", "pages", "search_records", "export", "write"}


def test_timings_add_up_a_stage_each_time_it_runs() -> None:
    timings = Timings()
    for _ in range(2):
        with timings.stage("load"):
            time.sleep(0.02)
    assert timings.wall["load"] >= 0.04 and set(timings.cpu) == {"load"}
    other = Timings({"load": 1.0, "pages": 2.0}, {"load": 0.5, "pages": 1.5}, 1, 300)
    timings.merge(other)
    assert timings.wall["pages"] == 2.0 and timings.wall["load"] >= 1.04 and timings.cpu["pages"] == 1.5
    assert (timings.workers, timings.workers_kib) == (1, 300)


def test_forked_workers_send_back_what_they_recorded() -> None:
    timings = Timings()

    def work(share: int) -> int:
        with timings.stage("load"):
            ballast = b"x" * (share - 1) * (32 << 20)  # the child grows by 32 MiB; this process by nothing
            time.sleep(0.05 * share)
        del ballast
        return share

    timings.add("before", 1.0, 1.0)  # recorded here before the fork: a child must not send it back again
    assert run_shares(work, [1, 2], timings) == [1, 2]
    assert timings.wall["load"] >= 0.15  # this process's 0.05 s and the child's 0.10 s
    assert timings.workers == 1 and 24 * 1024 <= timings.workers_kib < 64 * 1024  # the child's 32 MiB
    assert timings.wall == {"before": 1.0, "load": timings.wall["load"]}


def two_systems(root: Path) -> Project:
    minimal = ROOT / "tests/cases/good/minimal/content/mini"
    for name in ("mini", "other"):
        shutil.copytree(minimal, root / "content" / name)
    system = root / "content/other/system.yaml"
    system.write_text(system.read_text(encoding="utf-8").replace("id: mini", "id: other"), encoding="utf-8")
    return Project(root)


def test_a_build_reports_each_stage_of_every_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(JOBS_VARIABLE, "2")
    assert threading.enumerate() == [threading.main_thread()]  # an earlier test left a thread: builds won't fork
    timings = build_project(two_systems(tmp_path / "shared"), site=False).timings
    assert set(timings.wall) == COMPILE_STAGES | {"swap"}  # no site: no mkdocs, no search index
    assert set(timings.cpu) == set(timings.wall) and all(seconds >= 0 for seconds in timings.wall.values())
    assert timings.workers == 1
    monkeypatch.setenv(JOBS_VARIABLE, "1")
    assert build_project(two_systems(tmp_path / "alone"), site=False).timings.workers == 0
