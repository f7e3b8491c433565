"""A page's inline styles count the words of the scripts it may run (rulesc/emit/site/page_styles.py): calculators.js
only where site.js loads it, on a page with a calculator or a roll table."""

from __future__ import annotations

import re
from pathlib import Path

from rulesc.build.styles import inline_styles
from rulesc.emit.site.page_styles import LOADED_WHERE
from tests.conftest import REPO

SHEET = ".calc{top:0}.site{left:0}.page{right:0}"
LINK = '<link rel="stylesheet" href="one.css">\n'


def _page(head: str, body: str) -> str:
    return f"<!doctype html>\n<html>\n<head>\n{head}<title>t</title>\n</head>\n<body>{body}</body>\n</html>\n"


def _site(tmp_path: Path, bodies: dict[str, str]) -> Path:
    site = tmp_path / "site"
    (site / "assets/rulesc").mkdir(parents=True)
    (site / "one.css").write_text(SHEET, encoding="utf-8")
    (site / "assets/rulesc/calculators.js").write_text('box.className = "calc";', encoding="utf-8")
    (site / "assets/rulesc/site.js").write_text('box.className = "site";', encoding="utf-8")
    for name, body in bodies.items():
        (site / name).write_text(_page(LINK, body), encoding="utf-8")
    return site


def test_calculators_js_s_classes_are_styled_only_on_a_page_that_loads_it(tmp_path: Path) -> None:
    bodies = {"plain.html": '<p class="page">', "calc.html": '<div data-calculator="g/odds">',
              "roll.html": '<div data-roll-table="g/weather">'}
    site = _site(tmp_path, bodies)
    assert inline_styles(site) == ["one.css"]
    styled = {name: (site / name).read_text(encoding="utf-8") for name in bodies}
    assert styled["plain.html"] == _page("<style>.site{left:0}.page{right:0}</style>\n", bodies["plain.html"])
    assert styled["calc.html"] == _page("<style>.calc{top:0}.site{left:0}</style>\n", bodies["calc.html"])
    assert styled["roll.html"] == _page("<style>.calc{top:0}.site{left:0}</style>\n", bodies["roll.html"])


def test_the_attributes_are_those_site_js_loads_calculators_js_for() -> None:
    loader = (REPO / "frontend/src/site/loader.js").read_text(encoding="utf-8")
    load = loader[loader.index("export function loadCalculators"):]
    selector = re.search(r'querySelectorAll\("([^"]+)"\)', load)
    assert selector is not None and '"calculators.js"' in loader
    assert set(re.findall(r"\[([\w-]+)\]", selector.group(1))) == LOADED_WHERE["assets/rulesc/calculators.js"]
    assert set(LOADED_WHERE) == {"assets/rulesc/calculators.js"}
