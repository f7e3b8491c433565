"""`rulesc init [DIR]`: a new rulebook that checks and builds at once, written from the scaffold rulesc ships."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rulesc import __version__
from rulesc.cli.usage import UsageError
from rulesc.compile import Project

SCAFFOLD = Path(__file__).resolve().parent.parent / "scaffold"
DOT = "dot-"  # a scaffold file or folder named dot-x is written as .x (package data leaves dot-files out)
VERSION_MARK = "{{rulesc_version}}"


def register(commands: Any) -> None:
    init = commands.add_parser("init", help="start a rulebook: content/, mkdocs.yml, CI workflow, editor settings")
    init.add_argument("directory", nargs="?", default=".", metavar="DIR",
                      help="where to write it (default: the current folder); existing files are never overwritten")
    init.set_defaults(run=run_init)


def scaffold_files() -> dict[str, str]:
    """Every file of a new rulebook: {path relative to its folder: text}."""
    files = {}
    for path in sorted(p for p in SCAFFOLD.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        parts = [("." + part.removeprefix(DOT)) if part.startswith(DOT) else part
                 for part in path.relative_to(SCAFFOLD).parts]
        files["/".join(parts)] = path.read_text(encoding="utf-8").replace(VERSION_MARK, __version__)
    return files


def run_init(project: Project, args: argparse.Namespace) -> int:
    target = Path(args.directory)
    if target.exists() and not target.is_dir():
        raise UsageError(f"{target} is a file, not a folder")
    files = scaffold_files()
    taken = [name for name in files if (target / name).exists()]
    if taken:
        raise UsageError(f"{target} already has {', '.join(taken)}; rulesc init never overwrites a file, so nothing "
                         "was written (start in an empty folder, or move those files away)")
    for name, text in files.items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).write_text(text, encoding="utf-8", newline="\n")
    print(f"rulesc: started a rulebook in {target} ({len(files)} files)")
    where = "" if target.resolve() == Path.cwd().resolve() else f"cd {args.directory} && "
    print(f"next: {where}rulesc check --strict && rulesc build, then open site/index.html")
    return 0
