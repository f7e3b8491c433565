"""Cross-links for the pages emitter: which rules refer to each rule or term ("Referenced by")."""

from __future__ import annotations

from collections import defaultdict

from rulesc.analyze.program import LINK, Program
from rulesc.model import Rule


def references(program: Program, rule: Rule) -> list[str]:
    """Ids of the rules and terms a rule points at: [[links]] in its text, and the rules its facts name."""
    targets = [m.group(1).strip() for text in rule.texts() for m in LINK.finditer(text.source)]
    targets += [target for fact in rule.facts for target in fact.ids]
    resolved = (program.resolve(t) for t in targets)
    return [found.id for found in resolved if found is not None]


def backlinks(program: Program) -> dict[str, list[Rule]]:
    """For each rule or term id, the rules referring to it, in page order, each once, never itself."""
    found: dict[str, list[Rule]] = defaultdict(list)
    for rule in program.system.rules():
        for target in dict.fromkeys(references(program, rule)):
            if target != rule.id:
                found[target].append(rule)
    return dict(found)
