"""Formula regrouping for the backends: plain lets worked out before the rolls they do not read, and bodies run once
per value a roll is read through.

Both backends print the regrouped tree, so the engine and the JavaScript run the same bodies in the same order.

- hoisted(): in `let c = 2d10 in let s = min(a + k, 10) in body`, `s` does not read `c`, so it is bound first,
  `let s = ... in let c = 2d10 in body`, and worked out once rather than once per roll of `c`. The roll moved past
  must be one that cannot fail (literal dice, questions with literal arguments, tried here), so that no error
  comes before another that the unmoved order would have met first.
- through(): `let a = 1d6 in let s = f(a) in body` where the body reads `s` and not `a` runs the body once per
  value of `s` (R.bind_through), not once per roll of `a`.
  So does `let a = 1d10 in let r = roll(a) in body` where `r` is itself a roll read by its total: each result of
  each `r` is a value the body runs on once (the ways of `a` times those of `r`), not once per `a`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import fields, replace

from rulesc.formula import nodes as n
from rulesc.formula.names import mentioned_names
from rulesc.formula.pools import questions
from rulesc.formula.types import Type
from rulesc.runtime import rulesc_runtime as R

ROLLS = (Type.DICE, Type.DIST, Type.EVENT, Type.OUTCOME)
QUIET_DICE = 8
"""A literal roll of at most this many dice, of at most QUIET_SIDES sides, is tried at build time to see that it
cannot fail; a larger one is never moved past."""
QUIET_SIDES = 100


def hoisted(node: n.Node, checks: Collection[int] | None) -> tuple[n.Node, Collection[int] | None]:
    """The tree with every plain let moved out of the rolls it does not read, with the overflow checks of the
    nodes rebuilt on the way (a rebuilt node keeps its type); the same tree and checks when nothing moves."""
    walker = _Hoist(checks)
    found = walker.visit(node)
    if found is node:
        return node, checks
    return found, None if checks is None else {*checks, *walker.checks}


class _Hoist:
    def __init__(self, checks: Collection[int] | None):
        self.old_checks = checks
        self.checks: set[int] = set()  # the rebuilt nodes that keep an overflow check

    def visit(self, node: n.Node) -> n.Node:
        changed = {f.name: self.rebuilt(getattr(node, f.name)) for f in fields(node) if f.name != "span"}
        if all(value is getattr(node, name) for name, value in changed.items()):
            found = node
        else:
            found = self.like(node, replace(node, **changed))  # type: ignore[arg-type]
        return self.hoist(found) if isinstance(found, n.Let) else found

    def rebuilt(self, value: object) -> object:
        if isinstance(value, n.Node):
            return self.visit(value)
        if isinstance(value, tuple) and value and all(isinstance(v, n.Node) for v in value):
            parts = tuple(self.visit(v) for v in value)
            return value if all(a is b for a, b in zip(parts, value, strict=True)) else parts
        return value

    def like(self, old: n.Node, new: n.Node) -> n.Node:
        """`new` checked for overflow as `old` is (replace() has kept its type)."""
        if self.old_checks is not None and (id(old) in self.old_checks or id(old) in self.checks):
            self.checks.add(id(new))
        return new

    def hoist(self, node: n.Let) -> n.Node:
        """`let c = roll in let y = plain in body` as `let y = plain in let c = roll in body`, again inside."""
        inner = node.body
        if not isinstance(inner, n.Let) or not self.movable(node, inner):
            return node
        rolled = self.like(node, n.Let(node.span, node.name, node.value, inner.body, checked=node.checked))
        assert isinstance(rolled, n.Let)
        return self.like(node, n.Let(inner.span, inner.name, inner.value, self.hoist(rolled), checked=node.checked))

    def movable(self, node: n.Let, inner: n.Let) -> bool:
        return (node.value.type in ROLLS and inner.value.type not in ROLLS
                and inner.name != node.name and node.name not in mentioned_names(inner.value)
                and inner.name not in mentioned_names(node.value) and quiet_roll(node.value, inner.body, node.name))


def quiet_roll(value: n.Node, body: n.Node, name: str) -> bool:
    """Whether `let name = value in body` rolls dice that cannot fail: NdS written with numbers (plain, Fudge or
    listed faces), asked questions whose arguments are numbers, which the runtime answers here without an error."""
    if not (isinstance(value, n.DiceRoll) and isinstance(value.count, n.Num) and isinstance(value.sides, n.Num)):
        return False
    count, sides = value.count.value, value.sides.value
    if "!" in value.special or "r" in value.special or not 0 <= count <= QUIET_DICE or sides > QUIET_SIDES:
        return False
    found = questions(body, name)[0]
    if not all(isinstance(arg, n.Num) for q in found for arg in q.args):
        return False
    asked = [(q.kind, *(arg.value for arg in q.args if isinstance(arg, n.Num))) for q in found]
    try:
        pool = R.dice(count, sides, value.special)
        R.pool_answers(pool, asked) if asked and asked != [("total",)] else R.as_dist(pool)
    except Exception:  # noqa: BLE001 - any failure means the roll may fail: it stays where it is
        return False
    return True


def through(node: n.Let, by_total: bool, inner_by_total: bool = False) -> n.Let | None:
    """For `let x = roll in let y = plain in body`, the body not reading x and the roll read by its total (a pool
    asked nothing else): the inner let, bound through R.bind_through; None otherwise. With inner_by_total, y may be
    a roll too, one that reads x (read by its total: its results are the values bound through)."""
    inner = node.body
    if not by_total or not isinstance(inner, n.Let) or node.value.type not in ROLLS:
        return None
    rolled = inner.value.type in ROLLS
    if (rolled and not (inner_by_total and node.name in mentioned_names(inner.value))) or inner.name == node.name:
        return None
    return inner if node.name not in mentioned_names(inner.body) else None

