"""Scalings are data: the notations a system declares give its index tables' fields (label, range, the sentence
after them) and the pattern both Python and site.js read scaled amounts by; a browser reads the amounts at a value."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rulesc.diagnostics.core import Span
from rulesc.emit.site.tables import _scaling_fields, scaled_pattern
from rulesc.model import Scaling
from rulesc.pipeline import Project, build_project
from tests.conftest import REPO
from tests.run_case import run_rulesc
from tests.tabs import Tab

CASE = REPO / "tests/cases/good/scalings"
FIELDS = re.compile(r'<div class="rulesc-filter rulesc-tiers">.*?</div>')


def scaling(notation: str, label: str = "Level", low: int = 1, high: int = 9) -> Scaling:
    return Scaling(notation, label, None, low, high, Span("system.yaml", 1, 1))


def copy_case(root: Path) -> Path:
    """The case's content with the repository's mkdocs.yml and theme, so that it builds as the bundled site does."""
    shutil.copytree(CASE / "content", root / "content")
    shutil.copytree(REPO / "site_overrides", root / "site_overrides")
    shutil.copy2(REPO / "mkdocs.yml", root / "mkdocs.yml")
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_case(tmp_path_factory.mktemp("scalings") / "project")
    build_project(Project(root))
    return root


def test_the_pattern_reads_each_notation_as_written_its_regex_characters_too() -> None:
    pattern = scaled_pattern((scaling("R+"), scaling("x."), scaling("L")))
    found = [m.group(0, 1, 2, 3) for m in pattern.finditer("4(R+) 4(RR) 2(xy) 2(x.) 1d6(L) 3(l) 5(T)")]
    assert found == [("4(R+)", "4", None, "R+"), ("2(x.)", "2", None, "x."), ("1d6(L)", "1", "d6", "L")]


def test_the_sentence_after_the_fields_lists_their_notations() -> None:
    said = [re.findall(r"<span>(.*?)</span>", _scaling_fields([scaling(n) for n in notations]))
            for notations in (["L"], ["T", "bT"], ["a", "b<c", "d"])]
    assert said == [["show (L) amounts at this value"], ["show (T) and (bT) amounts at these values"],
                    ["show (a), (b&lt;c) and (d) amounts at these values"]]
    assert _scaling_fields([]) == ""


def test_each_table_gets_a_field_for_each_scaling_its_amounts_carry_and_no_other(project: Path) -> None:
    page = (project / "site/ranks/tables/index.html").read_text(encoding="utf-8")
    assert FIELDS.findall(page) == [
        '<div class="rulesc-filter rulesc-tiers"><label>Caster level <input type="number" min="1" max="20" '
        'inputmode="numeric" data-tier="L"></label> <span>show (L) amounts at this value</span></div>',
        '<div class="rulesc-filter rulesc-tiers"><label>Renown <input type="number" min="0" max="5" '
        'inputmode="numeric" data-tier="R+"></label> <span>show (R+) amounts at this value</span></div>']


def test_the_export_carries_the_declared_scalings_and_validates(project: Path) -> None:
    schema = json.loads((project / "build/export/rulesc-export.schema.json").read_text(encoding="utf-8"))
    data = json.loads((project / "build/export/ranks.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
    assert data["scalings"] == [
        {"notation": "L", "label": "Caster level", "term": "caster-level", "min": 1, "max": 20},
        {"notation": "R+", "label": "Renown", "term": None, "min": 0, "max": 5},
        {"notation": "x.", "label": "Unused", "term": None, "min": 1, "max": 3}]
    data["scalings"][1]["max"] = "5"
    del data["scalings"][2]["label"]
    paths = sorted(list(e.absolute_path) for e in Draft202012Validator(schema).iter_errors(data))
    assert paths == [["scalings", 1, "max"], ["scalings", 2]]


def test_an_unknown_term_of_a_scaling_is_reported_where_it_is_declared(tmp_path: Path) -> None:
    root = copy_case(tmp_path)
    system = root / "content/ranks/system.yaml"
    system.write_text(system.read_text(encoding="utf-8").replace("term: caster-level", "term: caster-levl"),
                      encoding="utf-8")
    status, out, err = run_rulesc("--root", str(root), "check")
    assert (status, out) == (1, "")
    assert err.splitlines()[0] == ("content/ranks/system.yaml:11:5: error[E0602]: reference to unknown glossary "
                                   "term 'caster-levl'")


def _row(box: Any, name: str) -> str:
    return " ".join(box.locator("tbody tr", has_text=name).inner_text().split())


def test_the_fields_read_the_amounts_at_the_value_typed(project: Path, tab: Tab) -> None:
    with tab.use((project / "site/ranks/tables/index.html").as_uri()) as visit:
        spells, favours = (visit.page.locator(f'[data-index-table="{kind}"]') for kind in ("spell", "favour"))
        spells.locator('[data-tier="L"]').fill("3")
        assert (_row(spells, "Spark"), _row(spells, "Glow")) == (
            "Spark Magic 6 (2(L)) mana 30 (10(L)) yards spark mana = 2 spark reach = 10",
            "Glow Magic 3 mana glow mana = 3")
        favours.locator('[data-tier="R+"]').fill("0")  # the field's range starts at 0: nothing to pay
        assert _row(favours, "Call in a favour") == "Call in a favour Magic 0 (4(R+)) mana favour mana = 4"
        favours.locator('[data-tier="R+"]').fill("6")  # above the field's max: read as written
        assert _row(favours, "Call in a favour") == "Call in a favour Magic 4(R+) mana favour mana = 4"
        spells.locator('[data-tier="L"]').fill("")
        assert _row(spells, "Spark") == "Spark Magic 2(L) mana 10(L) yards spark mana = 2 spark reach = 10"
        assert visit.errors == []
