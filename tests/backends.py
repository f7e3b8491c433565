"""Helpers to run the same calls through the generated Python engine and the generated JavaScript."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
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
    """Values as both backends report them: dice pools as {'dice': text}."""
    if isinstance(value, Dice) or type(value).__name__ == "Dice":  # the engine ships its own copy of Dice
        return {"dice": str(value)}
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def import_engine(engine_dir: Path, module: str) -> Any:
    """Import rules_engine.<module> from a built engine folder."""
    if str(engine_dir) not in sys.path:
        sys.path.insert(0, str(engine_dir))
    for name in [m for m in sys.modules if m == "rules_engine" or m.startswith("rules_engine.")]:
        del sys.modules[name]
    return importlib.import_module(f"rules_engine.{module}")
