"""Which scripts a page loads: a page without calculators parses no formulas; one with calculators loads only its
system's formulas (one script a system) after the runtime, and its calculators still compute, over http and file://."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser import Visit

FORMULAS = "assets/rulesc/formulas"


def _scripts(visit: Visit) -> list[str]:
    return [r.rsplit("/assets/rulesc/", 1)[-1] for r in visit.requests if "/assets/rulesc/" in r and r.endswith(".js")]


def test_each_system_has_its_own_formulas_script_with_only_its_own_system(built: Path) -> None:
    folder = built / "site" / FORMULAS
    scripts = {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.js")}
    assert {"dbu", "annulus"} <= set(scripts)
    for system, text in scripts.items():
        defined = [line for line in text.splitlines() if line.startswith("systems[")]
        assert defined == [f'systems["{system}"] = (function () {{'], system


def test_a_page_without_calculators_loads_no_formulas_and_no_runtime(site: str, browser: Any) -> None:
    for path in ("", "dbu/tables/", "dbu/tables/general/", "errors/", "errors/formulas/"):
        with Visit(browser, site + path) as visit:
            scripts = _scripts(visit)
            assert "site.js" in scripts, path
            assert not [s for s in scripts if s.startswith(("formulas", "runtime", "calculators"))], (path, scripts)
            assert visit.errors == [], path


def test_a_page_with_calculators_loads_its_systems_formulas_and_computes(site: str, browser: Any) -> None:
    with Visit(browser, site + "dbu/maneuvers/standard-maneuvers/") as visit:  # a part with four calculators
        visit.wait_until_calculators_are_ready()
        scripts = _scripts(visit)
        assert [s for s in scripts if s.startswith(("runtime", "formulas", "calculators"))] == \
            ["runtime.js", "formulas/dbu.js", "calculators.js"]
        assert visit.errors == []


def test_calculators_load_their_scripts_from_file(built: Path, browser: Any) -> None:
    page = next(p for p in sorted((built / "site/dbu/gm-screen").glob("*/index.html"))
                if "data-calculator=" in p.read_text(encoding="utf-8")).as_uri()  # a part of the GM screen
    with Visit(browser, page) as visit:
        visit.wait_until_calculators_are_ready()
        assert visit.page.evaluate("Object.keys(globalThis.RulesSystems)") == ["dbu"]
        assert visit.page.evaluate("document.querySelectorAll('[data-calculator]:not([data-ready=\"1\"])').length") == 0
        assert visit.errors == []


def test_index_table_cells_name_their_column_in_the_html(built: Path) -> None:
    html = (built / "site/dbu/tables/general/index.html").read_text(encoding="utf-8")  # a kind's page
    assert 'class="rulesc-index rulesc-index--cards"' in html
    assert '<td data-label="Name">' in html
    assert "<td></td>" in html  # an empty cell, which a card hides
    assert not re.search(r'<td data-label="[^"]*"></td>', html)


def test_index_tables_fields_are_in_the_html_so_nothing_moves_when_site_js_binds_them(built: Path) -> None:
    """site.js inserting them once the table was painted pushed it down: a layout shift of 0.12 on a phone."""
    tables = built / "site/dbu/tables"
    scaled, plain = ((tables / kind / "index.html").read_text(encoding="utf-8") for kind in ("maneuver", "keyword"))
    field = ('<div class="rulesc-filter"><label for="index-{0}-filter">Filter {1}</label><input type="search" '
             'id="index-{0}-filter" autocomplete="off"><span role="status" aria-live="polite">{2} of {2} shown</span>'
             "</div>")
    assert f'data-index-table="maneuver" markdown="0">\n{field.format("maneuver", "maneuvers", 36)}' \
           '<div class="rulesc-filter rulesc-tiers"><label>Tier of Power <input' in scaled  # its (T) amounts
    keywords = plain.count('<tr><td data-label="Name">')
    assert field.format("keyword", "keywords", keywords) in plain and "rulesc-tiers" not in plain


def test_the_site_ships_no_script_that_no_page_loads(built: Path) -> None:
    """assets/rulesc/ holds what the pages name and what site.js loads by name for a page's calculators (the
    runtime, calculators.js, a system's formulas); no all-systems formulas.js that no page loads and every reader's
    worker would precache."""
    site = built / "site"
    pages = "".join(page.read_text(encoding="utf-8") for page in site.rglob("*.html"))
    named = set(re.findall(r"assets/rulesc/([\w./-]+)", pages))
    shipped = {p.relative_to(site / "assets/rulesc").as_posix() for p in (site / "assets/rulesc").rglob("*")
               if p.is_file()}
    systems = {f"formulas/{p.name}.js" for p in (built / "content").iterdir() if (p / "system.yaml").is_file()}
    # rulesc's stylesheets stay as files, for `rulesc serve` (which links them) and for a project's page that links
    # a foreign sheet too, but each built page has its rules inline and the worker precaches neither.
    sheets = {"site.css", "rulesc.css"}
    assert shipped - named == {"runtime.js", "calculators.js", *systems, *sheets}
    assert {"site.js", "theme.js", "offline.js"} <= named and "formulas.js" not in shipped
    precached = (site / "sw.js").read_text(encoding="utf-8")
    assert [sheet for sheet in sorted(sheets) if f"assets/rulesc/{sheet}" in precached] == []
    assert "assets/rulesc/runtime.js" in precached
