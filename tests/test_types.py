"""The checker's types: on every node of the tree it returns, and an error (never a default) where one is missing."""

from __future__ import annotations

import pytest

from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula import nodes as n
from rulesc.formula.check import Scope, check_types
from rulesc.formula.evaluate import evaluate
from rulesc.formula.parser import parse_formula
from rulesc.formula.to_python import expr_to_python
from rulesc.formula.types import Type


def parsed(source: str) -> n.Node:
    return parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))


def checked(source: str) -> n.Node:
    typed = check_types(parsed(source), Scope({"k": Type.INT}, {}, {}, lambda name, span: None), Diagnostics())
    assert typed is not None
    return typed


def test_every_node_of_a_checked_tree_has_its_type() -> None:
    typed = checked("let p = 3d6 in if highest(p, 1) >= k then 1 else 0")
    assert [(type(node).__name__, node.type) for node in n.walk(typed)] == [
        ("Let", Type.DIST), ("DiceRoll", Type.DICE), ("Num", Type.INT), ("Num", Type.INT),
        ("IfElse", Type.INT), ("Compare", Type.BOOL), ("Call", Type.INT), ("Name", Type.POOL), ("Num", Type.INT),
        ("Name", Type.INT), ("Num", Type.INT), ("Num", Type.INT)]


def test_the_checked_tree_equals_the_parsed_one() -> None:
    assert checked("2d6 + k") == parsed("2d6 + k")  # a type is not part of what a node says


def test_a_type_prints_as_the_language_writes_it() -> None:
    assert (f"{Type.DIST}", str(Type.OUTCOME), Type("event")) == ("dist", "outcome", Type.EVENT)


def test_a_node_the_checker_never_saw_has_no_type_to_default_to() -> None:
    with pytest.raises(AssertionError, match=r"^BinOp at <test>:1:3 was never type-checked$"):
        evaluate(parsed("1 + 2"), {}, {}, lambda name, args: None)
    with pytest.raises(AssertionError, match=r"^Neg at <test>:1:1 was never type-checked$"):
        expr_to_python(parsed("-(1)"), str)
