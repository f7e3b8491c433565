"""A pytest plugin for mutmut's runs only ([tool.mutmut] in pyproject.toml loads it with -p).

mutmut forks each mutant's test run from a server that has already collected the tests, and collecting runs their
module-level code: parameters such as a die's exact distribution were worked out by the unmutated code and kept in
the runtime's caches. A mutant of a cached function then never runs, and "survives" tests that would catch it (the
weights of a rerolled die, for one). Every cache of the formula language and the runtime is emptied once, before the
first test of each run, so the tests work their values out with the mutant in place (once a run has begun, all it
caches is the mutant's own work)."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True, scope="session")
def _caches_emptied() -> None:
    for name, module in list(sys.modules.items()):
        if module is not None and name.startswith(("rulesc.formula", "rulesc.runtime")):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
