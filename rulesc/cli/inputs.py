"""`rulesc calc` inputs: the text after name= read as the parameter's type, within its range or choices."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from rulesc.cli.usage import UsageError
from rulesc.diagnostics.core import did_you_mean
from rulesc.model import Param
from rulesc.runtime.rulesc_runtime import MAX_INT, RulesError, parse_dice

WHOLE = re.compile(r"[+-]?[0-9]+")
FLAGS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def parse_input(full_id: str, param: Param, text: str, upgrades: Collection[str]) -> Any:
    """The value `text` gives `param` of formula or calculator `full_id`; a UsageError says what it takes."""
    if param.type == "upgrades":
        return _upgrades(full_id, param, text, upgrades)
    if param.type == "bool":
        if text.lower() not in FLAGS:
            raise _refused(full_id, param, text)
        return FLAGS[text.lower()]
    if param.type == "dice":
        return _dice(full_id, param, text)
    if not WHOLE.fullmatch(text) or not _allowed(param, int(text)):
        raise _refused(full_id, param, text)
    return int(text)


def accepts(param: Param) -> str:
    """What an input takes, in words: 'a whole number from 1 to 30', 'one of 1 (Easy), 2 (Hard)', ..."""
    if param.type == "bool":
        return "true or false (also yes/no, 1/0)"
    if param.type == "dice":
        return "a dice pool such as 1d10+1d4 (0 or - for no dice)"
    if param.type == "upgrades":
        return "a comma-separated list of the system's upgrade ids (empty for none)"
    if param.options:
        return "one of " + ", ".join(f"{o.value} ({o.label})" for o in param.options)
    low, high = param.min if param.min is not None else -MAX_INT, param.max if param.max is not None else MAX_INT
    return f"a whole number from {low} to {high}"


def _allowed(param: Param, value: int) -> bool:
    if param.options:
        return value in {o.value for o in param.options}
    low, high = param.min if param.min is not None else -MAX_INT, param.max if param.max is not None else MAX_INT
    return low <= value <= high


def _dice(full_id: str, param: Param, text: str) -> Any:
    if not text.strip():  # no dice is written 0 or -, never left blank
        raise _refused(full_id, param, text)
    try:
        return parse_dice(text)
    except RulesError as exc:
        reason = "" if str(exc).endswith("is not a dice pool") else f" ({exc})"  # d66!: why, and what to write
        raise UsageError(f"{_refused(full_id, param, text)}{reason}") from None


def _upgrades(full_id: str, param: Param, text: str, upgrades: Collection[str]) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in text.split(",") if part.strip())
    for upgrade_id in chosen:
        if upgrade_id not in upgrades:
            hint = did_you_mean(upgrade_id, upgrades)
            raise UsageError(f"{full_id}: {param.name} takes {accepts(param)}; got unknown upgrade {upgrade_id!r}"
                             + (f"; {hint}" if hint else "; `rulesc list` shows the rules"))
    return chosen


def _refused(full_id: str, param: Param, text: str) -> UsageError:
    return UsageError(f"{full_id}: {param.name} takes {accepts(param)}; got {text!r}")
