"""Stage 4b, lint: warnings an editor can act on, found in checked programs; `check --strict` makes them errors."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from generator.analyze.program import LINK, VALUE, Program
from generator.analyze.terms import mentioned_terms
from generator.diagnostics.core import Diagnostic, sorted_diagnostics
from generator.formula import nodes as n
from generator.model import Text


def lint(programs: tuple[Program, ...]) -> list[Diagnostic]:
    """Every warning of every system, sorted by position."""
    found: list[Diagnostic] = []
    for program in programs:
        found += _unused_terms(program)
        found += _unused_values(program)
        found += _formulas_without_examples(program)
        found += _uncited_sources(program)
    return sorted_diagnostics(found)


def texts(program: Program) -> Iterator[Text]:
    """Every piece of Markdown text of a system: summaries, definitions, rule texts and list items."""
    system = program.system
    yield system.summary
    yield system.dice_summary
    for chapter in system.chapters:
        yield chapter.summary
    for term in system.terms:
        yield term.definition
    for rule in system.rules():
        yield rule.text
        yield from rule.items


def names_in(node: n.Node | None) -> Iterator[str]:
    """Every name and called function of a formula syntax tree."""
    if node is None:
        return
    if isinstance(node, n.Name):
        yield node.name
    if isinstance(node, n.Call):
        yield node.func
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, n.Node):
                yield from names_in(child)


def _unused_terms(program: Program) -> Iterator[Diagnostic]:
    sources = [text.source for text in texts(program)]
    targets = {m.group(1).strip() for source in sources for m in LINK.finditer(source)}
    targets |= mentioned_terms(program.system.terms, sources)  # the site links these mentions to the glossary
    targets |= {t.id for t in program.system.terms if t.rule and t.rule in targets}  # its defining rule is linked
    for term in program.system.terms:
        if term.id not in targets:
            yield Diagnostic("warning", "W0701", f"term '{term.id}' is defined but no text mentions or links to it",
                             term.span, f"link it where it is used with [[{term.id}]], or remove it from the glossary")


def _expression_names(program: Program) -> set[str]:
    exprs = [f.expr for f in program.formulas.values()]
    exprs += [o.expr for c in program.calculators.values() for o in c.outputs]
    return {name for expr in exprs for name in names_in(expr.node)}


def _unused_values(program: Program) -> Iterator[Diagnostic]:
    shown = {m.group(1) for text in texts(program) for m in VALUE.finditer(text.source)}
    used = shown | _expression_names(program)
    for rule in program.rules.values():
        for name, _ in rule.values:
            if name not in used:
                yield Diagnostic("warning", "W0702", f"value '{name}' is never shown or used",
                                 rule.field_span("values"),
                                 f"show it in text with {{{{{name}}}}} or use it in a formula, or remove it")


def _formulas_without_examples(program: Program) -> Iterator[Diagnostic]:
    for formula in program.formulas.values():
        if not formula.examples:
            yield Diagnostic("warning", "W0703", f"formula '{formula.id}' has no worked examples", formula.span,
                             "add examples: they are checked, shown on the page, run as doctests and used by "
                             "rulesc diff")


def _uncited_sources(program: Program) -> Iterator[Diagnostic]:
    cited = {rule.provenance.source for rule in program.rules.values()}
    for source in program.system.sources:
        if source.id not in cited:
            yield Diagnostic("warning", "W0704", f"source '{source.id}' is listed but no rule cites it", source.span,
                             "cite it in a rule's provenance, or remove it from sources")
