"""One browser tab that a test file's browser tests take turns in, reset to a new tab's state between them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any
from urllib.parse import urlsplit

from tests.browser import VIEWPORT, Visit

# What a page found in its origin's storage as it started: recorded before any script of the page runs.
STORAGE_AT_START = """
try { window.__storageAtStart = localStorage.length + sessionStorage.length; }
catch (e) { window.__storageAtStart = 0; /* an origin without storage (about:blank, data:) */ }
"""


class Tab:
    """A Visit kept open across a file's tests: each test uses it for one visit (a viewport and colour scheme of its
    own, then pages of its choosing) and leaves it as a new tab is, with no storage, the mouse at its origin and a
    blank page. A new Visit costs a browser context, a renderer process and every script fetched and compiled
    again: about 1.5 CPU-seconds, against 0.45 for a page loaded in a tab that has loaded it before (measured on
    the roll tests' fights page, 20 of each). What a context sets once (`is_mobile`, `has_touch`, service workers)
    is the tab's own: a file that needs two kinds keeps two tabs."""

    def __init__(self, browser: Any, **context: Any):
        self.browser, self.context, self.scripts = browser, context, [STORAGE_AT_START]
        self.origins: set[str] = set()
        self.visit = self._open()

    def _open(self) -> Visit:
        visit = Visit(self.browser, "about:blank", **self.context)
        for script in self.scripts:
            visit.page.add_init_script(script)
        visit.page.on("framenavigated", self._navigated)
        return visit

    def _navigated(self, frame: Any) -> None:
        if frame.parent_frame is None:
            self.origins.add(origin(frame.url))

    def add_init_script(self, script: str) -> None:
        """`script` run in every page of the tab before the page's own scripts, as Page.add_init_script does."""
        self.scripts.append(script)
        self.visit.page.add_init_script(script)

    def __enter__(self) -> Tab:
        return self

    def __exit__(self, *_: object) -> None:
        self.visit.close()

    @contextmanager
    def use(self, url: str, viewport: dict[str, int] = VIEWPORT, color_scheme: str = "light") -> Iterator[Visit]:
        """The tab at `url`, seen at `viewport` in `color_scheme`, for one test; reset when the block ends."""
        try:
            page = self.visit.page
            page.set_viewport_size(viewport)
            page.emulate_media(color_scheme=color_scheme)
            self.origins.clear()
            self.visit.go(url)
            assert page.evaluate("window.__storageAtStart") == 0, "a test before this one left storage behind"
            yield self.visit
        finally:
            self.reset()

    def reset(self) -> None:
        """Every origin the test loaded left with no storage, the network on, the mouse where a new tab has it, a blank
        page; a tab the test left broken (crashed, closed, stuck loading) is replaced, so one failure does not fail
        the rest."""
        try:
            page = self.visit.page
            self.visit.context.set_offline(False)  # as a test that took the network away and failed may leave it
            if not self._clear_here() or self.origins - {origin(page.url), "null"}:
                self.visit.context.set_storage_state({"cookies": [], "origins": []})  # slower: visits each origin
            page.mouse.move(0, 0)
            page.goto("about:blank")
        except Exception:
            with suppress(Exception):
                self.visit.close()
            self.visit = self._open()

    def _clear_here(self) -> bool:
        """Clear the storage of the page's own origin; whether that worked."""
        try:
            self.visit.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        except Exception:  # a page that refuses storage (or has crashed): the context clears it instead
            return False
        return True


def origin(url: str) -> str:
    """A URL's origin as storage keys it; "null" for pages that have none (about:blank, data:)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https", "file") else "null"


class Tabs:
    """A file's tabs, one for each kind of context its tests ask for (a phone's touch screen, a desktop's mouse),
    each opened when a test first asks for it and closed with the file."""

    def __init__(self, browser: Any):
        self.browser = browser
        self.open: dict[tuple[tuple[str, Any], ...], Tab] = {}

    def __enter__(self) -> Tabs:
        return self

    def __exit__(self, *_: object) -> None:
        for tab in self.open.values():
            tab.visit.close()

    def use(self, url: str, viewport: dict[str, int] = VIEWPORT, color_scheme: str = "light",
            **context: Any) -> AbstractContextManager[Visit]:
        """The tab of this kind of context at `url`, as Tab.use gives it."""
        key = tuple(sorted(context.items()))
        if key not in self.open:
            self.open[key] = Tab(self.browser, viewport=viewport, **context)
        return self.open[key].use(url, viewport, color_scheme)
