"""The settings module: mkdocs.yml read once, as a user's file, into typed Settings every stage takes.

A YAML error is reported at its line and each setting MkDocs refuses at its key; nothing else in rulesc reads the
file (MkDocs reads the text read here; Zensical and `rulesc serve` are pointed at Settings.path).
"""

from __future__ import annotations

import io
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rulesc.diagnostics.core import ContentError, Diagnostic, Span
from rulesc.files import Unreadable, read_project_file
from rulesc.load import MAX_BYTES

CONFIG = "mkdocs.yml"
CONFIG_VALUE = re.compile(r"Config value '([^']+)': (.*)", re.DOTALL)
DEFAULT_SITE_NAME = "Rules reference"  # MkDocs' own default where mkdocs.yml names no site


@dataclass(frozen=True)
class Settings:
    """What the project's mkdocs.yml says, read once: its text (None where there is none rulesc can read), the
    problems found reading it (E0801, E0336, ...), the values rulesc's stages use and where each top-level key is."""

    root: Path
    exists: bool = False
    text: str | None = None
    problems: tuple[Diagnostic, ...] = ()
    site_url: str = ""
    site_name: str = DEFAULT_SITE_NAME
    site_description: str | None = None
    keys: tuple[tuple[str, Span], ...] = ()

    @property
    def path(self) -> Path:
        """Where the file is, for the programs that read it themselves (Zensical, MkDocs' live preview)."""
        return self.root / CONFIG

    @property
    def base(self) -> str:
        """The path the site is served under: site_url's path (MkDocs links a 404 page's files from it), else "/"."""
        from rulesc.emit.site.page_styles import served_under  # here: `rulesc check` loads no front end

        return served_under(self.site_url)


def read_settings(root: Path) -> Settings:
    """The project's mkdocs.yml as Settings; none of its problems raise here (a build without the site needs none)."""
    if not os.path.lexists(root / CONFIG):
        return Settings(root)
    try:
        text = read_project_file(root / CONFIG, root, MAX_BYTES).decode("utf-8")
    except Unreadable as exc:  # MkDocs would read a link out of the project, or wait on a pipe for ever
        return Settings(root, True, problems=(Diagnostic("error", exc.code, exc.message, Span(CONFIG, 1, 1),
                                                         exc.hint),))
    except UnicodeDecodeError as exc:
        return Settings(root, True, problems=(Diagnostic("error", "E0801", f"{CONFIG} is not valid YAML: {exc}",
                                                         None),))
    return _parsed(root, text)


def _parsed(root: Path, text: str) -> Settings:
    """Settings from the file's text, composed without building tags (!ENV is fine)."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        return Settings(root, True, text, (_syntax_problem(exc),))
    top = [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)] \
        if isinstance(node, yaml.MappingNode) else []
    found = {key: _text(top, key) for key in ("site_url", "site_name", "site_description")}
    keys = tuple((k.value, Span(CONFIG, k.start_mark.line + 1, k.start_mark.column + 1)) for k, _ in top)
    return Settings(root, True, text, tuple(boundary_problems(root, CONFIG, node)), (found["site_url"] or "").strip(),
                    found["site_name"] or DEFAULT_SITE_NAME, found["site_description"], keys)


def _syntax_problem(exc: yaml.YAMLError) -> Diagnostic:
    """E0801 at the line where YAML stopped reading the file."""
    if not isinstance(exc, yaml.MarkedYAMLError):
        return Diagnostic("error", "E0801", f"{CONFIG} is not valid YAML: {exc}", None)
    mark, start = exc.problem_mark or exc.context_mark, exc.context_mark
    span = Span(CONFIG, mark.line + 1, mark.column + 1) if mark else None
    hint = f"{exc.context} at line {start.line + 1}, column {start.column + 1}" if start and exc.context else None
    return Diagnostic("error", "E0801", f"{CONFIG} is not valid YAML: {exc.problem or exc.context}", span, hint)


def _text(top: list[tuple[yaml.ScalarNode, yaml.Node]], key: str) -> str | None:
    """A top-level text setting as YAML reads it (a `# comment` after it is no part of it); None where the key or
    a plain (untagged) text value is missing."""
    values = [v for k, v in top if k.value == key]
    plain = values and isinstance(values[0], yaml.ScalarNode) and values[0].tag.startswith("tag:yaml.org")
    return " ".join(values[0].value.split()) or None if plain else None


MAX_INHERIT = 8  # INHERIT chains deeper than this are left to MkDocs


def boundary_problems(root: Path, config: str, node: yaml.Node | None, depth: int = 0) -> list[Diagnostic]:
    """E0336 where a settings file (mkdocs.yml, or a file it INHERITs) names a file outside the project for
    MkDocs to read (INHERIT) or to run (hooks:); E0113 or E0114 where the file is inside but no file rulesc reads
    (a pipe, a link out). As MkDocs reads them, INHERIT is relative to the file that names it, hooks to
    mkdocs.yml's folder, the project's."""
    found: list[Diagnostic] = []
    for key, value in _paths(node):
        where = Span(config, value.start_mark.line + 1, value.start_mark.column + 1)
        base = os.path.dirname(config) if key == "INHERIT" else ""
        path = os.path.normpath(os.path.join(base, value.value))
        if os.path.isabs(value.value) or path == ".." or path.startswith("../"):
            found.append(Diagnostic("error", "E0336", f"{key} names '{value.value}', a file outside the project",
                                    where, "rulesc builds only what the project holds: copy the file into it"))
        elif os.path.lexists(root / path):
            found += _inside_problems(root, path, key, where, depth)
    return found


def _paths(node: yaml.Node | None) -> list[tuple[str, yaml.ScalarNode]]:
    """The file paths a settings file's top level names: INHERIT's, and each of hooks:."""
    if not isinstance(node, yaml.MappingNode):
        return []
    found = []
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "INHERIT" and isinstance(value, yaml.ScalarNode):
            found.append(("INHERIT", value))
        if isinstance(key, yaml.ScalarNode) and key.value == "hooks" and isinstance(value, yaml.SequenceNode):
            found += [("hooks", item) for item in value.value if isinstance(item, yaml.ScalarNode)]
    return found


def _inside_problems(root: Path, path: str, key: str, where: Span, depth: int) -> list[Diagnostic]:
    """A path inside the project, read as content is; an INHERITed file is checked in turn."""
    try:
        data = read_project_file(root / path, root, MAX_BYTES)
    except Unreadable as exc:
        return [Diagnostic("error", exc.code, f"{key} names '{path}': {exc.message}", where, exc.hint)]
    if key != "INHERIT" or depth >= MAX_INHERIT:
        return []
    try:
        parent = yaml.compose(data.decode("utf-8"), Loader=yaml.SafeLoader)
    except (yaml.YAMLError, UnicodeDecodeError):
        return []  # MkDocs reports it
    return boundary_problems(root, path, parent, depth + 1)


def mkdocs_config(settings: Settings, **options: Any) -> Any:
    """MkDocs' configuration of the project from the text Settings read (options override it); a ContentError
    lists what is wrong."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    if not settings.exists:
        raise ContentError([Diagnostic("error", "E0802", f"{CONFIG}: the project folder has no {CONFIG}", None,
                                       "`rulesc build --no-site` builds everything but the site")])
    if settings.problems or settings.text is None:
        raise ContentError(list(settings.problems))
    capture, logger = _Capture(), logging.getLogger("mkdocs")
    logger.addHandler(capture)
    try:
        return load_config(_Named(settings.text, str(settings.path)), **options)
    except (MkDocsException, SystemExit) as exc:
        raise ContentError(refused(settings, capture.messages or [str(exc)])) from None
    finally:
        logger.removeHandler(capture)


class _Named(io.StringIO):
    """The file's text as MkDocs reads a file: by its name it finds INHERITed files and hooks."""

    def __init__(self, text: str, name: str):
        super().__init__(text)
        self.name = name


def site_config_problems(settings: Settings) -> list[Diagnostic]:
    """Everything MkDocs would refuse in the project's mkdocs.yml, checked without building anything."""
    with tempfile.TemporaryDirectory() as docs, tempfile.TemporaryDirectory() as site:
        try:
            mkdocs_config(settings, docs_dir=docs, site_dir=site)
        except ContentError as exc:
            return exc.diagnostics
    return []


def refused(settings: Settings, messages: list[str]) -> list[Diagnostic]:
    """E0802 for each setting MkDocs refused, at its key in mkdocs.yml where the file has it."""
    found = [m for m in (CONFIG_VALUE.fullmatch(text.strip()) for text in messages) if m]
    if not found:
        return [Diagnostic("error", "E0802", f"{CONFIG}: {' '.join(messages)}", None)]
    spans = dict(reversed(settings.keys))  # a key's first place, where the file names it twice
    return [_refusal(spans.get(key), key, reason) for key, reason in (m.groups() for m in found)]


def _refusal(span: Span | None, key: str, reason: str) -> Diagnostic:
    where = "" if span else f"{CONFIG}: "
    return Diagnostic("error", "E0802", f"{where}MkDocs refuses '{key}': {reason.strip()}", span)


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
