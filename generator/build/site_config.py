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
        yaml.compose(text, Loader=yaml.SafeLoader)  # no tags built: !ENV is fine
    except Unreadable as exc:  # MkDocs would read a link out of the project, or wait on a pipe for ever
        return [Diagnostic("error", exc.code, exc.message, Span(CONFIG, 1, 1), exc.hint)]
    except yaml.MarkedYAMLError as exc:
        mark, start = exc.problem_mark or exc.context_mark, exc.context_mark
        span = Span(CONFIG, mark.line + 1, mark.column + 1) if mark else None
        hint = f"{exc.context} at line {start.line + 1}, column {start.column + 1}" if start and exc.context else None
        return [Diagnostic("error", "E0801", f"{CONFIG} is not valid YAML: {exc.problem or exc.context}", span, hint)]
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        return [Diagnostic("error", "E0801", f"{CONFIG} is not valid YAML: {exc}", None)]
    return []


@dataclass(frozen=True)
class SiteText:
    """What the project's mkdocs.yml says of the site for its home page: its name and its description."""

    name: str
    description: str | None


def site_text(root: Path) -> SiteText:
    """site_name and site_description as YAML reads them (tags such as !ENV are left unresolved: a tagged value is
    not used), with MkDocs' default name where there is none."""
    found = {key: _config_scalar(root, key) for key in ("site_name", "site_description")}
    return SiteText(found["site_name"] or "Rules reference", found["site_description"])


def _config_scalar(root: Path, key: str) -> str | None:
    text = config_text(root)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader) if text is not None else None
    except yaml.YAMLError:
        return None
    if not isinstance(node, yaml.MappingNode):
        return None
    values = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key]
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


def _refusal(root: Path, key: str, reason: str) -> Diagnostic:
    span = _key_span(root, key)
    where = "" if span else f"{CONFIG}: "
    return Diagnostic("error", "E0802", f"{where}MkDocs refuses '{key}': {reason.strip()}", span)


def _key_span(root: Path, key: str) -> Span | None:
    text = config_text(root)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader) if text is not None else None
    except yaml.YAMLError:
        return None
    if not isinstance(node, yaml.MappingNode):
        return None
    marks = [k.start_mark for k, _ in node.value if isinstance(k, yaml.ScalarNode) and k.value == key]
    return Span(CONFIG, marks[0].line + 1, marks[0].column + 1) if marks else None


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
