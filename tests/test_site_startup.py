"""What the site's scripts do in the task that ends a page's parse and in its load event's task, on a phone's first
visit (#35): on a phone 4x slower those tasks come near 50 ms, from which Lighthouse counts one as blocking, so
site.js runs its steps once, and the service worker registers later, in an idle period of its own."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import Visit

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# Before the page's own scripts: how often site.js's applySources() looked for the page's "Sources and formulas"
# boxes (its one query for them), which it does each time it runs its steps.
STEP_RUNS = """
window.__rulescSourcesQueries = 0;
const all = Document.prototype.querySelectorAll;
Document.prototype.querySelectorAll = function (selector) {
  if (selector === "details[data-rulesc-sources]") window.__rulescSourcesQueries++;
  return all.call(this, selector);
};
"""

# Before the page's own scripts: each service worker registration, with the event being dispatched as it was asked
# for (a load event's listener asks in that event's task), answered with a refusal, so no worker starts.
REGISTRATIONS = """
window.__rulescRegistrations = [];
if (navigator.serviceWorker) navigator.serviceWorker.register = function (url) {
  window.__rulescRegistrations.push({url: String(url), during: window.event ? window.event.type : null,
                                     readyState: document.readyState});
  return Promise.reject(new Error("not in this test"));
};
"""


@pytest.fixture(scope="module")
def first_visit(site: str, browser: Any) -> dict[str, Any]:
    """One first visit of a part page with calculators (the drawer marks its chapter; a worker may register), with
    what the page's scripts did by the time the service worker was asked for."""
    with Visit(browser, "about:blank", service_workers="allow", **PHONE) as visit:
        visit.page.add_init_script(STEP_RUNS + REGISTRATIONS)
        visit.go(site + "dbu/core-rules/tier-of-power-section/")
        visit.page.wait_for_function("window.__rulescRegistrations.length > 0")
        return {"queries": visit.page.evaluate("window.__rulescSourcesQueries"),
                "marked": visit.page.locator(".md-nav--primary a.md-nav__link--active").count(),
                "registrations": visit.page.evaluate("window.__rulescRegistrations"), "errors": visit.errors}


def test_site_js_runs_its_steps_once_on_a_first_visit(first_visit: dict[str, Any]) -> None:
    """rulesc's own document$ announces the page once it is parsed; site.js ran its steps at its start as well, so
    every step ran twice, both in the task that ends the parse."""
    assert first_visit["queries"] == 1
    assert first_visit["marked"] >= 1  # the steps ran: the drawer marks the chapter this part belongs to
    assert first_visit["errors"] == []


def test_the_service_worker_registers_after_the_load_event_in_a_task_of_its_own(site: str,
                                                                                first_visit: dict[str, Any]) -> None:
    assert first_visit["registrations"] == [{"url": site + "sw.js", "during": None, "readyState": "complete"}]
