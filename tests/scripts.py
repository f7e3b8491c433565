"""The site's generated scripts as the tests load them: the runtime, then each system's formulas/<id>.js."""

from __future__ import annotations

import json
from pathlib import Path

from rulesc.emit.scripts import FORMULAS_FOLDER, RUNTIME_SCRIPT


def formulas_files(docs: Path) -> list[Path]:
    """Every system's script in a built docs (or site) folder, in path order."""
    return sorted((docs / FORMULAS_FOLDER).glob("*.js"))


def formulas_text(docs: Path) -> str:
    """Every system's script, one after another: the text a test searches for what one of them says."""
    return "".join(path.read_text(encoding="utf-8") for path in formulas_files(docs))


def require_scripts(docs: Path, runtime: bool = True) -> str:
    """Node statements that load the runtime (unless already loaded) and every system's script."""
    paths = ([docs / RUNTIME_SCRIPT] if runtime else []) + formulas_files(docs)
    return "".join(f"require({json.dumps(str(path))});" for path in paths)
