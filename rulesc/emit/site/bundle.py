"""Front-end emitter: the site's ES modules (frontend/src/<script>/) joined into the classic scripts pages load.

A page opened from file:// cannot load ES modules, so each script's modules are joined, dependencies first, into
one function scope: their `import {...} from "./x.js";` lines are dropped and `export ` is taken off their
declarations. The order follows the imports from the script's main.js, so the same sources give the same bytes.
Comments (the JSDoc types `tsc --noEmit` checks, and the modules' documentation) stay in the sources: the pages get
the code, a third smaller than with them (about a fifth gzipped). Every `/*` opens a comment, so a string or a
regular expression that needs one writes it apart ("/" + "*").
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import rjsmin  # type: ignore[import-untyped]

from rulesc.emit.site.theme import PACKAGE

SCRIPTS = ("calculators", "offline", "site", "theme")
"""The scripts the pages load, each from its own folder of modules: assets/rulesc/<name>.js."""

IMPORT = re.compile(r'^import \{[^}]*\} from "(\.\.?/[a-z_/]+\.js)";\n', re.M)
EXPORT = re.compile(r"^export (?=(?:async )?function\b|const\b|let\b|class\b)", re.M)
DECLARED = re.compile(r"^(?:export )?(?:async )?(?:function\*? ?|const |let |class )([A-Za-z_$][\w$]*)", re.M)
MODULE_SYNTAX = re.compile(r"^(?:import|export)\b", re.M)
CHECK_LINE = "// @ts-check\n"
COMMENT = r"/\*(?:(?!\*/).)*\*/"
COMMENT_LINES = re.compile(rf"^[ \t]*{COMMENT}[ \t]*\n", re.M | re.S)
COMMENT_INLINE = re.compile(rf"[ \t]*{COMMENT}( ?)", re.S)


class BundleError(ValueError):
    """The front end's sources break one of the joiner's rules (a developer's mistake, never content's)."""


def front_end_sources(package: Path = PACKAGE) -> Path:
    """rulesc/frontend/src/ from a wheel (pyproject.toml packages frontend/ there), else the checkout's."""
    installed = package / "frontend" / "src"
    return installed if installed.is_dir() else package.parent / "frontend" / "src"


def emit_front_end(sources: Path | None = None) -> dict[str, str]:
    """Every script of the front end, by its path under the site's root."""
    src = sources or front_end_sources()
    return {f"assets/rulesc/{name}.js": minified(join_script(src, name)) for name in SCRIPTS}


def minified(script: str) -> str:
    """A script as pages load it: its first line (the comment that says where it comes from), then its code
    without comments and needless white space (rjsmin: nothing renamed or reordered, so the code reads as its
    sources), a third smaller gzipped."""
    first, _, code = script.partition("\n")
    return f"{first}\n{rjsmin.jsmin(code)}\n"


def join_script(src: Path, name: str) -> str:
    """One script from the modules under `src`: <name>/main.js and what it imports, dependencies first."""
    order = _module_order(src, f"{name}/main.js", [])
    _check_names(src, order)
    body = "\n".join(_plain(src, module) for module in order)
    return (f"/* rulesc {name}.js: joined by rulesc from frontend/src/{name}/ (edit those). */\n"
            f'(function () {{\n"use strict";\n{body}}})();\n')


def _module_order(src: Path, module: str, done: list[str], path: tuple[str, ...] = ()) -> list[str]:
    """`done` and then `module` after what it imports, each module once, in the order the imports are written."""
    if module in path:
        raise BundleError(f"{src}: modules import each other: {' -> '.join([*path, module])}")
    if module not in done:
        for target in IMPORT.findall(_read(src, module)):
            _module_order(src, posixpath.normpath(posixpath.join(posixpath.dirname(module), target)), done,
                          (*path, module))
        done.append(module)
    return done


def _read(src: Path, module: str) -> str:
    path = src / module
    if not path.is_file():
        raise BundleError(f"{path}: no such module")
    return path.read_text(encoding="utf-8")


def _plain(src: Path, module: str) -> str:
    """A module's text as part of the joined script: no imports, no `export`, no comments."""
    text = EXPORT.sub("", IMPORT.sub("", _read(src, module).removeprefix(CHECK_LINE)))
    text = _uncomment(COMMENT_LINES.sub("", text)).strip("\n") + "\n"
    if MODULE_SYNTAX.search(text):
        raise BundleError(f"{src / module}: only `import {{...}} from \"./x.js\";` and `export` declarations join")
    return f"/* ---- {module} ---- */\n{text}"


def _uncomment(text: str) -> str:
    """`text` without the comments inside its lines: `f(/** @type {T} */ (x))` is `f((x))`, `a = /* c */ b` is
    `a = b`, and a comment at the end of a line leaves no spaces behind it."""
    def blank(match: re.Match[str]) -> str:
        start, end = match.start(), match.end()
        if (start and text[start - 1] in "([.") or end == len(text) or text[end] == "\n":
            return ""
        return " " if match.group(0)[0] in " \t" or match.group(1) else ""
    return COMMENT_INLINE.sub(blank, text)


def _check_names(src: Path, order: list[str]) -> None:
    """Joined modules share one scope: two that declare the same name at their top would clash."""
    owner: dict[str, str] = {}
    for module in order:
        for declared in DECLARED.findall(_read(src, module)):
            if declared in owner:
                raise BundleError(f"{src}: '{declared}' is declared by both {owner[declared]} and {module}")
            owner[declared] = module
