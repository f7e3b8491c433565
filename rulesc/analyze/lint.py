"""Stage 4b, lint: warnings an editor can act on, found in checked programs; `check --strict` makes them errors."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from rulesc.analyze.program import LINK, VALUE, Program
from rulesc.analyze.rolls import runs_on
from rulesc.analyze.terms import mentioned_terms
from rulesc.diagnostics.core import Diagnostic, Span, sorted_diagnostics
from rulesc.formula import nodes as n
from rulesc.model import Fact, Rule, Text


def lint(programs: tuple[Program, ...]) -> list[Diagnostic]:
    """Every warning of every system, sorted by position."""
    found: list[Diagnostic] = []
    for program in programs:
        found += _unused_terms(program)
        found += _unused_values(program)
        found += _formulas_without_examples(program)
        found += _uncited_sources(program)
        found += _retyped_numbers(program)
        found += _editor_notes(program)
        found += _unused_kinds(program)
        found += runs_on(program.tables)
    return sorted_diagnostics(found)


def _unused_kinds(program: Program) -> Iterator[Diagnostic]:
    """W0709: a kind the system declares that no rule has."""
    used = {rule.kind for rule in program.rules.values()}
    for kind in program.system.kinds:
        if kind.span is not None and kind.id not in used:
            yield Diagnostic("warning", "W0709", f"kind '{kind.id}' ({kind.label}) has no rules", kind.span,
                             "give a rule this kind, or remove its declaration")


def texts(program: Program) -> Iterator[Text]:
    """Every piece of Markdown text of a system: summaries, definitions, rule texts, list items and the text cells
    of roll tables."""
    system = program.system
    yield system.summary
    yield system.dice_summary
    for chapter in system.chapters:
        yield chapter.summary
    for term in system.terms:
        yield term.definition
    for rule in system.rules():
        yield from rule.texts()
        if rule.table:
            yield from (cell for row in rule.table.texts for cell in row if cell is not None)


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
    sources += [stat for rule in program.system.rules() if rule.roll for stat in rule.roll.stats]
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
    cited |= {term.provenance.source for term in program.system.terms if term.provenance}
    for source in program.system.sources:
        if source.id not in cited:
            yield Diagnostic("warning", "W0704", f"source '{source.id}' is listed but no rule cites it", source.span,
                             "cite it in a rule's provenance, or remove it from sources")


# A number as prose writes it, with its sign where the sign is the number's own ("take +1 momentum", "-2 to the
# roll", "(-1)"), not an operator or a range between numbers (1d6+2, 3-5, x+1).
NUMBER = re.compile(r"(?<![\w.+/\-\u2212])([+\-\u2212]?)(\d+)(?![\w/]|\.\d)")
INERT = re.compile(r"\{\{[^{}]*\}\}|\[\[[^\[\]]*\]\]|`[^`]*`")  # shown values, links and code hold no typed number
SIGNS = {"+": 1, "-": -1, "\u2212": -1}


def _retyped_numbers(program: Program) -> Iterator[Diagnostic]:
    """W0705: a number typed in a rule's prose or fact words that equals a value of the rule or of a rule it links;
    signed numbers ("+1 momentum") from content format 2 on, so a rulebook that passed --strict before still does."""
    signed = program.system.format >= 2
    for rule in program.rules.values():
        known = {k: v for k, v in _numbers_of(program, rule).items() if k not in rule.literals}
        for text in rule.texts():
            for offset, written in _typed_numbers(text.source, signed):
                found = _held(written, known)
                if found:
                    yield _retyped(text.locate(offset), written, *found)
        for fact in rule.facts:
            for written in sorted(_fact_numbers(fact, signed)):
                found = _held(written, known)
                if found and fact.span is not None:
                    yield _retyped(fact.span, written, *found)


def _held(written: str, known: dict[int, list[str]]) -> tuple[list[str], str] | None:
    """The names holding a number as prose writes it, and the sign to write before {{name}}: -2 is a value of -2
    (no sign) or of 2 (a minus before it); +1 and 1 are a value of 1."""
    sign, digits = (written[0], written[1:]) if written[0] in SIGNS else ("", written)
    if SIGNS.get(sign) == -1 and -int(digits) in known:
        return known[-int(digits)], ""
    if int(digits) in known:
        return known[int(digits)], sign
    return None


def _fact_numbers(fact: Fact, signed: bool) -> set[str]:
    """The numbers typed in a fact's words, its note and the text standing for its amount (not in dice)."""
    words = [fact.words if fact.kind.type != "dice" else None,
             *((fact.amount.text, fact.amount.note) if fact.amount else ())]
    return {number for w in words if w for _, number in _typed_numbers(w, signed)}


def _numbers_of(program: Program, rule: Rule) -> dict[int, list[str]]:
    """The whole-number values of a rule and of the rules it links or names in its facts, and the amounts and limits
    of its own facts, by number."""
    targets = [m.group(1).strip() for t in rule.texts() for m in LINK.finditer(t.source)]
    targets += [target for fact in rule.facts for target in fact.ids]
    rules = [rule, *(r for r in (program.resolve(t) for t in targets) if isinstance(r, Rule) and r is not rule)]
    found: dict[int, list[str]] = {}
    for source in rules:
        for name, value in source.values:
            if isinstance(value, int) and not isinstance(value, bool):
                found.setdefault(value, []).append(name)
        for fact in source.facts if source is rule else ():  # a linked rule's facts name its own costs
            # a stat block's own numbers (an armour class, a spell's level) are no amounts its prose restates
            stated = fact.amount and fact.amount.value is None and fact.kind.type != "number"
            numbers = [fact.amount.amount] if stated and fact.amount else []
            for number in [*numbers, *(limit.count for limit in fact.limits)]:
                if number is not None:
                    found.setdefault(number, []).append(f"{source.id}'s {fact.kind.label}")
    return found


def _typed_numbers(source: str, signed: bool = True) -> Iterator[tuple[int, str]]:
    """(offset, number as written, with its sign) of each number written as digits outside {{values}}, [[links]]
    and code; a signed one only where `signed` (content format 2 on)."""
    blanked = INERT.sub(lambda m: " " * len(m.group(0)), source)
    for match in NUMBER.finditer(blanked):
        if signed or not match.group(1):
            yield match.start(), match.group(1) + match.group(2)


def _retyped(span: Span, written: str, names: list[str], sign: str) -> Diagnostic:
    shown = " or ".join(f"'{name}'" for name in names[:3])
    value = next((name for name in names if "'" not in name), None)  # a value's name has no apostrophe; a fact's has
    fix = f"write {sign}{{{{{value}}}}}" if value else "name the fact's amount with value: and show it with {{name}}"
    return Diagnostic("warning", "W0705", f"the number {written} is typed in prose, but {shown} holds it", span,
                      f"{fix} so the number lives once; worked-example prose may list it under the rule's "
                      "literals: with a reason")


# What belongs in a YAML comment, not in a box players read: a marker, a field path (maneuver.base) or a data name.
EDITOR_NOTE = re.compile(r"\b(?:ASSUMPTION|TODO|FIXME)\b|\breplace (?:it|them|this)\b.*\bwhen\b|"
                         r"\b[a-z]{3,}\.[a-z_]{3,}\b|\b[a-z]+_[a-z0-9_]+\b")


def _editor_notes(program: Program) -> Iterator[Diagnostic]:
    """W0706: a "Not stated by the source" note that speaks to editors (field names, markers) instead of players."""
    for rule in program.rules.values():
        for gap in rule.provenance.unstated:
            found = EDITOR_NOTE.search(f"{gap.what} {gap.reasoning}")
            if found:
                yield Diagnostic("warning", "W0706", f"the note on what the source leaves unstated speaks to editors "
                                 f"('{found.group(0)}')", rule.provenance.span,
                                 "say what the source leaves open and what this reference assumes, in the players' "
                                 "words; move notes for editors to a YAML comment (# ...)")
