"""Editor schema emitter: each system's chapter schema, its kinds and their fields spelled out for editors.

The generic chapter schema takes any kind id; `build/schema/<system>/chapter.schema.json` names the system's kinds
(so an editor completes `kind:` with them) and, for each kind that lists its fields, which fields a rule of that kind
may and must give (so it completes a move's trigger, roll and outcomes and a spell's facts, and underlines another's).
The schema is self-contained: its references are inlined, so it works wherever an editor finds it.
"""

from __future__ import annotations

import copy

from rulesc.analyze.program import Program
from rulesc.emit.writer import JsonObject
from rulesc.kinds import PARTS, RuleKind
from rulesc.model import System
from rulesc.schema import inlined_schema

Overlay = JsonObject


def kinds_overlay(program: Program) -> Overlay:
    """What the system's chapter schema adds to the generic one's rule: its kinds, and each kind's fields."""
    system = program.system
    kind = {"enum": [k.id for k in system.kinds],
            "description": "The kind of rule: " + "; ".join(f"{k.id} ({k.label})" for k in system.kinds) + "."}
    rules = [_fields(system, k) for k in system.kinds if not k.open]
    return {"kind": kind, "allOf": rules} if rules else {"kind": kind}


def _fields(system: System, kind: RuleKind) -> JsonObject:
    """If the rule is of `kind`: the parts it lacks are refused, its facts are those it lists, its required given."""
    labels = {fact.id: fact.label for fact in system.fact_kinds}
    facts = [name for name in kind.fields if name not in PARTS]
    then: JsonObject = {"properties": {
        **{part: False for part in PARTS if part not in kind.fields},
        "facts": {"properties": {name: {"description": labels.get(name, name)} for name in facts},
                  "propertyNames": {"enum": facts}}}}
    required = [name for name in kind.required if name in PARTS]
    required_facts = [name for name in kind.required if name not in PARTS]
    if required_facts:
        then["properties"]["facts"]["required"] = required_facts
    if required or required_facts:
        then["required"] = required + (["facts"] if required_facts else [])
    return {"if": {"properties": {"kind": {"const": kind.id}}, "required": ["kind"]}, "then": then}


def system_chapter_schema(schema_dir: str, system: str, overlay: Overlay) -> JsonObject:
    """The generic chapter schema, inlined, with the system's overlay on its rule."""
    schema = copy.deepcopy(inlined_schema(schema_dir, "chapter"))
    schema["$id"] = schema["$id"].replace("/schema/", f"/schema/{system}/")
    schema["description"] = f"content/{system}/<chapter>.yaml: one chapter of rules of {system}."
    schema.pop("$defs", None)
    rule = schema["properties"]["rules"]["items"]
    rule["properties"]["kind"] = overlay["kind"]
    if "allOf" in overlay:
        rule["allOf"] = overlay["allOf"]
    return schema
