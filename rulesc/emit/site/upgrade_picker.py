"""The attack set builder's upgrade picker: the system's upgrades in collapsible groups, each with a label that
tells it apart, and a place for site.js to list the chosen ones as removable chips.

Upgrades are grouped under their nearest ancestor rule that is not itself an upgrade (its section), in the book's
order: the page scrolls through a few groups, which close on a phone, instead of a nested scroll box. Two upgrades
of one name are labelled with their parents ("Intense Core (Blast)", "Intense Core (Spray)"), and a label two
upgrades still share gets the rule id as well, so no two options read the same.
"""

from __future__ import annotations

import html
from collections import Counter

from rulesc.analyze.program import Program
from rulesc.model import ANY_TIMES, Param
from rulesc.runtime.rulesc_runtime import Upgrade

OTHER = "Other upgrades"


def upgrade_picker(base: str, param: Param, program: Program) -> str:
    """The fieldset calculators.js reads ([data-upgrade] controls) with site.js's chosen list at its top."""
    ident = f"{base}-{param.name}"
    upgrades = program.upgrades
    labels = upgrade_labels(program, upgrades)
    details = "".join(_group(name, ids, upgrades, labels) for name, ids in _groups(program, upgrades))
    label = html.escape(param.label)
    help_text, described = field_help(ident, param)
    return (f'<fieldset class="rulesc-calc__field rulesc-calc__picker" id="{ident}" name="{param.name}" '
            f'data-type="upgrades" aria-describedby="{described}"><legend>{label}</legend>'
            f'<div class="rulesc-calc__chosen" aria-live="polite"></div>'
            f'<input type="search" class="rulesc-calc__filter" aria-label="Filter the list of {label}" '
            f'placeholder="Filter by name" autocomplete="off">{details}{help_text}'
            f'<span class="rulesc-calc__msg" id="{ident}-msg" aria-live="polite"></span></fieldset>')


def field_help(ident: str, param: Param) -> tuple[str, str]:
    """An input's help (as text) under its control, and the ids its aria-describedby names: the help, if any, and
    the message a wrong value shows."""
    if not param.help:
        return "", f"{ident}-msg"
    return f'<span class="rulesc-calc__help" id="{ident}-help">{html.escape(param.help)}</span>', \
        f"{ident}-help {ident}-msg"


def upgrade_labels(program: Program, upgrades: dict[str, Upgrade]) -> dict[str, str]:
    """Each upgrade's label: its name; a name two upgrades share gets the parent rule's name, and a label still
    shared after that gets the upgrade's id as well."""
    names = Counter(u.name.casefold() for u in upgrades.values())
    labels = {}
    for upgrade_id, upgrade in upgrades.items():
        parent = program.rules.get(program.rules[upgrade_id].parent or "")
        clash = names[upgrade.name.casefold()] > 1 and parent is not None
        labels[upgrade_id] = f"{upgrade.name} ({parent.name})" if clash and parent else upgrade.name
    shared = Counter(label.casefold() for label in labels.values())
    return {u: f"{label} [{u}]" if shared[label.casefold()] > 1 else label for u, label in labels.items()}


def _groups(program: Program, upgrades: dict[str, Upgrade]) -> list[tuple[str, list[str]]]:
    """(group name, upgrade ids) in the book's order of the groups' rules; the upgrades of each by label later."""
    order = {rule.id: i for i, rule in enumerate(program.system.rules())}
    groups: dict[str, list[str]] = {}
    for upgrade_id in upgrades:
        groups.setdefault(_section(program, upgrade_id, upgrades), []).append(upgrade_id)
    ranked = sorted(groups, key=lambda g: (g == "", order.get(g, len(order)), g))
    return [(program.rules[g].name if g else OTHER, groups[g]) for g in ranked]


def _section(program: Program, upgrade_id: str, upgrades: dict[str, Upgrade]) -> str:
    """The id of the upgrade's nearest ancestor that is not an upgrade, or "" if it has none."""
    seen, rule = {upgrade_id}, program.rules[upgrade_id]
    while rule.parent in program.rules and rule.parent not in seen:
        if rule.parent not in upgrades:
            return rule.parent
        seen.add(rule.parent)
        rule = program.rules[rule.parent]
    return ""


def _group(name: str, ids: list[str], upgrades: dict[str, Upgrade], labels: dict[str, str]) -> str:
    """A group, open (site.js closes them on a phone, and opens those a filter matches)."""
    items = "".join(_item(u, upgrades[u], labels[u]) for u in sorted(ids, key=lambda u: (labels[u].casefold(), u)))
    return (f'<details class="rulesc-calc__group" open><summary>{html.escape(name)} '
            f'<span class="rulesc-muted">({len(ids)})</span></summary><ul class="rulesc-calc__choices">{items}</ul>'
            "</details>")


def _item(upgrade_id: str, upgrade: Upgrade, label: str) -> str:
    """A checkbox, or a count where the upgrade may be taken more than once."""
    name = html.escape(label)
    if upgrade.max_times > 1:
        most = "any number of times" if upgrade.max_times >= ANY_TIMES else f"up to {upgrade.max_times}"
        control = (f'<input type="number" min="0" max="{upgrade.max_times}" value="0" inputmode="numeric" '
                   f'data-upgrade="{upgrade_id}" data-label="{name}" aria-label="{name}: times taken ({most})">')
        return f"<li><label>{control} {name} ({most})</label></li>"
    return f'<li><label><input type="checkbox" data-upgrade="{upgrade_id}" data-label="{name}"> {name}</label></li>'


__all__ = ["upgrade_labels", "upgrade_picker"]
