"""`rulesc bench --calculators`: each calculator's recompute time at the top of its input ranges, in Chromium."""

from __future__ import annotations

import functools
import http.server
import json
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulesc.bench.needs import CHROMIUM_ARGS, find_chromium, playwright
from rulesc.build.site_config import CONFIG
from rulesc.compile import Project

TARGET_MS = 16.0
SCAFFOLD_CONFIG = Path(__file__).resolve().parent.parent / "scaffold" / CONFIG
RECOMPUTES = 7  # MEASURE's loop: the median is the 4th of 7

# Runs in the page: push every input of one calculator to the top of its range (pools and upgrade sets, which have
# none, keep the defaults the content gives them), then time the form's recompute: the input event's handler reads
# every input, runs every output formula and writes the results and charts, synchronously (layout and paint follow
# later, untimed).
MEASURE = """
(key) => {
  const box = document.querySelector(`[data-calculator="${key}"]`);
  const form = box.querySelector("form");
  const [system, id] = key.split("/");
  const calc = globalThis.RulesSystems[system].calculators[id];
  for (const spec of calc.inputs) {
    const control = form.elements.namedItem(spec.name);
    if (spec.type === "bool") control.checked = true;
    else if (spec.options) control.value = String(Math.max(...spec.options));
    else if (spec.max !== undefined) control.value = String(spec.max);
  }
  const times = [];
  for (let i = 0; i < 7; i++) {
    const start = performance.now();
    form.dispatchEvent(new Event("input", {bubbles: true}));
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {ms: times[3], slowest_ms: times[6], state: box.dataset.state};
}
"""


def bench_calculators(project: Project) -> list[dict[str, Any]]:
    """Build the site into a temporary folder and time every calculator in headless Chromium."""
    from rulesc.build.site_config import read_settings
    from rulesc.compile import compile_project
    from rulesc.pipeline import build_site, compiled_nav, generate

    sync_playwright, chromium = playwright("bench --calculators"), find_chromium()
    compiled = compile_project(project)
    with tempfile.TemporaryDirectory(prefix="rulesc-bench-calc-") as folder:
        docs, site = Path(folder) / "docs", Path(folder) / "site"
        for relative, text in generate(project, compiled)["build/docs"].items():
            (docs / relative).parent.mkdir(parents=True, exist_ok=True)
            (docs / relative).write_text(text, encoding="utf-8")
        build_site(read_settings(site_project(project, Path(folder)).root), docs, site, compiled_nav(compiled))
        pages = _calculator_pages(compiled)
        with serve_static(site) as url, sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                return [_measure(browser, url, page, keys) for page, keys in sorted(pages.items())]
            finally:
                browser.close()


def site_project(project: Project, folder: Path) -> Project:
    """The project whose mkdocs.yml builds the site: the project itself, or, when it has none (content alone,
    such as a test case), one in `folder` with the mkdocs.yml `rulesc init` writes, so that its calculators can
    be timed; `rulesc build` still refuses a project without one (E0802)."""
    if (project.root / CONFIG).is_file():
        return project
    root = folder / "site-project"
    root.mkdir()
    (root / CONFIG).write_text(SCAFFOLD_CONFIG.read_text(encoding="utf-8"), encoding="utf-8")
    print(f"rulesc: {project.root} has no {CONFIG}: the site is built with the one `rulesc init` writes",
          file=sys.stderr)
    return replace(project, root=root)


def _calculator_pages(compiled: Any) -> dict[str, list[str]]:
    pages: dict[str, list[str]] = {}
    for program in compiled.programs:
        for calc in program.calculators.values():
            chapter = program.rules[calc.rule].chapter
            pages.setdefault(f"{program.system.id}/{chapter}/", []).append(f"{program.system.id}/{calc.id}")
    return pages


def _measure(browser: Any, url: str, page_path: str, keys: list[str]) -> dict[str, Any]:
    page = browser.new_page()
    page.goto(url + page_path)
    page.wait_for_function("document.querySelectorAll('[data-calculator][data-ready=\"1\"]').length > 0")
    rows = [{"calculator": key, **page.evaluate(MEASURE, key)} for key in keys]
    page.close()
    return {"page": page_path, "rows": rows}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser closed while a request was under way (a worker's precache, a script a page asked for): not
        the bench's output, which goes to stderr too; anything else is reported as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class serve_static:  # noqa: N801 (used as a function: `with serve_static(site) as url`)
    """A built site served on a free loopback port while the block runs; the block gets its base URL."""

    def __init__(self, site: Path):
        handler = functools.partial(_Quiet, directory=str(site))
        self.server = _Server(("127.0.0.1", 0), handler)

    def __enter__(self) -> str:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


def calculator_table(pages: list[dict[str, Any]]) -> str:
    rows = [row for page in pages for row in page["rows"]]
    rows.sort(key=lambda r: -r["ms"])
    lines = ["each calculator in headless Chromium, every number input at the top of its range, every flag on",
             "(pools and upgrade sets at their defaults); timed: the form's recompute (read the inputs, run each",
             f"output, write results and charts; not layout, paint): median of {RECOMPUTES} recomputes, slowest in ()",
             f"{'calculator':<52} {'ms':>9} {'(slowest)':>10}  result"]
    lines += [f"{r['calculator']:<52} {r['ms']:9.2f} ({r['slowest_ms']:8.2f})  {r['state']}" for r in rows]
    worst: dict[str, Any] = rows[0] if rows else {"ms": 0.0, "calculator": "-"}
    lines.append(f"{len(rows)} calculators; worst {worst['ms']:.2f} ms ({worst['calculator']}); "
                 f"target {TARGET_MS:.0f} ms: {'met' if worst['ms'] <= TARGET_MS else 'MISSED'}")
    return "\n".join(lines)


def summary(pages: list[dict[str, Any]]) -> dict[str, Any]:
    rows = [row for page in pages for row in page["rows"]]
    return {"calculators": len(rows), "worst_ms": max((r["ms"] for r in rows), default=0.0),
            "rows": sorted(rows, key=lambda r: r["calculator"])}


__all__ = ["bench_calculators", "calculator_table", "summary", "json"]
