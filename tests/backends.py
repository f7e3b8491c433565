"""Helpers to run the same calls through the generated Python engine and the generated JavaScript."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from generator.runtime.rulesc_runtime import Dice

HARNESS = Path(__file__).resolve().parent / "js_harness.js"


def node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    assert found, "Node.js is needed to run the generated JavaScript (.ci/run installs it)"
    return found


def run_js(docs: Path, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    done = subprocess.run([node(), str(HARNESS), str(docs)], input=json.dumps(calls), capture_output=True,
                          text=True, check=True, timeout=120)
    return list(json.loads(done.stdout))


def encode(value: Any) -> Any:
    """Values as both backends report them: dice pools as {'dice': text}, rolls as {'dist': [[x, p], ...]}."""
    kind = type(value).__name__  # the engine ships its own copies of Dice and Dist
    if isinstance(value, Dice) or kind == "Dice":
        return {"dice": str(value)}
    if kind == "Dist":
        return {"dist": [[x, float(p)] for x, p in value.items()]}
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict) and all(isinstance(k, int) for k in value):  # an expected distribution
        return {"dist": [[x, float(p)] for x, p in sorted(value.items()) if p]}
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


TOLERANCE = 1e-12


def agree(a: Any, b: Any) -> bool:
    """Equal, except that floats (probabilities, means) may differ by up to 1e-12."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= TOLERANCE
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(agree(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(agree(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) and type(a) is type(b)


def import_engine(engine_dir: Path, module: str) -> Any:
    """Import rules_engine.<module> from a built engine folder."""
    if str(engine_dir) not in sys.path:
        sys.path.insert(0, str(engine_dir))
    for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
        del sys.modules[name]
    return importlib.import_module(f"rules_engine.{module}")
