"""Stage 4, analyze: cross-references, formula types and worked examples, checked over a whole system."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rulesc.analyze.calls import check_call_trees
from rulesc.analyze.mismatch import mismatch
from rulesc.analyze.namespace import check_namespace
from rulesc.analyze.rolls import Result, check_roll_tables
from rulesc.analyze.values import assumed, text_uses, text_value_problem
from rulesc.diagnostics.core import Diagnostics, Span, did_you_mean
from rulesc.formula import nodes
from rulesc.formula.bounds import Interval, overflow_checks
from rulesc.formula.check import Columns, Scope, check_types, repeat_hint
from rulesc.formula.evaluate import Value as RuntimeValue
from rulesc.formula.evaluate import evaluate
from rulesc.formula.names import check_definition, refusal, written_as_dice
from rulesc.formula.types import Type
from rulesc.model import (
    SYSTEM_PAGES,
    Calculator,
    Formula,
    Output,
    Param,
    Provenance,
    Rule,
    System,
    Table,
    Term,
    Text,
    Value,
    default_of,
)
from rulesc.runtime import rulesc_runtime as R

# Linear scanners: a target, label or name never holds a bracket or brace, so each try stops at the next one (with
# `[^\]]*` a text of 100,000 '[[' took minutes), and the spaces around a name are taken possessively.
LINK = re.compile(r"\[\[([^\[\]|]*)(?:\|([^\[\]]*))?\]\]")
VALUE = re.compile(r"\{\{\s*+((?:[^{}\s]++|\s++(?=[^{}\s]))*+)\s*+\}\}")
MAX_CALL_DEPTH = 50
MAX_NESTING = 16  # rules under rules: a page shows six heading levels, and the site's tree walks recurse
AnswerKey = tuple[str, tuple[tuple[type, Any], ...]]  # a formula and its arguments, each with its type
GlobalTypes = tuple[dict[str, Type], dict[str, Columns]]  # the constants' types, the tables' columns


@dataclass
class Analysis:
    """A system while this stage checks it: its names indexed, and what checking them has found so far."""

    system: System
    rules: dict[str, Rule] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    terms: dict[str, Term] = field(default_factory=dict)
    constants: dict[str, Value] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    formulas: dict[str, Formula] = field(default_factory=dict)  # each typed as soon as it is checked
    calculators: dict[str, Calculator] = field(default_factory=dict)  # the same
    returns: dict[str, Type] = field(default_factory=dict)  # each checked formula's type
    value_names: set[str] = field(default_factory=set)
    text_values: dict[str, tuple[str, Span]] = field(default_factory=dict)  # values no formula can use, and where
    refused: set[str] = field(default_factory=set)  # names defined though the language reserves them (E0408)
    checking: set[str] = field(default_factory=set)  # the formulas being typed (a call back to one is a cycle)
    reported: set[str] = field(default_factory=set)  # text values already reported
    global_types: GlobalTypes | None = None

    def resolve(self, target: str) -> Rule | Term | None:
        return resolve(self.rules, self.aliases, self.terms, target)


@dataclass(frozen=True, eq=False)
class Program:
    """A checked system: everything the backends need, indexed by name; its expressions typed when it has no
    errors. Frozen: the emitters keep what they derive from it in their own context (emit/context.py)."""

    system: System
    rules: dict[str, Rule]
    aliases: dict[str, str]
    terms: dict[str, Term]
    constants: dict[str, Value]
    tables: dict[str, Table]
    formulas: dict[str, Formula]
    calculators: dict[str, Calculator]
    returns: dict[str, Type]
    value_names: frozenset[str]
    refused: frozenset[str]
    upgrades: dict[str, R.Upgrade]  # every upgrade (upgrades_of()), as the runtime checks sets of them
    runtime_tables: dict[str, R.Table]  # the tables as the runtime reads them
    overflow: frozenset[int]  # whole_checks()
    # The final results of each roll table whose rows roll again, with their exact chances (None: not finite or too
    # many to list), as check_roll_tables() found them.
    roll_results: dict[str, dict[Result, Fraction] | None]
    # The interpreter's answers by formula and arguments: formulas are pure, so the examples, the engine's docs and
    # the pages ask each once (a memo, not state: the same answers whatever asks first).
    _answers: dict[AnswerKey, Any] = field(default_factory=dict, repr=False)

    def resolve(self, target: str) -> Rule | Term | None:
        return resolve(self.rules, self.aliases, self.terms, target)

    def call(self, formula_id: str, args: list[Any], depth: int = 0) -> Any:
        """Run a formula through the interpreter (the engine and calculators run compiled code)."""
        if depth > MAX_CALL_DEPTH:
            raise R.RulesError("formulas call each other too deeply")
        formula = self.formulas[formula_id]
        assert formula.expr.node is not None
        key: AnswerKey = (formula_id, tuple((type(a), a) for a in args))  # typed: 1, 1.0, True are equal keys
        answers = self._answers
        hashable = True
        try:
            return answers[key]
        except TypeError:  # an unhashable argument (a list of upgrades): work it out every time
            hashable = False
        except KeyError:
            pass
        # The checker has matched every call's arguments to the formula's parameters before anything runs.
        env = {p.name: a for p, a in zip(formula.params, args, strict=True)}
        answer = evaluate(formula.expr.node, env, self.runtime_tables,
                          lambda f, a: self.call(f, a, depth + 1), constants=self.constants)
        if hashable:
            answers[key] = answer
        return answer

    def calculate(self, calculator_id: str, inputs: Mapping[str, RuntimeValue]) -> dict[str, RuntimeValue]:
        """A calculator's results by output name, each output seeing the inputs and the outputs before it."""
        calc = self.calculators[calculator_id]
        env: dict[str, RuntimeValue] = dict(inputs)
        results: dict[str, RuntimeValue] = {}
        for output in calc.outputs:
            assert output.expr.node is not None
            env[output.name] = results[output.name] = evaluate(
                output.expr.node, env, self.runtime_tables, self._call, self.upgrades, self.constants)
        return results

    def _call(self, formula_id: str, args: list[Any]) -> Any:
        return self.call(formula_id, args)


def resolve(rules: Mapping[str, Rule], aliases: Mapping[str, str], terms: Mapping[str, Term],
            target: str) -> Rule | Term | None:
    """The rule (by id or alias) or term a link names."""
    return rules.get(aliases.get(target, target)) or terms.get(target)


def upgrades_of(system: System, rules: Mapping[str, Rule]) -> dict[str, R.Upgrade]:
    """Every upgrade (a rule of a kind of upgrades, or one with upgrade data) as the runtime checks sets of them."""
    found = {}
    for rule in sorted(rules.values(), key=lambda r: r.id):
        if system.kind(rule.kind).upgrade or rule.upgrade is not None:
            data = rule.upgrade
            found[rule.id] = R.Upgrade(rule.name, data.requires if data else (), data.excludes if data else (),
                                       (data.max_times if data else None) or 1)
    needs = tuple(upgrade for upgrade, _ in system.set_needs_one_of)
    if needs:  # every upgrade but those of the group asks for one of them: the set's requirement
        found = {key: replace(u, requires_any=(needs,)) if key not in needs else u for key, u in found.items()}
    return found


def label_order(program: Program, node: nodes.Node) -> list[str]:
    """The names a roll of named outcomes is shown in: as they first appear in the expression (and in the
    formulas it calls, and the word columns it looks up, row by row)."""
    found: dict[str, None] = {}
    seen: set[str] = set()

    def visit(root: nodes.Node) -> None:
        for at in nodes.walk(root):
            if isinstance(at, nodes.Text):
                found.setdefault(at.value)
            if isinstance(at, nodes.Call) and at.func in program.formulas and at.func not in seen:
                seen.add(at.func)
                called = program.formulas[at.func].expr.node
                if called is not None:
                    visit(called)
            if isinstance(at, nodes.Call) and at.func == "lookup" and isinstance(at.args[0], nodes.Name) and \
                    isinstance(at.args[1], nodes.Name) and at.args[0].name in program.tables:
                for cell in program.runtime_tables[at.args[0].name].columns.get(at.args[1].name, ()):
                    if isinstance(cell, str):
                        found.setdefault(cell)

    visit(node)
    return list(found)


def output_type(output: Output) -> Type:
    """The checker's type of a calculator output: one of program.calculators', which hold the typed outputs."""
    assert output.expr.node is not None, "an output that did not parse has no type"
    return output.expr.node.type


def whole_checks(program: Program) -> frozenset[int]:
    """The whole-number +, - and * of every formula and calculator output that may leave +/- MAX_INT, which
    generated code checks (formula/bounds.py)."""
    return program.overflow


def _overflow(analysis: Analysis, tables: Mapping[str, R.Table]) -> frozenset[int]:
    """whole_checks(), worked out once when the program is made (its expressions typed)."""
    checks: set[int] = set()

    def constant(name: str) -> Interval | None:
        value = analysis.constants.get(name)
        return (value, value) if isinstance(value, int) and not isinstance(value, bool) else None

    def column(table: str, key: str) -> Interval | None:
        cells = tables[table].columns.get(key, ()) if table in tables else ()
        numbers = [c for c in cells if isinstance(c, int) and not isinstance(c, bool)]
        return (min(numbers), max(numbers)) if numbers and len(numbers) == len(cells) else None

    for formula in analysis.formulas.values():
        if formula.expr.node is not None:
            checks |= overflow_checks(formula.expr.node, {p.name for p in formula.params}, constant, column)
    for calc in analysis.calculators.values():
        names = {p.name for p in calc.inputs} | {o.name for o in calc.outputs}
        for output in calc.outputs:
            if output.expr.node is not None:
                checks |= overflow_checks(output.expr.node, names, constant, column)
    return frozenset(checks)


def runtime_table(table: Table) -> R.Table:
    return R.Table(table.keys, {c.key: [row[i] for row in table.rows] for i, c in enumerate(table.columns)})


def analyze_system(system: System, diags: Diagnostics) -> Program:
    analysis = Analysis(system)
    _index(analysis, diags)
    check_namespace(system, diags)
    _check_links(analysis, diags)
    _check_definitions(analysis, diags)
    _check_formulas(analysis, diags)
    check_call_trees(analysis.formulas, diags)
    _check_calculators(analysis, diags)
    rolls = check_roll_tables(analysis.tables, diags)
    if diags.errors:
        return _program(analysis, rolls, typed=False)
    _keep_typed(analysis)
    program = _program(analysis, rolls, typed=True)
    _run_examples(program, diags)
    _run_calculators(program, diags)
    return program


def _program(analysis: Analysis, rolls: dict[str, dict[Result, Fraction] | None], typed: bool) -> Program:
    """The frozen program; `typed` when every expression passed the checker (its overflow checks are known)."""
    tables = {name: runtime_table(t) for name, t in analysis.tables.items()}
    return Program(analysis.system, analysis.rules, analysis.aliases, analysis.terms, analysis.constants,
                   analysis.tables, analysis.formulas, analysis.calculators, analysis.returns,
                   frozenset(analysis.value_names), frozenset(analysis.refused),
                   upgrades_of(analysis.system, analysis.rules), tables,
                   _overflow(analysis, tables) if typed else frozenset(), rolls)


def _keep_typed(analysis: Analysis) -> None:
    """Put the typed formulas and calculators in the system's rules too, so that every stage after this one,
    whichever way it reaches an expression, finds a type on each node (only where ids are unique: no errors)."""
    def typed(rule: Rule) -> Rule:
        return replace(rule, formulas=tuple(analysis.formulas[f.id] for f in rule.formulas),
                       calculators=tuple(analysis.calculators[c.id] for c in rule.calculators))

    chapters = tuple(replace(c, rules=tuple(typed(r) for r in c.rules)) for c in analysis.system.chapters)
    analysis.system = replace(analysis.system, chapters=chapters)
    analysis.rules = {r.id: r for r in analysis.system.rules()}


def _unique(items: Iterable[tuple[str, Span]], what: str, diags: Diagnostics) -> None:
    seen: dict[str, Span] = {}
    for name, span in items:
        if name in seen:
            diags.error("E0601", f"duplicate {what} '{name}' (first defined at {seen[name]})", span,
                        f"each {what} needs its own name")
        else:
            seen[name] = span


def _index(analysis: Analysis, diags: Diagnostics) -> None:
    system = analysis.system
    rules = system.rules()
    _unique(((a, r.span) for r in rules for a in (r.id, *r.aliases)), "rule id or alias", diags)
    for chapter in system.chapters:
        if chapter.id in SYSTEM_PAGES:
            diags.error("E0601", f"chapter id '{chapter.id}' is the id of a page the site makes for every system",
                        chapter.span, f"rename the chapter: {', '.join(SYSTEM_PAGES)} are taken")
    _unique(((t.id, t.span) for t in system.terms), "term id", diags)
    _unique(((f.id, f.span) for r in rules for f in r.formulas), "formula id", diags)
    _unique(((c.id, c.span) for r in rules for c in r.calculators), "calculator id", diags)
    _unique(((k, r.field_span("values")) for r in rules for k, _ in r.values), "value name", diags)
    _unique(((r.table.name, r.table.span) for r in rules if r.table), "table name", diags)
    _unique(((c.id, c.span) for c in system.chapters), "chapter id", diags)
    analysis.rules = {r.id: r for r in rules}
    analysis.aliases = {a: r.id for r in rules for a in r.aliases}
    analysis.terms = {t.id: t for t in system.terms}
    analysis.constants = {k: v for r in rules for k, v in r.values if not isinstance(v, str)}
    analysis.value_names = {k for r in rules for k, _ in r.values}
    analysis.text_values = {k: (v, r.value_span(k)) for r in rules for k, v in r.values if isinstance(v, str)}
    analysis.tables = {r.table.name: r.table for r in rules if r.table}
    analysis.formulas = {f.id: f for r in rules for f in r.formulas}
    analysis.calculators = {c.id: c for r in rules for c in r.calculators}


def _check_definitions(analysis: Analysis, diags: Diagnostics) -> None:
    """E0408 where an author defines a name the formula language reserves (lets are checked with their formula);
    the names refused are kept, so that the errors their uses cause are not reported again."""
    for name, what, span in _definitions(analysis):
        if refusal(name, what) is not None:
            analysis.refused.add(name)
            check_definition(name, what, span, diags)


def _definitions(analysis: Analysis) -> Iterator[tuple[str, str, Span]]:
    """Every name an author defines for formulas to use: what it names, and where."""
    for rule in analysis.rules.values():
        for key, _ in rule.values:
            yield key, "value", _value_span(rule, key)
        if rule.table:
            yield rule.table.name, "table", rule.table.span
        for formula in rule.formulas:
            yield formula.id, "formula", formula.span
            for param in formula.params:
                yield param.name, "parameter", param.span
        for calc in rule.calculators:
            for param in calc.inputs:
                yield param.name, "input", param.span
            for output in calc.outputs:
                yield output.name, "output", output.expr.span


def _value_span(rule: Rule, key: str) -> Span:
    """Where a value's name is written."""
    return rule.doc.key_span(rule.value_path(key)) if rule.doc else rule.field_span("values")


def _check_links(analysis: Analysis, diags: Diagnostics) -> None:
    system = analysis.system
    rule_ids = {*analysis.rules, *analysis.aliases}
    sources = {s.id for s in system.sources}
    for kind in system.fact_kinds:
        if kind.term:
            _need(kind.term, analysis.terms, "glossary term", kind.span, diags)
        if kind.at:
            _need(kind.at.formula, analysis.formulas, "formula", kind.span, diags)
    for scaling in system.scalings:
        if scaling.term:
            _need(scaling.term, analysis.terms, "glossary term", scaling.span, diags)
    for term in system.terms:
        _check_text(term.definition, analysis, diags)
        if term.provenance and term.provenance.source not in sources:
            diags.error("E0604", f"unknown source '{term.provenance.source}'", term.provenance.span,
                        did_you_mean(term.provenance.source, sources))
        if term.provenance:
            _check_lines(term.provenance, system, diags)
        if term.rule:
            _need(term.rule, rule_ids, "rule", term.rule_span or term.span, diags)
    for rule in analysis.rules.values():
        cells = (cell for row in rule.table.texts for cell in row if cell is not None) if rule.table else ()
        for text in (*rule.texts(), *cells):
            _check_text(text, analysis, diags)
        if rule.provenance.source not in sources:
            diags.error("E0604", f"unknown source '{rule.provenance.source}'", rule.provenance.span,
                        did_you_mean(rule.provenance.source, sources)
                        or f"the system's sources: {', '.join(sorted(sources))}")
        _check_lines(rule.provenance, system, diags)
        for target, span in _rule_targets(rule):
            _need(target, rule_ids, "rule", span, diags)
    _check_parents(analysis, diags)
    _check_upgrade_graph(analysis, diags)
    _check_set_needs(analysis, diags)
    for text in (system.summary, system.dice_summary, *(c.summary for c in system.chapters)):
        _check_text(text, analysis, diags)


def _check_lines(prov: Provenance, system: System, diags: Diagnostics) -> None:
    """E0332 for lines of a source with no local copy to count them in (a page is what a publication has); E0333
    for a page past the publication's last."""
    source = next((s for s in system.sources if s.id == prov.source), None)
    last = max((int(n) for n in re.findall(r"[0-9]+", prov.page or "")), default=0)
    if source is not None and source.pages is not None and last > source.pages:
        diags.error("E0333", f"page {last} of source '{source.id}', which has {source.pages} pages",
                    prov.page_span or prov.span, "check the page number, or the source's pages:")
    if prov.lines is not None and source is not None and source.file is None:
        lines = f"line {prov.lines}" if prov.lines.isdigit() else f"lines {prov.lines}"
        diags.error("E0332", f"{lines} of source '{source.id}', which has no file to count them in",
                    prov.lines_span or prov.span, "cite the publication's page instead (page: 78), or give the "
                    "source the file: of a local copy")


def _rule_targets(rule: Rule) -> Iterator[tuple[str, Span]]:
    if rule.parent:
        yield rule.parent, rule.field_span("parent")
    for fact in rule.facts:
        for i, target in enumerate(fact.ids):
            yield target, rule.fact_item_span(fact.kind.id, i)


def _check_parents(analysis: Analysis, diags: Diagnostics) -> None:
    """E0610 at each rule whose `parent` chain comes back to it (such rules sit under one another, so on no page);
    E0611 where a chain first nests deeper than MAX_NESTING. The walk is a loop: any chain costs no stack."""
    depth: dict[str, int] = {}  # how many rules each rule sits under
    for rule in analysis.rules.values():
        chain: dict[str, None] = {}  # the walk up from `rule` so far, in order
        current: str | None = rule.id
        while current is not None and current not in depth and current not in chain:
            chain[current] = None
            current = _parent_of(analysis, current)
        if current is not None and current in chain:
            _report_parent_cycle(analysis, list(chain)[list(chain).index(current):], diags)
            depth.update(dict.fromkeys(chain, 0))  # what hangs under a cycle is reported with it
            continue
        below = -1 if current is None else depth[current]
        for rule_id in reversed(chain):
            below = depth[rule_id] = below + 1
            if below == MAX_NESTING + 1:
                diags.error("E0611", f"rule '{rule_id}' sits under {below} rules; a rule may sit under at most "
                            f"{MAX_NESTING}", analysis.rules[rule_id].field_span("parent"),
                            "give it a parent nearer the top; a page shows six levels of headings")


def _parent_of(analysis: Analysis, rule_id: str) -> str | None:
    """The id of the rule's parent (its alias resolved), or None at the top or for a parent that does not exist."""
    parent = analysis.rules[rule_id].parent
    found = analysis.aliases.get(parent, parent) if parent else None
    return found if found in analysis.rules else None


def _report_parent_cycle(analysis: Analysis, cycle: list[str], diags: Diagnostics) -> None:
    for at, rule_id in enumerate(cycle):
        turn = cycle[at:] + cycle[:at]  # the cycle told from this rule
        message = f"rule '{rule_id}' is its own parent" if len(cycle) == 1 else \
            f"rule '{rule_id}' is its own ancestor: " + " -> ".join(f"'{r}'" for r in [*turn, rule_id])
        diags.error("E0610", message, analysis.rules[rule_id].field_span("parent"),
                    "remove one 'parent' of the cycle; a rule under itself appears on no page")


def _need(target: str, known: Collection[str], what: str, span: Span, diags: Diagnostics) -> None:
    if target not in known:
        diags.error("E0602", f"reference to unknown {what} '{target}'", span, did_you_mean(target, known))


def _check_text(text: Text, analysis: Analysis, diags: Diagnostics) -> None:
    for match in LINK.finditer(text.source):
        target = match.group(1).strip()
        if analysis.resolve(target) is None:
            diags.error("E0602", f"link to unknown rule or term '{target}'", text.locate(match.start(1)),
                        did_you_mean(target, [*analysis.rules, *analysis.aliases, *analysis.terms]))
    names = analysis.value_names
    for match in VALUE.finditer(text.source):
        name = match.group(1)
        if name not in names:
            diags.error("E0603", f"unknown value '{name}' in text", text.locate(match.start(1)),
                        did_you_mean(name, names) or "values are declared under a rule's 'values:'")


def _check_set_needs(analysis: Analysis, diags: Diagnostics) -> None:
    """E0602 for an id in upgrade_sets.needs_one_of that is not an upgrade of the system."""
    upgrades = upgrades_of(analysis.system, analysis.rules)
    for upgrade, span in analysis.system.set_needs_one_of:
        if upgrade not in upgrades:
            diags.error("E0602", f"upgrade_sets.needs_one_of names '{upgrade}', which is not an upgrade", span,
                        did_you_mean(upgrade, upgrades))


def _check_upgrade_graph(analysis: Analysis, diags: Diagnostics) -> None:
    for rule in analysis.rules.values():
        if not rule.upgrade:
            continue
        required = _requirement_closure(rule.id, analysis)
        if rule.id in required:
            diags.error("E0605", f"'{rule.id}' requires itself through a cycle of requirements",
                        _fact_span(rule, "requires"), "remove one requirement of the cycle; no character could take "
                        "an upgrade that needs itself first")
        for excluded in rule.upgrade.excludes:
            if excluded in required:
                diags.error("E0606", f"'{rule.id}' both requires and excludes '{excluded}'",
                            _fact_span(rule, "excludes"),
                            "no character could ever take it" if excluded in rule.upgrade.requires else
                            f"'{excluded}' is required through another of its requirements, so no character could "
                            "ever take it")


def _fact_span(rule: Rule, type_: str) -> Span:
    found = rule.facts_of_type(type_)
    return rule.fact_span(found[0].kind.id) if found else rule.field_span("facts")


def _requirement_closure(start: str, analysis: Analysis) -> set[str]:
    """Every rule that `start` requires, directly or through other requirements."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        name = stack.pop()
        current = analysis.rules.get(analysis.aliases.get(name, name))
        for target in current.upgrade.requires if current and current.upgrade else ():
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def _scope(analysis: Analysis, local: dict[str, Type], diags: Diagnostics) -> Scope:
    """The names a formula of `analysis` sees; `local` is the scope's own (the checker binds lets in it)."""
    def signature(name: str, span: Span) -> tuple[tuple[Type, ...], Type] | None:
        formula = analysis.formulas.get(name)
        if formula is None:
            return None
        returns = _formula_type(analysis, formula, diags)
        return tuple(p.type for p in formula.params), returns or Type.INT

    constants, tables = _global_types(analysis)
    return Scope(local, constants, tables, signature, analysis.system.format)


def _global_types(analysis: Analysis) -> GlobalTypes:
    """The types of the constants and table columns, worked out once per analysis: rebuilding them for every
    formula made checking formulas grow with formulas times constants."""
    found = analysis.global_types
    if found is None:
        constants = {k: _type_of_value(v) for k, v in analysis.constants.items()}
        tables = {name: _columns(table) for name, table in analysis.tables.items()}
        found = analysis.global_types = (constants, tables)
    return found


def _columns(table: Table) -> Columns:
    """A table's columns as formulas see them (a range column's cells are names, as "1-3")."""
    types = {c.key: Type.TEXT if c.type == "range" else Type(c.type) for c in table.columns}
    first = table.columns[0]
    return Columns(types, None if first.type in ("range", "int") else first.key)


def _type_of_value(value: Value) -> Type:
    return Type.BOOL if isinstance(value, bool) else Type.INT if isinstance(value, int) else Type.DICE


def _formula_type(analysis: Analysis, formula: Formula, diags: Diagnostics) -> Type | None:
    """The type a formula gives, checking it (and keeping its typed tree in analysis.formulas) on first ask."""
    if formula.id in analysis.checking:
        diags.error("E0405", f"formula '{formula.id}' calls itself", formula.expr.span,
                    "formulas may call other formulas, but not in a cycle")
        return None
    known = analysis.returns.get(formula.id)
    if known is not None or formula.expr.node is None:
        return known
    analysis.checking.add(formula.id)
    typed = _typed(analysis, formula.expr.node, {p.name: p.type for p in formula.params},
                   (f"formula '{formula.id}'", formula.returns), diags)
    analysis.checking.discard(formula.id)
    inferred = typed.type if typed is not None else None
    if inferred and formula.returns and inferred != formula.returns:
        hint = ("a comparison on a roll is an event, yes or no with its chance: declare returns: event, or "
                "take its chance with p(...)") if inferred == Type.EVENT else \
            repeat_hint(formula.expr.node, formula.returns, inferred)
        diags.error("E0403", f"formula '{formula.id}' is declared to return {formula.returns} but gives {inferred}",
                    formula.expr.span, hint)
    if typed is not None:
        analysis.formulas[formula.id] = replace(formula, expr=replace(formula.expr, node=typed))
    analysis.returns[formula.id] = inferred or formula.returns or Type.INT
    return inferred


def _typed(analysis: Analysis, node: nodes.Node, local: dict[str, Type], user: tuple[str, str | None],
           diags: Diagnostics) -> nodes.Node | None:
    """The expression that `user` (its description, and the type it must give) owns, typed. A text value it
    uses is reported at the value, once, with what the use needs; the use then takes it as that and adds no error."""
    scope = _scope(analysis, local, diags)
    uses = text_uses(node, analysis.text_values, local, user[1], lambda name: _param_types(analysis, name))
    for name, need in uses.items():
        if name not in analysis.reported:
            analysis.reported.add(name)
            text, span = analysis.text_values[name]
            message, hint = text_value_problem(name, text, need, user[0])
            diags.error("E0407", message, span, hint)
    if uses:
        scope.constants = {**scope.constants, **{name: assumed(need) for name, need in uses.items()}}
    if written_as_dice(node, analysis.refused):  # d8 for a parameter d8 is a roll: its E0408 says so, once
        return None
    return check_types(node, scope, diags)


def _param_types(analysis: Analysis, name: str) -> tuple[str, ...] | None:
    formula = analysis.formulas.get(name)
    return None if formula is None else tuple(p.type for p in formula.params)


def _check_formulas(analysis: Analysis, diags: Diagnostics) -> None:
    for formula in analysis.formulas.values():
        _unique(((p.name, p.span) for p in formula.params), f"parameter of {formula.id}", diags)
        for p in formula.params:
            if p.name in analysis.constants:
                diags.error("E0601", f"parameter '{p.name}' has the name of a value", p.span, "rename one of them")
        _formula_type(analysis, formula, diags)


def _check_calculators(analysis: Analysis, diags: Diagnostics) -> None:
    for calc in analysis.calculators.values():
        local: dict[str, Type] = {p.name: p.type for p in calc.inputs}
        _unique(((p.name, p.span) for p in calc.inputs), f"input of {calc.id}", diags)
        for param in calc.inputs:
            _check_default(param, diags)
        outputs = []
        for output in calc.outputs:
            typed = None if output.expr.node is None else \
                _typed(analysis, output.expr.node, dict(local), (f"calculator '{calc.id}'", None), diags)
            local[output.name] = typed.type if typed is not None else Type.INT
            outputs.append(output if typed is None else replace(output, expr=replace(output.expr, node=typed)))
        analysis.calculators[calc.id] = replace(calc, outputs=tuple(outputs))


def _check_default(param: Param, diags: Diagnostics) -> None:
    if param.default is None or param.type != "int":
        return
    assert isinstance(param.default, int)
    if not _in_range(param, param.default):
        diags.error("E0503", f"default {param.default} of '{param.name}' is outside {param.min}..{param.max}",
                    param.span)


def _in_range(param: Param, value: Any) -> bool:
    if param.options:
        return value in {o.value for o in param.options}
    return (param.min is None or value >= param.min) and (param.max is None or value <= param.max)


def _run_calculators(program: Program, diags: Diagnostics) -> None:
    """E0505 for a calculator that has no answer at its inputs' defaults, which the page shows worked out."""
    for calc in program.calculators.values():
        defaults = {p.name: default_of(p) for p in calc.inputs}
        try:
            program.calculate(calc.id, defaults)
        except R.RulesError as exc:
            shown = ", ".join(f"{name}={show(value)}" for name, value in defaults.items())
            diags.error("E0505", f"calculator '{calc.id}' has no answer at its defaults ({shown}): {exc}", calc.span,
                        "give an input a default the outputs can work with")


def _run_examples(program: Program, diags: Diagnostics) -> None:
    for formula in program.formulas.values():
        for example in formula.examples:
            _run_example(program, formula, example, diags)


def _run_example(program: Program, formula: Formula, example: Any, diags: Diagnostics) -> None:
    given = dict(example.args)
    spans = dict(example.arg_spans)
    names = [p.name for p in formula.params]
    for name in given:
        if name not in names:
            diags.error("E0502", f"example passes unknown argument '{name}' to {formula.id}", spans[name],
                        did_you_mean(name, names))
    for param in formula.params:
        if param.name not in given:
            diags.error("E0502", f"example does not give '{param.name}' to {formula.id}", example.span)
        elif not _in_range(param, given[param.name]):
            diags.error("E0503", f"example argument {param.name}={given[param.name]} is outside its range "
                        f"{param.min}..{param.max}", spans[param.name])
    if set(given) != set(names) or not all(_in_range(p, given[p.name]) for p in formula.params):
        return
    call = f"{formula.id}({', '.join(f'{k}={given[k]}' for k in names)})"
    try:
        got = program.call(formula.id, [given[k] for k in names])
    except R.RulesError as exc:
        diags.error("E0504", f"{call} has no answer: {exc}", example.span)
        return
    if not matches(got, example.expect):
        diags.error("E0501", f"example failed: {call} {mismatch(got, example.expect)}", example.span)


NUM_TOLERANCE = 1e-12


def matches(got: Any, expected: Any) -> bool:
    """Whether a result is the expected one: exact, except a decimal expectation within 1e-12."""
    if isinstance(expected, dict):
        return isinstance(got, (R.Dist, R.Outcomes)) and dict(got.items()) == expected
    if isinstance(got, R.Dist) and type(expected) is int:  # a roll that came out as one number
        return dict(got.items()) == {expected: 1}
    if isinstance(got, R.Outcomes) and isinstance(expected, (str, bool)):
        return dict(got.items()) == {expected: 1}
    if isinstance(expected, R.Dice) and isinstance(got, R.Dist):  # a roll expected to be distributed as a pool
        return dict(got.items()) == dict(R.as_dist(expected).items())
    if isinstance(expected, float) or (isinstance(got, float) and isinstance(expected, (int, Fraction))):
        return isinstance(got, (int, float, Fraction)) and not isinstance(got, bool) and \
            abs(float(got) - float(expected)) <= NUM_TOLERANCE
    if isinstance(expected, Fraction) or isinstance(got, Fraction):
        return isinstance(got, (int, Fraction)) and not isinstance(got, bool) and Fraction(got) == expected
    return got == expected and type(got) is type(expected)


def show(value: Any) -> str:
    """A value as people read it: true/false, numbers, exact fractions, dice pools."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value) if value.denominator == 1 else f"{value} (~{float(value):.6g})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {v}" for k, v in sorted(value.items())) + "}"
    if isinstance(value, R.Dist):
        return show(dict(value.items()))
    return str(value)


