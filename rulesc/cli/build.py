"""`rulesc build` and `rulesc serve`: every output into a staging folder and swapped in; a live preview.

The build stages (MkDocs, the search index) are imported when one of these commands runs, not when the command
line is read: the other commands never pay for them."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path
from typing import Any

from rulesc.build import DEFAULT_SITE_BUILDER, SITE_BUILDERS
from rulesc.cli.check import add_variant_option, with_variants
from rulesc.cli.usage import UsageError
from rulesc.compile import Project
from rulesc.diagnostics.core import ContentError, render


def register(commands: Any) -> None:
    build = commands.add_parser("build", help="build site/, build/engine, build/docs and build/export")
    build.add_argument("--no-site", action="store_true", help="generate build/ only; skip the site")
    build.add_argument("--site-builder", choices=SITE_BUILDERS, default=DEFAULT_SITE_BUILDER,
                       help=f"what builds site/ from build/docs (default: {DEFAULT_SITE_BUILDER}); zensical needs "
                            "the extra: pip install 'rulesc[zensical]'")
    add_variant_option(build, "build with a variant (house rule, optional rule, homebrew) applied; several are "
                       "applied in order")
    build.set_defaults(run=run_build)
    serve = commands.add_parser("serve", help="preview the site; rebuild when content/ or schema/ change")
    serve.add_argument("--dev-addr", default="127.0.0.1:8000", metavar="HOST:PORT")
    serve.set_defaults(run=run_serve)


def run_build(project: Project, args: argparse.Namespace) -> int:
    from rulesc.build.builders import SiteBuildError, missing_builder
    from rulesc.pipeline import build_project

    missing = None if args.no_site else missing_builder(args.site_builder)
    if missing:
        raise UsageError(missing)
    project = with_variants(project, args.variant) if args.variant else project
    try:
        result = build_project(project, site=not args.no_site, builder=args.site_builder, history=True)
    except SiteBuildError as exc:  # the builder's own words (a refused page or template) beat "internal error"
        raise UsageError(f"{exc}; nothing was written") from exc
    outputs = "build/docs, build/engine, build/export, build/schema" + ("" if args.no_site else " and site/")
    print(f"rulesc: built {result.systems} system(s) into {outputs} ({result.files} generated files)")
    return 0


def run_serve(project: Project, args: argparse.Namespace) -> int:
    from rulesc.build.builders import serve_site
    from rulesc.build.site_config import read_settings, site_config_problems
    from rulesc.pipeline import build_project

    problems = site_config_problems(read_settings(project.root))  # before anything is written
    if problems:
        raise ContentError(problems)
    result = build_project(project, site=False)  # the live preview builds the site itself, in a folder of its own
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(project, stop), daemon=True)
    watcher.start()
    try:
        serve_site(result.settings, project.root / "build/docs", result.nav, args.dev_addr)
    finally:
        stop.set()
    return 0


def _snapshot(project: Project) -> dict[Path, float]:
    paths = list(project.content.rglob("*.yaml")) + list(project.schema.glob("*.json"))
    return {p: p.stat().st_mtime for p in paths if p.is_file()}


def _watch(project: Project, stop: Any) -> None:
    """Regenerate build/ when content or schema change; MkDocs notices build/docs and rebuilds the site. A page the
    content no longer makes (a chapter split into parts, renamed or removed) is deleted from build/docs."""
    from rulesc.build.staging import PREVIEW_OUTPUTS, files_in
    from rulesc.pipeline import refresh_outputs

    seen = _snapshot(project)
    generated = files_in(project.root)  # run_serve's build (without history) has just written exactly these
    while not stop.wait(0.3):
        now = _snapshot(project)
        if now == seen:
            continue
        seen = now
        started = time.perf_counter()
        try:
            refresh = refresh_outputs(project, PREVIEW_OUTPUTS, generated)
        except ContentError as exc:
            for diag in exc.diagnostics:
                print(render(diag, project.root), file=sys.stderr)
            print("rulesc: content has errors; the preview keeps the last good build", file=sys.stderr)
            continue
        generated = refresh.generated
        deleted = f", deleted {refresh.deleted}" if refresh.deleted else ""
        print(f"rulesc: regenerated {refresh.written} file(s){deleted} in {time.perf_counter() - started:.2f}s",
              file=sys.stderr)
