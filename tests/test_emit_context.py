"""The checked program is frozen; what the emitters derive from it lives in an emit context beside it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rulesc.analyze.program import Program
from rulesc.emit.context import emit_context
from rulesc.emit.site.markup import Markup
from rulesc.emit.site.split import plans
from rulesc.pipeline import Project, compile_project

MINIMAL = Path(__file__).parent / "cases" / "good" / "minimal"


def compiled() -> Program:
    return compile_project(Project(MINIMAL)).programs[0]


def test_a_program_cannot_be_changed_after_the_analysis() -> None:
    program = compiled()
    with pytest.raises(dataclasses.FrozenInstanceError):
        program.formulas = {}  # type: ignore[misc]


def test_each_program_has_its_own_context_and_keeps_it() -> None:
    first, again = compiled(), compiled()
    assert emit_context(first) is emit_context(first) and emit_context(first) is not emit_context(again)
    assert Markup.of(first) is Markup.of(first) and Markup.of(first) is not Markup.of(again)
    assert Markup.of(first).program is first


def test_page_plans_are_made_once_for_each_system_object() -> None:
    first, again = compiled(), compiled()
    assert plans(first.system) is plans(first.system) and plans(first.system) is not plans(again.system)
    assert plans(first.system) == plans(again.system)  # the same content plans the same pages
