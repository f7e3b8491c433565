"""`rulesc bench --phone`: each page's ready time and input-to-paint latency on a slow phone, in Chromium."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulesc.bench.calculators import serve_static
from rulesc.bench.needs import CHROMIUM_ARGS, find_chromium, playwright
from rulesc.compile import Project
from rulesc.emit.site.moved import REDIRECT

SLOWDOWN = 4  # CDP Emulation.setCPUThrottlingRate: the CPU this many times slower
# A first visit: a fresh context, nothing cached, and no service worker (the site's starts only after the load
# event, off the page's main thread; blocked, so its caching of the whole site does not add noise to the figures).
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True,
         "service_workers": "block"}
READY_TARGET_MS = 500.0
INPUT_TARGET_MS = 50.0
QUIET_MS = 1000  # a page is settled once no long task has run for this long after load
WAIT_MS = 60_000  # how long a page may take to settle or a result to show before the bench gives up on it

# Before any of the page's own scripts: record every long task (a main-thread task over 50 ms) from the start.
LONG_TASKS = """
(() => {
  const tasks = window.__rulescLong = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]);
    }).observe({type: "longtask", buffered: true});
  } catch (e) { /* no long task timing: tasks stays empty and ready is the load event */ }
})();
"""

SETTLED = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const tasks = window.__rulescLong || [];
  const last = tasks.reduce((end, [start, ms]) => Math.max(end, start + ms), 0);
  return {load: nav ? nav.loadEventEnd : 0, last: last, now: performance.now(),
          tasks: tasks.map(([start, ms]) => [Math.round(start), Math.round(ms)])};
}
"""

# Arms a watch on the index-th calculator: from its next input event (the event's own time stamp) to the first
# paint after the calculator changes its results (a mutation in it, then the frame after it, then a task posted
# from that frame's animation callback, which runs once the frame has been painted).
ARM = """
(index) => {
  const box = document.querySelectorAll("[data-calculator]")[index];
  const form = box.querySelector("form");
  window.__rulescLatency = undefined;
  const onInput = (event) => {
    form.removeEventListener("input", onInput, true);
    const start = event.timeStamp;
    const watch = new MutationObserver(() => {
      watch.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { window.__rulescLatency = performance.now() - start; };
        channel.port2.postMessage(0);
      });
    });
    watch.observe(box.querySelector(".rulesc-calc__results") || box,
                  {subtree: true, childList: true, characterData: true});
    watch.observe(box, {attributes: true, attributeFilter: ["data-state"]});
  };
  form.addEventListener("input", onInput, true);
}
"""

# The index-th calculator's first number input, choice or flag, and a valid value other than its current one.
CONTROL = """
(index) => {
  const box = document.querySelectorAll("[data-calculator]")[index];
  const control = box.querySelector("form input[type=number], form select, form input[type=checkbox]");
  if (!control) return null;
  control.setAttribute("data-rulesc-bench", "1");
  if (control.type === "checkbox") return {kind: "flag"};
  if (control.tagName === "SELECT") {
    const other = Array.from(control.options).find((o) => o.value !== control.value);
    return other ? {kind: "choice", value: other.value} : null;
  }
  const now = Number(control.value), max = control.max === "" ? Infinity : Number(control.max);
  const min = control.min === "" ? -Infinity : Number(control.min);
  const value = now + 1 <= max ? now + 1 : now - 1;
  return value >= min ? {kind: "number", value: String(value)} : null;
}
"""


class PhoneBenchError(Exception):
    """The bench cannot run here (no Playwright, no Chromium); the message says what to install."""


@dataclass(frozen=True)
class Load:
    """One first visit to a page: ready and load (ms after navigation), its long tasks as [start, ms], and each
    calculator's input-to-paint latency, in page order."""
    ready_ms: float
    load_ms: float
    long_tasks: list[list[int]]
    inputs: list[tuple[str, float]] = field(default_factory=list)


@dataclass(frozen=True)
class InputFigures:
    """One calculator's input-to-paint latency in each pass that measured it; its figure is their median."""
    calculator: str
    latencies: list[float]

    @property
    def ms(self) -> float:
        return median_ms(self.latencies)


@dataclass(frozen=True)
class PageFigures:
    """A page over its loads: each load's ready, the median load's load time and long tasks, each calculator's
    latencies. The page's ready is the median of its readies; its input the worst of its calculators' medians."""
    page: str
    readies: list[float]
    load_ms: float
    long_tasks: list[list[int]]
    inputs: list[InputFigures] = field(default_factory=list)

    @property
    def ready_ms(self) -> float:
        return median_ms(self.readies)

    @property
    def input_ms(self) -> float | None:
        return max((row.ms for row in self.inputs), default=None)

    @property
    def spread(self) -> str:
        """The fastest and the slowest ready, e.g. "612-701"."""
        return f"{min(self.readies):.0f}-{max(self.readies):.0f}"


def median_ms(values: list[float]) -> float:
    """The median to 0.1 ms; of an even count, the mean of the middle two."""
    return round(statistics.median(values), 1)


def page_figures(page: str, loads: list[Load]) -> PageFigures:
    """A page's figures from its loads, in pass order."""
    middle = median_load(loads)
    return PageFigures(page, [load.ready_ms for load in loads], middle.load_ms, middle.long_tasks,
                       calculator_figures(loads))


def median_load(loads: list[Load]) -> Load:
    """The load whose ready is the median; of an even count the faster of the middle two, so its load event and
    long tasks end by the page's median ready."""
    return sorted(loads, key=lambda load: load.ready_ms)[(len(loads) - 1) // 2]


def calculator_figures(loads: list[Load]) -> list[InputFigures]:
    """Each calculator's latency in every load that measured it, in the order the page first showed them. A
    calculator missing from a load (no control to change in that pass) has fewer latencies; its median is theirs."""
    latencies: dict[str, list[float]] = {}
    for load in loads:
        for calculator, ms in load.inputs:
            latencies.setdefault(calculator, []).append(ms)
    return [InputFigures(calculator, ms) for calculator, ms in latencies.items()]


def loads_per_page(pages: list[PageFigures]) -> int:
    """How many times each page was loaded (the --repeat of the run)."""
    return max((len(p.readies) for p in pages), default=1)


def bench_phone(project: Project, only: list[str] | None = None, repeat: int = 1) -> list[PageFigures]:
    """Build the site into a temporary folder, serve it, and load every page (or those in `only`) `repeat` times."""
    sync_playwright, chromium = playwright("bench --phone"), find_chromium()
    with tempfile.TemporaryDirectory(prefix="rulesc-bench-phone-") as folder:
        site = _build(project, Path(folder))
        pages = pick_pages(site_pages(site), only)
        with serve_static(site) as url, sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                return measure_pages(browser, url, pages, repeat)
            finally:
                browser.close()


def measure_pages(browser: Any, url: str, pages: list[str], repeat: int) -> list[PageFigures]:
    """Every page `repeat` times, pass after pass over all of them: a slow spell of the machine then falls on
    loads of several pages rather than on all of one page's loads."""
    loads: dict[str, list[Load]] = {page: [] for page in pages}
    for _ in range(repeat):
        for page in pages:
            loads[page].append(measure_page(browser, url, page))
    return [page_figures(page or "/", loads[page]) for page in pages]


def _build(project: Project, folder: Path) -> Path:
    from rulesc.build.site_config import read_settings
    from rulesc.compile import compile_project
    from rulesc.pipeline import build_site, compiled_nav, generate

    compiled = compile_project(project)
    docs, site = folder / "docs", folder / "site"
    for relative, text in generate(project, compiled)["build/docs"].items():
        (docs / relative).parent.mkdir(parents=True, exist_ok=True)
        (docs / relative).write_text(text, encoding="utf-8")
    build_site(read_settings(project.root), docs, site, compiled_nav(compiled))
    return site


def site_pages(site: Path) -> list[str]:
    """Every page of the built site as a path under its root ("" is the home page), in path order; a page left at
    an old address, which only sends the reader on, is no page to time."""
    found = [p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")
             if f'class="{REDIRECT}"' not in p.read_text(encoding="utf-8")]
    return sorted("" if p == "." else p + "/" for p in found)


def pick_pages(pages: list[str], only: list[str] | None) -> list[str]:
    """The pages named in `only` ('/' or '' the home page, a leading or missing end slash allowed), in site order."""
    if only is None:
        return pages
    wanted = {name.strip("/") + "/" if name.strip("/") else "" for name in only}
    unknown = sorted(wanted - set(pages))
    if unknown:
        raise PhoneBenchError(f"no such page: {', '.join(p or '/' for p in unknown)}; the site's pages are "
                              f"{', '.join(p or '/' for p in pages)}")
    return [p for p in pages if p in wanted]


@contextmanager
def phone_page(browser: Any) -> Iterator[Any]:
    """A page in a fresh context (nothing cached) sized and slowed like a phone, recording long tasks."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
        page.add_init_script(LONG_TASKS)
        yield page
    finally:
        context.close()


def measure_page(browser: Any, url: str, path: str) -> Load:
    """One first visit to the page at `path`: its figures once settled, then one input change per calculator."""
    with phone_page(browser) as page:
        page.goto(url + path, wait_until="load")
        state = _settle(page)
        count = page.evaluate("document.querySelectorAll('[data-calculator]').length")
        inputs = [row for row in (_input(page, index) for index in range(count)) if row]
        return Load(round(max(state["load"], state["last"]), 1), round(state["load"], 1), state["tasks"], inputs)


def _settle(page: Any) -> dict[str, Any]:
    """The page's figures once it has loaded and no long task has run for QUIET_MS."""
    page.wait_for_load_state("networkidle")
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        state: dict[str, Any] = page.evaluate(SETTLED)
        if state["now"] - max(state["load"], state["last"]) >= QUIET_MS or time.monotonic() > deadline:
            return state
        page.wait_for_timeout(200)


def _input(page: Any, index: int) -> tuple[str, float] | None:
    """One change to the index-th calculator's first input, timed to the paint that shows its result."""
    box = page.locator("[data-calculator]").nth(index)
    box.scroll_into_view_if_needed()
    page.wait_for_function("(i) => document.querySelectorAll('[data-calculator]')[i].dataset.state === 'ok'",
                           arg=index)
    change = page.evaluate(CONTROL, index)
    if change is None:
        return None
    page.evaluate(ARM, index)
    control = box.locator("[data-rulesc-bench]")
    control.evaluate("(c) => { const group = c.closest('details'); if (group) group.open = true; }")  # a closed group
    if change["kind"] == "flag":
        control.click()
    elif change["kind"] == "choice":
        control.select_option(change["value"])
    else:
        control.fill(change["value"])
    latency = page.wait_for_function("window.__rulescLatency").json_value()
    page.evaluate("document.querySelector('[data-rulesc-bench]').removeAttribute('data-rulesc-bench')")
    return str(box.get_attribute("data-calculator")), round(float(latency), 1)


def phone_table(pages: list[PageFigures]) -> str:
    """The figures of every page and the verdict; with several loads a page, the medians and the spread."""
    repeat = loads_per_page(pages)
    lines = [f"every page at 390x844 with the CPU {SLOWDOWN}x slower (CDP), a first visit (nothing cached, no service "
             "worker), headless Chromium;",
             "ready: the load event or the end of the last long task, whichever is later (ms after navigation);",
             "input: one change to each calculator's first input, from the input event to the paint that shows",
             "the result (the page's worst, and which calculator)"]
    if repeat > 1:
        lines += [f"median of {repeat} loads per page (of an even count, the mean of the middle two), in {repeat} "
                  "passes over all the pages;",
                  "ready and input are the medians; spread: the fastest and slowest ready; load and long tasks: the "
                  "median load's"]
    spread = f" {'spread ms':>11}" if repeat > 1 else ""
    lines.append(f"{'page':<36} {'ready ms':>9}{spread} {'load ms':>8} {'long tasks':>11} {'input ms':>9}  calculator")
    return "\n".join(lines + [_row(p, repeat > 1) for p in pages] + verdict(pages))


def _row(p: PageFigures, spread: bool) -> str:
    worst = max(p.inputs, key=lambda row: row.ms) if p.inputs else None
    tasks = f"{len(p.long_tasks)} ({sum(ms for _, ms in p.long_tasks)})"
    shown = f"{worst.ms:9.1f}  {worst.calculator}" if worst else f"{'-':>9}"
    ready = f"{p.ready_ms:9.1f}" + (f" {p.spread:>11}" if spread else "")
    return f"{p.page:<36} {ready} {p.load_ms:8.1f} {tasks:>11} {shown}"


def verdict(pages: list[PageFigures]) -> list[str]:
    """The worst ready and the worst input against their targets; with several loads a page, of the medians."""
    s = summary(pages)
    ready_ok, input_ok = s["worst_ready_ms"] <= READY_TARGET_MS, s["worst_input_ms"] <= INPUT_TARGET_MS
    judged = f" (median of {s['repeat']} loads)" if s["repeat"] > 1 else ""
    return [f"{len(pages)} pages; worst ready {s['worst_ready_ms']:.1f} ms ({s['worst_ready_page']}); target "
            f"{READY_TARGET_MS:.0f} ms: {'met' if ready_ok else 'MISSED'}{judged}",
            f"{s['inputs']} input changes; worst {s['worst_input_ms']:.1f} ms ({s['worst_input_page']}); target "
            f"{INPUT_TARGET_MS:.0f} ms: {'met' if input_ok else 'MISSED'}{judged}"]


def summary(pages: list[PageFigures]) -> dict[str, Any]:
    """The figures for --json: every page's, the loads per page, and the worst medians."""
    ready = max(pages, key=lambda p: p.ready_ms, default=None)
    typed = [p for p in pages if p.inputs]
    slowest = max(typed, key=lambda p: p.input_ms or 0.0, default=None)
    return {"cpu_slowdown": SLOWDOWN, "viewport": PHONE["viewport"], "repeat": loads_per_page(pages),
            "pages": [page_json(p) for p in pages],
            "worst_ready_ms": ready.ready_ms if ready else 0.0, "worst_ready_page": ready.page if ready else "-",
            "worst_input_ms": (slowest.input_ms or 0.0) if slowest else 0.0,
            "worst_input_page": slowest.page if slowest else "-",
            "inputs": sum(len(row.latencies) for p in pages for row in p.inputs)}


def page_json(p: PageFigures) -> dict[str, Any]:
    """One page's figures for --json: the medians under the keys of a single load, and every load's figures."""
    return {"page": p.page, "ready_ms": p.ready_ms, "readies": p.readies, "load_ms": p.load_ms,
            "long_tasks": p.long_tasks,
            "inputs": [{"calculator": row.calculator, "ms": row.ms, "latencies": row.latencies} for row in p.inputs]}


def targets_met(pages: list[PageFigures]) -> bool:
    s = summary(pages)
    return bool(s["worst_ready_ms"] <= READY_TARGET_MS and s["worst_input_ms"] <= INPUT_TARGET_MS)
