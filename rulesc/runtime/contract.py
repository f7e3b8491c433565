"""The runtimes' contract: the names both export, each name's JavaScript spelling, and what one keeps to itself.

The Python runtime's exports are its `__all__`; the JavaScript runtime's are the keys of `RulesRuntime`. A name
both export is spelled in JavaScript by js_name(); the conformance suite (spec/*.json, run by
tests/test_runtime_contract.py) runs every export's cases through both runtimes, each case naming the function as
Python spells it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

JS_SPELLINGS: Mapping[str, str] = {"keep_pool": "keep", "map_outcomes": "dmap"}
"""The exceptions to camelCase: names the generated JavaScript has always called by a shorter name."""

TYPED_FORMS: Mapping[str, str] = {
    "bind_any": "bind", "bind_named": "bind", "bind_each_any": "bind_each", "bind_each_named": "bind_each",
    "bind_through_any": "bind_through", "bind_through_named": "bind_through", "decide_any": "decide",
    "decide_named": "decide", "pool_bind_any": "pool_bind", "pool_bind_named": "pool_bind",
    "lookup_dice": "lookup", "lookup_int": "lookup", "lookup_text": "lookup",
}
"""Python exports that are another export typed for mypy (a roll of numbers or of names, a column's type): the
same function in JavaScript, which has no types to keep apart."""

PYTHON_ONLY: Mapping[str, str] = {
    "ArgumentError": "the engine checks its functions' arguments; calculators check their inputs in the page",
    "whole_arg": "the engine's argument check", "flag_arg": "the engine's argument check",
    "choice_arg": "the engine's argument check", "pool_arg": "the engine's argument check",
    "upgrades_arg": "the engine's argument check",
    "Table": "a type of the engine's tables (JavaScript's are made by table() alone)",
    "Upgrade": "a type of the engine's upgrades (JavaScript's are plain objects)",
    "Number": "a type the engine's signatures name", "die_of": "what `rulesc bench` rolls one die with",
    "show": "prints in the terminal", "exact_text": "what show() prints",
}
"""Python exports with no JavaScript twin, and why."""

JS_ONLY: Mapping[str, str] = {
    "Q": "an exact fraction: Python has Fraction", "Real": "a float that follows Python's rules",
    "ratio": "makes a Q", "cmp": "compares Q, Real and numbers, as Python's operators do",
    "toFloat": "a Q or Real as a float", "fixed": "the one number rule of the calculators' text",
    "nadd": "Python's +", "nsub": "Python's -", "nmul": "Python's *", "nneg": "Python's unary -",
    "nmin": "Python's min", "nmax": "Python's max",
    "emptyCaches": "what `rulesc bench` empties between runs (Python clears each functools cache)",
}
"""JavaScript exports with no Python twin, and why: mostly exact arithmetic that Python's numbers do natively."""


def js_name(name: str) -> str:
    """The JavaScript spelling of a Python export: camelCase (as_dist -> asDist), constants and classes as they
    are, a typed form as the function it types."""
    name = TYPED_FORMS.get(name, name)
    if name in JS_SPELLINGS:
        return JS_SPELLINGS[name]
    if name.isupper() or "_" not in name:
        return name
    head, *rest = name.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


def mismatches(python: Iterable[str], js: Iterable[str]) -> list[str]:
    """Where the two runtimes' exports break the contract: a Python export without its JavaScript spelling, or
    the reverse, unless the export is declared one runtime's own. Empty when they keep it."""
    python, js = set(python), set(js)
    spelled = {js_name(name) for name in python if name not in PYTHON_ONLY}
    missing = sorted(f"JavaScript lacks {js_name(name)} (Python's {name})" for name in python
                     if name not in PYTHON_ONLY and js_name(name) not in js)
    extra = sorted(f"Python lacks a twin of JavaScript's {name}" for name in js - spelled if name not in JS_ONLY)
    stale = sorted(f"{name} is declared one runtime's own but is not exported"
                   for name in {*PYTHON_ONLY} - python | {*JS_ONLY} - js)
    return missing + extra + stale
