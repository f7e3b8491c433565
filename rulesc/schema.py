"""Stage 2, validate: JSON Schema (2020-12) over each loaded document, errors mapped to YAML spans."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from rulesc.diagnostics.core import ContentError, Diagnostic, Diagnostics, Span, did_you_mean
from rulesc.files import Unreadable, read_project_file
from rulesc.load import MAX_BYTES, Document, JsonPath

PACKAGE = Path(__file__).resolve().parent


def packaged_schemas(package: Path = PACKAGE) -> Path:
    """The schemas rulesc ships: rulesc/schemas/ when installed from a wheel (pyproject.toml packages the
    repository's schema/ folder there), else the source checkout's schema/ itself (an editable install)."""
    installed = package / "schemas"
    return installed if installed.is_dir() else package.parent / "schema"


SCHEMA_DIR = packaged_schemas()
SCHEMA_FILES = ("common.schema.json", "system.schema.json", "chapter.schema.json")
VARIANT_FILE = "variant.schema.json"  # not an editor schema of build/schema/: a project's schema/ may lack it
TYPE_NAMES = {"integer": "a whole number", "string": "text", "boolean": "true or false", "object": "a mapping",
              "array": "a list", "number": "a number", "null": "nothing"}


@lru_cache(maxsize=4)
def _schemas(schema_dir: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The schema files as read, and the system and chapter schemas with their $refs inlined, read once for both
    validators."""
    schemas = {name: schema_json(Path(schema_dir), name) for name in (*SCHEMA_FILES, VARIANT_FILE)}
    kinds = {kind: _inline(schemas[f"{kind}.schema.json"], schemas[f"{kind}.schema.json"], schemas)
             for kind in ("system", "chapter", "variant")}
    return schemas, kinds


def schema_text(schema_dir: Path, name: str) -> str:
    """A schema file of a project's schema/ folder (or of rulesc's own, where the project's lacks it), read as
    content is read (rulesc/files.py): a regular file inside the project, never through a link out of it, nor
    a device or a pipe, and at most MAX_BYTES. A ContentError at the file where it cannot be read."""
    path = schema_dir / name if os.path.lexists(schema_dir / name) else SCHEMA_DIR / name
    try:
        return read_project_file(path, path.parent.parent, MAX_BYTES).decode("utf-8")
    except Unreadable as exc:
        raise _schema_error(exc.code, exc.message, name, exc.hint) from None
    except UnicodeDecodeError:
        raise _schema_error("E0335", "the schema file is not text in UTF-8", name) from None


def schema_json(schema_dir: Path, name: str) -> Any:
    """A schema file (see schema_text) as JSON; E0335 at the place where it stops being JSON."""
    try:
        return json.loads(schema_text(schema_dir, name))
    except json.JSONDecodeError as exc:
        raise _schema_error("E0335", f"the schema file is not JSON: {exc.msg}", name, None,
                            exc.lineno, exc.colno) from None


def _schema_error(code: str, message: str, name: str, hint: str | None = None, line: int = 1,
                  col: int = 1) -> ContentError:
    hint = hint or "the project's schema/ folder holds JSON Schemas for editors; delete it to use rulesc's own"
    return ContentError([Diagnostic("error", code, message, Span(f"schema/{name}", line, col), hint)])


def inlined_schema(schema_dir: str, kind: str) -> dict[str, Any]:
    """The `system`, `chapter` or `variant` schema with every $ref inlined (shared: copy it before changing it)."""
    schema: dict[str, Any] = _schemas(schema_dir)[1][kind]
    return schema


@lru_cache(maxsize=64)
def _ecma(pattern: str) -> re.Pattern[str]:
    """A schema's regex as ECMA 262 (JSON Schema's dialect) reads it: `$` ends the text, where Python's `$` also
    matches before a final newline (so `^[a-z]+$` let 'id\n' through, and the engine broke on it)."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _ecma(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _whole_number(checker: Any, instance: Any) -> bool:
    """A whole number as written: JSON Schema counts 2.0 an integer, but a value, an option or a bound written so
    became a float that the model took for something else (a dice pool), far from where it was typed."""
    return isinstance(instance, int) and not isinstance(instance, bool)


_TYPES = Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number)
_Validator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"pattern": _ecma_pattern}, type_checker=_TYPES)


@lru_cache(maxsize=4)
def _validators(schema_dir: str) -> dict[str, Draft202012Validator]:
    """jsonschema's validators: slow, but their errors carry what the messages need (validator, path, schema)."""
    schemas, kinds = _schemas(schema_dir)
    registry: Registry[Any] = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values())
    return {kind: _Validator(schema, registry=registry) for kind, schema in kinds.items()}


@lru_cache(maxsize=4)
def _fast_validators(schema_dir: str) -> dict[str, Any]:
    """jsonschema-rs validators for the same schemas: about 60 times faster, used to pass valid documents.

    Formats are annotations, as in jsonschema's default. A document they reject still goes through jsonschema,
    which alone decides what is reported; tests/test_schema.py holds the two to the same verdict on every bundled
    and golden-case document, and checks that where their regexes part the fast one only rejects more.
    """
    schemas, kinds = _schemas(schema_dir)
    registry = jsonschema_rs.Registry([(schema["$id"], schema) for schema in schemas.values()])
    return {kind: jsonschema_rs.Draft202012Validator(schema, registry=registry, validate_formats=False)
            for kind, schema in kinds.items()}


ANNOTATIONS = frozenset({"title", "description", "examples", "$comment"})


def _inline(node: Any, home: dict[str, Any], schemas: dict[str, Any]) -> Any:
    """The schema with every $ref replaced by what it points to (the schemas are not recursive).

    Resolving references once here, rather than on every value validated, makes validation several times
    faster on large rulebooks; a $ref's own annotations (its description) are kept over the target's.
    """
    if isinstance(node, list):
        return [_inline(item, home, schemas) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node and set(node) - {"$ref"} <= ANNOTATIONS:
        target, target_home = _target(node["$ref"], home, schemas)
        resolved = _inline(target, target_home, schemas)
        return {**resolved, **{k: v for k, v in node.items() if k != "$ref"}}
    return {key: _inline(value, home, schemas) if key != "$defs" else value for key, value in node.items()}


def _target(ref: str, home: dict[str, Any], schemas: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    file, _, pointer = ref.partition("#")
    document = schemas[file] if file else home
    node: Any = document
    for part in filter(None, pointer.split("/")):
        node = node[part]
    return node, document


def validate_document(doc: Document, kind: str, diags: Diagnostics, schema_dir: Path = SCHEMA_DIR) -> bool:
    """Validate one document against the `system`, `chapter` or `variant` schema; report every violation."""
    if fast_verdict(doc, kind, schema_dir):
        return True
    validator = _validators(str(schema_dir))[kind]
    found = False
    for error in sorted(_leaf_errors(validator.iter_errors(doc.data)), key=lambda e: list(map(str, e.absolute_path))):
        found = True
        _report(_Violation.of(error), doc, diags)
    return not found


def fast_verdict(doc: Document, kind: str, schema_dir: Path = SCHEMA_DIR) -> bool:
    """jsonschema-rs's verdict, trusted only without a whole number written with a point, which it counts an
    integer (jsonschema alone holds such a document to rulesc's stricter reading)."""
    return not doc.whole_floats and bool(_fast_validators(str(schema_dir))[kind].is_valid(doc.data))


def _leaf_errors(errors: Iterator[ValidationError]) -> Iterator[ValidationError]:
    for error in errors:
        if error.context:
            yield from _leaf_errors(iter(error.context))
        else:
            yield error


@dataclass(frozen=True)
class _Violation:
    """One jsonschema error, as the messages read it."""

    keyword: str | None  # the schema keyword that failed; None for a `false` schema
    expected: Any  # that keyword's value in the schema
    instance: Any  # the value that failed it
    schema: Mapping[str, Any]  # the subschema holding the keyword
    path: JsonPath
    where: str  # " at <JSON path>", or "" at the top of the document

    @classmethod
    def of(cls, error: ValidationError) -> _Violation:
        """iter_errors fills every field; the stubs also allow the Unset default of a hand-made error."""
        keyword = error.validator if isinstance(error.validator, str) else None
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        return cls(keyword, error.validator_value, error.instance, schema, tuple(error.absolute_path), _where(error))


def _where(error: ValidationError) -> str:
    path = error.json_path
    return "" if path == "$" else f" at {path[2:] if path.startswith('$.') else path[1:]}"


def _report(error: _Violation, doc: Document, diags: Diagnostics) -> None:
    path, keyword, where = error.path, error.keyword, error.where
    if keyword == "additionalProperties":
        _report_unknown_keys(error, doc, diags)
    elif keyword == "required":
        missing = [name for name in error.expected if name not in error.instance]
        for name in missing:
            diags.error("E0202", f"missing required key '{name}'{where}", doc.span(path),
                        f"add '{name}:' to this mapping")
    elif keyword == "type":
        expected: list[str] = error.expected if isinstance(error.expected, list) else [error.expected]
        wanted = " or ".join(TYPE_NAMES.get(t, t) for t in expected)
        diags.error("E0203", f"expected {wanted}{where}, got {_describe(error.instance)}", doc.span(path),
                    _type_hint(expected, error.instance))
    elif keyword in ("enum", "const"):
        _report_choice(error, doc, diags)
    elif keyword == "pattern":
        _report_pattern(error, doc, diags)
    elif keyword == "propertyNames":
        diags.error("E0205", f"'{path[-1] if path else ''}' has a key that is not a valid name{where}",
                    doc.span(path), "names use lowercase letters, digits and underscores")
    else:
        _report_bounds(error, doc, diags)


def _report_pattern(error: _Violation, doc: Document, diags: Diagnostics) -> None:
    """A text that must say something (minLength 1, and a pattern asking for a non-space) said nothing: in words;
    any other pattern by its regex. Empty text fails minLength too, which says so."""
    blank = isinstance(error.instance, str) and not error.instance.strip()
    if blank and error.schema.get("minLength") == 1:
        if error.instance:
            diags.error("E0206", f"expected words{error.where}, got {_describe(error.instance)}", doc.span(error.path),
                        "text of only spaces shows as nothing: write the words, or leave an optional key out")
        return
    title = error.schema.get("title", "value").lower()
    diags.error("E0205", f"{_describe(error.instance)} is not a valid {title}{error.where}: it must match "
                f"{error.expected}", doc.span(error.path), error.schema.get("description"))


def _report_choice(error: _Violation, doc: Document, diags: Diagnostics) -> None:
    options = error.expected if error.keyword == "enum" else [error.expected]
    listed = ", ".join(repr(o) for o in options)
    hint = did_you_mean(error.instance, [str(o) for o in options]) if isinstance(error.instance, str) else None
    hint = hint or error.schema.get("description")
    diags.error("E0204", f"expected one of {listed}{error.where}, got {_describe(error.instance)}",
                doc.span(error.path), hint)


def _type_hint(expected: list[str], instance: Any) -> str | None:
    """A hint for the usual ways a type goes wrong: a number or true/false written in quotes, a whole number with a
    point."""
    if isinstance(instance, float) and instance.is_integer() and "integer" in expected:
        return f"write {int(instance)}, without the point: a whole number is wanted here"
    if not isinstance(instance, str):
        return None
    if "integer" in expected and re.fullmatch(r"[-+]?[0-9]+", instance.strip()):
        return "write the number without quotes"
    if "boolean" in expected and instance.strip().lower() in ("true", "false", "yes", "no"):
        return "write true or false without quotes"
    return None


def _report_unknown_keys(error: _Violation, doc: Document, diags: Diagnostics) -> None:
    path = error.path
    known = list(error.schema.get("properties", {}))
    for key in error.instance:
        if key in known:
            continue
        hint = did_you_mean(key, known) or _split_value_hint(key) or \
            ("allowed keys: " + ", ".join(known) if known else None)
        diags.error("E0201", f"unknown key '{key}'{error.where}", doc.key_span(path + (key,)), hint)


def _split_value_hint(key: str) -> str | None:
    """A 'key' with spaces or brackets is nearly always the tail of a value cut at a comma in a {...} mapping."""
    if any(c in key for c in " ()[]'"):
        return ("this looks like the end of a value that was cut at a comma: inside { ... } a comma ends the value, "
                "so put the whole value in quotes")
    return None


def _report_bounds(error: _Violation, doc: Document, diags: Diagnostics) -> None:
    bound, where = error.expected, error.where
    messages = {
        "minItems": f"expected at least {bound} item(s){where}, got {_count(error.instance)}",
        "minLength": f"expected non-empty text{where}",
        "minimum": f"expected a number >= {bound}{where}, got {_describe(error.instance)}",
        "maximum": f"expected a number <= {bound}{where}, got {_describe(error.instance)}",
    }
    message = messages.get(str(error.keyword), f"invalid value{where} ({error.keyword} {bound!r})")
    hint = "an empty list says nothing: give an item, or leave an optional key out" \
        if error.keyword == "minItems" and bound == 1 else None
    diags.error("E0206", message, doc.span(error.path), hint)


def _count(instance: Any) -> int:
    return len(instance) if hasattr(instance, "__len__") else 0


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"text {shown!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing" if value is None else type(value).__name__
