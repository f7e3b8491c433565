"""Command line: argv in, exit code out; the only module that prints or exits."""

from __future__ import annotations

import argparse
import functools
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from rulesc import __version__
from rulesc.cli import bench, build, check, dice, diff, init, migrate, query, roll
from rulesc.cli.usage import UsageError
from rulesc.compile import Project
from rulesc.diagnostics import report
from rulesc.diagnostics.core import ContentError


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = _arguments(parser, argv)
    project = Project(Path(args.root).resolve())
    try:
        return int(args.run(project, args))
    except ContentError as exc:
        fmt = getattr(args, "format", "human")
        stream = sys.stdout if fmt in report.MACHINE_FORMATS else sys.stderr
        print(report.failure(exc.diagnostics, project.root, fmt, report.use_colour(stream)), file=stream)
        return 1
    except UsageError as exc:
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head`: not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115  # never closed: Python flushes stdout at exit
        return 0
    except KeyboardInterrupt:
        print("rulesc: interrupted; nothing was written", file=sys.stderr)
        return 130
    except Exception:  # the one boundary that turns a bug into a report
        print("rulesc: internal error: this is a bug in rulesc; please report it"
              + ("" if args.debug else " (run again with --debug for details)"), file=sys.stderr)
        if args.debug:
            traceback.print_exc()
        return 2


def _arguments(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse argv; a dice expression that starts with '-' (such as -1d6) is the expression, not an option."""
    args, extra = parser.parse_known_args(argv)
    if args.command == "dice" and args.expression is None and len(extra) == 1:
        args.expression = extra.pop()
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


@functools.cache  # built once a process: parsing changes nothing in it, and tests call main() hundreds of times
def _parser() -> argparse.ArgumentParser:
    """The command line's parser: the global options and every command's."""
    parser = argparse.ArgumentParser(prog="rulesc",
                                     description="Compile rule data into an engine, a site and an export.")
    parser.add_argument("--version", action="version", version=f"rulesc {__version__}")
    parser.add_argument("--root", default=".", help="the project folder (holds content/ and mkdocs.yml)")
    parser.add_argument("--debug", action="store_true", help="show details of internal errors")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in (init, check, diff, build, query, roll, dice, bench, migrate):
        command.register(commands)
    return parser

