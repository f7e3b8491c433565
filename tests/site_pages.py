"""Where a rule's page is in a built project: the tests' one way to find it, as the site's addresses make it."""

from __future__ import annotations

from pathlib import Path

from rulesc.analyze.program import Program
from rulesc.emit.site.links import rule_page, url_of


def rule_html(root: Path, program: Program, rule_id: str) -> Path:
    """The built site's HTML file holding the rule."""
    return root / "site" / url_of(rule_page(program.system, program.rules[rule_id])) / "index.html"
