"""Stage and swap: outputs written into a staging folder, then swapped in whole; or, for a preview, rewritten in
place file by file."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

OUTPUTS = ("build/docs", "build/engine", "build/export", "build/schema")
SITE = "site"
PREVIEW_OUTPUTS = ("build/docs",)


@contextmanager
def staging_folder(root: Path) -> Iterator[Path]:
    """A fresh folder inside the project to build into, removed afterwards with whatever is left in it."""
    staging = Path(tempfile.mkdtemp(prefix=".rulesc-tmp-", dir=root))
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_tree(folder: Path, files: dict[str, str]) -> None:
    """Each file (relative path: text) written under `folder`, in path order."""
    for relative, text in sorted(files.items()):
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="\n")


def swap(root: Path, staging: Path, folders: list[str]) -> None:
    """Move each staged folder into place, then remove the old ones (moved into staging on the way); on any failure
    put back what was there before."""
    retired = staging / ".retired"
    moved: list[tuple[Path, Path | None]] = []
    try:
        for index, folder in enumerate(folders):
            target, fresh = root / folder, staging / folder
            old = None
            if target.exists():
                old = retired / str(index)
                old.parent.mkdir(parents=True, exist_ok=True)
                os.replace(target, old)
            target.parent.mkdir(parents=True, exist_ok=True)
            moved.append((target, old))
            os.replace(fresh, target)
    except BaseException:
        for target, old in reversed(moved):  # put back what was there before
            if target.exists():
                shutil.rmtree(target, ignore_errors=True)
            if old is not None:
                os.replace(old, target)
        raise
    shutil.rmtree(retired, ignore_errors=True)


@dataclass(frozen=True)
class Refresh:
    """What one refresh of build/ did: files rewritten and deleted, and every file it generated, by folder."""
    written: int
    deleted: int
    generated: dict[str, frozenset[str]]


def files_in(root: Path, folders: tuple[str, ...] = PREVIEW_OUTPUTS) -> dict[str, frozenset[str]]:
    """The files now in each of `folders`, by folder: right after a build, the files it generated."""
    return {folder: frozenset(p.relative_to(root / folder).as_posix()
                              for p in (root / folder).rglob("*") if p.is_file()) for folder in folders}


def update_in_place(root: Path, trees: dict[str, dict[str, str]], folders: tuple[str, ...],
                    before: dict[str, frozenset[str]] | None = None) -> Refresh:
    """Rewrite only the changed files of `folders` in place (for `rulesc serve`).

    Unchanged files keep their modification time, so MkDocs' dirty build rebuilds only the pages that changed. A
    file that the refresh before (`before`) generated and this one does not is deleted, with the folders it leaves
    empty: a chapter that passes its budget turns `chapter.md` into `chapter/index.md`, and the old page would
    otherwise stay and claim the same address. Files no refresh generates (the What changed pages, which only
    `rulesc build` writes) stay.
    """
    written = deleted = 0
    for folder, files in ((f, trees[f]) for f in folders):
        for relative, text in sorted(files.items()):
            target = root / folder / relative
            if target.is_file() and target.read_text(encoding="utf-8") == text:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
            written += 1
        for relative in sorted((before or {}).get(folder, frozenset()) - files.keys()):
            deleted += _delete(root / folder, relative)
    return Refresh(written, deleted, {folder: frozenset(trees[folder]) for folder in folders})


def _delete(folder: Path, relative: str) -> int:
    """Delete folder/relative and the folders under `folder` that it leaves empty; 1 if the file was there."""
    target = folder / relative
    if not target.is_file():
        return 0
    target.unlink()
    for parent in target.parents:
        if parent == folder or any(parent.iterdir()):
            break
        parent.rmdir()
    return 1
