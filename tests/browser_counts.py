"""What the browser tests ask of Chromium, by test file: contexts, pages and page loads (`-p tests.browser_counts`)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

COUNTED = ("contexts", "pages", "loads", "blank loads")
counts: defaultdict[str, Counter[str]] = defaultdict(Counter)
running = {"file": "(no test)"}


def pytest_addoption(parser: pytest.Parser) -> None:
    """--browser-counts PATH turns the counting on (without it the plugin changes nothing)."""
    parser.addoption("--browser-counts", metavar="PATH", help="append each process's browser counts to PATH (JSON "
                     "lines) and print their sum by test file at the end")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Count what follows, the test's fixtures included, for the test's file."""
    running["file"] = item.path.name


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any],
                         request: pytest.FixtureRequest) -> Generator[None, Any, None]:
    """The session's browser, its new_context and new_page counting what they open."""
    outcome = yield
    if fixturedef.argname == "browser" and request.config.getoption("--browser-counts") and not outcome.excinfo:
        browser = outcome.get_result()
        browser.new_context = counting(browser.new_context, watch_context)
        browser.new_page = counting(browser.new_page, lambda page: watch_context(page.context))


def counting(open_: Callable[..., Any], watch: Callable[[Any], None]) -> Callable[..., Any]:
    """`open_` (Browser.new_context or new_page) with what it opens watched."""
    def opened(*args: Any, **kwargs: Any) -> Any:
        made = open_(*args, **kwargs)
        watch(made)
        return made
    return opened


def watch_context(context: Any) -> None:
    """Count the context, each page opened in it and each load of a page's main frame."""
    counts[running["file"]]["contexts"] += 1
    context.on("page", watch_page)
    for page in context.pages:
        watch_page(page)


def watch_page(page: Any) -> None:
    """Count the page and each load of its main frame."""
    counts[running["file"]]["pages"] += 1
    page.on("framenavigated", count_load)


def count_load(frame: Any) -> None:
    """A load of a page's main frame: the blank page a tab is left at between tests apart from the others."""
    if frame.parent_frame is None:
        counts[running["file"]]["blank loads" if frame.url == "about:blank" else "loads"] += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    """This process's counts appended to the file (an xdist worker's too: the controller adds them up)."""
    path = session.config.getoption("--browser-counts")
    if path and counts:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(counts) + "\n")


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Every process's counts in the file, summed by test file, most contexts first."""
    path = config.getoption("--browser-counts")
    if not path or not Path(path).exists() or hasattr(config, "workerinput"):
        return
    total: defaultdict[str, Counter[str]] = defaultdict(Counter)
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        for name, counted in json.loads(line).items():
            total[name].update(counted)
    terminalreporter.write_sep("-", "browser counts by test file: " + ", ".join(COUNTED))
    for name in sorted(total, key=lambda n: -total[n]["contexts"]):
        terminalreporter.write_line(f"{name:40}" + "".join(f"{total[name][k]:>8}" for k in COUNTED))
