"""Engine emitter: a standard-library Python package, rules_engine, with one module per system."""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesc.analyze.attribution import notice
from rulesc.analyze.program import Program, whole_checks
from rulesc.analyze.rolls import roll_spec, roll_tables
from rulesc.emit.context import emit_context
from rulesc.emit.site.links import permalink
from rulesc.emit.site.markup import Markup
from rulesc.emit.writer import WIDTH, Writer
from rulesc.formula import nodes
from rulesc.formula.builtins import ROWS
from rulesc.formula.layout import Doc, Group, concat, flat, layout, string
from rulesc.formula.names import Spelling, allocate, among, formula_calls, let_names
from rulesc.formula.to_python import expr_to_python, py_call
from rulesc.model import Example, Formula, Param, Table, Value
from rulesc.runtime import PYTHON_RUNTIME
from rulesc.runtime.rulesc_runtime import Dice, exact_text

PY_TYPES = {"int": "int", "bool": "bool", "dice": "Dice", "dist": "Dist", "num": "Number",
            "upgrades": "Sequence[str]", "list": "list[str]", "text": "str", "outcome": "Outcomes",
            "event": "Outcomes"}
PUBLIC_TYPES = {**PY_TYPES, "dice": "Dice | str"}
"""What a public function takes: a pool may be written as text, which its check reads."""
PUBLIC = {
    "parse_dice": ("parse_dice", "parse_dice(text): a dice pool read from text such as '1d10+1d4'"),
    "Dice": ("Dice", "Dice: a pool of dice plus a constant, as a formula that gives dice returns it"),
    "Dist": ("Dist", "Dist: the exact distribution of a roll, as a formula that gives a roll returns it"),
    **{row.name: (row.runtime, row.engine) for row in ROWS if row.engine},
    "show": ("show", "show(value): prints a result in the book's terms ({outcome: 'probability'}, 'n/d')"),
    "exact": ("exact", "exact(value): a result in the book's terms, as Python values"),
    "roll": ("roll", "roll(value, rng=None): one roll of a roll or a roll table (ROLL_TABLES[name])"),
    "RulesError": ("RulesError", "RulesError: raised where the rules give no answer (a value off a table)"),
    "ArgumentError": ("ArgumentError", "ArgumentError: the RulesError a function raises for an argument of "
                      "the wrong type or out of its range"),
}
"""What the package offers besides its systems' modules: the runtime's public helpers, named as in the formula
language, each with the runtime's name and a line for the package's docstring."""
EXAMPLE_HELPERS = ("parse_dice", "show")
"""The public helpers the examples in a module's docstrings call."""
_AFTER_CALL = re.compile(r"(?<=\w\()")
BARE = (bool, int, float)
"""Answers an example shows as Python prints them; any other is shown with show(), in the book's terms."""
PY_KEYWORDS = frozenset(keyword.kwlist) | {"__debug__"}
"""Names Python refuses as a function or parameter (`__debug__` cannot be assigned)."""
HOST_FUNCTIONS = frozenset(row.host[0] for row in ROWS if row.host[0])
"""The Python built-ins a function body calls by name (builtins.py's hosts): a parameter or let never hides them."""
MODULE_NAMES = HOST_FUNCTIONS | {
    "R", "UPGRADES", "ROLL_TABLES", "Final", "Sequence", "Dice", "Dist", "Number", "Outcomes", "rules_engine",
    "annotations",
    "check_upgrades",
    "int", "bool", "list", "str", "dict",
    "__all__", "__annotations__", "__builtins__", "__cached__", "__dict__", "__dir__", "__doc__", "__file__",
    "__getattr__", "__loader__", "__name__", "__package__", "__path__", "__spec__",
}
"""Module-level names a module defines, imports or needs (annotations, runtime alias, module attributes): a formula
function never takes one."""


@dataclass(frozen=True)
class PythonNames:
    """How a system's author names are spelled in its engine module: formula functions keep their ids and values
    and tables their ids in capitals, unless that collides with Python or with the module's own names."""

    formulas: dict[str, str]
    constants: dict[str, str]
    tables: dict[str, str]
    bodies: dict[str, str]
    """What the other formulas call: a formula with parameters has a body apart (`_` before its name), which
    takes its arguments unchecked, as the interpreter passes them; one without is called as it is."""


def python_names(program: Program) -> PythonNames:
    """The program's Python spellings, worked out once and shared through the emit context."""
    context = emit_context(program)
    if isinstance(context.python_names, PythonNames):
        return context.python_names
    formulas = allocate(((f, f) for f in program.formulas), among(PY_KEYWORDS, MODULE_NAMES))
    shared = allocate([*((("value", k), k.upper()) for k in sorted(program.constants)),
                       *((("table", k), k.upper()) for k in sorted(program.tables))],
                      among(PY_KEYWORDS, MODULE_NAMES, set(formulas.values())))  # `_` has no upper case
    bodies = allocate(((f, "_" + formulas[f]) for f, formula in program.formulas.items() if formula.params),
                      among(PY_KEYWORDS, MODULE_NAMES, set(formulas.values()), set(shared.values())))
    found = PythonNames(formulas, {k: v for (kind, k), v in shared.items() if kind == "value"},
                        {k: v for (kind, k), v in shared.items() if kind == "table"},
                        {f: bodies.get(f, formulas[f]) for f in formulas})
    context.python_names = found
    return found


def local_names(program: Program, formula: Formula) -> dict[str, str]:
    """A function's parameters and lets in Python: as written, unless Python refuses the name or the body needs
    a module-level name it would hide (a built-in, another formula's function or body, its own body, a value or a
    table)."""
    cache = emit_context(program).local_names
    if formula.id not in cache:  # asked for by the signature, the body and each example
        spelled = python_names(program)
        called = {name for f in formula_calls(_node(formula)) for name in (spelled.formulas[f], spelled.bodies[f])}
        if formula.params:
            called.add(spelled.bodies[formula.id])  # the public function calls its body
        module_level = {*spelled.constants.values(), *spelled.tables.values()}
        names = [p.name for p in formula.params] + let_names(_node(formula))
        cache[formula.id] = allocate(((x, x) for x in names), among(PY_KEYWORDS, HOST_FUNCTIONS, called, module_level))
    found: dict[str, str] = cache[formula.id]
    return found


def emit_engine(modules: list[str]) -> dict[str, str]:
    """The package around the systems' modules (named in `modules`, each written by engine_module())."""
    return {
        "pyproject.toml": _pyproject(),
        "rules_engine/__init__.py": _package_init(modules),
        "rules_engine/_runtime.py": PYTHON_RUNTIME.read_text(encoding="utf-8"),
        "rules_engine/py.typed": "",
    }


def engine_module(program: Program, site_url: str) -> dict[str, str]:
    """The system's module of the package."""
    return {f"rules_engine/{program.system.module}.py": _module(program, site_url)}


def _pyproject() -> str:
    return (
        "# Generated by rulesc; do not edit.\n[build-system]\nrequires = [\"setuptools>=68\"]\n"
        "build-backend = \"setuptools.build_meta\"\n\n[project]\nname = \"rules-engine\"\nversion = \"0.1.0\"\n"
        "description = \"Rules engine generated by rulesc\"\nrequires-python = \">=3.10\"\ndependencies = []\n\n"
        "[tool.setuptools]\npackages = [\"rules_engine\"]\n\n[tool.setuptools.package-data]\n"
        "rules_engine = [\"py.typed\"]\n"
    )


def _package_init(modules: list[str]) -> str:
    w = Writer()
    _docstring(w, ["Rules engines generated by rulesc: one module per game system (SYSTEMS names them).",
                   "Each function of a system checks its arguments: a whole number is an int within its range, a "
                   "flag a bool, a dice pool a Dice or a text such as '1d10+1d4'; any other raises ArgumentError, "
                   "naming the function, the parameter, what it takes and what it got.",
                   "Besides the systems' modules, the package offers:"],
               [doc for _, doc in PUBLIC.values()])
    w.writeline()
    _listing(w, "from ._runtime import (", [name if name == runtime else f"{runtime} as {name}"
                                            for name, (runtime, _) in PUBLIC.items()], ")")
    w.writeline()
    _listing(w, "__all__ = [", [json.dumps(name) for name in (*PUBLIC, *modules)], "]")
    _listing(w, "SYSTEMS = (", [json.dumps(module) for module in modules], ")")
    return w.getvalue()


def _listing(w: Writer, opening: str, items: Sequence[str], closing: str) -> None:
    """A list or tuple written one item a line (each followed by a comma), so that a diff shows one per line."""
    if not items:
        w.writeline(opening + closing)
        return
    w.writeline(opening)
    with w.indent():
        for item in items:
            w.writeline(item + ",")
    w.writeline(closing)


def _module(program: Program, site_url: str) -> str:
    w = Writer()
    _module_head(w, program)
    spelled = python_names(program)
    for name, value in sorted(program.constants.items()):
        w.write_doc(f"{spelled.constants[name]}: Final = {_literal(value)}")
    for name, table in sorted(program.tables.items()):
        _table(w, spelled.tables[name], table)
    functions, pools = Writer(), dict[str, str]()
    for formula in program.formulas.values():
        functions.writeline()
        functions.writeline()
        _function(functions, program, formula, site_url, pools)
    _pools(w, pools)
    w.write_block(functions.getvalue())
    _upgrades(w, program)
    _roll_tables(w, program)
    return w.getvalue()


def _roll_tables(w: Writer, program: Program) -> None:
    """The system's roll tables by name: [name, roll, keys, weights, texts, chains, outcomes], each list one
    item a line where it does not fit on one."""
    specs = [roll_spec(table, Markup.of(program).plain) for table in roll_tables(program.tables)]
    if not specs:
        return
    w.writeline()
    w.writeline()
    w.writeline("# Roll tables by name: rules_engine.roll(ROLL_TABLES[name]) rolls one, each chain followed.")
    w.writeline("ROLL_TABLES: Final = R.roll_tables([")
    with w.indent():
        for name, roll, keys, weights, texts, chains, outcomes in specs:
            w.writeline(f"[{name!r}, {roll!r},")
            with w.indent():
                for items in (keys, weights, texts, chains):
                    assert isinstance(items, list)
                    w.write_doc(concat(_tuple([repr(item) for item in items]), ","))
                assert isinstance(outcomes, list)  # (value, weight, row) each
                w.write_doc(concat(_tuple([repr(tuple(o)) for o in outcomes]), ","))
            w.writeline("],")
    w.writeline("])")


def _pools(w: Writer, pools: dict[str, str]) -> None:
    """The pools the formulas write with whole numbers, each made once (named in mixed case, which no value or
    table, in capitals, and no function or parameter, in small letters, can be)."""
    if pools:
        w.writeline("# Pools the formulas write out, each made once; their rolls are worked out on each call.")
    for made, name in pools.items():
        w.writeline(f"{name}: Final = {made}")


def _module_head(w: Writer, program: Program) -> None:
    """The module's docstring, imports and __all__."""
    system = program.system
    _docstring(w, [f"{system.title} ({system.id}): formulas generated by rulesc from content/{system.id}/; "
                   "do not edit.",
                   "The examples show dice pools as written (1d10+1d4), exact fractions as 'n/d' and rolls as "
                   "{outcome: 'probability'} with show(); parse_dice() reads a pool. Both are public: "
                   "rules_engine.show, rules_engine.parse_dice.",
                   "Each function checks its arguments first (a pool may be given as text, '1d10+1d4') and raises "
                   "rules_engine.ArgumentError for one of the wrong type or outside its range.",
                   *(f"Attribution: {found.text()}" for found in (notice(s) for s in system.sources) if found)])
    w.writeline()
    _imports(w, program)
    w.writeline()
    public = sorted(python_names(program).formulas.values()) + (["check_upgrades"] if program.upgrades else []) + (
        ["ROLL_TABLES"] if roll_tables(program.tables) else [])
    _listing(w, "__all__ = [", [json.dumps(name) for name in public], "]")
    w.writeline()


def _imports(w: Writer, program: Program) -> None:
    """The runtime as R (relative in the package, beside the module when it runs as a file of its own), and the
    public helpers the examples call: by name, or as rules_engine.<name> where a formula has the name."""
    shadowed = _shadowed(program)
    w.writeline("from __future__ import annotations")
    w.writeline()
    w.writeline("from typing import Final, Sequence")
    w.writeline()
    types = _runtime_types(program)
    w.writeline("try:")
    w.writeline("    from . import _runtime as R")
    if types:
        w.writeline(f"    from ._runtime import {types}")
    if shadowed:
        w.writeline("    import rules_engine")
    w.writeline("except ImportError:  # run as a file of its own, e.g. by python -m doctest")
    w.writeline("    import _runtime as R  # type: ignore[no-redef, import-not-found]")
    if types:
        w.writeline(f"    from _runtime import {types}  # type: ignore[no-redef]")
    if shadowed:
        w.writeline("    rules_engine = R  # type: ignore[misc]  # the runtime's helpers are the package's")
    helpers = [name for name in EXAMPLE_HELPERS if name not in shadowed]
    if helpers:
        w.writeline()
        w.writeline(f"{', '.join(helpers)} = {', '.join('R.' + name for name in helpers)}  # the examples call them")


def _runtime_types(program: Program) -> str:
    """The runtime's types the signatures name (Dice, Dist, Number, Outcomes), imported by name for help() to
    show."""
    used = {*program.returns.values(), *(p.type for f in program.formulas.values() for p in f.params)}
    named = (("dice", "Dice"), ("dist", "Dist"), ("num", "Number"), ("outcome", "Outcomes"), ("event", "Outcomes"))
    return ", ".join(dict.fromkeys(name for kind, name in named if kind in used))


def _shadowed(program: Program) -> list[str]:
    """The helpers the examples call that a formula's function has the name of."""
    return [name for name in EXAMPLE_HELPERS if name in python_names(program).formulas.values()]


def _docstring(w: Writer, prose: list[str], fields: Sequence[str] = (), examples: Sequence[str] = (),
               args: Sequence[str] = ()) -> None:
    """A docstring within the width: paragraphs of prose, then fields (`Name: value`, one a line, continued
    indented), then an Args section (`name: help`, indented under its heading), then the examples as they are."""
    width = WIDTH - len(w.indent_with) * w.level
    written = [_wrap(paragraph, width, "") for paragraph in prose]
    written += [[piece for field in fields for piece in _wrap(field, width, "    ")]] if fields else []
    written += [["Args:", *(piece for arg in args for piece in _wrap(arg, width, "        ", "    "))]] \
        if args else []
    paragraphs = [[_not_a_prompt(line) for line in paragraph] for paragraph in written]
    paragraphs += [list(examples)] if examples else []
    lines = [_in_docstring(line) for i, paragraph in enumerate(paragraphs) for line in ([""] if i else []) + paragraph]
    if len(lines) == 1 and len(lines[0]) + 6 <= width and not lines[0].endswith('"'):  # its quote would close it
        w.writeline(f'"""{lines[0]}"""')
        return
    lines[0] = '"""' + lines[0]
    for line in lines:
        w.writeline(line)
    w.writeline('"""')


def _not_a_prompt(line: str) -> str:
    """A line of written text that doctest would read as an example (`>>>` first) behind a backslash, so that text
    from content never runs as code when the docstrings' examples are tested."""
    text = line.lstrip()
    return line[:len(line) - len(text)] + "\\" + text if text.startswith(">>>") else line


def _in_docstring(line: str) -> str:
    """A docstring line as Python source that means the line itself: backslashes doubled, triple quotes and NUL
    (which Python source cannot hold) escaped, so no content closes the string early, writes code into the module
    or stops it from importing."""
    return line.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').replace("\0", "\\x00")


def _wrap(text: str, width: int, hanging: str, first: str = "") -> list[str]:
    """Text within `width` columns (the first line leaves room for the opening quotes) wherever it has a space
    or a call's opening parenthesis to break after; the first line starts with `first`, the others with
    `hanging`."""
    lines = [first]
    for word in text.split():
        for i, part in enumerate(_AFTER_CALL.split(word)):
            glue = " " if i == 0 and lines[-1].strip() else ""
            limit = width - 3 if len(lines) == 1 else width
            if lines[-1].strip() and len(lines[-1] + glue + part) > limit:
                lines.append(hanging + part)
            else:
                lines[-1] += glue + part
    return lines


def _upgrades(w: Writer, program: Program) -> None:
    """The system's upgrades as data, and check_upgrades(), when it has any."""
    upgrades = program.upgrades
    w.writeline()
    w.writeline()
    if not upgrades:
        w.writeline("UPGRADES: Final[dict[str, R.Upgrade]] = {}")
        return
    w.writeline("UPGRADES: Final = {")
    with w.indent():
        for upgrade_id, upgrade in upgrades.items():
            requires, excludes = (_tuple([repr(u) for u in ids]) for ids in (upgrade.requires, upgrade.excludes))
            name = string(upgrade.name, repr, "")
            groups = [_tuple([_tuple([repr(u) for u in group]) for group in upgrade.requires_any])] \
                if upgrade.requires_any else []
            upgrade_doc = py_call("R.Upgrade", [name, requires, excludes, str(upgrade.max_times), *groups])
            w.write_doc(concat(f"{upgrade_id!r}: ", upgrade_doc, ","))
    w.writeline("}")
    w.writeline()
    w.writeline()
    w.writeline("def check_upgrades(chosen: Sequence[str]) -> list[str]:")
    with w.indent():
        _docstring(w, ["What is wrong with a set of upgrades: list an id once for each time it is taken; "
                       "[] means valid.",
                       "Checks what each upgrade requires and excludes, and how often it may be taken."])
        w.writeline("return R.upgrade_problems(UPGRADES, chosen)")


def _literal(value: Value) -> str:
    if isinstance(value, Dice):
        return f"R.parse_dice({str(value)!r})"
    return repr(value)


def _tuple(items: Sequence[Doc]) -> Doc:
    """A Python tuple: `(a, b)`, `(a,)`, `()`, or broken, one item a line."""
    one = f"({flat(items[0])},)" if len(items) == 1 else None
    return Group("(", tuple(items), ")", trail=",", text=one)


def _table(w: Writer, name: str, table: Table) -> None:
    """A table as the book prints it: its columns, then one row a line (the keys it covers, then its values)."""
    kept = [i for i, column in enumerate(table.columns) if column.type in ("int", "dice", "text")]
    w.writeline(f"{name}: Final = R.table(")
    with w.indent():
        w.write_doc(concat(_tuple([repr(table.columns[i].key) for i in kept]), ","))
        for key, row in zip(table.keys, table.rows, strict=True):
            w.write_doc(concat(_tuple([repr(key), *(_literal(row[i]) for i in kept)]), ","))
    w.writeline(")")


def _function(w: Writer, program: Program, formula: Formula, site_url: str, pools: dict[str, str]) -> None:
    """The formula's public function: its docstring, a check of each argument, then the body (apart when the
    formula has parameters: the other formulas call the body, unchecked, as the interpreter does)."""
    spelled, local = python_names(program), local_names(program, formula)
    _signature(w, spelled.formulas[formula.id], formula, local, program.returns[formula.id], PUBLIC_TYPES)
    with w.indent():
        _function_docstring(w, program, formula, site_url)
        if not formula.params:
            _body(w, program, formula, pools)
            return
        for param in formula.params:
            w.write_doc(concat(f"{local[param.name]} = ", _check(formula, param, local[param.name])))
        w.write_doc(py_call(f"return {spelled.bodies[formula.id]}", [local[p.name] for p in formula.params]))
    w.writeline()
    w.writeline()
    _signature(w, spelled.bodies[formula.id], formula, local, program.returns[formula.id], PY_TYPES)
    with w.indent():
        _docstring(w, [f"{spelled.formulas[formula.id]}() without its argument checks: the engine's other "
                       "formulas call it."])
        _body(w, program, formula, pools)


def _signature(w: Writer, name: str, formula: Formula, local: dict[str, str], returns: str,
               types: dict[str, str]) -> None:
    params = [f"{local[p.name]}: {types[p.type]}" for p in formula.params]
    w.write_doc(Group(f"def {name}(", tuple(params), f") -> {PY_TYPES[returns]}:", trail=","))


def _body(w: Writer, program: Program, formula: Formula, pools: dict[str, str]) -> None:
    """The formula's expression, returned; the names it uses spelled as the module spells them, and the pools it
    writes out named in `pools`."""
    spelled, local = python_names(program), local_names(program, formula)
    spelling = Spelling(local, local.__getitem__, local.__getitem__, spelled.constants.__getitem__,
                        spelled.tables.__getitem__, spelled.bodies.__getitem__)
    w.write_doc(concat("return ", expr_to_python(_node(formula), spelling, whole_checks(program),
                                                 pools)))


def _check(formula: Formula, param: Param, name: str) -> Doc:
    """The runtime call that checks an argument (and reads a pool written as text), naming it as the author
    does: whole numbers within their range or among their options, flags, pools, upgrade ids."""
    head = [repr(formula.id), repr(param.name), name]
    if param.type == "int" and param.options:
        options = tuple(concat(f"{o.value}: ", string(o.label, repr, "")) for o in param.options)
        return py_call("R.choice_arg", [*head, Group("{", options, "}", trail=",")])
    if param.type == "int":
        bounds = [f"{key}={bound}" for key, bound in (("low", param.min), ("high", param.max)) if bound is not None]
        return py_call("R.whole_arg", [*head, *bounds])
    checks = {"bool": "R.flag_arg", "dice": "R.pool_arg", "upgrades": "R.upgrades_arg"}
    return py_call(checks[param.type], [*head, *(["UPGRADES"] if param.type == "upgrades" else [])])


def _function_docstring(w: Writer, program: Program, formula: Formula, site_url: str) -> None:
    """The summary; the rule, permalink and formula the function implements; its examples as doctests."""
    rule = program.rules[formula.rule]
    fields = [f"Implements {rule.name!r} ({formula.span}).",
              f"Permalink: {permalink(program.system, rule, site_url)}",
              f"Formula: {' '.join(formula.expr.source.split())}", *_renamed(program, formula)]
    column = len(w.indent_with) * w.level + len(">>> ")
    examples = [line for example in formula.examples for line in _example(program, formula, example, column)]
    local = local_names(program, formula)
    args = [f"{local[p.name]}: {p.help}" for p in formula.params if p.help]
    _docstring(w, [formula.summary], fields, examples, args)


def _renamed(program: Program, formula: Formula) -> list[str]:
    """Docstring fields for the names Python spells otherwise than the content (a keyword, a clash)."""
    public, local = python_names(program).formulas[formula.id], local_names(program, formula)
    found = [f"Python name: {public} (the formula {formula.id!r} of the content)"] if public != formula.id else []
    return found + [f"Parameter {p.name!r}: passed as {local[p.name]}= or by position" for p in formula.params
                    if local[p.name] != p.name]


def _example(program: Program, formula: Formula, example: Example, column: int) -> list[str]:
    """A worked example as a doctest: the call written with the engine's public API, and what it shows."""
    local = local_names(program, formula)
    args = [concat(local[name], "=", _example_literal(value, program)) for name, value in example.args]
    answer = _answer(program, formula, example)
    call: Doc = py_call(python_names(program).formulas[formula.id], args)
    if not isinstance(answer, BARE):
        call = concat(_helper("show", program), "(", call, ")")
    source = layout(call, WIDTH, column)
    shown = repr(answer) if isinstance(answer, BARE) else exact_text(answer)
    return [">>> " + source[0], *("... " + line for line in source[1:]), *shown.splitlines()]


def _helper(name: str, program: Program) -> str:
    """How the module's examples call a public helper: by its name, or through the package where a formula has
    the name."""
    return f"rules_engine.{name}" if name in _shadowed(program) else name


def _answer(program: Program, formula: Formula, example: Any) -> Any:
    """What the engine returns for a worked example (checked equal to its expectation by `rulesc check`)."""
    given = dict(example.args)
    return program.call(formula.id, [given[p.name] for p in formula.params])


def _example_literal(value: Value, program: Program) -> Doc:
    if isinstance(value, Dice):
        return f"{_helper('parse_dice', program)}({str(value)!r})"
    if isinstance(value, list):
        return Group("[", tuple(repr(item) for item in value), "]", trail=",")
    if isinstance(value, tuple):
        return _tuple([repr(item) for item in value])
    return repr(value)


def _node(formula: Formula) -> nodes.Node:
    assert formula.expr.node is not None
    return formula.expr.node
