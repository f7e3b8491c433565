"""Diagnostics out: the human (optionally coloured), GitHub annotation and JSON renderings of check's findings."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from rulesc.diagnostics.core import Diagnostic, render, visible

FORMATS = ("human", "github", "json")
MACHINE_FORMATS = ("github", "json")  # printed on stdout, for tools to read

_RESET = "\x1b[0m"
_STYLE = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "bold": "\x1b[1m", "gutter": "\x1b[1;34m",
          "hint": "\x1b[36m"}
_SOURCE = re.compile(r"^( *\d+ \| )(.*)$")
_CARET = re.compile(r"^( +\| )( *)\^$")
_HINT = "  = hint: "


@dataclass(frozen=True)
class Summary:
    """What a clean check compiled, for the closing line and the JSON report."""

    systems: int
    rules: int
    formulas: int
    examples: int
    calculators: int

    def line(self, warnings: int) -> str:
        tail = f", {warnings} warning(s)" if warnings else ""
        return (f"rulesc: ok: {self.systems} system(s), {self.rules} rules, {self.formulas} formulas, "
                f"{self.examples} examples passed, {self.calculators} calculators{tail}")


def use_colour(stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """Colour only on a terminal; NO_COLOR turns it off and FORCE_COLOR on (https://no-color.org)."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    return bool(getattr(stream, "isatty", lambda: False)()) and env.get("TERM") != "dumb"


def promote(warnings: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Warnings as errors, for `check --strict`."""
    return [replace(w, severity="error") for w in warnings]


def human(diag: Diagnostic, root: Path | None, colour: bool = False) -> str:
    """The compiler-style text of diagnostics.render, with ANSI colours when asked."""
    text = render(diag, root)
    if not colour:
        return text
    return "\n".join(_colour_line(line, index, diag.severity) for index, line in enumerate(text.split("\n")))


def _paint(style: str, text: str) -> str:
    return f"{_STYLE[style]}{text}{_RESET}" if text else text


def _colour_line(line: str, index: int, severity: str) -> str:
    if index == 0:
        head = f"{severity}["
        where, sep, rest = line.partition(head) if head in line else ("", "", line)
        label, _, message = (sep + rest).partition(": ")
        return _paint("bold", where) + _paint(severity, label) + _paint("bold", ": " + message)
    if line.startswith(_HINT):
        return _paint("hint", _HINT.rstrip()) + " " + line[len(_HINT):]
    caret = _CARET.match(line)
    if caret:
        return _paint("gutter", caret.group(1)) + caret.group(2) + _paint(severity, "^")
    source = _SOURCE.match(line)
    if source:
        return _paint("gutter", source.group(1)) + source.group(2)
    return line


def human_failure(diags: Sequence[Diagnostic], root: Path | None, colour: bool = False) -> str:
    errors = sum(1 for d in diags if d.severity == "error")
    lines = [human(d, root, colour) for d in diags]
    return "\n".join(lines + [f"rulesc: {errors} error(s); nothing was written"])


def github(diag: Diagnostic) -> str:
    """One GitHub Actions workflow command: ::error file=PATH,line=L,col=C,title=CODE::message."""
    props = []
    if diag.span is not None:
        props += [f"file={_escape_property(diag.span.file)}", f"line={diag.span.line}", f"col={diag.span.col}"]
    props.append(f"title={_escape_property(diag.code)}")
    message = diag.message + (f"\nhint: {diag.hint}" if diag.hint else "")
    return f"::{diag.severity} {','.join(props)}::{_escape_data(visible(message))}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_report(diags: Sequence[Diagnostic], closing: str) -> str:
    return "\n".join([github(d) for d in diags] + [closing])


def as_json(diag: Diagnostic) -> dict[str, Any]:
    span = diag.span
    return {"severity": diag.severity, "code": diag.code, "message": diag.message,
            "file": span.file if span else None, "line": span.line if span else None,
            "column": span.col if span else None, "hint": diag.hint}


def json_report(diags: Sequence[Diagnostic], summary: Summary | None) -> str:
    """The whole result of a check as one JSON document; `summary` is null when the content has errors."""
    errors = sum(1 for d in diags if d.severity == "error")
    document = {
        "ok": errors == 0, "errors": errors, "warnings": len(diags) - errors,
        "summary": None if summary is None else {
            "systems": summary.systems, "rules": summary.rules, "formulas": summary.formulas,
            "examples": summary.examples, "calculators": summary.calculators},
        "diagnostics": [as_json(d) for d in diags],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def failure(diags: Sequence[Diagnostic], root: Path | None, fmt: str, colour: bool = False) -> str:
    """The report of content errors in format `fmt`; human text goes to stderr, the others to stdout."""
    if fmt == "json":
        return json_report(diags, None)
    if fmt == "github":
        errors = sum(1 for d in diags if d.severity == "error")
        return github_report(diags, f"rulesc: {errors} error(s)")
    return human_failure(diags, root, colour)
