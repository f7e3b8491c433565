"""The file-system boundary: rulesc reads only regular files inside the project, never blocking, never leaking."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from rulesc.diagnostics.core import Diagnostic, Span, render
from rulesc.files import Unreadable, read_project_file
from tests.run_case import run_rulesc

MINIMAL = Path(__file__).resolve().parent / "cases" / "good" / "minimal"
HINT = "  = hint: replace the link with the file itself, or link to a file inside the project\n"


def project(tmp_path: Path) -> Path:
    shutil.copytree(MINIMAL / "content", tmp_path / "content")
    return tmp_path


def check(root: Path) -> tuple[int, str]:
    status, out, err = run_rulesc("--root", str(root), "check")
    return status, out + err


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    root = project(tmp_path)
    os.mkfifo(root / "content/mini/pipe.yaml")
    assert check(root) == (1, "content/mini/pipe.yaml:1:1: error[E0113]: this is a named pipe (FIFO), not a file\n"
                              "  = hint: rulesc reads only ordinary files; rename or remove it\n"
                              "rulesc: 1 error(s); nothing was written\n")


def test_a_link_to_an_endless_device_is_refused_before_reading(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "content/mini/zero.yaml").symlink_to("/dev/zero")
    assert check(root) == (1, "content/mini/zero.yaml:1:1: error[E0114]: this is a symbolic link to a file outside "
                              "the project, which rulesc does not read\n" + HINT +
                              "rulesc: 1 error(s); nothing was written\n")


def test_a_device_inside_the_project_is_not_a_file(tmp_path: Path) -> None:
    with pytest.raises(Unreadable) as refused:
        read_project_file(Path("/dev/null"), Path("/dev"), 100)
    assert (refused.value.code, refused.value.message) == ("E0113", "this is a device, not a file")


def test_a_system_folder_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    shutil.copytree(MINIMAL / "content/mini", tmp_path / "elsewhere")
    (tmp_path / "project/content").mkdir(parents=True)
    (tmp_path / "project/content/mini").symlink_to(tmp_path / "elsewhere")
    assert check(tmp_path / "project") == (1, (
        "content/mini/basics.yaml:1:1: error[E0114]: this file's folder is a symbolic link to outside the project, "
        "which rulesc does not read\n" + HINT +
        "content/mini/system.yaml:1:1: error[E0114]: this file's folder is a symbolic link to outside the project, "
        "which rulesc does not read\n" + HINT + "rulesc: 2 error(s); nothing was written\n"))


def test_a_file_the_system_will_not_let_rulesc_read_is_a_located_error(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root, real = project(tmp_path), os.open
    locked = str((root / "content/mini/basics.yaml").resolve())

    def refusing(path: str, flags: int, *args: int) -> int:
        if str(path) == locked:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", refusing)  # the tests run as root in CI, where chmod 000 would not stop a read
    assert check(root) == (1, "content/mini/basics.yaml:1:1: error[E0113]: the file cannot be read: permission "
                              "denied\n  = hint: check the file's permissions; rulesc needs to read every file in "
                              "content/\nrulesc: 1 error(s); nothing was written\n")


def test_a_settings_file_linked_out_of_the_project_is_neither_read_nor_shown(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("site_name: [the secret\n", encoding="utf-8")
    root = project(tmp_path / "project")
    (root / "mkdocs.yml").symlink_to(secret)
    assert check(root) == (1, "mkdocs.yml:1:1: error[E0114]: this is a symbolic link to a file outside the "
                              "project, which rulesc does not read\n" + HINT +
                              "rulesc: 1 error(s); nothing was written\n")


def test_a_message_never_quotes_a_line_of_a_file_outside_the_project(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("the secret\n", encoding="utf-8")
    (tmp_path / "project").mkdir()
    (tmp_path / "project/linked.yaml").symlink_to(tmp_path / "secret.txt")
    (tmp_path / "project/own.yaml").write_text("the own line\n", encoding="utf-8")
    shown = [render(Diagnostic("error", "E0101", "x", Span(name, 1, 1)), tmp_path / "project")
             for name in ("linked.yaml", "own.yaml")]
    assert shown == ["linked.yaml:1:1: error[E0101]: x", "own.yaml:1:1: error[E0101]: x\n   1 | the own line\n     | ^"]


def test_a_quoted_line_is_read_only_so_far(tmp_path: Path) -> None:
    (tmp_path / "long.yaml").write_bytes(b"a" * 100_000 + b"\nsecond\n")
    shown = render(Diagnostic("error", "E0101", "x", Span("long.yaml", 2, 1)), tmp_path)
    assert shown == "long.yaml:2:1: error[E0101]: x\n   2 | second\n     | ^"


def test_a_schema_file_linked_out_of_the_project_or_a_pipe_is_not_read(tmp_path: Path) -> None:
    """The project's schema/ is read as content is: a link out of it or a pipe is a located error, never read."""
    root = project(tmp_path)
    (root / "schema").mkdir()
    (root / "schema/common.schema.json").symlink_to("/etc/passwd")
    os.mkfifo(root / "schema/system.schema.json")
    assert check(root) == (1, "schema/common.schema.json:1:1: error[E0114]: this is a symbolic link to a file outside "
                              "the project, which rulesc does not read\n" + HINT +
                              "rulesc: 1 error(s); nothing was written\n")
    (root / "schema/common.schema.json").unlink()
    assert check(root) == (1, "schema/system.schema.json:1:1: error[E0113]: this is a named pipe (FIFO), not a file\n"
                              "  = hint: rulesc reads only ordinary files; rename or remove it\n"
                              "rulesc: 1 error(s); nothing was written\n")


def test_a_schema_folder_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    """schema/ itself a link out of the project: no file there is read (a link to /etc, which holds none of the
    schemas, leaves rulesc's own)."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "common.schema.json").write_text("{}", encoding="utf-8")
    root = project(tmp_path / "book")
    (root / "schema").symlink_to(elsewhere)
    assert check(root) == (1, "schema/common.schema.json:1:1: error[E0114]: this file's folder is a symbolic link to "
                              "outside the project, which rulesc does not read\n" + HINT +
                              "rulesc: 1 error(s); nothing was written\n")
    other = project(tmp_path / "other")
    (other / "schema").symlink_to("/etc")
    assert check(other) == (0, "rulesc: ok: 1 system(s), 2 rules, 1 formulas, 1 examples passed, 0 calculators\n")
