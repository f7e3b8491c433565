"""Benchmark: where a page's first visit spends the renderer's main thread, from a Chromium trace (#35).

Run, after `rulesc build`:  python benchmarks/page_trace.py [--runs N] SITE PAGE [PAGE ...]
Each page is loaded N times (3 by default) in a fresh context at 412 px with the CPU 4x slower, and traced until a
second and a half after its load event. It prints each page's medians: the main thread's CPU time (thread time, not
wall time: a busy machine stretches the wall clock far more than the work) split into parsing, style, layout,
paint and script; how many style, layout and paint passes the load took; and its tasks over 50 ms of wall time.
Then what lies between the parse's end and the load event, which ends `rulesc bench --phone`'s ready time when no
long task follows it: the elements restyled and the boxes laid out up to the load event (counts, which a busy
machine does not move: a second pass over the same headings shows here), and the main thread's CPU from the end of
the parse to the load event.
Lighthouse's blocking time and `rulesc bench --phone`'s ready time are wall times, and on a shared machine they
move with its load (a page's ready time went from 1.5 to 5 s at a load average of 15-28 on two cores). CPU time
moves less, but it moves too: about a third run to run at a steady load, up to twice as much between a load of
15 and one of 30 (the cores' caches and clocks are shared). Run the variants in turn, more than once, and
trust only a difference larger than that; the counts of passes move least. The remainder of "cpu ms" past the
five kinds is the navigation itself, loading, garbage collection and the like.
Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesc.bench.calculators import serve_static  # noqa: E402
from rulesc.bench.needs import CHROMIUM_ARGS, find_chromium, playwright  # noqa: E402

PHONE = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75, "is_mobile": True,
         "has_touch": True, "service_workers": "block"}
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading"]
KINDS = {"ParseHTML": "parse", "UpdateLayoutTree": "style", "Layout": "layout", "Paint": "paint",
         "PrePaint": "paint", "Layerize": "paint", "Commit": "paint", "EvaluateScript": "script",
         "FunctionCall": "script", "TimerFire": "script", "EventDispatch": "script", "FireAnimationFrame": "script",
         "RunMicrotasks": "script", "v8.compile": "script"}
PASSES = ("UpdateLayoutTree", "Layout", "Paint")
COLUMNS = ["cpu", "parse", "style", "layout", "paint", "script", "UpdateLayoutTree", "Layout", "Paint", "long",
           "restyled", "laid out", "after parse"]
HEADINGS = ["cpu ms", "parse", "style", "layout", "paint", "script", "styles", "layouts", "paints", "long tasks",
            "restyled", "laid out", "after parse"]
LONG_US = 50_000
AFTER_LOAD_MS = 1500  # how long a trace goes on after the load event


def parser_thread(events: list[dict[str, Any]], url: str) -> tuple[int, int]:
    """The process and thread that parsed `url` (a closing tab's renderer may still be traced)."""
    parsers = Counter((e["pid"], e["tid"]) for e in events if e.get("name") == "ParseHTML"
                      and e.get("args", {}).get("beginData", {}).get("url") == url)
    return parsers.most_common(1)[0][0]


def main_thread(events: list[dict[str, Any]], url: str) -> list[dict[str, Any]]:
    """The complete events of the main thread that parsed `url`."""
    thread = parser_thread(events, url)
    done = [e for e in events if (e["pid"], e["tid"]) == thread and e.get("ph") == "X" and "dur" in e]
    return sorted(done, key=lambda e: (e["ts"], -e["dur"]))


def figures(events: list[dict[str, Any]], url: str) -> Counter[str]:
    """One load of `url`: its CPU ms by kind (each event counted once, not again inside another of a kind), its
    style, layout and paint passes, and its tasks over 50 ms."""
    out: Counter[str] = Counter()
    open_: list[dict[str, Any]] = []
    for event in main_thread(events, url):
        while open_ and event["ts"] >= open_[-1]["ts"] + open_[-1]["dur"]:
            open_.pop()
        count(out, event, open_)
        open_.append(event)
    return out


def to_load(events: list[dict[str, Any]], url: str) -> Counter[str]:
    """One load of `url` up to its load event: the elements restyled, the boxes laid out, and the main thread's CPU
    ms in the tasks that started once the parse had ended."""
    done = main_thread(events, url)
    parses = [e for e in done if e["name"] == "ParseHTML" and e["args"]["beginData"].get("url") == url]
    frame = parses[0]["args"]["beginData"]["frame"]
    loaded = max(e["ts"] for e in events if e.get("name") == "MarkLoad" and e["args"]["data"]["frame"] == frame)
    parsed = max(e["ts"] + e["dur"] for e in parses)
    out: Counter[str] = Counter()
    for event in (e for e in done if e["ts"] <= loaded):
        args = event.get("args", {})
        if event["name"] == "UpdateLayoutTree":
            out["restyled"] += args.get("elementCount", 0)
        elif event["name"] == "Layout":
            out["laid out"] += args.get("beginData", {}).get("dirtyObjects", 0)
    tasks = [e for e in done if e["name"] == "RunTask" and parsed <= e["ts"] <= loaded]
    out["after parse"] += sum(e.get("tdur", 0) for e in tasks if not _inside(e, tasks)) / 1000
    return out


def _inside(task: dict[str, Any], tasks: list[dict[str, Any]]) -> bool:
    """Whether `task` runs inside another of `tasks` (a nested run loop's task)."""
    return any(o is not task and o["ts"] <= task["ts"] and task["ts"] + task["dur"] <= o["ts"] + o["dur"]
               for o in tasks)


def count(out: Counter[str], event: dict[str, Any], enclosing: list[dict[str, Any]]) -> None:
    """Adds one event to a load's figures, given the events it runs inside."""
    name, cpu_ms = event["name"], event.get("tdur", 0) / 1000
    if name == "RunTask" and not enclosing:
        out["cpu"] += cpu_ms
        out["long"] += event["dur"] > LONG_US
    kind = KINDS.get(name)
    if kind and not any(KINDS.get(outer["name"]) for outer in enclosing):
        out[kind] += cpu_ms
    if name in PASSES and not any(outer["name"] == name for outer in enclosing):
        out[name] += 1


def traced_visit(browser: Any, url: str, *, cpu: float = 4, categories: list[str] = CATEGORIES,
                 prepare: Callable[[Any], None] | None = None) -> list[dict[str, Any]]:
    """One first visit to `url` on a phone, with the CPU `cpu` times slower, traced until AFTER_LOAD_MS after its
    load event; its trace events. `prepare` is given the page before the visit (to route its requests, say)."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        if cpu != 1:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
        if prepare:
            prepare(page)
        browser.start_tracing(page=page, categories=categories)
        page.goto(url, wait_until="load")
        page.wait_for_timeout(AFTER_LOAD_MS)
        events: list[dict[str, Any]] = json.loads(browser.stop_tracing())["traceEvents"]
        return events
    finally:
        context.close()


def trace_load(browser: Any, url: str) -> Counter[str]:
    """One first visit to `url`, traced with the CPU 4x slower; its figures."""
    events = traced_visit(browser, url)
    return figures(events, url) + to_load(events, url)


def table(loads: dict[str, list[Counter[str]]]) -> str:
    """Each page's medians over its loads."""
    lines = [f"{'page':<44}" + "".join(f"{h:>11}" for h in HEADINGS)]
    for page, runs in loads.items():
        lines.append(f"{'/' + page:<44}" + "".join(f"{statistics.median(r[c] for r in runs):>11.0f}" for c in COLUMNS))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("site", type=Path)
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    loads: dict[str, list[Counter[str]]] = {page.strip("/") + "/" if page.strip("/") else "": [] for page in args.pages}
    with serve_static(args.site) as url, playwright("page_trace")() as driver:
        browser = driver.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for _ in range(args.runs):  # pass after pass, so a burst of load lands on one load of many pages
            for page, runs in loads.items():
                runs.append(trace_load(browser, url + page))
        browser.close()
    print("main thread of a first visit, 4x slower CPU, medians of", args.runs, "loads; CPU ms (thread time)")
    print(table(loads))


if __name__ == "__main__":
    main()
