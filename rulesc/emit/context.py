"""Emit stage: what the emitters derive from one checked program once and share, kept beside the program."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from rulesc.analyze.program import Program

KEPT = 64
"""The most programs whose contexts are kept: a build emits each system once, `rulesc serve` compiles afresh on every
edit, and a context is worked out again, the same, if asked for after it was dropped."""


@dataclass(eq=False)
class EmitContext:
    """The emitters' shared work for one program: each part is made by the emitter that owns it, on first use, and
    typed there (emit/site/markup.py's Markup, emit/engine.py's Python spellings); this module cannot name those
    types without importing every emitter."""

    markup: object | None = None
    python_names: object | None = None
    local_names: dict[str, dict[str, str]] = field(default_factory=dict)  # each formula's Python locals, by id


@lru_cache(maxsize=KEPT)
def emit_context(program: Program) -> EmitContext:
    """The context of `program`, made on its first emitter's ask; a program compares as itself (a frozen
    dataclass without value equality), so each one built has its own."""
    return EmitContext()
