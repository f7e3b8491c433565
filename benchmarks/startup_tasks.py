"""Benchmark: what each main-thread task from the end of a page's parse on is made of, from a Chromium trace (#35).

Run, after `rulesc build`:  python benchmarks/startup_tasks.py [--runs N] [--cpu K] [--late MS] [--min MS] SITE PAGE ...
Each page is loaded N times (3 by default) as page_trace.py loads it (412 px, a first visit), with the CPU K times
slower (1 by default: Lighthouse traces a page at full speed, then multiplies each task's observed time by 4). For
each load it prints every top-level task that ends after the parse and starts before 1.5 s after the load event
whose thread time (CPU, not wall time) is MIN ms or more (2 by default), with the parts that make it up: scripts
evaluated, events dispatched (with their listeners' time) and the browser's own work after DOMContentLoaded
(RenderFrameImpl::DidDispatchDOMContentLoadedEvent) and after the load event (didFinishLoad), each in thread ms.
`--late MS` holds rulesc's scripts back MS ms, so that they run after the first frame, as in Lighthouse's traces
of a GM screen part: deferred scripts that arrive after the parse run in a task with DOMContentLoaded and, when
nothing else is loading, the load event. Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_trace import AFTER_LOAD_MS, main_thread, traced_visit  # noqa: E402

from rulesc.bench.calculators import serve_static  # noqa: E402
from rulesc.bench.needs import CHROMIUM_ARGS, find_chromium, playwright  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "blink", "navigation"]
PARTS = {"EvaluateScript", "EventDispatch", "RenderFrameImpl::DidDispatchDOMContentLoadedEvent",
         "RenderFrameImpl::didFinishLoad", "FunctionCall", "Layout", "UpdateLayoutTree"}


def top_level(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tasks that no other task holds, in order."""
    tasks: list[dict[str, Any]] = []
    for event in events:
        if event["name"] == "RunTask" and (not tasks or event["ts"] >= tasks[-1]["ts"] + tasks[-1]["dur"]):
            tasks.append(event)
    return tasks


def part_name(event: dict[str, Any]) -> str:
    """A part's name: the event's, with the script's file or the dispatched event's type."""
    data = (event.get("args") or {}).get("data") or {}
    detail = str(data.get("url", "")).rsplit("/", 1)[-1] or data.get("type", "")
    if data.get("functionName"):
        detail += ":" + data["functionName"]
    return f"{event['name'].split('::')[-1]} {detail}".strip()


def parts(task: dict[str, Any], events: list[dict[str, Any]]) -> list[str]:
    """The outermost parts of a task, each with its thread ms, in order."""
    end, found, inside = task["ts"] + task["dur"], [], 0.0
    for event in events:
        if event["name"] in PARTS and task["ts"] <= event["ts"] < end and event["ts"] >= inside:
            found.append(f"{part_name(event)} {event.get('tdur', 0) / 1000:.1f}")
            inside = event["ts"] + event["dur"]
    return found


def describe(events: list[dict[str, Any]], url: str, least_ms: float) -> list[str]:
    """One load: each task that ends after the parse and starts by 1.5 s after the load event, of `least_ms` thread
    ms or more, with its parts."""
    done = main_thread(events, url)
    parsed = max(e["ts"] + e["dur"] for e in done if e["name"] == "ParseHTML")
    loaded = max((e["ts"] for e in events if e.get("name") == "MarkLoad"), default=parsed)
    lines = []
    for task in top_level(done):
        if task["ts"] + task["dur"] > parsed and task["ts"] <= loaded + AFTER_LOAD_MS * 1000 and \
                task.get("tdur", 0) >= least_ms * 1000:
            lines.append(f"  {(task['ts'] - done[0]['ts']) / 1000:8.1f} ms  thread {task['tdur'] / 1000:5.1f}: "
                         + ", ".join(parts(task, done)))
    return lines


def held_back(route: Any, late_ms: int) -> None:
    """A request for one of rulesc's scripts, sent on `late_ms` ms late."""
    time.sleep(late_ms / 1000)
    route.continue_()


def trace_load(browser: Any, url: str, cpu: float, late_ms: int) -> list[dict[str, Any]]:
    """One first visit to `url`, traced; its trace events."""
    def hold_scripts(page: Any) -> None:
        page.route("**/assets/rulesc/*.js", lambda route: held_back(route, late_ms))

    return traced_visit(browser, url, cpu=cpu, categories=CATEGORIES, prepare=hold_scripts if late_ms else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpu", type=float, default=1)
    parser.add_argument("--late", type=int, default=0, metavar="MS")
    parser.add_argument("--min", type=float, default=2, metavar="MS")
    parser.add_argument("site", type=Path)
    parser.add_argument("pages", nargs="+")
    args = parser.parse_args()
    with serve_static(args.site) as base, playwright("startup_tasks")() as driver:
        browser = driver.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        for run in range(args.runs):
            for page in args.pages:
                url = base + page.strip("/") + ("/" if page.strip("/") else "")
                print(f"/{url[len(base):]} (load {run + 1})")
                print("\n".join(describe(trace_load(browser, url, args.cpu, args.late), url, args.min)))
        browser.close()


if __name__ == "__main__":
    main()
