"""check's output formats (human, colour, GitHub annotations, JSON), warnings and --strict, and the error catalog."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest

from rulesc.analyze.lint import lint
from rulesc.build.navigation import compiled_nav
from rulesc.build.site_config import read_settings, site_config_problems
from rulesc.diagnostics.catalog import BASE, CATALOG, SECTIONS, FileText, Generated, Placed
from rulesc.diagnostics.core import ContentError, Diagnostic, Span
from rulesc.diagnostics.report import github, human, use_colour
from rulesc.emit.site.errors_page import emit_errors_page, section_path
from rulesc.pipeline import Compiled, Project, check_variants, compile_project
from tests.run_case import run_rulesc

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "tests" / "cases"
SEVERAL = str(CASES / "bad" / "several-errors")
MINIMAL = str(CASES / "good" / "minimal")


def write_project(root: Path, overlay: dict[str, FileText]) -> Path:
    """The catalog's base project with `overlay` laid over it (None removes a file or folder)."""
    for relative, text in {**BASE, **overlay}.items():
        target = root / relative
        if text is None:
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, Placed):
            target.unlink(missing_ok=True)
            text.place(target)
            continue
        data = text.make() if isinstance(text, Generated) else text
        target.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return root


def codes_of(root: Path) -> list[str]:
    """The codes `rulesc check --strict` would report: errors of the first failing stage, else the warnings."""
    try:
        compiled = compile_project(Project(root))
    except ContentError as exc:
        return [d.code for d in exc.diagnostics]
    broken = check_variants(Project(root))  # rulesc check checks every variant against its base
    if broken:
        return [d.code for d in broken]
    if (root / "mkdocs.yml").is_file():  # the site's settings, as `rulesc build` checks them
        return [d.code for d in site_config_problems(read_settings(root))] or _warnings(compiled)
    return _warnings(compiled)


def _warnings(compiled: Compiled) -> list[str]:
    """The codes of the warnings found while compiling (W0708) and by the lint, as `rulesc check` lists them."""
    return [d.code for d in (*compiled.warnings, *lint(compiled.programs))]


WARNED: dict[str, FileText] = {
    "content/mini/basics.yaml": BASE["content/mini/basics.yaml"].replace("Twice a [[pool]]", "Twice a number")}


def test_github_annotations_for_errors() -> None:
    assert run_rulesc("--root", SEVERAL, "check", "--format", "github") == (1, (
        "::error file=content/mini/basics.yaml,line=3,col=8,title=E0206::"
        "expected a number >= 0 at order, got number -1\n"
        "::error file=content/mini/basics.yaml,line=4,col=1,title=E0201::unknown key 'foo'%0A"
        "hint: allowed keys: id, title, order, summary, rules\n"
        "::error file=content/mini/system.yaml,line=2,col=8,title=E0203::expected text at title, got number 7\n"
        "rulesc: 3 error(s)\n"), "")


def test_github_escapes_properties_and_data() -> None:
    diag = Diagnostic("warning", "W0701", "100% sure,\nreally", Span("content/a,b:c.yaml", 2, 3), None)
    assert github(diag) == "::warning file=content/a%2Cb%3Ac.yaml,line=2,col=3,title=W0701::100%25 sure,%0Areally"
    assert github(Diagnostic("error", "E0003", "content/ holds no game system", None)) == (
        "::error title=E0003::content/ holds no game system")
    assert github(Diagnostic("error", "E0311", "name 'a\u202eb'", None, "not \u2066 here")) == (
        "::error title=E0311::name 'a<U+202E>b'%0Ahint: not <U+2066> here")


def test_json_report_for_errors() -> None:
    status, out, err = run_rulesc("--root", SEVERAL, "check", "--format", "json")
    assert (status, err) == (1, "")
    report = json.loads(out)
    assert {k: report[k] for k in ("ok", "errors", "warnings", "summary")} == {
        "ok": False, "errors": 3, "warnings": 0, "summary": None}
    assert report["diagnostics"][1] == {
        "severity": "error", "code": "E0201", "message": "unknown key 'foo'", "file": "content/mini/basics.yaml",
        "line": 4, "column": 1, "hint": "allowed keys: id, title, order, summary, rules"}
    assert [d["code"] for d in report["diagnostics"]] == ["E0206", "E0201", "E0203"]


def test_json_report_when_clean() -> None:
    status, out, err = run_rulesc("--root", MINIMAL, "check", "--format", "json")
    assert (status, err) == (0, "")
    assert json.loads(out) == {"ok": True, "errors": 0, "warnings": 0, "diagnostics": [], "summary": {
        "systems": 1, "rules": 2, "formulas": 1, "examples": 1, "calculators": 0}}


def test_human_format_without_a_terminal_is_the_plain_transcript() -> None:
    status, out, err = run_rulesc("--root", SEVERAL, "check")
    assert (status, out) == (1, "")
    assert err == (CASES / "bad" / "several-errors" / "expected.txt").read_text(encoding="utf-8").split("\n", 1)[1]


def test_human_format_in_colour(tmp_path: Path) -> None:
    diag = Diagnostic("error", "E0402", "unknown name 'factr'", Span("content/mini/basics.yaml", 18, 19),
                      "did you mean 'factor'?")
    root = write_project(tmp_path, {
        "content/mini/basics.yaml": BASE["content/mini/basics.yaml"].replace("n * factor", "n * factr")})
    assert human(diag, root, colour=True).split("\n") == [
        "\x1b[1mcontent/mini/basics.yaml:18:19: \x1b[0m\x1b[1;31merror[E0402]\x1b[0m"
        "\x1b[1m: unknown name 'factr'\x1b[0m",
        "\x1b[1;34m  18 | \x1b[0m        expr: n * factr",
        "\x1b[1;34m     | \x1b[0m                  \x1b[1;31m^\x1b[0m",
        "\x1b[36m  = hint:\x1b[0m did you mean 'factor'?",
    ]
    assert human(diag, root, colour=False) == "\n".join(
        re.sub("\x1b\\[[0-9;]*m", "", line) for line in human(diag, root, colour=True).split("\n"))


class _Stream(io.StringIO):
    """An output stream that is, or is not, a terminal."""

    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_colour_only_on_a_terminal_unless_told() -> None:
    assert use_colour(_Stream(True), {"TERM": "xterm"}) is True
    assert use_colour(_Stream(False), {"TERM": "xterm"}) is False
    assert use_colour(_Stream(True), {"TERM": "dumb"}) is False
    assert use_colour(_Stream(True), {"NO_COLOR": "1"}) is False
    assert use_colour(_Stream(False), {"FORCE_COLOR": "1"}) is True


def test_warnings_are_listed_and_check_still_passes(tmp_path: Path) -> None:
    root = write_project(tmp_path, WARNED)
    assert run_rulesc("--root", str(root), "check") == (0, (
        "rulesc: ok: 1 system(s), 1 rules, 1 formulas, 1 examples passed, 0 calculators, 1 warning(s)\n"), (
        "content/mini/system.yaml:9:5: warning[W0701]: term 'pool' is defined but no text mentions or links to it\n"
        "   9 |   - id: pool\n"
        "     |     ^\n"
        "  = hint: link it where it is used with [[pool]], or remove it from the glossary\n"))


def test_strict_makes_warnings_errors(tmp_path: Path) -> None:
    root = write_project(tmp_path, WARNED)
    status, out, err = run_rulesc("--root", str(root), "check", "--strict")
    assert (status, out) == (1, "")
    assert err.startswith("content/mini/system.yaml:9:5: error[W0701]: "
                          "term 'pool' is defined but no text mentions or links to it\n")
    assert err.endswith("rulesc: 1 error(s); nothing was written\n")
    assert run_rulesc("--root", str(root), "check", "--format", "github") == (0, (
        "::warning file=content/mini/system.yaml,line=9,col=5,title=W0701::term 'pool' is defined but no text "
        "mentions or links to it%0Ahint: link it where it is used with [[pool]], or remove it from the glossary\n"
        "rulesc: ok: 1 system(s), 1 rules, 1 formulas, 1 examples passed, 0 calculators, 1 warning(s)\n"), "")


def test_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        run_rulesc("--root", MINIMAL, "check", "--format", "xml")
    assert exc.value.code == 2


CATALOG_SOURCE = REPO / "rulesc" / "diagnostics" / "catalog.py"


def _codes_in_source() -> set[str]:
    """The codes the compiler's code reports: every quoted code outside the catalog, which names them all."""
    assert CATALOG_SOURCE.is_file()  # the file left out must exist, or the check below compares the catalog to itself
    return {code for path in (REPO / "rulesc").rglob("*.py") if path != CATALOG_SOURCE
            for code in re.findall(r"\"([EW]\d{4})\"", path.read_text(encoding="utf-8"))}


def test_every_code_the_compiler_reports_is_documented() -> None:
    assert _codes_in_source() - set(CATALOG) == set()
    assert set(CATALOG) - _codes_in_source() == set()


@pytest.mark.parametrize("code", sorted(CATALOG))
def test_catalog_examples_give_their_code_and_their_fix_is_clean(code: str, tmp_path: Path) -> None:
    entry = CATALOG[code]
    bad = codes_of(write_project(tmp_path / "bad", entry.bad))
    assert bad and set(bad) == {code}
    assert codes_of(write_project(tmp_path / "fixed", entry.fixed)) == []


def test_error_page_documents_every_code_and_is_left_out_of_the_players_navigation() -> None:
    pages = emit_errors_page()
    for title, _, entries in SECTIONS:
        page = pages[section_path(title)]
        for entry in entries:  # each code on its section's page, and on no other
            heading = f"## {entry.code}: {entry.title} {{#{entry.code.lower()}}}\n"
            assert [path for path, text in pages.items() if heading in text] == [section_path(title)]
        assert page.count("**Bad:**") >= len(entries) and page.count("**Fixed:**") >= len(entries)
    assert sum(len(entries) for _, _, entries in SECTIONS) == len(CATALOG)
    assert compiled_nav(Compiled((), ())) == [{"Home": "index.md"}, {"Search": "search.md"}]  # for authors: home


def test_error_page_excerpt_shows_the_changed_lines() -> None:
    page = emit_errors_page()["errors/formulas.md"]
    section = page.split("## E0402: unknown name")[1].split("\n## ")[0]
    assert "**Bad:** `content/mini/basics.yaml`\n\n```yaml\n# ...\n" in section
    assert "        expr: n * factr\n" in section and "        expr: n * factor\n" in section
    assert "id: basics" not in section  # only the lines around the change


def test_built_site_has_the_error_page(built: Path) -> None:
    html = (built / "site" / "errors" / "formulas" / "index.html").read_text(encoding="utf-8")
    assert 'id="e0402"' in html and "unknown name" in html
    landing = (built / "site" / "errors" / "index.html").read_text(encoding="utf-8")
    assert '<a href="formulas/#e0402">E0402: unknown name</a>' in landing
    home = (built / "site" / "index.html").read_text(encoding="utf-8")
    assert '<p class="rulesc-muted rulesc-for-authors">For authors: <a href="dice-notation/">Dice notation</a>' in home
    assert '<a href="errors/">Error codes</a>, what each message' in home
    assert "Error codes" not in home.split('<nav class="md-nav md-nav--primary"')[1].split("</nav>")[0]


def test_an_excerpt_shows_direction_controls_by_code_point_and_the_caret_follows(tmp_path: Path) -> None:
    from rulesc.diagnostics.core import Diagnostic, Span, render

    (tmp_path / "x.yaml").write_text("name: \"a\u202eb\u2066c\"\n", encoding="utf-8")
    diag = Diagnostic("error", "E0311", "bad name 'a\u202eb'", Span("x.yaml", 1, 12), "not \u200f here")
    assert render(diag, tmp_path) == (
        "x.yaml:1:12: error[E0311]: bad name 'a<U+202E>b'\n"
        "   1 | name: \"a<U+202E>b<U+2066>c\"\n"
        "     | " + " " * len('name: "a<U+202E>b<U+2066>') + "^\n"
        "  = hint: not <U+200F> here")
