"""The hostile-text golden case as a project to build: its payload, in every free-text field the schemas accept,
swapped for any other text, and a long chapter added so that chapter, GM screen and part pages all carry it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import REPO

CASE = REPO / "tests/cases/good/hostile-text"
PAYLOAD = ("<img src=x onerror=pwn() data-pwned>\"><svg onload=pwn() data-pwned></title><script data-pwned>pwn()"
           "</script>'onfocus='pwn()' ]] {{ `x` & &amp; <!-- ${pwn()} \"\"\"+pwn()+\"\"\" \\N")
"""Markup, handlers, a closing </title>, both quotes (an attribute broken out of), template braces, a backtick, an
entity, a comment, a triple quote (a docstring closed early) and a backslash: every free-text field of the case
ends with it."""

PARTS_RULES = 6
"""Rules of the long chapter: each with two calculators and text enough that the chapter and the GM screen split."""
FILLER = "Words that only make the rule long enough to need a page of its own. " * 80

def hostile_content(target: Path, text: str = PAYLOAD, long_chapter: bool = False) -> Path:
    """The case's content/ under `target`, every PAYLOAD replaced by `text` (JSON, which is YAML), and the
    repository's mkdocs.yml and theme overrides beside it; with `long_chapter`, a chapter that splits."""
    for path in sorted((CASE / "content").rglob("*.yaml")):
        data = _replaced(yaml.safe_load(path.read_text(encoding="utf-8")), text)
        out = target / path.relative_to(CASE)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if long_chapter:
        (target / "content/mini/long.yaml").write_text(json.dumps(_long_chapter(text), indent=1), encoding="utf-8")
    shutil.copy(REPO / "mkdocs.yml", target / "mkdocs.yml")
    shutil.copytree(REPO / "site_overrides", target / "site_overrides")
    return target

def _replaced(data: Any, text: str) -> Any:
    if isinstance(data, dict):
        return {key: _replaced(value, text) for key, value in data.items()}
    if isinstance(data, list):
        return [_replaced(value, text) for value in data]
    return data.replace(PAYLOAD, text) if isinstance(data, str) else data

def _long_chapter(text: str) -> dict[str, Any]:
    return {"id": "long", "title": f"Long {text}", "order": 2, "summary": f"A long chapter {text}",
            "rules": [_long_rule(n, text) for n in range(PARTS_RULES)]}

def _long_rule(n: int, text: str) -> dict[str, Any]:
    return {"id": f"long-{n}", "name": f"Long rule {n} {text}", "kind": "general", "text": f"{FILLER}{text}",
            "provenance": {"source": "src", "section": f"Long {text}"},
            "calculators": [_calculator(f"calc-{n}-{i}", text) for i in range(2)]}


def _calculator(id: str, text: str) -> dict[str, Any]:
    return {"id": id, "title": f"Calculator {id} {text}",
            "inputs": [{"name": "k", "type": "int", "label": f"K {text}", "min": 0, "max": 9, "default": 1}],
            "outputs": [{"name": "twice", "label": f"Twice {text}", "expr": "double(k)"}]}

def case_strings() -> Iterator[tuple[str, str, str]]:
    """Every string of the case's files: the file's kind (system, chapter, variant), its path there with list
    positions left out (rules[].name), and the string."""
    for path in sorted((CASE / "content").rglob("*.yaml")):
        kind = "system" if path.name == "system.yaml" else "variant" if path.name == "variant.yaml" else "chapter"
        yield from ((kind, where, value) for where, value in _strings(yaml.safe_load(path.read_text("utf-8")), ""))

def _strings(data: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _strings(value, f"{where}.{key}" if where else str(key))
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value, f"{where}[]")
    elif isinstance(data, str):
        yield where, data
