"""rulesc's tests; importing the package (pytest does before any conftest) keeps the run's bytecode."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

BYTECODE = Path(__file__).resolve().parent.parent / ".pytest_cache" / "bytecode"
"""Where a run whose environment says PYTHONDONTWRITEBYTECODE keeps its compiled modules instead of beside them."""


def keep_bytecode() -> None:
    """With PYTHONDONTWRITEBYTECODE set, every Python process of a run compiled each module it imported afresh:
    both xdist workers, and each `python -m rulesc.cli`, pip and mypy a test starts (over a second each for
    rulesc's imports), and pytest rewrote every test module's asserts again. The run keeps its bytecode in one
    folder out of the source tree (PYTHONPYCACHEPREFIX, set for the processes it starts too), so no __pycache__
    appears beside a source, as the setting asked, and each module is compiled once. Without the setting it does
    the same, so no test writes beside a module it imports: the engine of the build the run's workers share stays
    as built. With a prefix chosen already, nothing changes. The bytecode of modules under the temporary folder
    (engines built by earlier runs' tests) is dropped, so the folder does not grow run after run."""
    if sys.pycache_prefix is not None:
        return
    shutil.rmtree(BYTECODE / Path(tempfile.gettempdir()).resolve().relative_to("/"), ignore_errors=True)
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(BYTECODE)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(BYTECODE)


keep_bytecode()
