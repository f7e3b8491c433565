"""Offline at the table: after one visit the site works offline, installs to a home screen, and rebuilds the same."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulesc.build.offline import LEFT_OUT_FOLDERS, MATERIAL_BUNDLE, precache
from rulesc.emit.site.offline import PREVIEW_WORKER
from rulesc.pipeline import Project, build_project
from tests.browser import TIMEOUT_MS, VIEWPORT, serve_site
from tests.conftest import REPO, Copy

SITE_NAME = "Règles “à” la table & co"  # longer than a home screen's label, quoted, accented, with an ampersand
SYSTEM = """\
id: q-9
title: Q-9 Skirmish
summary: An awkwardly named system for the offline tests.
sources:
  - {id: notes, file: notes.txt, title: Table notes}
dice:
  summary: Roll d6s; a 6 is a spark.
terms:
  - id: spark
    name: Spark
    definition: A die that shows 6.
"""
CHAPTER = """\
id: 2nd-wind
title: Second Wind
order: 1
summary: Catching one's breath.
rules:
  - id: breath
    name: Breath
    kind: general
    text: Roll a pool of d6 when you rest; each 6 is a [[spark]], and each spark gives back {{per_spark}} Grit.
    provenance: {source: notes, section: Breath}
    values:
      per_spark: 3
    formulas:
      - id: sparks
        summary: The sparks a pool rolls.
        params:
          - {name: d, type: int, min: 1, max: 9}
        returns: dist
        expr: successes((d)d6, 6)
        examples:
          - {args: {d: 1}, expect: {0: "5/6", 1: "1/6"}}
      - id: grit_back
        summary: Grit a rest gives back on average.
        params:
          - {name: d, type: int, min: 1, max: 9}
        returns: num
        expr: mean(sparks(d)) * per_spark
        examples:
          - {args: {d: 2}, expect: 1}
    calculators:
      - id: rest
        title: Rest
        inputs:
          - {name: d, type: int, label: Dice, min: 1, max: 9, default: 2}
        outputs:
          - {name: sparks, label: Sparks, expr: sparks(d)}
          - {name: back, label: Grit back, expr: grit_back(d)}
"""


def offline_project(root: Path, chapter: str = CHAPTER) -> Path:
    """A small project of our own: the repository's schema, theme and mkdocs.yml (under another site name)."""
    for folder in ("schema", "site_overrides"):
        shutil.copytree(REPO / folder, root / folder)
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    (root / "mkdocs.yml").write_text(re.sub(r"(?m)^site_name:.*$", f'site_name: "{SITE_NAME}"', config),
                                     encoding="utf-8")
    for relative, text in {"q-9/system.yaml": SYSTEM, "q-9/2nd-wind.yaml": chapter}.items():
        (root / "content" / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / relative).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def small(shared_builds: Callable[[str, Copy], Path]) -> Path:
    """The small project built once a run, for this file and test_bench_phone (which reads it too)."""
    return shared_builds("offline-small", offline_project)


@pytest.fixture(scope="module")
def prefixed(small: Path) -> Iterator[str]:
    """The small project's folder served, so its site lives under a path prefix: <origin>/site/."""
    with serve_site(small) as url:
        yield url + "site/"


def version_of(site: Path) -> str:
    found = re.search(r'var VERSION = PREFIX \+ self\.registration\.scope \+ " " \+ "([0-9a-f]+)";',
                      (site / "sw.js").read_text(encoding="utf-8"))
    assert found, "sw.js names no version"
    return found.group(1)


# --- what the build writes ----------------------------------------------------------------------------------------


def test_the_precache_lists_every_file_a_visit_may_fetch_and_each_exists(small: Path) -> None:
    site = small / "site"
    urls = precache(site)
    worker = (site / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", worker, re.DOTALL).group(1))  # type: ignore[union-attr]
    assert listed == urls
    assert {"./", "q-9/2nd-wind/", "q-9/gm-screen/", "search/", "manifest.json", "assets/rulesc/icon.svg",
            "assets/rulesc/formulas/q-9.js", "pagefind/pagefind.js"} <= set(urls)
    assert any(u.startswith("pagefind/fragment/") for u in urls) and any(u.startswith("pagefind/index/") for u in urls)
    for url in urls:
        assert (site / (url + "index.html" if url.endswith("/") else url)).is_file(), url
    on_disk = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    served = {u + "index.html" if u.endswith("/") else u for u in urls}
    served = {s[2:] if s.startswith("./") else s for s in served}
    left_out = sorted(on_disk - served)
    assert "sw.js" in left_out and all(f == "sw.js" or f.endswith((".map", ".gz", ".css"))
                                       or f.startswith(LEFT_OUT_FOLDERS) or MATERIAL_BUNDLE.fullmatch(f)
                                       for f in left_out), left_out
    assert [f for f in left_out if MATERIAL_BUNDLE.fullmatch(f)]  # rulesc's theme.js runs the theme: no page loads it
    # each page's rules are inline in its head: no page fetches a stylesheet, so none is precached
    sheets = [f.rsplit("/", 1)[1].split(".")[0] for f in left_out if f.endswith(".css")]
    # rulesc's search draws its own hits: the sheets of Pagefind's own UIs (which Pagefind's version decides: 1.5 adds
    # its component UI's) never load
    assert sheets[:4] == ["rulesc", "site", "main", "palette"], sheets
    assert sheets[4:] and all(re.fullmatch(r"pagefind-([a-z]+-)?ui", sheet) for sheet in sheets[4:]), sheets
    assert not [u for u in urls if u.endswith(".css")]


def test_the_manifest_is_linked_from_every_page_and_points_at_files_of_the_site(small: Path) -> None:
    site = small / "site"
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["name"] == SITE_NAME
    assert manifest["short_name"] == "Règles “à” l" and len(manifest["short_name"]) <= 12
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("./", "./", "standalone")
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and manifest["background_color"]
    for icon in manifest["icons"]:
        assert (site / icon["src"]).is_file() and not icon["src"].startswith(("/", "http"))
    assert (site / "assets/rulesc/icon.svg").read_text(encoding="utf-8").startswith("<svg")
    pages = sorted(p for p in site.rglob("*.html") if p.name != "404.html")  # MkDocs roots 404's URLs at site_url
    assert len(pages) > 5
    for page in pages:
        html = page.read_text(encoding="utf-8")
        link = re.search(r'<link rel="manifest" href="([^"]+)">', html)
        assert link, page
        assert (page.parent / link.group(1)).resolve() == (site / "manifest.json").resolve(), page
        assert re.search(r'<script src="[^"]*assets/rulesc/offline\.js" defer>', html), page


def test_rebuilding_gives_the_same_bytes_and_a_change_gives_a_new_version(small: Path, tmp_path: Path) -> None:
    again = offline_project(tmp_path / "again")
    build_project(Project(again))
    for name in ("sw.js", "manifest.json", "assets/rulesc/icon.svg", "assets/rulesc/offline.js", "index.html"):
        assert (again / "site" / name).read_bytes() == (small / "site" / name).read_bytes(), name
    assert version_of(again / "site") == version_of(small / "site")
    changed = offline_project(tmp_path / "changed", CHAPTER.replace("when you rest", "when you sit down"))
    build_project(Project(changed))
    assert version_of(changed / "site") != version_of(small / "site")


def test_a_preview_worker_caches_nothing_and_the_site_worker_replaces_it(small: Path) -> None:
    assert (small / "build/docs/sw.js").read_text(encoding="utf-8") == PREVIEW_WORKER
    assert "fetch" not in PREVIEW_WORKER and "caches.delete" in PREVIEW_WORKER
    assert "addEventListener(\"fetch\"" in (small / "site/sw.js").read_text(encoding="utf-8")


# --- in the browser -----------------------------------------------------------------------------------------------


class Offline:
    """A browser context of its own that records every request (the service worker's too) and console errors."""

    def __init__(self, browser: Any):
        self.context = browser.new_context(viewport=VIEWPORT)
        self.context.set_default_timeout(TIMEOUT_MS)
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.context.on("requestfailed", lambda r: self.errors.append(f"request failed: {r.url}"))
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def visit(self, url: str) -> None:
        """One visit, then wait until the worker controls the page and the footer offers the choice."""
        self.page.goto(url)
        self.page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        self.page.wait_for_function("navigator.serviceWorker.controller !== null")
        self.page.wait_for_selector(".rulesc-offline:not([hidden])")

    def visit_and_save(self, url: str) -> None:
        """One visit, then the reader's "Save for offline use", until the footer says the site is saved."""
        self.visit(url)
        self.page.click(".rulesc-offline__button")
        self.page.wait_for_selector('.rulesc-offline[data-saved="yes"]')

    def choice(self) -> tuple[str, str]:
        """What the footer's offline box says, and its button."""
        return (self.page.locator(".rulesc-offline__state").inner_text(),
                self.page.locator(".rulesc-offline__button").inner_text())

    def cached(self) -> list[str]:
        """The paths (under the origin) the site's cache holds."""
        return list(self.page.evaluate("""async () => {
          const [key] = await caches.keys();
          const cache = await caches.open(key);
          return (await cache.keys()).map((request) => new URL(request.url).pathname + new URL(request.url).search);
        }"""))

    def caches(self) -> list[str]:
        return list(self.page.evaluate("caches.keys()"))

    def wait_for_caches(self, versions: list[str]) -> None:
        """Until the site's caches are those of these versions (a bound on the wait, never a measurement)."""
        for _ in range(TIMEOUT_MS // 100):
            if [key.rsplit(" ", 1)[1] for key in self.caches()] == versions:
                return
            self.page.wait_for_timeout(100)
        assert [key.rsplit(" ", 1)[1] for key in self.caches()] == versions


@pytest.fixture()
def offline(browser: Any) -> Iterator[Offline]:
    session = Offline(browser)
    try:
        yield session
    finally:
        session.context.close()


def test_a_visit_keeps_only_what_it_fetched_until_the_reader_saves_the_site(prefixed: str, small: Path,
                                                                            offline: Offline) -> None:
    offline.visit(prefixed + "q-9/2nd-wind/")
    size = megabytes(size_of(small / "site"))
    assert offline.choice() == (f"Keeps every page, search and calculator on this device ({size}).",
                                "Save for offline use")
    offline.page.reload()  # now through the worker, which keeps what the page fetches
    offline.page.wait_for_selector(".rulesc-offline:not([hidden])")
    kept = offline.cached()
    assert "/site/q-9/2nd-wind/" in kept and "/site/q-9/glossary/" not in kept and "/site/?rulesc-saved" not in kept
    offline.page.click(".rulesc-offline__button")
    assert offline.page.locator(".rulesc-offline__state").inner_text() == f"Saving {size}…" or \
        offline.page.locator('.rulesc-offline[data-saved="yes"]').count() == 1  # saving a small site is quick
    offline.page.wait_for_selector('.rulesc-offline[data-saved="yes"]')
    assert offline.choice() == (f"Available offline: every page, search and calculator ({size}).",
                                "Remove offline copy")
    assert {"/site/q-9/glossary/", "/site/search/", "/site/?rulesc-saved"} <= set(offline.cached())
    offline.page.goto(prefixed + "q-9/glossary/")  # another page says so too
    offline.page.wait_for_selector('.rulesc-offline[data-saved="yes"]')
    offline.page.click(".rulesc-offline__button")  # and the reader can take it back
    offline.page.wait_for_selector('.rulesc-offline[data-saved="no"]')
    assert offline.choice()[1] == "Save for offline use" and offline.errors == []


def megabytes(size: int) -> str:
    return f"{size / 1e6:.1f}\u00a0MB" if size >= 1e6 else f"{max(1, round(size / 1e3))}\u00a0kB"


def size_of(site: Path) -> int:
    found = re.search(r"var SIZE = (\d+);", (site / "sw.js").read_text(encoding="utf-8"))
    assert found, "sw.js names no size"
    return int(found.group(1))


def test_once_saved_pages_search_and_calculators_work_offline(prefixed: str, offline: Offline) -> None:
    offline.visit_and_save(prefixed)
    [cache] = offline.caches()
    assert cache.startswith(f"rulesc {prefixed} ")  # the worker's scope is the site's folder, not the origin's root
    # the browser asks for the favicon after the load event, past the worker: taken offline before it has, a busy
    # machine's run logged that request as failed; the network quiet, the page has asked for all it asks for
    offline.page.wait_for_load_state("networkidle")
    offline.context.set_offline(True)
    page = offline.page
    page.goto(prefixed + "q-9/glossary/")  # never visited online
    assert page.locator("h1").inner_text().startswith("Glossary")
    page.goto(prefixed + "search/?q=spark")
    page.wait_for_selector(".rulesc-search__results li")
    assert "Spark" in page.locator(".rulesc-search__results li .rulesc-hit__title").all_inner_texts()
    page.goto(prefixed + "q-9/2nd-wind/")
    page.wait_for_function("document.querySelector('[data-calculator=\"q-9/rest\"]').dataset.state === 'ok'")
    back = page.locator('[data-calculator="q-9/rest"] output[name="back"]')
    assert back.inner_text() == "1.00"
    page.fill('[data-calculator="q-9/rest"] input[name="d"]', "6")
    page.wait_for_function("document.querySelector('[data-calculator=\"q-9/rest\"] output[name=\"back\"]')"
                           ".textContent === '3.00'")
    assert [r for r in offline.requests if not r.startswith(prefixed)] == []
    assert offline.errors == []
    missing = page.goto(prefixed + "no-such-page/")  # an unknown address: the site's 404 page, with a 404
    assert missing is not None and missing.status == 404 and "404" in page.content()


def test_a_new_build_replaces_the_old_cache(small: Path, tmp_path: Path, offline: Offline) -> None:
    root = shutil.copytree(small, tmp_path / "project")  # the small project built, as a build here would leave it
    first = version_of(root / "site")
    with serve_site(root / "site") as url:
        offline.visit_and_save(url)
        assert [key.rsplit(" ", 1)[1] for key in offline.caches()] == [first]
        (root / "content/q-9/2nd-wind.yaml").write_text(CHAPTER.replace("when you rest", "at ease"), encoding="utf-8")
        build_project(Project(root))
        second = version_of(root / "site")
        assert second != first
        offline.page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        offline.wait_for_caches([second])
        offline.page.goto(url + "q-9/2nd-wind/")
        assert "at ease" in offline.page.locator(".md-content").inner_text()
        offline.page.wait_for_selector('.rulesc-offline[data-saved="yes"]')  # the reader's choice carries over
        assert "/q-9/glossary/" in offline.cached()


def test_the_manifest_is_valid_for_the_browser(prefixed: str, offline: Offline) -> None:
    offline.page.goto(prefixed + "q-9/2nd-wind/")
    found = offline.context.new_cdp_session(offline.page).send("Page.getAppManifest")
    assert found["url"] == prefixed + "manifest.json"
    assert found["errors"] == []
    assert json.loads(found["data"])["start_url"] == "./"


def test_pages_opened_from_files_register_nothing_and_log_no_error(small: Path, offline: Offline) -> None:
    page = offline.page
    page.goto((small / "site/q-9/2nd-wind/index.html").as_uri())
    page.wait_for_function("document.querySelector('[data-calculator=\"q-9/rest\"]').dataset.state === 'ok'")
    page.fill('[data-calculator="q-9/rest"] input[name="d"]', "6")
    page.wait_for_function("document.querySelector('[data-calculator=\"q-9/rest\"] output[name=\"back\"]')"
                           ".textContent === '3.00'")
    page.wait_for_load_state("load")  # after which offline.js would register a worker over http(s), once idle
    page.evaluate("new Promise((done) => requestIdleCallback(() => setTimeout(done, 0)))")  # after its idle call
    assert offline.errors == []
    assert all(r.startswith("file://") for r in offline.requests)
    assert page.evaluate("navigator.serviceWorker ? navigator.serviceWorker.controller : null") is None
