"""The folder list is the pipeline: no import cycles, each stage imports only earlier ones, no content names; one
table of built-in functions, and a conformance case for every export of both runtimes."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from rulesc.formula.builtins import ROWS
from rulesc.runtime import rulesc_runtime as R
from rulesc.runtime.contract import JS_ONLY, js_name, mismatches
from tests.test_runtime_contract import CASES, covered, js_exports

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "rulesc"

# Earliest first. A module belongs to the longest prefix that names it; it may import its own layer and earlier.
LAYERS = (
    "rulesc.runtime rulesc.files rulesc.licenses",
    "rulesc.diagnostics rulesc.diagnostics.core",
    "rulesc.load",
    "rulesc.schema",
    "rulesc.formula",
    "rulesc.model rulesc.kinds rulesc.patches",
    "rulesc.analyze",
    "rulesc.compile",
    "rulesc.diagnostics.catalog rulesc.diagnostics.report",
    "rulesc.emit",
    "rulesc.build",
    "rulesc.diff",
    "rulesc.pipeline",
    "rulesc.migrate",
    "rulesc.bench",
    "rulesc.cli",
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
        return -1  # rulesc/__init__ and the like: no stage
    return RANK[prefix]


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Each generator module's imports, parsed once by the tests that read them (not while collecting)."""
    return {module: imports_of(module) for module in MODULES}


def test_every_stage_imports_only_itself_and_earlier_stages() -> None:
    backwards = sorted(f"{module} imports {target}" for module, targets in import_graph().items() for target in targets
                       if layer_of(target) > layer_of(module))
    assert backwards == []


def test_every_module_has_a_stage() -> None:
    assert sorted(m for m in MODULES if layer_of(m) < 0) == ["rulesc"]


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
    assert find_cycles(import_graph()) == []


def test_the_checks_see_what_they_guard() -> None:
    """A cycle is found; an import inside a function is an edge; the layers are in pipeline order."""
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert "rulesc.pipeline" in import_graph()["rulesc.cli.build"]
    assert layer_of("rulesc.cli.main") > layer_of("rulesc.emit.site.pages") > layer_of("rulesc.model")


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
    assert named_content(path.read_text(encoding="utf-8")) == []


def named_content(text: str) -> list[str]:
    """The bundled names the text holds, in any case, with no word character or hyphen either side: each such place
    is a whole run of them, so the text's runs are read once (one search per name took 7 CPU-s for the package)."""
    return sorted({run.casefold() for run in re.findall(r"[\w-]+", text)} & CONTENT_NAMES)


def test_a_bundled_name_is_found_only_as_a_word_of_its_own() -> None:
    assert named_content("x = f(Tier_Of_Power) + 'dbu'") == ["dbu", "tier_of_power"]
    assert named_content("tier_of_power2 tier_of_power-x xtier_of_power") == []


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
    """names, check, evaluate, bounds and both backends read rulesc/formula/builtins.py; the runtime, an earlier
    layer, names its own functions."""
    readers = [p for p in sorted(GENERATOR.rglob("*.py")) if p != TABLE and "runtime" not in p.parts]
    assert [f"{path.relative_to(ROOT)}:{found}" for path in readers
            for found in listed_builtins(path.read_text(encoding="utf-8"))] == []
    assert listed_builtins('M = {"clamp": "R.clamp", "sd": "R.sd", "p": "R.p"}\nW = ("mean", "sd")') == [
        "1: clamp, sd, p"]  # the check sees a second table, and lets two words pass
    graph = import_graph()
    assert {"rulesc.formula.builtins"} <= graph["rulesc.formula.check"] & graph["rulesc.formula.to_js"]


def test_the_conformance_suite_covers_every_runtime_export() -> None:
    """Every export of both runtimes is called by a case of rulesc/runtime/spec/ (tests/test_runtime_contract.py
    runs them), and the two export lists keep rulesc/runtime/contract.py."""
    names = covered(CASES)
    assert sorted(set(R.__all__) - names) == []
    assert sorted(js_exports() - {js_name(name) for name in names if name not in JS_ONLY} - names) == []
    assert mismatches(R.__all__, js_exports()) == []


def called_in_order(module: ast.Module, function: str) -> list[str]:
    """The names `function` calls, in the order they are written, with each function of the same module that it
    calls read in its place (build_project's call of build_site is build_site's own stages)."""
    defined = {node.name: node for node in module.body if isinstance(node, ast.FunctionDef)}
    calls = sorted((node for node in ast.walk(defined[function]) if isinstance(node, ast.Call)),
                   key=lambda call: (call.lineno, call.col_offset))
    found: list[str] = []
    for call in calls:
        name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
        found += called_in_order(module, name) if name in defined and name != function else [name]
    return found


def test_the_pipeline_runs_its_stages_in_the_order_it_lists_them() -> None:
    """rulesc/pipeline.py's build_project calls every stage of STAGES once, in that order; the stages come
    from modules no later than the pipeline's layer, so no stage runs one the pipeline does not see."""
    from rulesc.pipeline import STAGES

    module = ast.parse((GENERATOR / "pipeline.py").read_text(encoding="utf-8"))
    assert [name for name in called_in_order(module, "build_project") if name in STAGES] == list(STAGES)
    assert STAGES[:4] == ("read_settings", "site_history", "compile_and_emit", "assemble")
    assert STAGES[-4:] == ("write_index", "inline_styles", "write_site_worker", "swap")
    toy = ast.parse("def a():\n    x(b())\n    y()\ndef b():\n    z()\n")
    assert called_in_order(toy, "a") == ["x", "z", "y"]  # a helper's calls are read in its place


def reads_site_settings(path: Path) -> list[str]:
    """Where a module names mkdocs.yml as a file (the name alone, not in a sentence) or imports MkDocs' loader."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"{node.lineno}: mkdocs.yml" for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and node.value in ("mkdocs.yml", "mkdocs.yaml")]
    return found + [f"{node.lineno}: load_config" for node in ast.walk(tree)
                    if isinstance(node, ast.alias) and node.name == "load_config"]


SETTINGS = GENERATOR / "build/site_config.py"
# The error catalog writes example projects, whose settings file it names; it reads none.
WRITES_ONLY = (GENERATOR / "diagnostics/catalog.py",)


def test_only_the_settings_module_reads_mkdocs_yml() -> None:
    """Every stage takes the Settings that rulesc/build/site_config.py read; no other module opens the file,
    parses it or hands its path to MkDocs."""
    others = [p for p in sorted(GENERATOR.rglob("*.py")) if p != SETTINGS and p not in WRITES_ONLY]
    assert [f"{path.relative_to(ROOT)}:{line}" for path in others for line in reads_site_settings(path)] == []
    assert reads_site_settings(SETTINGS) != []  # the check sees the settings module's own reads
    assert [line.split(":")[0] for line in reads_site_settings(GENERATOR / "diagnostics/catalog.py")] != []


PAST_THE_MODEL = ("rulesc.analyze", "rulesc.formula", "rulesc.emit")
"""The stages that work on typed data: content is a model, a checked expression carries its types."""
JSON_OUT = "JsonObject"  # emit/writer.py's name for a JSON object being written out, the one alias allowed
UNTYPED = "dict[str, Any]"


def _annotations(tree: ast.AST) -> list[tuple[int, ast.expr]]:
    """Every annotation of a module (arguments, returns, annotated names) and every type alias it assigns."""
    found: list[tuple[int, ast.expr]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            found.append((node.lineno, node.annotation))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            found.append((node.lineno, node.returns))
        elif isinstance(node, ast.AnnAssign):
            found.append((node.lineno, node.annotation))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript) and \
                [ast.unparse(t) for t in node.targets] != [JSON_OUT]:
            found.append((node.lineno, node.value))
    return found


def untyped_dicts(source: str) -> list[int]:
    """The lines of a module whose annotations (or type aliases) hold dict[str, Any], written or quoted."""
    lines = []
    for line, annotation in _annotations(ast.parse(source)):
        text = annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) else \
            ast.unparse(annotation)
        if UNTYPED in text:
            lines.append(line)
    return sorted(lines)


def id_keyed_type_lookups(source: str) -> list[int]:
    """The lines that look a type up by id(node) (types[id(n)], types.get(id(n), ...)): a type is on its node."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        container, key = None, None
        if isinstance(node, ast.Subscript):
            container, key = node.value, node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and \
                node.args:
            container, key = node.func.value, node.args[0]
        keyed = isinstance(key, ast.Call) and isinstance(key.func, ast.Name) and key.func.id == "id"
        if keyed and container is not None and "type" in ast.unparse(container).lower():
            lines.append(node.lineno)
    return sorted(lines)


def past_the_model() -> list[str]:
    return [m for m in MODULES if any(m == p or m.startswith(p + ".") for p in PAST_THE_MODEL)]


def test_no_untyped_dict_travels_past_the_model() -> None:
    modules = past_the_model()
    assert len(modules) > 60 and "rulesc.analyze.variants" in modules
    found = [f"{m}:{line}" for m in modules for line in untyped_dicts(MODULES[m].read_text(encoding="utf-8"))]
    assert found == []


def test_no_type_is_looked_up_by_node_id() -> None:
    found = [f"{m}:{line}" for m in MODULES for line in id_keyed_type_lookups(MODULES[m].read_text(encoding="utf-8"))]
    assert found == []


def test_the_typing_checks_see_what_they_guard() -> None:
    """The checks flag the shapes they forbid, and let a JSON object being written and other id-keyed maps pass."""
    source = ("def f(x: dict[str, Any], y: 'dict[str, Any]') -> None:\n    pass\n"
              "def g() -> dict[str, Any]:\n    z: dict[str, Any] = {}\n"
              "Raw = dict[str, Any]\nJsonObject = dict[str, Any]\n")
    assert untyped_dicts(source) == [1, 1, 3, 4, 5]
    lookups = "a = self.types.get(id(node), 'int')\nb = program.types[id(n)]\nc = self.answers[id(node)]\n"
    assert id_keyed_type_lookups(lookups) == [1, 2]


def test_a_checked_program_is_frozen() -> None:
    from rulesc.analyze.program import Program

    assert Program.__dataclass_params__.frozen  # type: ignore[attr-defined]
