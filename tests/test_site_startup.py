"""What the site's scripts do in the task that ends a page's parse and in its load event's task, on a phone's first
visit (#35): on a phone 4x slower those tasks come near 50 ms, from which Lighthouse counts one as blocking, so
site.js runs its steps once, and the service worker registers later, in an idle period of its own."""

from __future__ import annotations

from typing import Any

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


def test_site_js_runs_its_steps_once_on_a_first_visit(site: str, browser: Any) -> None:
    """rulesc's own document$ announces the page once it is parsed; site.js ran its steps at its start as well, so
    every step ran twice, both in the task that ends the parse."""
    for path in ("dbu/core-rules/tier-of-power-section/", "dbu/glossary/"):
        with Visit(browser, "about:blank", **PHONE) as visit:
            visit.page.add_init_script(STEP_RUNS)
            visit.go(site + path)
            assert visit.page.evaluate("window.__rulescSourcesQueries") == 1, path
            assert visit.page.locator(".md-nav--primary a.md-nav__link--active").count() >= 1, path
            assert visit.errors == [], path


def test_the_service_worker_registers_after_the_load_event_in_a_task_of_its_own(site: str, browser: Any) -> None:
    with Visit(browser, "about:blank", service_workers="allow", **PHONE) as visit:
        visit.page.add_init_script(REGISTRATIONS)
        visit.go(site + "dbu/core-rules/")
        visit.page.wait_for_function("window.__rulescRegistrations.length > 0")
        assert visit.page.evaluate("window.__rulescRegistrations") == [
            {"url": site + "sw.js", "during": None, "readyState": "complete"}]
