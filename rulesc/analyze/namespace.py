"""One namespace for what rulesc writes: a system id that would take a folder of the site or a name of the engine
package, a calculator id that is another calculator's element id, or a rule id that is one, is refused where it is
defined (E0608)."""

from __future__ import annotations

from rulesc.diagnostics.core import Diagnostics
from rulesc.model import ENGINE_EXPORTS, SITE_FOLDERS, System, calculator_ids, calculator_suffixes


def check_namespace(system: System, diags: Diagnostics) -> None:
    """E0608 for each id of the system that names something rulesc itself writes."""
    _check_system_id(system, diags)
    _check_calculator_ids(system, diags)
    _check_rule_ids(system, diags)


def _check_system_id(system: System, diags: Diagnostics) -> None:
    if system.id in SITE_FOLDERS:
        diags.error("E0608", f"system id '{system.id}' is the name of a folder the site has for its own pages",
                    system.span, f"rename the system: {', '.join(SITE_FOLDERS)} are taken")
    if system.module in ENGINE_EXPORTS:
        taken = ", ".join(name.replace("_", "-") for name in ENGINE_EXPORTS if name.islower())
        diags.error("E0608", f"system id '{system.id}' would make the engine module rules_engine.{system.module}, the "
                    "name of a helper the engine package exports", system.span, f"rename the system: {taken} are taken")


def _check_calculator_ids(system: System, diags: Diagnostics) -> None:
    """A calculator whose id is another's id and one of its parts (`fc` with input `n`, and `fc-n`) would share an
    element id with that part on the page."""
    calculators = [calc for rule in system.rules() for calc in rule.calculators]
    parts = {f"{calc.id}-{suffix}": calc for calc in calculators for suffix in calculator_suffixes(calc)}
    for calc in calculators:
        owner = parts.get(calc.id)
        if owner is not None:
            diags.error("E0608", f"calculator id '{calc.id}' is the element id of a part of calculator '{owner.id}' "
                        f"({owner.span})", calc.span, "rename one of the two calculators")


def _check_rule_ids(system: System, diags: Diagnostics) -> None:
    """A rule's id and aliases are its anchors on its page, where each calculator's form takes `calc-<system>-<id>`
    and the ids of its parts: a rule `calc-mini-doubler` would share an element id with calculator `doubler`. Any
    page of the system counts, as a chapter's split into parts moves rules between pages."""
    taken = {element: calc for rule in system.rules() for calc in rule.calculators
             for element in calculator_ids(system.id, calc)}
    for rule in system.rules():
        for anchor in (rule.id, *rule.aliases):
            calc = taken.get(anchor)
            if calc is not None:
                what = f"rule id '{anchor}'" if anchor == rule.id else f"alias '{anchor}' of rule '{rule.id}'"
                diags.error("E0608", f"{what} is an element id of calculator '{calc.id}' ({calc.span}) on "
                            "the site", rule.span if anchor == rule.id else rule.field_span("aliases"),
                            "rename the rule (or drop the alias), or the calculator")
