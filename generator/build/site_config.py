"""mkdocs.yml read as a user's file: a YAML error at its line, each setting MkDocs refuses at its key."""

from __future__ import annotations

import logging
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.diagnostics.core import ContentError, Diagnostic, Span
from generator.files import Unreadable, read_project_file
from generator.load import MAX_BYTES

CONFIG = "mkdocs.yml"
CONFIG_VALUE = re.compile(r"Config value '([^']+)': (.*)", re.DOTALL)


def syntax_problems(root: Path) -> list[Diagnostic]:
    """E0801 where the project's mkdocs.yml is not YAML; none where it is, or where there is none."""
    if not os.path.lexists(root / CONFIG):
        return []
    try:
        text = read_project_file(root / CONFIG, root, MAX_BYTES).decode("utf-8")
        node = yaml.compose(text, Loader=yaml.SafeLoader)  # no tags built: !ENV is fine
    except Unreadable as exc:  # MkDocs would read a link out of the project, or wait on a pipe for ever
        return [Diagnostic("error", exc.code, exc.message, Span(CONFIG, 1, 1), exc.hint)]
    except yaml.MarkedYAMLError as exc:
        mark, start = exc.problem_mark or exc.context_mark, exc.context_mark
        span = Span(CONFIG, mark.line + 1, mark.column + 1) if mark else None
        hint = f"{exc.context} at line {start.line + 1}, column {start.column + 1}" if start and exc.context else None
        return [Diagnostic("error", "E0801", f"{CONFIG} is not valid YAML: {exc.problem or exc.context}", span, hint)]
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        return [Diagnostic("error", "E0801", f"{CONFIG} is not valid YAML: {exc}", None)]
    return boundary_problems(root, CONFIG, node)


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


@dataclass(frozen=True)
class SiteText:
    """What the project's mkdocs.yml says of the site for its home page: its name and its description."""

    name: str
    description: str | None


def site_text(root: Path) -> SiteText:
    """site_name and site_description as YAML reads them (tags such as !ENV are left unresolved: a tagged value is
    not used), with MkDocs' default name where there is none."""
    found = {key: setting(root, key) for key in ("site_name", "site_description")}
    return SiteText(found["site_name"] or "Rules reference", found["site_description"])


def setting(root: Path, key: str) -> str | None:
    """A top-level text setting of mkdocs.yml as YAML reads it (a `# comment` after it is no part of it); None
    where the file, the key or a plain (untagged) text value is missing."""
    values = [v for k, v in _top_level(root) if k.value == key]
    plain = values and isinstance(values[0], yaml.ScalarNode) and values[0].tag.startswith("tag:yaml.org")
    return " ".join(values[0].value.split()) or None if plain else None


def config_text(root: Path) -> str | None:
    """The project's mkdocs.yml as rulesc reads content (generator/files.py); None where it has none it can read."""
    try:
        return read_project_file(root / CONFIG, root, MAX_BYTES).decode("utf-8")
    except (Unreadable, UnicodeDecodeError):
        return None


def load_site_config(root: Path, **options: Any) -> Any:
    """MkDocs' configuration of the project (options override mkdocs.yml); a ContentError lists what is wrong."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    if not os.path.lexists(root / CONFIG):
        raise ContentError([Diagnostic("error", "E0802", f"{CONFIG}: the project folder has no {CONFIG}", None,
                                       "`rulesc build --no-site` builds everything but the site")])
    problems = syntax_problems(root)
    if problems:
        raise ContentError(problems)
    capture, logger = _Capture(), logging.getLogger("mkdocs")
    logger.addHandler(capture)
    try:
        return load_config(config_file=str(root / CONFIG), **options)
    except (MkDocsException, SystemExit) as exc:
        raise ContentError(refused(root, capture.messages or [str(exc)])) from None
    finally:
        logger.removeHandler(capture)


def site_config_problems(root: Path) -> list[Diagnostic]:
    """Everything MkDocs would refuse in the project's mkdocs.yml, checked without building anything."""
    with tempfile.TemporaryDirectory() as docs, tempfile.TemporaryDirectory() as site:
        try:
            load_site_config(root, docs_dir=docs, site_dir=site)
        except ContentError as exc:
            return exc.diagnostics
    return []


def refused(root: Path, messages: list[str]) -> list[Diagnostic]:
    """E0802 for each setting MkDocs refused, at its key in mkdocs.yml where the file has it."""
    found = [m for m in (CONFIG_VALUE.fullmatch(text.strip()) for text in messages) if m]
    if not found:
        return [Diagnostic("error", "E0802", f"{CONFIG}: {' '.join(messages)}", None)]
    return [_refusal(root, key, reason) for key, reason in (m.groups() for m in found)]


def _top_level(root: Path) -> list[tuple[yaml.ScalarNode, yaml.Node]]:
    """The project's mkdocs.yml composed (no tags built), as its top-level keys and their values; none where it
    has none, is no YAML or is no mapping."""
    text = config_text(root)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader) if text is not None else None
    except yaml.YAMLError:
        return []
    return [(k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)] \
        if isinstance(node, yaml.MappingNode) else []


def _refusal(root: Path, key: str, reason: str) -> Diagnostic:
    span = _key_span(root, key)
    where = "" if span else f"{CONFIG}: "
    return Diagnostic("error", "E0802", f"{where}MkDocs refuses '{key}': {reason.strip()}", span)


def _key_span(root: Path, key: str) -> Span | None:
    marks = [k.start_mark for k, _ in _top_level(root) if k.value == key]
    return Span(CONFIG, marks[0].line + 1, marks[0].column + 1) if marks else None


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
