"""`rulesc bench --rules N`: time every stage of a full build of a synthetic N-rule book, and its peak memory.

The build runs in a fresh (spawned) process so its peak RSS is its own. The stage figures are the build's own:
`rulesc build` records the wall and CPU time of each stage in every process that works on it (BuildResult.timings),
so the benchmark times the real build, not a copy of it or a build with hooks in it.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulesc.bench.needs import Unavailable
from rulesc.bench.synthetic import write_rulebook
from rulesc.build.site_config import CONFIG
from rulesc.compile import Timings, cpu_seconds

# The stages BuildResult.timings names, in pipeline order: all before "mkdocs" are rulesc's own (the compile).
REPORTED = ("load", "validate", "model", "semantic", "formulas", "pages", "search_records", "export", "write",
            "mkdocs", "search_index", "swap")
Progress = Callable[[str], None]


def measure_build(root: Path, progress: Progress) -> dict[str, Any]:
    """One full `rulesc build` of the project at `root`, timed stage by stage, then one incremental rebuild."""
    from rulesc.compile import compile_project
    from rulesc.pipeline import build_project

    progress("build")
    wall, cpu = time.perf_counter(), cpu_seconds()
    timings = build_project(_project(root)).timings
    timings.add("total", time.perf_counter() - wall, cpu_seconds() - cpu)
    figures = _build_figures(timings)
    progress("incremental")
    figures.update(measure_incremental(root, compile_project(_project(root))))
    figures["peak_mib"] = _peak_mib(timings.workers_kib)
    figures["compile_processes"] = 1 + timings.workers
    return figures


def _project(root: Path) -> Any:
    from rulesc.compile import Project

    return Project(root)


def _build_figures(timings: Timings) -> dict[str, Any]:
    """Each stage's wall and CPU seconds; compile is everything before MkDocs: the whole build less MkDocs, the
    search index and the swap after them (moving the new outputs in and removing the old, 0.06 s for a
    5,000-rule site), which is reported on its own."""
    wall, cpu = dict(timings.wall), dict(timings.cpu)
    for times in (wall, cpu):
        times["compile"] = times["total"] - sum(times.get(name, 0.0) for name in ("mkdocs", "search_index", "swap"))
    figures: dict[str, Any] = {f"{name}_seconds": round(wall.get(name, 0.0), 3)
                               for name in (*REPORTED, "compile", "total")}
    figures["cpu_seconds"] = {name: round(cpu.get(name, 0.0), 3) for name in (*REPORTED, "compile", "total")}
    return figures


def _peak_mib(workers_kib: int) -> float:
    """Peak memory of the build in MiB, counted high: this process's peak RSS plus what its compile workers grew
    by, as if all of them peaked at once, or Pagefind's peak if that is more (ru_maxrss is KiB on Linux).

    A forked child's figure starts from this process's RSS when it was forked, so Pagefind is never reported
    below it, and a compile worker's own share is its peak less the RSS it started with.
    """
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return round(max(own + workers_kib, child) / 1024, 1)


EDIT_MARK = "Edited for the incremental benchmark"


def measure_incremental(root: Path, compiled: Any) -> dict[str, float]:
    """As `rulesc serve` does after a save: refresh build/docs in place, then MkDocs rebuilds the changed pages
    (a dirty build) while the search index catches up in the background.

    Times from the edited content file to the regenerated page on disk (split into rulesc's refresh of build/ and
    the MkDocs rebuild with its search index), and checks the page shows the edit. Not counted: the watcher's poll
    interval (0.3 s in `rulesc serve`) and the browser's reload.
    """
    from rulesc.build.site_config import read_settings
    from rulesc.build.staging import PREVIEW_OUTPUTS, SITE
    from rulesc.emit.site.links import rule_page, url_of
    from rulesc.emit.site.search import wait_for_search_index
    from rulesc.pipeline import build_site, compiled_nav, refresh_outputs

    project = _project(root)
    program, rule = _largest_chapter_rule(compiled)
    _edit_rule_text(root / rule.span.file, rule)
    start = time.perf_counter()
    refresh_outputs(project, PREVIEW_OUTPUTS)
    refreshed = time.perf_counter()
    build_site(read_settings(root), root / "build/docs", root / SITE, compiled_nav(compiled), dirty=True,
               background_search=True)
    done = time.perf_counter()
    wait_for_search_index()  # not part of the time: the page is already shown; search catches up after it
    page = root / SITE / url_of(rule_page(program.system, rule)) / "index.html"
    if EDIT_MARK not in page.read_text(encoding="utf-8"):
        raise BenchError(f"the incremental rebuild did not show the edit in {page}")
    return {"incremental_seconds": round(done - start, 3), "incremental_refresh_seconds": round(refreshed - start, 3),
            "incremental_site_seconds": round(done - refreshed, 3)}


def _largest_chapter_rule(compiled: Any) -> tuple[Any, Any]:
    """The first rule of the chapter with the most rules: the page that costs most to regenerate."""
    chapters = [(len(chapter.rules), program, chapter) for program in compiled.programs
                for chapter in program.system.chapters]
    _, program, chapter = max(chapters, key=lambda entry: entry[0])
    return program, chapter.rules[0]


def _edit_rule_text(path: Path, rule: Any) -> None:
    """Put EDIT_MARK in front of the rule's text where it stands in the YAML file."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: rule.span.line - 1])
    first = rule.text.source.split()[0]
    at = source.find(first, source.find("text:", start) + len("text:"))
    if at < 0:
        raise BenchError(f"could not find the text of rule '{rule.id}' in {path}")
    path.write_text(f"{source[:at]}{EDIT_MARK}. {source[at:]}", encoding="utf-8")


class BenchError(Exception):
    """The benchmark could not run (its own synthetic book failed, or the site lacks an expected page)."""


def _worker(root: str, events: Any) -> None:
    """Runs in a spawned process: measure the build and send progress events and the figures back.

    The events go through a pipe, not a queue: a queue's feeder thread would make the build see another thread
    running and keep all its work in one process.
    """
    try:
        events.send(("figures", measure_build(Path(root), lambda stage: events.send(("stage", stage)))))
    except BaseException as exc:  # reported by the parent, which owns the exit status
        events.send(("error", f"{type(exc).__name__}: {exc}"))


def build_in_subprocess(root: Path, progress: Progress) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    events, sender = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(str(root), sender))
    process.start()
    sender.close()
    try:
        while True:
            if not events.poll(1) and process.is_alive():
                continue
            try:  # a dead process's pipe still gives what it sent, then EOFError
                kind, payload = events.recv()
            except EOFError:
                process.join()
                raise BenchError(f"the build process died (exit status {process.exitcode})") from None
            if kind == "stage":
                progress(payload)
            elif kind == "error":
                raise BenchError(f"the build failed: {payload}")
            else:
                return dict(payload)
    finally:
        process.join()


def measure_check(root: Path) -> float:
    """Wall seconds of the whole `rulesc check`, in its own process as a user runs it."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulesc.cli", "--root", str(root), "check"],
                          capture_output=True, text=True, check=False, env=_env())
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise BenchError(f"rulesc check failed on the synthetic book:\n{done.stderr.strip()}")
    return round(seconds, 3)


def _env() -> dict[str, str]:
    package_root = str(Path(__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}


def search_payload(site: Path, page: str) -> dict[str, Any]:
    """Bytes of search assets (index, engine, worker) a page loads before the reader types: on load, and in all
    once the search box has focus (site.js starts loading Pagefind then); and every byte the page loads.

    Measured in headless Chromium when it is available (what a browser really fetches, including what scripts
    fetch); otherwise (no Playwright, no Chromium: bench/needs.py) read from the page's own <script>/<link> tags.
    """
    try:
        (loaded, focused), method = _loaded_in_chromium(site, page), "chromium"
    except (Unavailable, OSError) as exc:
        loaded, method = _referenced(site, page), f"static ({type(exc).__name__})"
        focused = loaded
    on_load = [path for path in loaded if _is_search_asset(path)]
    search = [path for path in focused if _is_search_asset(path)]
    return {"search_payload_bytes": _bytes(site, search), "search_payload_on_load_bytes": _bytes(site, on_load),
            "page_load_bytes": _bytes(site, loaded), "search_payload_files": sorted(set(search)),
            "search_payload_method": method}


def _is_search_asset(path: str) -> bool:
    return path.startswith("pagefind/") or "search" in Path(path).name or path.startswith("search/")


def _bytes(site: Path, paths: list[str]) -> int:
    return sum((site / p).stat().st_size for p in set(paths) if (site / p).is_file())


SEARCH_INPUT = "input[type=search]"


def _loaded_in_chromium(site: Path, page: str) -> tuple[list[str], list[str]]:
    from rulesc.bench.calculators import serve_static
    from rulesc.bench.needs import CHROMIUM_ARGS, find_chromium, playwright

    sync_playwright, chromium = playwright("bench --rules"), find_chromium()
    from playwright.sync_api import Error  # there to import: playwright() found the package

    with serve_static(site) as url, sync_playwright() as driver:
        try:
            browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        except Error as exc:
            raise OSError(str(exc)) from exc
        try:
            tab = browser.new_page()
            fetched: list[str] = []
            tab.on("requestfinished", lambda request: fetched.append(request.url))
            tab.goto(url + page, wait_until="networkidle")
            loaded = list(fetched)
            if tab.locator(SEARCH_INPUT).count():
                tab.locator(SEARCH_INPUT).first.focus()  # the reader clicks the search box, not yet typing
                _settle(tab, fetched)
        finally:
            browser.close()
    return [_local(u[len(url):]) for u in loaded if u.startswith(url)], \
        [_local(u[len(url):]) for u in fetched if u.startswith(url)]


def _settle(tab: Any, fetched: list[str], quiet_ms: int = 500) -> None:
    """Wait until no request has finished for `quiet_ms` (at most 10 s)."""
    for _ in range(20):
        count = len(fetched)
        tab.wait_for_timeout(quiet_ms)
        if len(fetched) == count:
            return


def _local(path: str) -> str:
    path = path.split("#")[0].split("?")[0]
    return path + "index.html" if path.endswith("/") or not path else path


def _referenced(site: Path, page: str) -> list[str]:
    html = (site / _local(page)).read_text(encoding="utf-8")
    base = (site / _local(page)).parent
    refs = re.findall(r'(?:src|href)="([^"#?]+\.(?:js|css|json))', html)
    paths = [(base / ref).resolve().relative_to(site.resolve()).as_posix() for ref in refs if "://" not in ref]
    return [_local(page), *paths]


def run_bench(project: Any, rules: int | None, repeat: int, progress: Progress) -> dict[str, Any]:
    """Build a synthetic book of `rules` rules (or a copy of the project's own content when None) `repeat` times;
    each figure is the median of the runs."""
    if not (project.root / CONFIG).is_file():
        raise BenchError(f"the benchmark builds the site with the project's mkdocs.yml, and there is none in "
                         f"{project.root} (run from the project root, or pass --root)")
    with tempfile.TemporaryDirectory(prefix="rulesc-bench-rules-") as folder:
        root = Path(folder) / "book"
        progress("generate")
        if rules is None:
            _copy_project(project.root, root)
        else:
            write_rulebook(root, rules, project.root)
        runs = [_one_run(root, run, repeat, progress) for run in range(repeat)]
        figures = _medians(runs)
        progress("search payload")
        figures.update(_site_figures(root))
    counted = figures.pop("content_rules")
    return {"rules": rules if rules is not None else counted, "book": "synthetic" if rules is not None else "content",
            "runs": repeat, **figures}


def _copy_project(source: Path, target: Path) -> None:
    import shutil

    for folder in ("content", "schema", "site_overrides"):
        if (source / folder).is_dir():
            shutil.copytree(source / folder, target / folder)
    shutil.copy2(source / CONFIG, target / CONFIG)


def _one_run(root: Path, run: int, repeat: int, progress: Progress) -> dict[str, Any]:
    label = f" (run {run + 1} of {repeat})" if repeat > 1 else ""
    figures = build_in_subprocess(root, lambda stage: progress(stage + label))
    progress("check" + label)
    figures["check_seconds"] = measure_check(root)
    return figures


def _medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for key, value in runs[0].items():
        if isinstance(value, dict):
            merged[key] = _medians([run[key] for run in runs])
        else:
            merged[key] = round(statistics.median(run[key] for run in runs), 3)
    return merged


def _site_figures(root: Path) -> dict[str, Any]:
    """Pages of the built site, rules counted from the content, and the search payload of the biggest chapter."""
    from rulesc.build.staging import SITE
    from rulesc.compile import compile_project

    compiled = compile_project(_project(root))
    program, rule = _largest_chapter_rule(compiled)
    site = root / SITE
    pages = [p for p in site.rglob("*.html") if "pagefind" not in p.relative_to(site).parts]
    chapter = f"{program.system.id}/{rule.chapter}/"
    return {"pages": len(pages), "systems": len(compiled.programs),
            "chapters": sum(len(p.system.chapters) for p in compiled.programs),
            "content_rules": sum(len(p.rules) for p in compiled.programs),
            "payload_page": chapter, **search_payload(site, chapter)}


__all__ = ["BenchError", "measure_build", "measure_incremental", "run_bench", "search_payload"]
