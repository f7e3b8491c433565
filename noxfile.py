"""Drift: the whole test suite outside uv.lock, against the newest and the oldest releases pyproject.toml allows.

The README's commands and CI install exactly what uv.lock pins. These sessions install what a user's
`pip install rulesc` could get instead, so a release that breaks rulesc is found here first:

    .venv/bin/uv run --locked --group drift nox              # both sessions
    .venv/bin/uv run --locked --group drift nox -s oldest    # one; arguments after -- go to pytest
"""

from __future__ import annotations

import nox

nox.options.default_venv_backend = "uv"
nox.options.error_on_missing_interpreters = True

# --seed puts pip in the environment: tests/test_packaging.py builds the wheel with it and test_engine.py installs the
# engine, as a user's pip would (test_wheel_install.py installs the wheel with the uv that runs nox).
SEED = ["--seed"]


@nox.session(venv_params=SEED)
def newest(session: nox.Session) -> None:
    """The newest release of every dependency that the ranges allow, ignoring the lock."""
    _suite(session, "--upgrade")


@nox.session(venv_params=SEED)
def oldest(session: nox.Session) -> None:
    """The oldest release each direct dependency's floor claims (what `>=` promises users), the rest newest."""
    _suite(session, "--resolution", "lowest-direct")


def _suite(session: nox.Session, *resolution: str) -> None:
    """rulesc and its test extra installed as `resolution` picks their versions, then the whole suite."""
    session.install(*resolution, "--reinstall-package", "rulesc", "-e", ".[test]")
    session.run("python", "-m", "pytest", *session.posargs)
