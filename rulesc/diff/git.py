"""Diff, input side: a rulebook's content/ and schema/ at a git revision, unpacked into a folder of its own."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

PARTS = ("content", "schema")


class GitError(Exception):
    """git is missing, the folder is not in a repository, or a revision does not exist."""


def git(root: Path, *args: str) -> bytes:
    """The output of one git command run in `root`; raises GitError with git's own message."""
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed; rulesc diff compares git revisions") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(message[-1] if message else f"git {' '.join(args)} failed")
    return done.stdout


def commit_of(root: Path, revision: str) -> str:
    """The full commit id a revision names, or GitError naming the revision."""
    if revision.startswith("-"):
        raise GitError(f"{revision!r} is not a git revision")
    try:
        git(root, "rev-parse", "--show-toplevel")
    except GitError:
        raise GitError(f"{root} is not in a git repository; rulesc diff compares git revisions") from None
    try:
        return git(root, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}").decode().strip()
    except GitError:
        raise GitError(f"unknown git revision {revision!r}") from None


def is_shallow(root: Path) -> bool:
    """Whether the repository at `root` is a shallow clone (its older history and tags are not there)."""
    try:
        return git(root, "rev-parse", "--is-shallow-repository").decode().strip() == "true"
    except GitError:
        return False


def export_revision(root: Path, commit: str, target: Path) -> Path:
    """Unpack content/ and schema/ of the project at `commit` into `target`; returns the project root there."""
    prefix = git(root, "rev-parse", "--show-prefix").decode().strip()
    present = [part for part in PARTS if _exists(root, commit, prefix + part)]
    target.mkdir(parents=True, exist_ok=True)
    if present:
        archive = git(root, "archive", "--format=tar", f"{commit}:{prefix}" if prefix else commit, "--", *present)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
    return target


def _exists(root: Path, commit: str, path: str) -> bool:
    try:
        git(root, "cat-file", "-e", f"{commit}:{path}")
    except GitError:
        return False
    return True
