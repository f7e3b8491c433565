"""Stage 3, model: the kinds of rule a system declares (a move, a spell), and those rulesc keeps for itself.

A system's `kinds:` in system.yaml names each kind, how the site words it (label, plural) and the fields its rules
may give: fact kinds of the system's `facts:` and the structured parts in PARTS. rulesc's own kinds (STRUCTURAL)
change how a page is laid out; a system may declare one to rename it. A system without `kinds:` has the kinds
every rulebook had before declarations (FORMAT_1_KINDS), open to any field, so it checks unchanged; `rulesc migrate`
writes the declaration (in whichever format the system is: the step sees whether it is there).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesc.diagnostics.core import Span

PARTS = ("trigger", "roll", "outcomes")
"""The structured parts a kind may list among its fields, each a key of the rule beside its text."""

STRUCTURAL = {"table": ("Table", "Tables"), "list": ("List", "Lists"), "section": ("Section", "Sections")}
"""rulesc's own kinds, by id: their label and plural unless the system declares the kind to rename it."""

FORMAT_1_KINDS = {"maneuver": ("Maneuver", "Maneuvers"), "upgrade": ("Upgrade", "Upgrades"),
                  "action": ("Action", "Actions"), "stunt": ("Stunt", "Stunts"), "keyword": ("Keyword", "Keywords"),
                  "condition": ("Condition", "Conditions"), "general": ("General rule", "General rules")}
"""The kinds a system without kinds: has, in the order its index tables list them (before tables and lists);
`rulesc migrate` writes those a system uses into its system.yaml."""

OWN_ENTRIES = {"term": ("Glossary term", "terms"), "calculator": ("Calculator", "calculators"),
               "row": ("Table row", "table rows")}
"""What search finds besides rules, by the kind its records carry: the word under a hit's name and the search
filter's word for several."""

FORMAT_1_UPGRADES = ("upgrade",)
"""The format-1 kinds whose rules are upgrades, facts or not."""


@dataclass(frozen=True)
class RuleKind:
    """A kind of rule: its id, how the site names one and several, and what its rules may and must give."""

    id: str
    label: str
    plural: str
    fields: tuple[str, ...]
    required: tuple[str, ...]
    upgrade: bool
    span: Span | None = None  # where system.yaml declares it; None for an implied or structural kind
    open: bool = False  # a format-1 kind: its rules may give any field

    def has(self, field_name: str) -> bool:
        return self.open or field_name in self.fields

    @property
    def index(self) -> bool:
        """Whether the index tables list its rules (a section is only a heading)."""
        return self.id != "section"


def implied_kinds() -> tuple[RuleKind, ...]:
    """Format 1's kinds, each open to any field, in FORMAT_1_KINDS' order."""
    return tuple(RuleKind(kind, label, plural, (), (), kind in FORMAT_1_UPGRADES, open=True)
                 for kind, (label, plural) in FORMAT_1_KINDS.items())


def with_structural(declared: tuple[RuleKind, ...]) -> tuple[RuleKind, ...]:
    """The declared kinds, then rulesc's own kinds that no declaration renames, in STRUCTURAL's order."""
    ids = {kind.id for kind in declared}
    own = tuple(RuleKind(kind, label, plural, (), (), False, open=True)
                for kind, (label, plural) in STRUCTURAL.items() if kind not in ids)
    return declared + own


def site_words() -> dict[str, str]:
    """The words search and the site use for their own entries, casefolded, each with what it names there: a kind
    labelled with one would read as that entry in search's filters and hit lines."""
    words: dict[str, str] = {}
    for kind, (hit, several) in OWN_ENTRIES.items():
        for word in (kind, kind + "s", hit, hit + "s", several):
            words.setdefault(word.casefold(), f"{hit.lower()}s")
    return words


def own_kind_words(declared: set[str]) -> dict[str, str]:
    """The labels and plurals of rulesc's own kinds that no declaration (`declared`, kind ids) renames, casefolded,
    each with the kind that has them: words a declared kind may not take."""
    return {word.casefold(): f"rulesc's own kind '{kind}'" for kind, words in STRUCTURAL.items() if kind not in declared
            for word in words}


def mid_sentence(words: str) -> str:
    """Words as they read inside a sentence: a capital first letter lowered, unless the second is a capital too
    (an initialism such as GM moves keeps its case)."""
    if len(words) > 1 and words[0].isupper() and not words[1].isupper():
        return words[0].lower() + words[1:]
    return words


__all__ = ["FORMAT_1_KINDS", "OWN_ENTRIES", "PARTS", "STRUCTURAL", "RuleKind", "implied_kinds", "mid_sentence",
           "own_kind_words", "site_words", "with_structural"]
