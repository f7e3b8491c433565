"""The D&D SRD port in Debian's Chromium on a phone: a monster's stat block fits 390 px and its attack calculator
answers for the armor class the reader sets."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import Visit, serve_site

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def srd_site(built_example: Callable[[str], Path]) -> Iterator[str]:
    """examples/dnd-srd's site served: the build test_examples checks, made once a run (conftest's built_example)."""
    with serve_site(built_example("dnd-srd") / "site") as url:
        yield url


def test_a_stat_block_fits_a_phone_and_its_attack_answers_for_the_armor_class_set(srd_site: str,
                                                                                   browser: Any) -> None:
    with Visit(browser, srd_site + "srd/monsters/goblin/", viewport=PHONE) as visit:
        page = visit.page
        block = page.locator("[data-rule='goblin'] .rulesc-stats")
        assert block.locator(".rulesc-statrow td").all_inner_texts() == ["8 (-1)", "14 (+2)", "10 (+0)", "10 (+0)",
                                                                           "8 (-1)", "8 (-1)"]
        assert block.locator(".rulesc-attacks li").all_inner_texts() == ["Scimitar: +4 to hit, 1d6+2 slashing",
                                                                          "Shortbow: +4 to hit, 1d6+2 piercing"]
        box = block.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.evaluate("(el) => el.scrollWidth <= el.clientWidth",
                             block.element_handle()) is True
        hit = page.locator("#calc-srd-goblin-scimitar-out-hit")
        damage = page.locator("#calc-srd-goblin-scimitar-out-damage")
        assert (hit.inner_text(), damage.inner_text()) == ("50.00%", "2.93")
        page.fill("#calc-srd-goblin-scimitar-ac", "10")
        page.wait_for_function("document.querySelector('#calc-srd-goblin-scimitar-out-hit').textContent === '75.00%'")
        assert damage.inner_text() == "4.30"
        assert visit.errors == []
