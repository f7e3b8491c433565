"""The project's files as rulesc reads them: regular files inside the project, of a bounded size, never blocking."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))
_NOT_A_FILE_HINT = "rulesc reads only ordinary files; rename or remove it"
_LINK_HINT = "replace the link with the file itself, or link to a file inside the project"


class Unreadable(Exception):
    """A file rulesc will not or cannot read: its catalog code, what is wrong and how to fix it."""

    def __init__(self, code: str, message: str, hint: str | None = None):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


def read_project_file(path: Path, root: Path, limit: int) -> bytes:
    """The bytes of `path`, a regular file inside `root` (a symbolic link is followed only to a file inside it)
    of at most `limit` bytes; raises Unreadable, never blocks, and never reads anything else."""
    with open_project_file(path, root) as handle:
        size = os.fstat(handle.fileno()).st_size
        data = handle.read(limit + 1) if size <= limit else b""
    if size > limit or len(data) > limit:
        raise Unreadable("E0105", f"the file is {max(size, len(data))} bytes; content files may be at most "
                         f"{limit} bytes", "split it into several chapter files")
    return data


def open_project_file(path: Path, root: Path) -> BinaryIO:
    """`path` opened for reading in binary, after the checks read_project_file makes (but the size)."""
    target = _inside(path, root)
    try:
        fd = os.open(target, _FLAGS | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise _failure(exc) from None
    mode = os.fstat(fd).st_mode  # checked again on the open file: it may have been swapped since
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise Unreadable("E0113", f"this is {_kind(mode)}, not a file", _NOT_A_FILE_HINT)
    os.set_blocking(fd, True)
    return open(fd, "rb")  # noqa: SIM115  # the caller closes it


def _inside(path: Path, root: Path) -> str:
    """Where `path` leads, checked to be a regular file inside `root` without opening it."""
    try:
        linked = stat.S_ISLNK(os.lstat(path).st_mode)
        target = os.path.realpath(path)
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        if _is_link(path):
            raise Unreadable("E0114", "this is a symbolic link to nothing: its target does not exist",
                             _LINK_HINT) from None
        raise Unreadable("E0113", "the file cannot be read: it no longer exists") from None
    except OSError as exc:
        raise _failure(exc) from None
    if not Path(target).is_relative_to(os.path.realpath(root)):
        raise Unreadable("E0114", "this is a symbolic link to a file outside the project, which rulesc does not read"
                         if linked else "this file's folder is a symbolic link to outside the project, which rulesc "
                         "does not read", _LINK_HINT)
    if not stat.S_ISREG(mode):
        raise Unreadable("E0113", f"this is {_kind(mode)}, not a file", _NOT_A_FILE_HINT)
    return target


def _is_link(path: Path) -> bool:
    """Whether `path` is a symbolic link (False when it does not exist at all)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _failure(exc: OSError) -> Unreadable:
    """An operating system's refusal, said without the path (the span names the file) and without its content."""
    if exc.errno == errno.ELOOP:
        return Unreadable("E0114", "this is a symbolic link that leads round in a loop", _LINK_HINT)
    reason = (exc.strerror or type(exc).__name__).lower()
    return Unreadable("E0113", f"the file cannot be read: {reason}",
                      "check the file's permissions; rulesc needs to read every file in content/")
