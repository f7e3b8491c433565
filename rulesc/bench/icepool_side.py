"""`rulesc bench --dice --icepool MODELS`: icepool computing the same answers as the dice formulas, timed in the
same Python process, with its caches emptied before every run; icepool is optional (the test extra)."""

from __future__ import annotations

import importlib
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from rulesc.runtime.rulesc_runtime import as_dist, parse_dice

Model = Callable[..., Any]

CACHES = ("icepool's caches are emptied before every run: its functools caches, the caches its shared evaluators "
          "keep, and the cached properties of every die a model or icepool holds at module level; a model builds "
          "its dice afresh on each call")


class ModelError(Exception):
    """The models file cannot be read: it does not exist, fails to import, or has no MODELS mapping."""


@dataclass(frozen=True)
class IcepoolRun:
    """icepool's runs of one formula's workload: the milliseconds of each run, and each call's answer (as JSON)."""

    runs_ms: list[float]
    results: list[Any]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.runs_ms)


def icepool_module() -> ModuleType | None:
    """icepool, when it is installed (it is in the test extra, not a dependency)."""
    try:
        return importlib.import_module("icepool")
    except ImportError:
        return None


def load_models(path: Path) -> tuple[ModuleType, Mapping[str, Model]]:
    """The models file: MODELS maps 'system/formula' to a function of the formula's arguments (pools as text)
    that returns the same answer computed by icepool (a Die, a Fraction or a number)."""
    if not path.is_file():
        raise ModelError(f"--icepool {path}: no such file")
    spec = importlib.util.spec_from_file_location(f"rulesc_icepool_models_{abs(hash(path))}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - any failure of the author's file is reported, not raised
        raise ModelError(f"--icepool {path}: {type(exc).__name__}: {exc}") from None
    models = getattr(module, "MODELS", None)
    if not isinstance(models, Mapping):
        raise ModelError(f"--icepool {path}: it needs MODELS, a mapping of 'system/formula' to a function")
    return module, models


def icepool_once(models_module: ModuleType, model: Model, calls: Sequence[Sequence[Any]],
                 cold: bool = True) -> tuple[float, list[Any]]:
    """One run of a model on every call, from emptied caches (as the engine's runs) unless not `cold`: its
    milliseconds, answers."""
    if cold:
        empty_caches(models_module)
    start = time.process_time()
    results = [_answer(model, call) for call in calls]
    return (time.process_time() - start) * 1000, results


def _answer(model: Model, call: Sequence[Any]) -> Any:
    try:
        return model(*call)
    except Exception as exc:  # noqa: BLE001 - a model that fails is a disagreement, shown as such
        return _Failed(f"{type(exc).__name__}: {exc}")


@dataclass(frozen=True)
class _Failed:
    error: str


def empty_caches(models_module: ModuleType) -> None:
    """Empty what icepool keeps between calls (see CACHES), so that each run computes everything again."""
    modules = [m for name, m in list(sys.modules.items()) if name == "icepool" or name.startswith("icepool.")]
    for module in [*modules, models_module]:
        for value in list(vars(module).values()):
            _empty(value)


def _empty(value: Any) -> None:
    if callable(getattr(value, "cache_clear", None)):
        value.cache_clear()
    if isinstance(value, type) or not hasattr(value, "__dict__"):
        return
    for name in ("_cache", "ascending_cache", "descending_cache"):
        if isinstance(vars(value).get(name), dict):
            vars(value)[name].clear()
    for name in [n for n in vars(value) if isinstance(getattr(type(value), n, None), cached_property)]:
        del vars(value)[name]


def encode(value: Any) -> Any:
    """icepool's answer in the encoding the engine's answers have (bench/dice.py's encode()): a die of whole
    numbers as {"dist": ...}, of names or yes/no as {"outcomes": ...} in the runtime's order, a Fraction as
    {"exact": ...}."""
    if isinstance(value, _Failed):
        return {"error": value.error}
    items = getattr(value, "items", None)
    if callable(items) and hasattr(value, "denominator"):
        total = value.denominator()
        pairs = [(outcome, Fraction(weight, total)) for outcome, weight in items() if weight]
        if all(isinstance(outcome, int) and not isinstance(outcome, bool) for outcome, _ in pairs):
            return {"dist": [[x, str(p)] for x, p in sorted(pairs)]}
        ordered = sorted(pairs, key=lambda pair: (0, str(int(pair[0]))) if isinstance(pair[0], bool)
                         else (1, str(pair[0])))
        return {"outcomes": [[label, str(p)] for label, p in ordered]}
    if isinstance(value, Fraction):
        return {"exact": str(value)}
    return value


def comparable(engine_answer: Any) -> Any:
    """An engine answer as icepool can give it: a pool ({"dice": text}) as the roll of its sum."""
    if isinstance(engine_answer, dict) and "dice" in engine_answer:
        return {"dist": [[x, str(p)] for x, p in as_dist(parse_dice(engine_answer["dice"])).items()]}
    return engine_answer
