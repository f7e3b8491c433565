"""Migration on drawn rulebooks (hypothesis): every format-1 rulebook that checks migrates to format 2, checks
again and gives the same answer to every call. The formulas are pools multiplied by numbers, nested, bracketed and
written in each YAML style, inside rolls and chances; d66 is a die of 66 sides."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.analyze.program import show
from rulesc.pipeline import Project, compile_project
from rulesc.runtime.rulesc_runtime import RulesError, parse_dice
from tests.run_case import run_rulesc

EXAMPLES = int(os.environ.get("RULESC_FUZZ_EXAMPLES", "40"))
CASE = Path(__file__).resolve().parent / "cases" / "good" / "minimal" / "content"
COUNTS = st.sampled_from(["tier", "2", "0", "(tier + 1)", "tier*1", "clamp(tier, 0, 2)"])
LEAVES = st.sampled_from(["dice", "1d6", "2d4+1", "d66", "1d(6)", "dice_part(dice)", "2d6r1", "1d4!"])


def _pools(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    joined = st.tuples(inner, st.sampled_from([" + ", "+", " - 1 + "]), inner).map("".join)
    times = st.tuples(inner, st.sampled_from([" * ", "*", " *  "]), COUNTS).map("".join)
    before = st.tuples(COUNTS, st.sampled_from([" * ", "*"]), inner).map("".join)
    return st.one_of(joined, times, before, inner.map(lambda p: f"({p})"),
                     st.tuples(inner, COUNTS).map(lambda a: f"step({a[0]}, {a[1]})"),
                     st.tuples(inner, COUNTS).map(lambda a: f"repeat({a[0]}, {a[1]})"))


POOLS = st.recursive(LEAVES, _pools, max_leaves=5)
WRAPS = st.sampled_from(["{}", "roll({})", "p_at_least({}, 7)", "mean({}) * 2", "let p = {} in highest(p, 1)",
                         "max(0, {} - 3)"])
STYLES = st.sampled_from(["plain", "double", "single", "folded"])


def _scalar(expr: str, style: str) -> str:
    if style == "double":
        return json.dumps(expr)
    if style == "single":
        return "'" + expr.replace("'", "''") + "'"
    if style == "folded":
        words = expr.split(" ")
        middle = len(words) // 2
        return ">-\n          " + " ".join(words[:middle]) + "\n          " + " ".join(words[middle:])
    return expr


def _chapter(exprs: list[tuple[str, str]]) -> str:
    formulas = "".join(f"""\
      - id: f{i}
        summary: A drawn formula.
        params:
          - {{name: dice, type: dice, label: Dice}}
          - {{name: tier, type: int, label: Tier, min: 0, max: 3}}
        # a comment that stays
        expr: {_scalar(expr, style)}{"" if style == "folded" else "   # and one after"}
""" for i, (expr, style) in enumerate(exprs))
    return f"""id: drawn
title: Drawn
order: 2
summary: Drawn formulas.
rules:
  - id: drawn-rule
    name: Drawn rule
    kind: general
    text: A drawn rule.
    provenance: {{source: src, section: Drawn}}
    formulas:
{formulas}"""


def _answers(root: Path) -> list[str]:
    program = compile_project(Project(root)).programs[0]
    found = []
    for formula_id in sorted(f for f in program.formulas if f.startswith("f")):
        for args in ([parse_dice("1d6"), 2], [parse_dice("1d4+1"), 0], [parse_dice("2d4"), 3]):
            found.append(_shown(lambda: program.call(formula_id, args)))  # noqa: B023
    return found


def _shown(compute: Callable[[], Any]) -> str:
    try:
        return show(compute())
    except RulesError as exc:
        return f"refused: {exc}"


@pytest.mark.slow  # migrates and compiles a drawn rulebook per example
@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(exprs=st.lists(st.tuples(st.tuples(WRAPS, POOLS).map(lambda a: a[0].format(a[1])), STYLES),
                      min_size=1, max_size=3))
def test_a_drawn_rulebook_means_the_same_after_migrating(exprs: list[tuple[str, str]],
                                                         tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("migrate")
    shutil.copytree(CASE, root / "content")
    (root / "content" / "mini" / "drawn.yaml").write_text(_chapter(exprs), encoding="utf-8")
    if run_rulesc("--root", str(root), "check")[0] != 0:
        return  # a drawn formula check refuses (too many dice, a keep of exploding dice): nothing to migrate
    before = _answers(root)
    status, out, err = run_rulesc("--root", str(root), "migrate")
    assert status == 0, f"{out}{err}\n{_chapter(exprs)}"
    text = (root / "content" / "mini" / "drawn.yaml").read_text(encoding="utf-8")
    assert compile_project(Project(root)).programs[0].system.format == 2
    assert _answers(root) == before, f"{_chapter(exprs)}\n{text}"
    assert text.count("# a comment that stays") == len(exprs)
    assert text.count("# and one after") == sum(style != "folded" for _, style in exprs)
