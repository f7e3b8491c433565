"""The 404 page of a site built without site_url works at whatever path prefix the site is served under (#35)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulesc.build.not_found import FIND_ROOT, portable
from tests.browser import Visit
from tests.test_site_offline import prefixed, small  # noqa: F401  (fixtures: the small site served under /site/)

PAGE = """<html><head>
<meta charset="utf-8">
<link rel="icon" href="/assets/icon.png">
  <script src="/assets/rulesc/site.js" defer></script>
  <script src="https://cdn.invalid/x.js" defer></script>
</head><body><a href="/">Home</a> <a href="/.">Home</a> <a href="/dbu/">System</a> <a href="//host/x">Away</a>
<form action="/search/" data-rulesc-root="/."></form></body></html>
"""


TOP = '["assets", "\\u003c/script>"]'  # the site's top-level folders, none of which can end the script


def test_the_404_pages_urls_become_relative_to_a_base_its_scripts_wait_for() -> None:
    assert portable(PAGE, ["assets", "</script>"]) == f"""<html><head>
<meta charset="utf-8">
{FIND_ROOT % ('["assets/rulesc/site.js"]', TOP)}
<link rel="icon" data-rulesc-href="assets/icon.png">
  <script src="https://cdn.invalid/x.js" defer></script>
</head><body><a href="./">Home</a> <a href="./">Home</a> <a href="dbu/">System</a> <a href="//host/x">Away</a>
<form action="search/" data-rulesc-root="./"></form></body></html>
"""
    assert portable(PAGE.replace('<meta charset="utf-8">\n', ""), []) == PAGE.replace('<meta charset="utf-8">\n', "")


@pytest.mark.parametrize(("address", "misses"), [("no/such/page/", 3), ("q-9/no/such/", 0)])
def test_the_404_page_under_a_path_prefix_loads_its_scripts_and_links_from_the_sites_root(
        prefixed: str, small: Path, browser: Any, address: str, misses: int) -> None:  # noqa: F811
    """Under one of the site's folders the root is the first folder tried; elsewhere each folder under the address
    is tried, deepest first."""
    missing, origin = prefixed + address, prefixed.removesuffix("site/")
    with Visit(browser, "about:blank") as visit:  # a static host answers an unknown address with its 404 page
        visit.page.route(missing, lambda route: route.fulfill(status=404, path=str(small / "site/404.html")))
        visit.go(missing)
        visit.page.wait_for_function("window.Rulesc && window.Rulesc.site === true")
        links = visit.page.evaluate("[...document.querySelectorAll('.md-nav--primary a.md-nav__link')]"
                                    ".map((a) => a.href)")
        assert prefixed + "q-9/" in links and all(link.startswith(prefixed) for link in links), links
        assert {prefixed + f"assets/rulesc/{name}.js" for name in ("theme", "offline", "site")} <= set(visit.requests)
        assert [r for r in visit.requests if r.startswith(origin + "assets/")] == []  # nothing from the host's root
        assert visit.page.evaluate("document.querySelector('.rulesc-qs').action") == prefixed + "search/"
        # the page's own status, then each folder tried that holds no 404.html
        assert visit.errors == ["Failed to load resource: the server responded with a status of 404 (Not Found)"] + \
            ["Failed to load resource: the server responded with a status of 404 (File not found)"] * misses
