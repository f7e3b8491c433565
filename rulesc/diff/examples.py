"""Diff, worked-example side: the examples an editor added, removed or edited (arguments, notes) in one formula.

A result that changes is the impact side's (a ResultChange); an expectation edited with it says nothing more, since
both revisions check. What is left is what the author wrote: which calls are shown, and what the notes say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesc.analyze.mismatch import ENDS, brief
from rulesc.model import Example, Formula

NONE = "(none)"


@dataclass(frozen=True)
class ExampleEdit:
    """One edit of a worked example: `field` is added, removed, arguments or note; old and new are shown as text."""

    call: str  # the example's call, e.g. "double(n=3)" (the new one, for edited arguments)
    field: str
    old: str
    new: str


def example_edits(before: Formula, after: Formula) -> tuple[ExampleEdit, ...]:
    """The worked examples of `after` against those of `before`: an example keeps its identity by its arguments;
    of those whose arguments are new, each is paired in order with one whose arguments are gone (arguments
    edited), and the rest are added or removed."""
    old = {example.args: example for example in before.examples}
    new = {example.args: example for example in after.examples}
    gone = [example for args, example in old.items() if args not in new]
    fresh = [example for args, example in new.items() if args not in old]
    edits = [edit for args, example in new.items() if args in old for edit in _notes(after, old[args], example)]
    for was, now in zip(gone, fresh, strict=False):
        edits.append(ExampleEdit(_call(after, now), "arguments", _call(after, was), _call(after, now)))
        edits += _notes(after, was, now)
    edits += [ExampleEdit(_call(after, e), "added", NONE, shown_expect(e.expect)) for e in fresh[len(gone):]]
    edits += [ExampleEdit(_call(after, e), "removed", shown_expect(e.expect), NONE) for e in gone[len(fresh):]]
    return tuple(edits)


def _notes(formula: Formula, was: Example, now: Example) -> list[ExampleEdit]:
    if was.note == now.note:
        return []
    return [ExampleEdit(_call(formula, now), "note", was.note or NONE, now.note or NONE)]


def _call(formula: Formula, example: Example) -> str:
    return f"{formula.id}({', '.join(f'{k}={brief(v)}' for k, v in example.args)})"


def shown_expect(value: Any) -> str:
    """An expectation as written: a number, yes/no, text, or a roll's chances {outcome: chance, ...}, a long one by
    its first and last entries and the count of the rest (as brief() bounds a distribution)."""
    if isinstance(value, dict):
        shown = [f"{shown_expect(k)}: {shown_expect(v)}" for k, v in value.items()]
        if len(shown) > 2 * ENDS + 1:
            shown[ENDS:-ENDS] = [f"... {len(shown) - 2 * ENDS} more ..."]
        return "{" + ", ".join(shown) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
