"""Stylesheets as the site ships them: minified, parsed once, and cut to the rules a page or a site can use."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import rcssmin  # type: ignore[import-untyped]

GROUPING = ("@media", "@supports", "@container", "@layer", "@document")
"""At-rules whose block holds rules (kept where any rule inside is); any other block (@font-face, @page) is kept
whole, and @keyframes where a kept declaration names it."""
WORD = re.compile(r"[A-Za-z0-9_-]+")
FUNCTIONAL = re.compile(r":(?:not|is|where|has|matches|-webkit-any|-moz-any)\(")
SIMPLE = re.compile(r"([.#])(-?[A-Za-z_][\w-]*)|\[\s*([\w-]+)\s*(?:([~|^$*]?=)\s*(\"[^\"]*\"|'[^']*'|[^\]\s]+))?"
                    r"(?:\s+[is])?\s*\]")
CUSTOM = re.compile(r"\s*(--[\w-]+)\s*:")
READS = re.compile(r"var\(\s*(--[\w-]+)")
ANIMATION = re.compile(r"\s*(?:-[a-z]+-)?animation(?:-name)?\s*:(.*)", re.S)
KEYFRAMES = re.compile(r"@(?:-[a-z]+-)?keyframes\s+([\w-]+)")


@dataclass(frozen=True)
class Selector:
    """One selector of a rule, with the words (classes, ids, attributes and exact values) a page must have for it
    to match."""

    text: str
    needs: frozenset[str]


@dataclass(frozen=True)
class Declaration:
    """`name: value`, with the custom property it defines (if any), those it reads, and the keyframes it names."""

    text: str
    defines: str | None
    reads: frozenset[str]
    animates: frozenset[str]


@dataclass(frozen=True)
class Style:
    selectors: tuple[Selector, ...]
    declarations: tuple[Declaration, ...]


@dataclass(frozen=True)
class Group:
    """@media, @supports, ...: a head and the rules inside."""

    prelude: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class Other:
    """Any other at-rule, kept as written: a statement (`@import ...;`, block None) or a block (@font-face)."""

    prelude: str
    block: str | None

    @property
    def keyframes(self) -> str | None:
        match = KEYFRAMES.match(self.prelude)
        return match.group(1) if match else None


Rule = Style | Group | Other


def minify(css: str) -> str:
    """`css` without comments and needless white space (rcssmin: nothing renamed, nothing reordered)."""
    return str(rcssmin.cssmin(css))


@functools.lru_cache(maxsize=4)
def parsed_sheets(css: str) -> tuple[Rule, ...]:
    """parse(), kept for the next build in the same process (`rulesc serve`'s rebuilds, a test run's builds): the
    theme's sheets are the same text each time, and the rules are immutable."""
    return parse(css)


def parse(css: str) -> tuple[Rule, ...]:
    """The rules of a minified stylesheet, in order."""
    rules: list[Rule] = []
    at = 0
    while at < len(css):
        end = _scan(css, at, "{;}")
        prelude = css[at:end].strip()
        if end == len(css) or css[end] in ";}":
            rules += [Other(prelude, None)] if prelude else []
            at = end + 1
            continue
        close = _closing(css, end)
        rules.append(_rule(prelude, css[end + 1:close]))
        at = close + 1
    return tuple(rules)


def _rule(prelude: str, body: str) -> Rule:
    if prelude.lower().startswith(GROUPING):
        return Group(prelude, parse(body))
    if prelude.startswith("@"):
        return Other(prelude, body)
    return Style(tuple(_selector(s) for s in split(prelude, ",")),
                 tuple(_declaration(d) for d in split(body, ";") if d.strip()))


def _selector(text: str) -> Selector:
    plain = plain_selector(text)
    return Selector(text, frozenset() if "\\" in plain else _needs(plain))


def _needs(plain: str) -> frozenset[str]:
    needs: set[str] = set()
    for dot, name, attribute, operator, value in SIMPLE.findall(plain):
        needs.update(w for w in (name if dot else "", attribute) if w)
        if operator in ("=", "~="):
            needs.update(WORD.findall(value))
    return frozenset(needs)


def _declaration(text: str) -> Declaration:
    custom, animation = CUSTOM.match(text), ANIMATION.match(text)
    return Declaration(text, custom.group(1) if custom else None, frozenset(READS.findall(text)),
                       frozenset(WORD.findall(animation.group(1))) if animation else frozenset())


def _scan(css: str, at: int, stops: str) -> int:
    """The index of the first of `stops` at or after `at` outside strings and parentheses (len(css) if none)."""
    depth, quote = 0, ""
    while at < len(css):
        char = css[at]
        if quote:
            if char == "\\":
                at += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif depth == 0 and char in stops:
            return at
        at += 1
    return at


def _closing(css: str, opening: int) -> int:
    """The index of the `}` closing the block that opens at `opening`."""
    depth, at = 0, opening
    while at < len(css):
        at = _scan(css, at, "{}")
        if at == len(css):
            return at
        depth += 1 if css[at] == "{" else -1
        if depth == 0:
            return at
        at += 1
    return at


def split(text: str, separator: str) -> list[str]:
    """`text` split at each `separator` outside strings and parentheses."""
    parts, at = [], 0
    while at <= len(text):
        end = _scan(text, at, separator)
        parts.append(text[at:end])
        at = end + 1
    return parts


def plain_selector(selector: str) -> str:
    """The selector with the arguments of its functional pseudo-classes (:not(), :is(), :has() ...) left out:
    what they ask for is not required of a page."""
    while match := FUNCTIONAL.search(selector):
        selector = selector[:match.start()] + selector[_after_parenthesis(selector, match.end()):]
    return selector


def _after_parenthesis(text: str, at: int) -> int:
    """The index after the `)` closing the parenthesis opened just before `at` (len(text) if none does)."""
    depth, quote = 1, ""
    for index in range(at, len(text)):
        char = text[index]
        if quote:
            quote = "" if char == quote and text[index - 1] != "\\" else quote
        elif char in "\"'":
            quote = char
        elif char in "()":
            depth += 1 if char == "(" else -1
            if depth == 0:
                return index + 1
    return len(text)


def words(texts: Iterable[str]) -> frozenset[str]:
    """Every word (letters, digits, `-`, `_`) of some pages and scripts: what a selector may name."""
    found: set[str] = set()
    for text in texts:
        found.update(WORD.findall(text))
    return frozenset(found)


def used(rules: tuple[Rule, ...], known: frozenset[str]) -> str:
    """The stylesheet of the rules a page whose words (and its scripts') are `known` may use: each rule with the
    selectors that may match, without the custom properties nothing reads and the @keyframes nothing names."""
    kept = _kept(rules, known)
    declarations = [d for rule in _styles(kept) for d in rule.declarations]
    read = _read(declarations, set(known.intersection(d.defines for d in declarations if d.defines)))
    animated = frozenset(w for d in declarations if d.defines is None or d.defines in read for w in d.animates)
    return "".join(_text(rule, read, animated) for rule in kept)


def _kept(rules: tuple[Rule, ...], known: frozenset[str]) -> list[Rule]:
    kept: list[Rule] = []
    for rule in rules:
        if isinstance(rule, Group):
            inner = _kept(rule.rules, known)
            kept += [Group(rule.prelude, tuple(inner))] if inner else []
        elif isinstance(rule, Style):
            selectors = tuple(s for s in rule.selectors if s.needs <= known)
            kept += [Style(selectors, rule.declarations)] if selectors else []
        else:
            kept.append(rule)
    return kept


def _styles(rules: Iterable[Rule]) -> Iterable[Style]:
    for rule in rules:
        if isinstance(rule, Group):
            yield from _styles(rule.rules)
        elif isinstance(rule, Style):
            yield rule


def _read(declarations: list[Declaration], read: set[str]) -> frozenset[str]:
    """The custom properties read: by a plain declaration, a page or a script, or by a property that is read."""
    read |= {name for d in declarations if d.defines is None for name in d.reads}
    defined: dict[str, set[str]] = {}
    for d in declarations:
        if d.defines is not None:
            defined.setdefault(d.defines, set()).update(d.reads)
    waiting = list(read)
    while waiting:
        for name in defined.get(waiting.pop(), ()):
            if name not in read:
                read.add(name)
                waiting.append(name)
    return frozenset(read)


def _text(rule: Rule, read: frozenset[str], animated: frozenset[str]) -> str:
    if isinstance(rule, Group):
        inner = "".join(_text(r, read, animated) for r in rule.rules)
        return f"{rule.prelude}{{{inner}}}" if inner else ""
    if isinstance(rule, Style):
        body = ";".join(d.text for d in rule.declarations if d.defines is None or d.defines in read)
        return f"{','.join(s.text for s in rule.selectors)}{{{body}}}" if body else ""
    if rule.block is None:
        return rule.prelude + ";"
    name = rule.keyframes
    return f"{rule.prelude}{{{rule.block}}}" if name is None or name in animated else ""
