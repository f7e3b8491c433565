"""The folder list is the pipeline: no import cycles, each stage imports only earlier ones, no content names; one
table of built-in functions, and a conformance case for every export of both runtimes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from generator.formula.builtins import ROWS
from generator.runtime import rulesc_runtime as R
from generator.runtime.contract import JS_ONLY, js_name, mismatches
from tests.test_runtime_contract import CASES, covered, js_exports

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "generator"

# Earliest first. A module belongs to the longest prefix that names it; it may import its own layer and earlier.
LAYERS = (
    "generator.runtime generator.files generator.licenses",
    "generator.diagnostics generator.diagnostics.core",
    "generator.load",
    "generator.schema",
    "generator.formula",
    "generator.model generator.kinds generator.patches",
    "generator.analyze",
    "generator.pipeline",
    "generator.diagnostics.catalog generator.diagnostics.report",
    "generator.emit",
    "generator.build",
    "generator.diff",
    "generator.migrate",
    "generator.bench",
    "generator.cli",
)
RANK = {prefix: rank for rank, layer in enumerate(LAYERS) for prefix in layer.split()}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(GENERATOR.rglob("*.py"))}


def imports_of(module: str) -> set[str]:
    """Every generator module this one imports, at the top or inside a function."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names)
    return {name for name in found if name in MODULES and name != module}


def layer_of(module: str) -> int:
    prefix = max((p for p in RANK if module == p or module.startswith(p + ".")), key=len, default=None)
    if prefix is None:
        return -1  # generator/__init__ and the like: no stage
    return RANK[prefix]


GRAPH = {module: imports_of(module) for module in MODULES}


def test_every_stage_imports_only_itself_and_earlier_stages() -> None:
    backwards = sorted(f"{module} imports {target}" for module, targets in GRAPH.items() for target in targets
                       if layer_of(target) > layer_of(module))
    assert backwards == []


def test_every_module_has_a_stage() -> None:
    assert sorted(m for m in MODULES if layer_of(m) < 0) == ["generator"]


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each cycle a depth-first walk meets, as the modules along it."""
    cycles: list[list[str]] = []
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycles.append([*path[path.index(target):], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    return cycles


def test_no_import_cycles() -> None:
    assert find_cycles(GRAPH) == []


def test_the_checks_see_what_they_guard() -> None:
    """A cycle is found; an import inside a function is an edge; the layers are in pipeline order."""
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert "generator.build.staging" in GRAPH["generator.cli.build"]
    assert layer_of("generator.cli.main") > layer_of("generator.emit.site.pages") > layer_of("generator.model")


def bundled_names() -> set[str]:
    """Each bundled system's id, and the ids of its formulas, values and calculators."""
    names: set[str] = set()
    for system in sorted((ROOT / "content").iterdir()):
        if not (system / "system.yaml").is_file():
            continue
        names.add(system.name)
        for chapter in sorted(system.glob("*.yaml")):
            text = chapter.read_text(encoding="utf-8")
            names.update(re.findall(r"^\s*-?\s*(?:id|name):\s*([a-z][a-z0-9_]*_[a-z0-9_]+)\s*$", text, re.M))
    return names


def schema_words() -> set[str]:
    """Field names the schemas define (a system's `base_die`): words of the language, not of a rulebook."""
    return set(re.findall(r'"([a-z][a-z0-9_]*)"\s*:', "".join(p.read_text() for p in (ROOT / "schema").glob("*.json"))))


CONTENT_NAMES = bundled_names() - schema_words()


@pytest.mark.parametrize("path", sorted(GENERATOR.rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_code_names_no_bundled_system_or_formula(path: Path) -> None:
    assert len(CONTENT_NAMES) > 20  # the bundled content's ids were found
    text = path.read_text(encoding="utf-8")
    found = sorted(name for name in CONTENT_NAMES if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text, re.I))
    assert found == []


BUILTIN_NAMES = frozenset(row.name for row in ROWS)
TABLE = GENERATOR / "formula/builtins.py"


def listed_builtins(source: str) -> list[str]:
    """Each literal tuple, list, set or dict (its keys) in a module that names three or more built-in functions: a
    second list of them (a few, such as a result's "mean" and "sd", are ordinary words)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
        if not isinstance(node, (ast.Dict, ast.Tuple, ast.List, ast.Set)) or items is None:
            continue
        names = [item.value for item in items if isinstance(item, ast.Constant) and item.value in BUILTIN_NAMES]
        if len(names) >= 3:
            found.append(f"{node.lineno}: {', '.join(names)}")
    return found


def test_only_the_builtins_table_lists_the_built_in_functions() -> None:
    """names, check, evaluate, bounds and both backends read generator/formula/builtins.py; the runtime, an earlier
    layer, names its own functions."""
    readers = [p for p in sorted(GENERATOR.rglob("*.py")) if p != TABLE and "runtime" not in p.parts]
    assert [f"{path.relative_to(ROOT)}:{found}" for path in readers
            for found in listed_builtins(path.read_text(encoding="utf-8"))] == []
    assert listed_builtins('M = {"clamp": "R.clamp", "sd": "R.sd", "p": "R.p"}\nW = ("mean", "sd")') == [
        "1: clamp, sd, p"]  # the check sees a second table, and lets two words pass
    assert {"generator.formula.builtins"} <= GRAPH["generator.formula.check"] & GRAPH["generator.formula.to_js"]


def test_the_conformance_suite_covers_every_runtime_export() -> None:
    """Every export of both runtimes is called by a case of generator/runtime/spec/ (tests/test_runtime_contract.py
    runs them), and the two export lists keep generator/runtime/contract.py."""
    names = covered(CASES)
    assert sorted(set(R.__all__) - names) == []
    assert sorted(js_exports() - {js_name(name) for name in names if name not in JS_ONLY} - names) == []
    assert mismatches(R.__all__, js_exports()) == []
