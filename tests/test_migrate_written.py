"""Where a formula's nodes were written: every node of every formula in content/ and tests/cases/good, cut out of
its file by the extent migrate's steps use, reads back as the same node."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from rulesc.diagnostics.core import Span
from rulesc.formula import nodes as n
from rulesc.formula.parser import parse_formula
from rulesc.migrate.written import Written
from rulesc.model import Expr
from rulesc.pipeline import Project, compile_project

REPO = Path(__file__).resolve().parent.parent
PROJECTS = [REPO, *sorted(p for p in (REPO / "tests" / "cases" / "good").iterdir()
                          if any("expr:" in f.read_text(encoding="utf-8") for f in p.rglob("*.yaml")))]


def _shape(node: n.Node) -> object:
    """A node without its spans and types (the same as formula.pools does it)."""
    return (type(node).__name__, *(_shape(v) if isinstance(v, n.Node) else tuple(_shape(x) for x in v)
                                   if isinstance(v, tuple) else v
                                   for f in fields(node) if f.name not in n.NOT_STRUCTURE
                                   for v in (getattr(node, f.name),)))


def _expressions(root: Path) -> list[Expr]:
    found = []
    for program in compile_project(Project(root)).programs:
        found += [formula.expr for formula in program.formulas.values()]
        found += [output.expr for calc in program.calculators.values() for output in calc.outputs
                  if output.expr.doc is not None]  # not the calculators rulesc writes for stat blocks' attacks
    return found


def _read_back(text: str, version: int) -> n.Node:
    return parse_formula(" ".join(text.split()), lambda offset: Span("cut", 1, offset + 1), version)


@pytest.mark.parametrize("root", PROJECTS, ids=[p.name for p in PROJECTS])
def test_every_node_cut_out_of_its_file_reads_back_as_itself(root: Path) -> None:
    texts: dict[Path, str] = {}
    version = {p.system.id: p.system.format for p in compile_project(Project(root)).programs}
    for expr in _expressions(root):
        path = root / expr.span.file
        written = Written(expr, texts.setdefault(path, path.read_text(encoding="utf-8")))
        assert expr.node is not None
        system = path.relative_to(root / "content").parts[0]
        for node in n.walk(expr.node):
            if isinstance(node, n.Num) and written.tokens[written.by_span[node.span]].kind != "int":
                continue  # a number the notation implies: d6's count, kh's 1, a Fudge die's sides
            start, end = written.chars(node)
            try:
                cut = _read_back(written.text[start:end], version.get(system, 1))
            except Exception as exc:
                raise AssertionError((expr.source, written.text[start:end])) from exc
            assert _shape(cut) == _shape(node), (expr.source, written.text[start:end])
