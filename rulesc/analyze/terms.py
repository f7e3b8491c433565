"""Analyze, terms: where a text mentions a glossary term by name, alias or abbreviation (the site links those
mentions, and lint counts them as uses)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rulesc.model import Term


def mentioned_terms(terms: tuple[Term, ...], texts: list[str]) -> set[str]:
    """Ids of the terms mentioned by name, alias or abbreviation in any of the texts (the site links those).

    Each term is looked for on its own in all the text at once: a plain substring test first, and the same
    word-boundary pattern the site links with only when that finds something.
    """
    haystack = "\n".join(texts)
    lowered = haystack.lower()
    found = set()
    for term in terms:
        names = [n for n in (term.name, *term.aliases) if n.lower() in lowered]
        abbreviations = [a for a in term.abbreviations if a in haystack]
        pattern = alternatives(set(names), set(abbreviations))
        if pattern is not None and pattern.search(haystack):
            found.add(term.id)
    return found


def fold(name: str) -> str:
    return "\0" + " ".join(name.lower().split())


def term_keys(terms: tuple[Term, ...]) -> dict[str, Term]:
    """Abbreviations match exactly (KP, EX); names and aliases match in any case."""
    keys: dict[str, Term] = {}
    for term in terms:
        for name in (term.name, *term.aliases):
            keys.setdefault(fold(name), term)
        for abbreviation in term.abbreviations:
            keys.setdefault(abbreviation, term)
    return keys


def shields(terms: tuple[Term, ...], names: Iterable[tuple[str, str | None]]) -> set[str]:
    """The names (a rule's name and its id, a system's declared phrase and None) that hold a term inside them
    without being one: the linker matches them whole, longest first with the terms, and links nothing inside
    ("Area of Effect" keeps Effect from being linked).

    Left out: a name the term pattern finds whole (a term's own name or its plural), a name that holds no term
    (it could never keep one from being linked), and the name of a rule that defines a term it holds ("The
    Fiction Rule", the rule of the term Fiction Rule, means that term)."""
    pattern, keys = term_pattern(terms), term_keys(terms)
    if pattern is None:
        return set()
    return {name for name, rule in names if pattern.fullmatch(name) is None
            and (inside := [term_of(keys, m.group(0)) for m in pattern.finditer(name)])
            and not any(rule is not None and term is not None and term.rule == rule for term in inside)}


def term_pattern(terms: tuple[Term, ...], shielding: Iterable[str] = ()) -> re.Pattern[str] | None:
    """Every name, alias and abbreviation, and the shielding names, as one pattern that finds what `alternatives`
    finds, faster. A match that names no term (term_of finds none) is a shielding name: it is linked as nothing.

    A plain alternation tries each of its hundreds of names at every word start, which made term linking the
    largest cost of the pages at 5,000 rules. Here the names are grouped by the first character they can begin
    with (as the regex engine folds case), each group behind a one-character lookahead, so at a word start only
    one group's names are tried, still longest first; no name can match where its group's lookahead fails.
    """
    names = {n for t in terms for n in (t.name, *t.aliases)} | set(shielding)
    abbreviations = {a for t in terms for a in t.abbreviations}
    groups: list[tuple[set[str], list[str]]] = []
    for text, pattern in _ordered(names, abbreviations):
        group = next((g for g in groups if any(_same_letter(text[0], other) for other in g[0])), None)
        if group is None:
            groups.append(({text[0]}, [pattern]))
        else:
            group[0].add(text[0])
            group[1].append(pattern)
    return _compile([f"(?=(?i:[{''.join(map(re.escape, sorted(firsts)))}]))(?:{'|'.join(patterns)})"
                     for firsts, patterns in groups]) if groups else None


def _same_letter(a: str, b: str) -> bool:
    """Whether the regex engine, ignoring case, takes `a` and `b` for one another."""
    return a == b or re.fullmatch(f"(?i:{re.escape(a)})", b) is not None or \
        re.fullmatch(f"(?i:{re.escape(b)})", a) is not None


def alternatives(names: set[str], abbreviations: set[str]) -> re.Pattern[str] | None:
    """Whole-word mentions: names and aliases in any case (maybe plural), abbreviations exactly; longest first."""
    ordered = _ordered(names, abbreviations)
    return _compile([pattern for _, pattern in ordered]) if ordered else None


def _ordered(names: set[str], abbreviations: set[str]) -> list[tuple[str, str]]:
    """(text, pattern) of each name and abbreviation, longest first, as the alternation tries them."""
    found = [(n, f"(?i:{_words(n)})(?:e?s)?") for n in names if n]
    found += [(a, re.escape(a)) for a in abbreviations if a]
    return sorted(found, key=lambda item: (-len(item[0]), item[1]))


def _compile(patterns: list[str]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(patterns) + r")(?![\w-])")


def _words(name: str) -> str:
    return r"\s+".join(re.escape(word) for word in name.split())


def term_of(keys: dict[str, Term], found: str) -> Term | None:
    """The term a matched mention names: an exact abbreviation, or a name or alias in any case, maybe plural
    (an s or es more); None for a rule's name or a phrase the pattern matched, even one a character longer than
    a term ("Attack!")."""
    folded = found.casefold()
    singular = (fold(found[:-1]),) if folded.endswith("s") else ()
    for key in (found, fold(found), *singular, *((fold(found[:-2]),) if folded.endswith("es") else ())):
        if key in keys:
            return keys[key]
    return None
