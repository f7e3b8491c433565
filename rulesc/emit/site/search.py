"""Search emitter: a Pagefind record per rule, term, calculator and roll table row, the search page, and the indexing
plugin.

Pagefind writes a chunked index: a page loads a few kilobytes of entry code only when the reader starts a search,
then only the index chunks and fragments a query needs (see benchmarks/site_payload.py for the figures against
Material's lunr index, which ships whole). The records are written beside the docs as `.search/records.json`
(site builders leave dot-folders out of the site); `rulesc build` turns them into `site/pagefind/` after the site
builder ran (MkDocs or Zensical), and the MkDocs plugin does the same after MkDocs' own builds (`rulesc serve`).
"""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any, TypedDict

from mkdocs.config.base import LegacyConfig
from mkdocs.plugins import BasePlugin

from rulesc.analyze.program import Program
from rulesc.emit.site.fragments import front, html_block
from rulesc.emit.site.links import calculator_anchor, glossary_path, gm_calculator_page, rule_page, url_of
from rulesc.emit.site.markup import Markup
from rulesc.emit.site.page_styles import LivePages, served_under
from rulesc.emit.site.pagefind_index import run_pagefind
from rulesc.emit.site.roll_tables import roll_rules, row_text, row_title, row_url
from rulesc.emit.site.tables import table_kinds
from rulesc.emit.site.theme import with_rulesc_theme
from rulesc.emit.writer import json_array, json_text
from rulesc.kinds import OWN_ENTRIES, mid_sentence
from rulesc.model import Calculator, Rule, Term

RECORDS = ".search/records.json"
CRUMB = " \u203a "  # between the parts of a hit's place: system > chapter > parent rules
INDEX_FOLDER = "pagefind"


class SearchRecord(TypedDict):
    """A rule, a term, a calculator or a roll table's row as search finds it: a line of the records file, and one
    page of Pagefind's index."""

    url: str
    title: str
    names: list[str]  # the title first (a row: its text), then the abbreviations and aliases
    kind: str  # the rule's kind as its system words one (mid-sentence: move), "term", "calculator" or "row"
    system: str
    text: str
    crumbs: list[str]  # where it sits: the system, the chapter (or the glossary, the GM screen), the parent rules
    same_as: str  # a term named as the rule it explains: that rule's url (one search hit for both), else ""


def emit_search_records(records: list[str]) -> dict[str, str]:
    """The records file, from every system's record_texts(): a JSON array, a record a line."""
    return {RECORDS: json_array(records, 0) + "\n"}


def record_texts(program: Program) -> list[str]:
    """The system's search records (a rule, a term, a calculator or a roll table's row each), each as its line of
    JSON."""
    markup = Markup.of(program)
    rules = [_rule_record(program, markup, rule) for rule in program.system.rules()]
    records = rules + [_term_record(program, markup, term) for term in program.system.terms]
    records += [_calculator_record(program, rule, calc) for rule in program.system.rules() for calc in rule.calculators]
    records += [_row_record(program, markup, rule, row) for rule in roll_rules(program)
                for row in range(len(rule.table.rows) if rule.table else 0)]
    return [json_text(record, 0, sort_keys=True) for record in records]


def _rule_record(program: Program, markup: Markup, rule: Rule) -> SearchRecord:
    texts = [markup.plain(text) for text in rule.texts()]  # its text, list items, trigger and outcomes
    crumbs = [program.system.title, _chapter_title(program, rule.chapter), *_ancestors(program, rule)]
    kind = mid_sentence(program.system.kind(rule.kind).label)
    return {"url": _rule_url(program, rule), "title": rule.name, "names": [rule.name], "kind": kind,
            "system": program.system.id, "text": " ".join(texts),
            "crumbs": crumbs, "same_as": ""}


def _rule_url(program: Program, rule: Rule) -> str:
    return url_of(rule_page(program.system, rule)) + f"#{rule.id}"


def _chapter_title(program: Program, chapter_id: str) -> str:
    return next((c.title for c in program.system.chapters if c.id == chapter_id), chapter_id)


def _ancestors(program: Program, rule: Rule) -> list[str]:
    """The names of the rule's parent, its parent's parent and so on, outermost first (a cycle stops the walk)."""
    names: list[str] = []
    seen = {rule.id}
    while rule.parent and rule.parent in program.rules and rule.parent not in seen:
        rule = program.rules[rule.parent]
        seen.add(rule.id)
        names.insert(0, rule.name)
    return names


def _term_record(program: Program, markup: Markup, term: Term) -> SearchRecord:
    rule = program.rules.get(term.rule) if term.rule else None
    same = rule is not None and rule.name.casefold() == term.name.casefold()
    return {"url": url_of(glossary_path(program.system)) + f"#{term.id}", "title": term.name,
            "names": [term.name, *term.abbreviations, *term.aliases], "kind": "term", "system": program.system.id,
            "text": markup.plain(term.definition),
            "crumbs": [program.system.title, "Glossary"], "same_as": _rule_url(program, rule) if rule and same else ""}


def _calculator_record(program: Program, rule: Rule, calc: Calculator) -> SearchRecord:
    """A calculator, found by its title and pointing at its place on the GM screen; the text names its rule and
    what it asks and answers."""
    labels = [param.label for param in calc.inputs] + [output.label for output in calc.outputs]
    return {"url": url_of(gm_calculator_page(program.system, calc.id)) + f"#{calculator_anchor(calc.id)}",
            "title": calc.title, "names": [calc.title], "kind": "calculator", "system": program.system.id,
            "text": f"Calculator for {rule.name}: {', '.join(labels)}." if labels else f"Calculator for {rule.name}.",
            "crumbs": [program.system.title, "GM screen", _chapter_title(program, rule.chapter)], "same_as": ""}


def _row_record(program: Program, markup: Markup, rule: Rule, row: int) -> SearchRecord:
    """A roll table's row, named by its table, key and text ("Action oracle · 01-05 · Scheme") and found by its
    text first (its name), then by its table's name (a parent): a search for the table lists the table above its
    rows."""
    assert rule.table is not None
    text = row_text(markup, rule.table, row)
    crumbs = [program.system.title, _chapter_title(program, rule.chapter), *_ancestors(program, rule), rule.name]
    return {"url": row_url(program, rule, row), "title": row_title(rule, row, markup), "names": [text],
            "kind": "row", "system": program.system.id, "text": text, "crumbs": crumbs, "same_as": ""}


def search_pages(records: list[SearchRecord]) -> list[tuple[SearchRecord, list[SearchRecord]]]:
    """One search hit per thing: each record with the terms merged into it (a term named as its rule is found as
    that rule, its abbreviations and definition included), in the records' order."""
    by_url = {r["url"]: r for r in records if r["kind"] != "term"}
    merged: dict[str, list[SearchRecord]] = {}
    for record in records:
        if record["same_as"] in by_url:
            merged.setdefault(record["same_as"], []).append(record)
    return [(r, merged.get(r["url"], [])) for r in records if r["same_as"] not in by_url]


def record_html(record: SearchRecord, terms: Sequence[SearchRecord] = ()) -> str:
    """A record as the HTML Pagefind indexes: names weigh most, then its parent rules, then the text; system and kind
    are filters. Terms merged into it add their names, their definitions and the kind "term". The text is also
    metadata: site.js cuts the result's snippet from it, so a snippet never shows the names or parents. The address
    and the whole place (system, chapter, parents) are metadata only, coded so that no query matches them."""
    names = [*record["names"], *(n for t in terms for n in t["names"] if n not in record["names"])]
    kinds = [record["kind"], *(["term"] if terms else [])]
    text = " ".join([record["text"], *(t["text"] for t in terms)])
    parents = " ".join(escape(c) for c in record["crumbs"][2:])
    titled = names[0] == record["title"]  # else the hit is found by its first name and shown by its title (a row)
    heading = ' data-pagefind-meta="title"' if titled else ""
    return (f'<html lang="en"><body data-pagefind-filter="system:{escape(record["system"])}">'
            f'<h1 data-pagefind-weight="10"{heading}>{escape(names[0])}</h1>'
            f'<p data-pagefind-weight="9">{" ".join(escape(n) for n in names[1:])}</p>'
            + "".join(f'<span data-pagefind-filter="kind:{escape(k)}"></span>' for k in kinds)
            + f'<p data-pagefind-weight="2">{parents}</p>'
            + _hidden_meta({**({} if titled else {"title": record["title"]}), "href": coded(record["url"]),
                            "names": "|".join(names), "text": text, "crumbs": coded(CRUMB.join(record["crumbs"])),
                            "what": coded(hit_what(kinds))})
            + f'<div data-pagefind-weight="1">{escape(text)}</div></body></html>')


KIND_WORDS = {kind: hit for kind, (hit, _) in OWN_ENTRIES.items()}
"""What a record that is not a rule is, in words; a rule is its kind in the system's words ("Maneuver"), which may
not be one of these (E0344)."""


def hit_what(kinds: Sequence[str]) -> str:
    """What a hit is, in words, for the line under its name: "Maneuver", "General rule", "Calculator", "Glossary
    term", or "Maneuver and glossary term" for a rule its term was merged into."""
    first = KIND_WORDS.get(kinds[0]) or kinds[0][:1].upper() + kinds[0][1:]
    return first + "".join(f" and {KIND_WORDS.get(k, k).lower()}" for k in kinds[1:])


def coded(value: str) -> str:
    """A value kept out of search: Pagefind matches a query in metadata too, so a hit's address and place are
    base64 (site.js decodes them). Plain, a part's folder (its first rule's id) or the system's and chapter's titles
    would make every rule on that page, in that system or chapter, match those words."""
    return base64.b64encode(value.encode("utf-8")).decode("ascii")


def _hidden_meta(meta: dict[str, str]) -> str:
    """Metadata in elements kept out of the page's indexed text (an element's text may hold commas, unlike an
    attribute's value); Pagefind still matches queries in metadata, so a value that must not match is coded()."""
    return "".join(f'<p data-pagefind-meta="{key}" data-pagefind-ignore hidden>{escape(value)}</p>'
                   for key, value in meta.items())


def write_index(docs_dir: Path, site_dir: Path) -> int:
    """Index the records the pages emitter wrote into site/pagefind/, a page per thing (see search_pages); returns
    how many pages were indexed."""
    records: list[SearchRecord] = json.loads((docs_dir / RECORDS).read_text(encoding="utf-8"))  # from record_texts
    pages = search_pages(records)
    html = {f"{i:06d}.html": record_html(record, terms) for i, (record, terms) in enumerate(pages)}
    run_pagefind(html, site_dir / INDEX_FOLDER)
    return len(pages)


def search_kinds(program: Program) -> list[tuple[str, str]]:
    """The kinds of rule the system has, calculators if it has any and table rows if it has roll tables, for the
    search page's filter: each as its records name one (the filter's value) and as the filter names several."""
    calculators = [_own("calculator")] if any(rule.calculators for rule in program.system.rules()) else []
    rows = [_own("row")] if roll_rules(program) else []
    kinds = [program.system.kind(kind) for kind, _ in table_kinds(program)]
    return [(mid_sentence(kind.label), mid_sentence(kind.plural)) for kind in kinds] + calculators + rows


def _own(kind: str) -> tuple[str, str]:
    """One of search's own kinds of entry as its filter has it: the records' kind and the filter's word."""
    return kind, OWN_ENTRIES[kind][1]


def search_page(systems: list[tuple[str, str]], rule_kinds: set[tuple[str, str]]) -> str:
    """The search page, filtering by the systems (id, title) and by the kinds of rule all of them have."""
    w = front("Search", "content/", "Search every rule, term and calculator by name, abbreviation or text.")
    w.writeline("# Search")
    w.writeline()
    kinds = sorted(dict(sorted(rule_kinds)).items()) + [_own("term")]  # one box per word, however many systems
    html_block(w, "rulesc-search", "\n".join([
        '<form class="rulesc-search__form" role="search" action="./">',
        '<label for="rulesc-search-q">Rule name, abbreviation or words of its text</label>',
        '<input id="rulesc-search-q" name="q" type="search" autocomplete="off" spellcheck="false">',
        _facet("system", "System", systems), _facet("kind", "Kind of rule", kinds),
        "</form>",
        '<p class="rulesc-search__status" role="status" aria-live="polite">Search needs JavaScript and the site '
        'served over HTTP; without them, browse from the <a href="../">home page</a>.</p>',
        '<ol class="rulesc-search__results"></ol>']))
    return w.getvalue()


def _facet(name: str, legend: str, options: list[tuple[str, str]]) -> str:
    boxes = "".join(f'<label><input type="checkbox" name="{name}" value="{escape(value)}"> {escape(label)}</label>'
                    for value, label in options)
    return f'<fieldset class="rulesc-search__facet"><legend>{escape(legend)}</legend>{boxes}</fieldset>'


_PENDING: list[threading.Thread] = []
_INDEXING = threading.Lock()


def index_in_background(docs_dir: Path, site_dir: Path) -> None:
    """Start write_index() in a thread (a preview shows the edited page at once; search catches up after it)."""
    if not (docs_dir / RECORDS).is_file():
        return
    indexing = threading.Thread(target=_index, args=(docs_dir, site_dir), name="rulesc-search-index")
    _PENDING.append(indexing)
    indexing.start()


def _index(docs_dir: Path, site_dir: Path) -> None:
    with _INDEXING:
        write_index(docs_dir, site_dir)


def wait_for_search_index() -> None:
    """Block until every search index started in the background has been written."""
    while _PENDING:
        _PENDING.pop().join()


# LegacyConfig is BasePlugin's own default config class: this plugin has no options.
class PagefindPlugin(BasePlugin[LegacyConfig]):  # type: ignore[no-untyped-call]  # mkdocs's __init_subclass__ is untyped
    """MkDocs plugin `rulesc-search`: gives MkDocs rulesc's theme overrides, and indexes the search records after
    MkDocs alone built the site (`rulesc serve`'s live rebuilds, a plain `mkdocs build` on build/docs/); under
    `serve` it also puts each page's styles inline. `rulesc build` indexes the site and inlines its styles itself,
    after whichever builder ran, and turns `indexing` off."""

    background = False
    indexing = True
    live: LivePages | None = None  # under `serve`: each page's styles inline, as `rulesc build` writes them

    def on_config(self, config: Any) -> Any:
        """rulesc's theme overrides under the project's own custom_dir, so `mkdocs serve` needs no copy of them."""
        config["theme"].dirs = with_rulesc_theme(config["theme"].dirs, config["theme"].custom_dir)
        return config

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Under `serve`, index in the background: the edited page is shown at once, search catches up."""
        self.background = command == "serve"
        self.live = LivePages() if command == "serve" else None

    def on_post_page(self, output: str, *, page: Any, config: Any) -> str:
        """Under `serve`, the page's stylesheets inline (`rulesc build` inlines the whole site after the builder)."""
        return self._inlined(Path(page.file.abs_dest_path), output, config)

    def on_post_template(self, output: str, *, template_name: str, config: Any) -> str:
        """The same for a page of the theme's own (404.html)."""
        return self._inlined(Path(config["site_dir"]) / template_name, output, config) \
            if template_name.endswith(".html") else output

    def _inlined(self, path: Path, output: str, config: Any) -> str:
        if self.live is None:
            return output
        return self.live.page(Path(config["site_dir"]), served_under(config["site_url"]), path, output)

    def on_post_build(self, *, config: Any) -> None:
        docs, site = Path(config["docs_dir"]), Path(config["site_dir"])
        if self.live is not None:
            self.live.built(site, served_under(config["site_url"]))
        if not self.indexing or not (docs / RECORDS).is_file():
            return
        if self.background:
            index_in_background(docs, site)
        else:
            _index(docs, site)
