"""Notes on a rule's page: what a variant (house rule, optional rule, homebrew) changed, and the rule's history."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape

from rulesc.analyze.variants import SYSTEM_KEY, VariantMark
from rulesc.emit.site.markup import Markup


@dataclass(frozen=True)
class PageNotes:
    """By rule id: the marks of the variants applied, and the rule's history lines (newest first)."""

    marks: Mapping[str, tuple[VariantMark, ...]] = field(default_factory=dict)
    history: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


NO_NOTES = PageNotes()


def rule_notes(notes: PageNotes, rule_id: str, markup: Markup) -> str:
    """The HTML shown under a rule's heading: a marker per variant that changed it, then its history."""
    parts = [_mark(mark, markup) for mark in notes.marks.get(rule_id, ())]
    lines = notes.history.get(rule_id, ())
    if lines:
        items = "".join(f"<li>{history_html(line)}</li>" for line in lines)
        parts.append(f'<details class="rulesc-history"><summary>History ({len(lines)} '
                     f'change{"s" if len(lines) != 1 else ""})</summary><ul>{items}</ul></details>')
    return "\n".join(parts)


def variants_applied(notes: PageNotes, markup: Markup) -> str:
    """For a system's landing page: a box per variant the build applied, with its summary and removed rules."""
    return rule_notes(PageNotes(notes.marks), SYSTEM_KEY, markup)


LINK = re.compile(r"\[\[([^\[\]|]+)(?:\|([^\[\]]+))?\]\]")  # linear, as analyze/program.py's
VALUE = re.compile(r"\{\{\s*+((?:[^{}\s]++|\s++(?=[^{}\s]))++)\s*+\}\}")


def history_html(line: str) -> str:
    """A history line, escaped, its removed words struck through and its added words marked. A link or value
    in a reworded text shows as words (its label, or its id or name spelled out), never as raw markup."""
    words = VALUE.sub(lambda m: m.group(1).replace("_", " ").strip(), LINK.sub(_link_words, line))
    return _marked(_marked(escape(words, quote=False), "[-", "-]", "del"), "{+", "+}", "ins")


def _marked(text: str, opening: str, closing: str, tag: str) -> str:
    """`text` with each run from `opening` to the next `closing` (the word diffs of history lines: [-removed-]
    {+added+}) as an HTML element. One pass left to right: where no `closing` follows, none follows a later
    `opening` either, so text of many unclosed openings costs one search, not one per opening (a lazy regex
    tried each to the end of the line: 10 s for 8,000 of them)."""
    parts: list[str] = []
    position = 0
    while (start := text.find(opening, position)) != -1:
        end = text.find(closing, start + len(opening))
        if end == -1:
            break
        parts += [text[position:start], f"<{tag}>", text[start + len(opening):end], f"</{tag}>"]
        position = end + len(closing)
    return "".join(parts) + text[position:]


def _link_words(found: re.Match[str]) -> str:
    return found.group(2) or found.group(1).replace("-", " ")


def _mark(mark: VariantMark, markup: Markup) -> str:
    what = {"added": "Not in the base rules: added by this variant.",
            "replaced": "Replaces the base rule of the same name and link.",
            "applied": f"Applied to this build of the rules: {escape(markup.plain(mark.summary))}"}.get(
        mark.what, "Changes the base rule.")
    body = [f'<p class="admonition-title">{escape(mark.label)}</p>', f"<p>{what}</p>"]
    if mark.changes:
        body.append("<ul>" + "".join(f"<li>{escape(c)}</li>" for c in mark.changes) + "</ul>")
    if mark.base_text is not None:
        body.append(f'<details class="rulesc-base"><summary>The base rule: {escape(mark.base_name or "")}</summary>'
                    f"<p>{escape(markup.plain(mark.base_text))}</p></details>")
    return (f'<div class="admonition note rulesc-variant" data-variant="{escape(mark.variant)}">'
            + "".join(body) + "</div>")
