"""Benchmark: search payload of Material's lunr index vs Pagefind on a synthetic 5,000-rule book, and page weight.

Run:  python benchmarks/site_payload.py [--rules 5000]
Prints figures; asserts nothing (the tests check behaviour, this measures it).
"""

from __future__ import annotations

import argparse
import gzip
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesc.build.site_config import read_settings  # noqa: E402
from rulesc.pipeline import Project, build_project, build_site, compile_project, compiled_nav  # noqa: E402  # noqa: E402
from tests.browser import chromium, serve_site  # noqa: E402

WORDS = [
    "strike", "dodge", "wound", "ki", "guard", "aura", "burst", "charge", "focus", "tier", "dice", "roll", "bonus",
    "penalty", "target", "range", "beam", "rush", "counter", "stance", "shield", "recover", "stamina", "power",
    "level", "speed", "reach", "zone", "blast", "spray", "trigger", "escalate",
]
OWN = ("assets/rulesc/site.js", "assets/rulesc/site.css", "assets/rulesc/rulesc.css", "assets/rulesc/calculators.js",
       "assets/rulesc/runtime.js")


def synthetic_project(root: Path, rules: int, chapters: int = 10) -> Path:
    """A system with `rules` rules of mixed kinds and ~70 words of text each (deterministic)."""
    rng = random.Random(5000)
    for part in ("schema", "site_overrides"):
        shutil.copytree(ROOT / part, root / part)
    shutil.copy2(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    system = root / "content/big"
    system.mkdir(parents=True)
    system.joinpath("system.yaml").write_text(
        "id: big\ntitle: Big Book\nsummary: A synthetic book.\nsources:\n  - {id: src, file: big.txt, title: Big}\n"
        "dice:\n  summary: Roll a d10.\nfacts:\n  - {id: maneuver_type, label: Type, type: choice, "
        "options: [standard]}\n"
        "terms:\n  - {id: ki-points, name: Ki Points, abbreviations: [KP], "
        "definition: Energy.}\n")
    kinds = ("maneuver", "upgrade", "action", "general", "condition")
    per = rules // chapters
    for c in range(chapters):
        lines = [f"id: part-{c}", f"title: Part {c}", f"order: {c}", "summary: Synthetic rules.", "rules:"]
        for r in range(per):
            text = " ".join(rng.choice(WORDS) for _ in range(70))
            kind = kinds[r % len(kinds)]
            name = f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {c}-{r}"
            lines += [f"  - id: rule-{c}-{r}", f"    name: {name}",
                      f"    kind: {kind}", f"    text: {text}. Spend KP.",
                      "    provenance: {source: src, section: Part}"]
            if kind == "maneuver":
                lines += ["    facts:", "      maneuver_type: standard"]
        system.joinpath(f"part-{c}.yaml").write_text("\n".join(lines) + "\n")
    return root


def size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    return len(data), len(gzip.compress(data, mtime=0))


def lunr_index(project: Path) -> tuple[int, int]:
    """Build the same pages with Material's own search plugin and measure search_index.json."""
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("  - rulesc-search", "  - search"))
    lunr = Project(project)
    site = project / "site-lunr"
    build_site(read_settings(project), project / "build/docs", site, compiled_nav(compile_project(lunr)))
    return size(site / "search/search_index.json")


def pagefind_first_search(site: Path, query: str) -> tuple[int, int, int]:
    """Bytes Pagefind fetches for the first search (entry, wasm, meta, index chunks, 8 fragments); page bytes."""
    with serve_site(site) as url, chromium() as browser:
        page = browser.new_page()
        fetched: list[str] = []
        page.on("requestfinished", lambda r: fetched.append(r.url))
        page.goto(url + "search/")
        page.wait_for_load_state("networkidle")
        before = list(fetched)
        page.fill("#rulesc-search-q", query)
        page.wait_for_selector(".rulesc-search__results li")
        page.wait_for_load_state("networkidle")
    on_load = sum((site / u[len(url):]).stat().st_size for u in before if (site / u[len(url):]).is_file())
    search = [u[len(url):] for u in fetched[len(before):]]
    raw = sum((site / p).stat().st_size for p in search if (site / p).is_file())
    return raw, len(search), on_load


def page_weight(site: Path, page: str) -> list[tuple[str, int, int]]:
    html = (site / page).read_text()
    import re

    refs = re.findall(r'(?:src|href)="((?:\.\./)*assets/[^"]+\.(?:js|css))"', html)
    rows = [(page, *size(site / page))]
    for ref in dict.fromkeys(refs):
        rows.append((ref.lstrip("./"), *size((site / page).parent / ref)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulesc-bench-") as tmp:
        project = synthetic_project(Path(tmp) / "p", args.rules)
        start = time.perf_counter()
        build_project(Project(project))
        built = time.perf_counter() - start
        site = project / "site"
        pf_total = sum(p.stat().st_size for p in (site / "pagefind").rglob("*") if p.is_file())
        raw, requests, on_load = pagefind_first_search(site, "strike")
        lunr_raw, lunr_gz = lunr_index(project)
        print(f"synthetic book: {args.rules} rules; rulesc build (pages + MkDocs + Pagefind): {built:.1f} s")
        print(f"lunr (Material search):  search_index.json {lunr_raw / 1e6:.2f} MB "
              f"({lunr_gz / 1e3:.0f} KB gzipped), "
              "fetched whole by every page's search worker")
        print(f"pagefind:                0 bytes of index on page load (search page loads {on_load / 1e3:.0f} KB "
              f"in all); first search fetches {raw / 1e3:.0f} KB in {requests} requests; whole index on disk "
              f"{pf_total / 1e6:.1f} MB")
        print("page weight (bytes raw / gzipped) of a chapter page of the synthetic book and what it loads:")
        rows = page_weight(site, "big/part-0/index.html")
        for name, raw_bytes, gz in rows:
            print(f"  {name:60} {raw_bytes:>9} {gz:>8}")
        own = [size(site / name) for name in OWN]
        print(f"rulesc's own JS+CSS: {sum(r for r, _ in own)} bytes, {sum(g for _, g in own)} gzipped (limit 30720)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
