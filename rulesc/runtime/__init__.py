"""The hand-written runtimes the generated Python engine and JavaScript calculators call."""

from pathlib import Path

RUNTIME_DIR = Path(__file__).resolve().parent
PYTHON_RUNTIME = RUNTIME_DIR / "rulesc_runtime.py"
JS_RUNTIME = RUNTIME_DIR / "rulesc_runtime.js"
