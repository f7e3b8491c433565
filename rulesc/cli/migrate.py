"""`rulesc migrate`: rewrite every format-1 system of the project to format 2, or show the diff with --dry-run."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rulesc.compile import Project
from rulesc.model import FORMATS

NEWEST = FORMATS[-1]  # as rulesc.migrate.plan has it; the migration itself is imported when the command runs


def register(commands: Any) -> None:
    migrate = commands.add_parser("migrate", help=f"rewrite the content to format {NEWEST}, keeping comments and "
                                  "layout")
    migrate.add_argument("--dry-run", action="store_true", help="print the changes as a unified diff; write nothing")
    migrate.add_argument("--root", default=argparse.SUPPRESS, help="the project folder (as rulesc --root)")
    migrate.set_defaults(run=run_migrate)


def run_migrate(project: Project, args: argparse.Namespace) -> int:
    from rulesc.migrate.plan import plan, write
    from rulesc.migrate.steps import STEPS

    migration = plan(project, STEPS)
    if not migration.systems:
        print(f"rulesc: nothing to migrate: every system is at format {NEWEST}")
        return 0
    systems = ", ".join(migration.systems)
    if args.dry_run:
        sys.stdout.write(migration.diff())
        print(f"rulesc: would migrate {systems} to format {NEWEST} ({len(migration.after)} file(s)); "
              "nothing was written", file=sys.stderr)
        return 0
    write(migration)
    print(f"rulesc: migrated {systems} to format {NEWEST}: {len(migration.after)} file(s) changed")
    return 0
