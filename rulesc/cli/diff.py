"""`rulesc diff BASE [HEAD]`: what a change does to the rules and their numbers, as Markdown or JSON; and
`rulesc changelog`: what changed in each tagged (or listed) version. Git and the diff are imported when one of them
runs, not when the command line is read."""

from __future__ import annotations

import argparse
from typing import Any

from rulesc.cli.usage import UsageError
from rulesc.compile import Project


def register(commands: Any) -> None:
    diff = commands.add_parser("diff", help="what a change does to the rules: compare two git revisions")
    diff.add_argument("base", metavar="BASE", help="the git revision to compare from, e.g. origin/main")
    diff.add_argument("head", metavar="HEAD", nargs="?", default=None,
                      help="the git revision to compare to (default: the working tree)")
    diff.add_argument("--format", choices=("markdown", "json"), default="markdown",
                      help="markdown (default; for a pull request comment or job summary) or json")
    diff.add_argument("--fail-on-breaking", action="store_true",
                      help="exit 1 when a change is breaking (a permalink or engine function removed)")
    diff.set_defaults(run=run_diff)
    log = commands.add_parser("changelog", help="what changed in each tagged version of the rules, newest first")
    log.add_argument("--format", choices=("markdown", "json"), default="markdown",
                     help="markdown (default) or json")
    log.add_argument("--system", metavar="ID", default=None,
                     help="one system only, over the versions its system.yaml lists (its tags if it lists none)")
    log.set_defaults(run=run_changelog)


def run_diff(project: Project, args: argparse.Namespace) -> int:
    from rulesc.diff.compare import diff_revisions
    from rulesc.diff.git import GitError
    from rulesc.diff.render import diff_json, diff_markdown

    try:
        changes = diff_revisions(project, args.base, args.head)
    except GitError as exc:
        raise UsageError(str(exc)) from None
    print(diff_json(changes) if args.format == "json" else diff_markdown(changes), end="")
    return 1 if args.fail_on_breaking and changes.breaking else 0


def run_changelog(project: Project, args: argparse.Namespace) -> int:
    """Each tagged version since the one before it; a note (exit 0) where the history has no versions."""
    from rulesc.diff.git import GitError
    from rulesc.diff.history import UnknownSystem, changelog
    from rulesc.diff.render import changelog_json, changelog_markdown

    try:
        log = changelog(project, args.system)
    except (GitError, UnknownSystem) as exc:
        raise UsageError(str(exc)) from None
    print(changelog_json(log) if args.format == "json" else changelog_markdown(log), end="")
    return 0
