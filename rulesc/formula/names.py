"""Names: the one rule for what a name in a formula refers to, which names an author may define, and hygiene."""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Hashable, Iterable
from dataclasses import dataclass
from typing import Literal, TypeVar

from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula import nodes as n
from rulesc.formula.builtins import BUILTINS
from rulesc.formula.lexer import KEYWORDS, FormulaSyntaxError, tokenize

BUILTIN_FUNCTIONS = frozenset(BUILTINS)
"""The formula language's own functions (builtins.ROWS gives their types and runtime functions)."""

NameKind = Literal["local", "constant"]
CallKind = Literal["builtin", "formula"]
Key = TypeVar("Key", bound=Hashable)


def resolve_name(name: str, local: Container[str], constants: Container[str]) -> NameKind | None:
    """What a plain name means: a local (a let binding, a parameter, a calculator input or earlier output) before
    a value of the system; None when it is neither. The first argument of lookup() names a table instead."""
    if name in local:
        return "local"
    return "constant" if name in constants else None


class _Every:
    """Contains every name."""

    def __contains__(self, name: object) -> bool:
        return True


OTHERWISE_CONSTANT: Container[str] = _Every()
"""For resolve_name() over a checked expression: a name that is not local is a value of the system."""


def resolve_call(func: str) -> CallKind:
    """What `func(...)` calls: a built-in function, else a formula of the system (which may not exist)."""
    return "builtin" if func in BUILTIN_FUNCTIONS else "formula"


def refusal(name: str, what: str) -> str | None:
    """Why an author may not define `name` as a `what` (formula, parameter, input, output, value or table), or
    None. A word of the language, or dice notation such as d6, could never be written where the name is used (it
    reads as the word or as a roll); a formula named like a built-in function would be called in some places and
    not in others. Other names live apart from the functions (a value `mean` and the function `mean(roll)` never
    meet), so they may be any name the schema accepts."""
    if name in KEYWORDS:
        return f"'{name}' is a word of the formula language"
    if _dice_notation(name):
        return f"'{name}' reads as dice notation in a formula"
    if what == "formula" and name in BUILTIN_FUNCTIONS:
        return f"'{name}' is a built-in function"
    return None


def _dice_notation(name: str) -> bool:
    """Whether the lexer reads `name` as dice notation (d6, d10kh1) rather than as a name."""
    try:
        return tokenize(name)[0].kind == "d"
    except FormulaSyntaxError:  # d99999999999999999999: dice notation with a number too large
        return True


def check_definition(name: str, what: str, span: Span, diags: Diagnostics) -> None:
    """E0408 at the definition of an author's name that the formula language already gives a meaning."""
    reason = refusal(name, what)
    if reason is not None:
        diags.error("E0408", f"{what} '{name}' has a name the formula language reserves", span,
                    f"rename it; {reason}")


def written_as_dice(node: n.Node, names: Collection[str]) -> bool:
    """Whether an expression holds bare dice notation spelled like one of `names` (d8 where an author defined
    a parameter d8): such a name reads as a roll, so its definition's E0408 explains every error the roll causes."""
    return any(isinstance(each, n.DiceRoll) and not each.special and each.count.span == each.span
               and isinstance(each.sides, n.Num) and f"d{each.sides.value}" in names for each in n.walk(node))


def allocate(items: Iterable[tuple[Key, str]], unsafe: Callable[[str], bool]) -> dict[Key, str]:
    """Hygienic spellings: each item keeps its natural spelling unless `unsafe` says so or another item has it,
    then gets underscores appended until it is free. Injective, and deterministic in the items' order."""
    pairs = list(items)
    natural = {spelling for _, spelling in pairs}
    taken: set[str] = set()
    found: dict[Key, str] = {}
    for key, spelling in pairs:
        chosen = spelling
        while unsafe(chosen) or chosen in taken or (chosen != spelling and chosen in natural):
            chosen += "_"
        taken.add(chosen)
        found[key] = chosen
    return found


def among(*groups: Collection[str]) -> Callable[[str], bool]:
    """An `unsafe` test for allocate(): the name is in one of the groups."""
    return lambda name: any(name in group for group in groups)


@dataclass(frozen=True)
class Spelling:
    """How a backend writes each kind of name: `locals` are the emitter's own names (parameters, calculator
    inputs and earlier outputs), spelled by `local`; lets by `let`; the rest by kind."""

    locals: Collection[str]
    local: Callable[[str], str]
    let: Callable[[str], str]
    constant: Callable[[str], str]
    table: Callable[[str], str]
    formula: Callable[[str], str]

    @staticmethod
    def uniform(spell: Callable[[str], str]) -> Spelling:
        """Every name but a let's through one function; lets as they are written."""
        return Spelling((), spell, lambda name: name, spell, spell, spell)


def mentioned_names(node: n.Node) -> set[str]:
    """The plain names an expression mentions (one shadowed by a let inside it too)."""
    return {each.name for each in n.walk(node) if isinstance(each, n.Name)}


def let_names(node: n.Node) -> list[str]:
    """The names an expression binds with let, in the order they appear, each once."""
    return list(dict.fromkeys(each.name for each in n.walk(node) if isinstance(each, n.Let)))


def formula_calls(node: n.Node) -> set[str]:
    """The functions an expression calls that are not built in: the system's formulas it uses."""
    return {each.func for each in n.walk(node) if isinstance(each, n.Call) and resolve_call(each.func) == "formula"}
