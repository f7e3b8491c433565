"""Text values a formula uses by name: what each use needs, so the error is reported at the value itself."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

from rulesc.formula import nodes as n
from rulesc.formula.builtins import BUILTINS
from rulesc.formula.types import Type

# What a use of a given type needs, in words, and the type the value is given meanwhile so that its use adds no
# error of its own (a roll takes a dice pool; a number (num) takes a whole number).
NEEDS: dict[str, tuple[str, str]] = {
    "int": ("int", "a whole number"),
    "num": ("int", "a number"),
    "bool": ("bool", "true or false"),
    "dice": ("dice", "a dice pool like 1d10+1d4"),
    "dist": ("dice", "a roll: a dice pool like 1d10+1d4, or a whole number"),
}
Signatures = Callable[[str], tuple[str, ...] | None]  # the parameter types of a formula, by its name
Use = tuple[str, str | None]  # a text value's name and the type its use needs (None: the use does not say)


def text_uses(node: n.Node, text_values: Collection[str], bound: Collection[str], need: str | None,
              signatures: Signatures) -> dict[str, str | None]:
    """The text values an expression uses (not names bound by its parameters or lets), each with the type its
    first use that says one needs; `need` is what the whole expression must be."""
    found: dict[str, str | None] = {}
    for name, wanted in _uses(node, need, frozenset(bound), text_values, signatures):
        if found.get(name) is None:
            found[name] = wanted
    return found


def _uses(node: n.Node, need: str | None, bound: frozenset[str], text_values: Collection[str],
          signatures: Signatures) -> Iterator[Use]:
    if isinstance(node, n.Name) and node.name in text_values and node.name not in bound:
        yield node.name, need
    if isinstance(node, n.Let):
        yield from _uses(node.value, None, bound, text_values, signatures)
        yield from _uses(node.body, need, bound | {node.name}, text_values, signatures)
        return
    for child, wanted in _children(node, need, signatures):
        yield from _uses(child, wanted, bound, text_values, signatures)


def _children(node: n.Node, need: str | None, signatures: Signatures) -> list[tuple[n.Node, str | None]]:
    """Each child of a node with the type the node needs it to be (None when that depends on more than the node)."""
    if isinstance(node, n.DiceRoll):
        return [(node.count, "int"), (node.sides, "int")]
    if isinstance(node, n.Neg):
        return [(node.operand, "int")]
    if isinstance(node, n.Not):
        return [(node.operand, "bool")]
    if isinstance(node, (n.BinOp, n.Compare, n.Logic)):
        wanted = "bool" if isinstance(node, n.Logic) else "int"
        return [(node.left, wanted), (node.right, wanted)]
    if isinstance(node, n.IfElse):
        return [(node.cond, "bool"), (node.then, need), (node.other, need)]
    if isinstance(node, n.Call) and node.func == "lookup":
        return [(key, "int") for key in node.args[2:]]  # the table and the column are names, not values
    if isinstance(node, n.Call):
        return list(zip(node.args, _arguments(node, signatures), strict=True))
    return []


def _arguments(call: n.Call, signatures: Signatures) -> list[str | None]:
    """The types a call's arguments must be (None for each when the call does not fit its function)."""
    count = len(call.args)
    row = BUILTINS.get(call.func)
    if row is not None and row.form == "extreme":
        return [row.params[0]] * count
    params = row.params if row is not None else signatures(call.func)
    return list(params) if params is not None and len(params) == count else [None] * count


def text_value_problem(name: str, text: str, need: str | None, user: str) -> tuple[str, str]:
    """The message and hint for the text value `name` used by `user` where `need` is wanted."""
    shown = NEEDS.get(need or "")
    if shown is None:
        message = f"value '{name}' is text ({text!r}), but {user} computes with it"
        hint = "formulas compute with whole numbers, true or false, and dice pools like 1d10+1d4"
    else:
        message = f"value '{name}' is text ({text!r}), but {user} uses it as {shown[1]}"
        hint = f"write {shown[1]}"
    return message, f"{hint}; text can only be shown in rule text, with {{{{{name}}}}}"


def assumed(need: str | None) -> Type:
    """The type a text value is given while its use is checked, so the use reports nothing more."""
    return Type(NEEDS.get(need or "", ("int", ""))[0])
