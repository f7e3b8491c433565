"""Rule text to safe HTML for the pages emitter: markdown-it-py tokens, [[links]], {{values}} and defined terms linked.

Content never reaches a page as live markup: raw HTML is parsed as text (html=False), images are off (no request
leaves the site), and a Markdown link survives only with an http(s) or mailto target. Defined terms are found in
text tokens only, so nothing inside code, links or headings is ever linked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

from rulesc.analyze.lint import INERT, texts
from rulesc.analyze.program import LINK, VALUE, Program, show
from rulesc.analyze.terms import shields, term_keys, term_of, term_pattern
from rulesc.emit.context import emit_context
from rulesc.emit.site.links import rule_href, term_href
from rulesc.kinds import mid_sentence
from rulesc.model import Rule, Term, Text

SAFE_SCHEMES = ("http://", "https://", "mailto:")
PREVIEW_CHARS = 220
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(])")
# What ends the text before a word that starts a sentence: its punctuation, or a line's list or heading marker.
SENTENCE_BEFORE = re.compile(r"[.!?:][\"')\]\u2019\u201d]*$|(?:^|\n)[ \t]*(?:[-*+>]|[0-9]+[.)]|#+)$")
TAIL = 80  # how much text before a link decides whether the link starts a sentence


@dataclass
class Section:
    """One section of a page: where links are written from and which terms it has already linked."""

    page: str
    owner: str | None = None
    seen: set[str] = field(default_factory=set)
    heading: int = 4  # the level a text's own top heading gets: one below the heading of the rule it sits under


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.disable("image")
    return md


class Markup:
    """Renders one system's texts; built once per program so term patterns and values are indexed once."""

    def __init__(self, program: Program):
        self.program = program
        self.md = _parser()
        self.values = {k: v for rule in program.rules.values() for k, v in rule.values}
        self.terms = term_keys(program.system.terms)
        self.pattern = term_pattern(program.system.terms, _shields(program))
        self._previews: dict[tuple[str, str], str] = {}
        self._attributes: dict[tuple[str, str], str] = {}  # the previews escaped for an attribute
        self._link_tails: dict[str, str] = {}  # rule_link() after the address, by rule id
        self._plain: dict[str, str] = {}
        self._parsed: dict[str, list[Token] | Paragraphs] = {}  # parses plain() made that block() has not taken
        self._refs: list[tuple[str, str | None]] = []  # the [[references]] parked by _protect, by number
        self._parked_values: list[str] = []  # the {{values}} _protect parked, by number
        self._common: set[str] | None = None  # the terms the text types in lower case inside sentences (once asked)

    def block(self, text: Text | str, section: Section) -> str:
        """Text as HTML blocks (paragraphs, lists, tables)."""
        parsed = self._tokens(_source(text))
        if isinstance(parsed, tuple):  # prose: written as markdown-it renders its paragraph tokens
            return "\n".join("<p>" + "\n".join(self._html(line, section, False, lines[i - 1] if i else "")
                                                for i, line in enumerate(lines)) + "</p>" for lines in parsed)
        self._rewrite(parsed, section)
        return str(self.md.renderer.render(parsed, self.md.options, {})).strip()

    def inline(self, text: Text | str, section: Section) -> str:
        """Text as inline HTML, for a list item or a table cell."""
        tokens = self.md.parseInline(self._protect(" ".join(_source(text).split())))
        self._rewrite(tokens, section)
        return str(self.md.renderer.render(tokens, self.md.options, {})).strip()

    @classmethod
    def of(cls, program: Program) -> Markup:
        """The program's one Markup, shared by the pages and the search records so each text is parsed once."""
        context = emit_context(program)
        if not isinstance(context.markup, Markup):
            context.markup = cls(program)
        return context.markup

    def plain(self, text: Text | str) -> str:
        """Text without markup: links become their labels, values their shown value."""
        source = _source(text)
        found = self._plain.get(source)
        if found is None:
            found = self._plain[source] = self._render_plain(source)
        return found

    def _tokens(self, source: str) -> list[Token] | Paragraphs:
        """A text's tokens (or prose paragraphs) for block(), each text parsed once: a parse plain() made earlier
        is taken over, and a new parse gives plain() its text before block() rewrites the tokens."""
        parsed = self._parsed.pop(source, None)
        if parsed is None:
            parsed = self._parse(source)
            if source not in self._plain:
                self._plain[source] = self._text_of(parsed)
        return parsed

    def _render_plain(self, source: str) -> str:
        parsed = self._parsed[source] = self._parse(source)
        return self._text_of(parsed)

    def _parse(self, source: str) -> list[Token] | Paragraphs:
        protected = self._protect(source)
        found = prose_paragraphs(protected)
        return found if found is not None else self.md.parse(protected)

    def _text_of(self, parsed: list[Token] | Paragraphs) -> str:
        if isinstance(parsed, tuple):
            plain = PLACEHOLDER.sub(self._plain_label, " ".join(self._fill(line) for lines in parsed for line in lines))
            return " ".join(plain.split())
        tokens = parsed
        parts: list[str] = []
        for token in tokens:
            for child in token.children or ():
                if child.type in ("text", "code_inline"):
                    parts.append(self._fill(child.content) if child.type == "text" else child.content)
                elif child.type in ("softbreak", "hardbreak"):
                    parts.append(" ")
            if token.type.endswith("_close") and token.block:
                parts.append(" ")
        plain = PLACEHOLDER.sub(self._plain_label, "".join(parts))
        return " ".join(plain.split())

    def _protect(self, source: str) -> str:
        """[[references]] swapped for numbered placeholders before parsing.

        markdown-it tries every '[' as the start of a link and rescans nested brackets, which made [[links]] the
        most expensive part of page generation; a placeholder of digits between private-use characters is plain
        text to it and is never split across tokens.

        {{values}} whose names CommonMark could read as emphasis (`{{__all__}}`) are parked the same way, in their own
        placeholders, and filled in with the text around them.
        """
        def park(match: re.Match[str]) -> str:
            self._refs.append((match.group(1).strip(), match.group(2)))
            return f"\ue000{len(self._refs) - 1}\ue001"

        def park_value(match: re.Match[str]) -> str:
            if _PLAIN_VALUE.fullmatch(match.group(0)):
                return match.group(0)
            self._parked_values.append(match.group(1))
            return f"\ue002{len(self._parked_values) - 1}\ue003"

        if "{{" in source:
            source = VALUE.sub(park_value, source)
        return LINK.sub(park, source) if "[[" in source else source

    def _plain_label(self, match: re.Match[str]) -> str:
        """What a [[reference]] reads as in plain text: its label, or its target's name as the sentence has it."""
        target, label = self._refs[int(match.group(1))]
        return label or self._name(target, _starts_sentence(match.string[max(0, match.start() - TAIL):match.start()]))

    def preview_rule(self, rule: Rule) -> str:
        """The short text a link to the rule shows on hover; worked out once per rule, however many links."""
        key = ("rule", rule.id)
        if key not in self._previews:
            kind = mid_sentence(self.program.system.kind(rule.kind).label)
            self._previews[key] = f"{rule.name} ({kind}): {_first_sentence(self.plain(rule.text))}"
        return self._previews[key]

    def rule_link(self, target: str, page: str) -> str:
        """A link from `page` to the rule with id or alias `target`, with its preview, as the pages and index tables
        write one (just the id if no rule has it); all but the address is worked out once per rule, as a rule is
        linked from many places."""
        rule = self.program.rules.get(self.program.aliases.get(target, target))
        if rule is None:
            return escape(target)
        tail = self._link_tails.get(rule.id)
        if tail is None:
            preview = escape(self.preview_rule(rule))
            tail = self._link_tails[rule.id] = (f'" class="rulesc-ref rulesc-ref--rule" '
                                                f'data-rulesc-preview="{preview}">{escape(rule.name)}</a>')
        return f'<a href="{rule_href(self.program.system, rule, page)}{tail}'

    def term_link(self, term: Term, label: str, page: str) -> str:
        """A link from `page` to a glossary term, showing `label`, with the term's preview and, where a rule defines
        the term, that rule's address and name (the term's card on a phone links to the rule: one tap)."""
        rule = self.program.rules.get(self.program.aliases.get(term.rule, term.rule)) if term.rule else None
        defined = "" if rule is None else (
            f' data-rulesc-rule="{escapeHtml(rule_href(self.program.system, rule, page))}"'
            f' data-rulesc-rule-name="{escapeHtml(rule.name)}"')
        return _link(term_href(self.program.system, term, page), label, "term", self._preview_attribute(term),
                     defined)

    def preview_term(self, term: Term) -> str:
        key = ("term", term.id)
        if key not in self._previews:
            self._previews[key] = f"{term.name}: {_first_sentence(self.plain(term.definition))}"
        return self._previews[key]

    def _name(self, target: str, first: bool) -> str:
        found = self.program.resolve(target)
        return self._shown_name(found, first) if found is not None else target

    def _fill(self, text: str) -> str:
        if "\ue002" in text:
            text = PARKED_VALUE.sub(lambda m: self._value(self._parked_values[int(m.group(1))]), text)
        return VALUE.sub(lambda m: self._value(m.group(1)), text) if "{{" in text else text  # most pieces have none

    def _value(self, name: str) -> str:
        value = self.values.get(name)
        if value is None:
            return name
        return value if isinstance(value, str) else show(value)

    def _rewrite(self, tokens: list[Token], section: Section) -> None:
        in_heading = False
        top = min((int(t.tag[1]) for t in tokens if t.type == "heading_open"), default=1)
        for token in tokens:
            if token.type == "heading_open" or token.type == "heading_close":
                in_heading = token.type == "heading_open"
                # a text's headings sit right below its rule's heading, whatever level the text starts them at
                token.tag = f"h{min(6, int(token.tag[1]) - top + section.heading)}"
            if token.type == "inline" and token.children is not None:
                token.children = list(self._inline(token.children, section, in_heading))

    def _inline(self, children: list[Token], section: Section, in_heading: bool) -> Iterator[Token]:
        in_link = dropped = False
        before = ""  # the end of the text so far, to tell a link that starts a sentence
        for child in children:
            if child.type == "link_open":
                dropped = not str(child.attrGet("href") or "").lower().startswith(SAFE_SCHEMES)
                in_link = True
                if not dropped:
                    child.attrSet("rel", "noopener")
                    yield child
            elif child.type == "link_close":
                in_link = False
                if not dropped:
                    yield child
            elif child.type == "text":
                yield from self._text(child.content, section, in_link or in_heading, before)
                before = (before + child.content)[-TAIL:]
            else:
                before = (before + (child.content if child.type == "code_inline" else " "))[-TAIL:]
                yield child

    def _text(self, content: str, section: Section, inert: bool, before: str) -> Iterator[Token]:
        """A text token as one html_inline token (see _html)."""
        token = Token("html_inline", "", 0)
        token.content = self._html(content, section, inert, before)
        yield token

    def _html(self, content: str, section: Section, inert: bool, before: str) -> str:
        """Text as HTML with its links: [[references]] always, defined terms unless inert.

        The HTML is written here, escaped as markdown-it's text and attribute rules escape, and handed to the
        renderer as one html_inline token: a token per link and per piece of text between links cost more than
        the rest of the rendering."""
        parts: list[str] = []
        position = 0
        for match in PLACEHOLDER.finditer(content):
            self._terms(parts, self._fill(content[position:match.start()]), section, inert)
            start = match.start()
            ahead = content[start - TAIL:start] if start >= TAIL else (before + content[:start])[-TAIL:]
            parts.append(self._reference(*self._refs[int(match.group(1))], section, inert, _starts_sentence(ahead)))
            position = match.end()
        self._terms(parts, self._fill(content[position:]), section, inert)
        return "".join(parts)

    def _reference(self, target: str, label: str | None, section: Section, inert: bool, first: bool) -> str:
        found = self.program.resolve(target)
        shown = self._fill(label) if label else (self._shown_name(found, first) if found is not None else target)
        if found is None or inert:
            return escapeHtml(shown)
        if isinstance(found, Rule):
            url = rule_href(self.program.system, found, section.page)
            return _link(url, shown, "rule", self._preview_attribute(found))
        section.seen.add(found.id)
        return self.term_link(found, shown, section.page)

    def _terms(self, parts: list[str], content: str, section: Section, inert: bool) -> None:
        """Appends `content` to parts as HTML, its defined terms linked unless inert; a match that names no term
        is a rule's name or a declared phrase, and what it covers stays as written."""
        position = 0
        if not inert and self.pattern is not None:
            for match in self.pattern.finditer(content):
                term = self._term_of(match)
                if term is None or not self._links(term, section):
                    continue
                section.seen.add(term.id)
                parts.append(escapeHtml(content[position:match.start()]))
                parts.append(self.term_link(term, match.group(0), section.page))
                position = match.end()
        parts.append(escapeHtml(content[position:]))

    def _shown_name(self, target: Rule | Term, first: bool) -> str:
        """The name a [[link]] without a label shows: a rule's name as named; a term's too, but inside a sentence
        in the case the system's own text types it there ("make an action roll" where the text writes "take
        action" more often than "take Action"), so a link reads as the words around it."""
        name = target.name
        if first or isinstance(target, Rule) or not name[:1].isupper():
            return name
        if self._common is None:
            self._common = common_nouns(self.program, self.pattern, self.terms)
        return name[0].lower() + name[1:] if target.id in self._common else name

    def _preview_attribute(self, target: Rule | Term) -> str:
        """The target's preview escaped for a data-rulesc-preview attribute, once per target."""
        key = (type(target).__name__, target.id)
        found = self._attributes.get(key)
        if found is None:
            preview = self.preview_rule(target) if isinstance(target, Rule) else self.preview_term(target)
            found = self._attributes[key] = escapeHtml(preview)
        return found

    def _term_of(self, match: re.Match[str]) -> Term | None:
        return term_of(self.terms, match.group(0))

    def _links(self, term: Term, section: Section) -> bool:
        """Link a term once per section, never from its own entry or the rule that defines it."""
        return term.id not in section.seen and section.owner not in (term.id, term.rule)


def _shields(program: Program) -> set[str]:
    """The rule names and declared phrases a term is never linked inside (see shields)."""
    names = [(rule.name, rule.id) for rule in program.system.rules()]
    return shields(program.system.terms, [*names, *((phrase, None) for phrase in program.system.phrases)])


PLACEHOLDER = re.compile("\ue000([0-9]+)\ue001")
PARKED_VALUE = re.compile("\ue002([0-9]+)\ue003")


# What prose_paragraphs leaves to markdown-it: a character some CommonMark rule acts on (escapes, code, emphasis,
# links, HTML, entities, strikethrough, table pipes) or any whitespace but space and newline (what \s also
# matches: controls, NEL, no-break and other Unicode spaces); a line that starts with a block marker or a digit
# (a list) or is indented as code; a hard break (two spaces at a line's end). Three searches: one pattern with
# all of it tried every alternative at every character and cost more than the markdown-it it saves.
_NOT_PROSE_CHARACTER = re.compile("[\\\\`*_\\[\\]<>&~|\x00-\x09\x0b-\x1f\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029"
                                  "\u202f\u205f\u3000]")
_NOT_PROSE_LINE = re.compile(r"(?:^|\n)(?: {0,3}[#>+*=\-0-9]| {4})")
_HARD_BREAK = re.compile(r"[^ \n]  +\n")
# {{values}} whose names have underscores only between letters or digits: CommonMark never takes those for emphasis.
_PLAIN_VALUE = re.compile(r"\{\{ *[A-Za-z0-9]+(?:_[A-Za-z0-9]+)* *\}\}")
_BLANK_LINES = re.compile(r"\n(?: *\n)+")


Paragraphs = tuple[tuple[str, ...], ...]  # prose: paragraphs of lines


def prose_paragraphs(text: str) -> Paragraphs | None:
    """Text that is only paragraphs of prose, as its paragraphs' lines; None for anything else.

    Most rule text is plain sentences, [[references]] (already placeholders here) and {{values}}, for which
    markdown-it's block and inline rules all decline, character by character, and end with a paragraph per
    blank-line-separated block: a text token per line (its spaces trimmed) and a soft break between lines. Markup
    writes prose straight from the lines; tests/test_markup.py checks, for every bundled and synthetic text,
    that those tokens render exactly as markdown-it's own parse, and that Markup's HTML and plain text are
    exactly what markdown-it's parse gives once rewritten and rendered.
    """
    masked = _PLAIN_VALUE.sub("v", text) if "{" in text else text
    if _NOT_PROSE_CHARACTER.search(masked) or _NOT_PROSE_LINE.search(masked) or \
            ("  \n" in masked and _HARD_BREAK.search(masked)):
        return None
    return tuple(tuple(line.strip(" ") for line in paragraph.split("\n"))
                 for paragraph in _BLANK_LINES.split(text.strip(" \n")) if paragraph.strip(" "))


def _starts_sentence(before: str) -> bool:
    """Whether a link after the text `before` (at most TAIL characters of it) starts a sentence: it opens its block,
    or follows '.', '!', '?' or ':'."""
    tail = before.rstrip()
    return not tail and len(before) < TAIL or SENTENCE_BEFORE.search(tail) is not None


def common_nouns(program: Program, pattern: re.Pattern[str] | None, keys: dict[str, Term]) -> set[str]:
    """The ids of the terms that the system's text, where it types a term's name (or its plural) inside a
    sentence, types with a small first letter more often than with a capital: common nouns, not proper names."""
    votes: dict[str, int] = {}
    for text in texts(program):
        blanked = INERT.sub(lambda m: " " * len(m.group(0)), text.source)
        for match in pattern.finditer(blanked) if pattern is not None else ():
            term, typed = term_of(keys, match.group(0)), match.group(0)
            if term is None or not typed.casefold().startswith(term.name.casefold()):
                continue
            if typed[0].islower():
                votes[term.id] = votes.get(term.id, 0) + 1
            elif not _starts_sentence(blanked[max(0, match.start() - TAIL):match.start()]):
                votes[term.id] = votes.get(term.id, 0) - 1
    return {term_id for term_id, vote in votes.items() if vote > 0}


def _source(text: Text | str) -> str:
    return text.source if isinstance(text, Text) else text


def _first_sentence(text: str) -> str:
    sentence = SENTENCE_END.split(text, maxsplit=1)[0]
    return sentence if len(sentence) <= PREVIEW_CHARS else sentence[: PREVIEW_CHARS - 1].rstrip() + "\u2026"


def _link(url: str, label: str, kind: str, preview: str, more: str = "") -> str:
    """A link as the renderer writes a link_open with these attributes (the preview already escaped, `more` written
    out whole), its text, and link_close."""
    return (f'<a href="{escapeHtml(url)}" class="rulesc-ref rulesc-ref--{kind}" data-rulesc-preview="{preview}"'
            f"{more}>{escapeHtml(label)}</a>")
