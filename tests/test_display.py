"""One display rule: Python's display() (pages, `rulesc calc`) and the widget's formatter in calculators.js agree."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generator.analyze.program import Program
from generator.emit.scripts import emit_scripts, system_script
from generator.emit.site.calculators import display, fixed, render_calculator, show_output
from generator.model import default_of
from generator.pipeline import Project, compile_project
from tests.backends import node

REPO = Path(__file__).resolve().parent.parent
WIDGET = REPO / "site_overrides/assets/rulesc/calculators.js"

# value, decimal text, percent text: each on or near a rounding boundary, or a sign that must not show
TABLE: list[tuple[Fraction, str, str]] = [
    (Fraction(1, 32), "0.03", "3.13%"),
    (Fraction(39, 40), "0.98", "97.50%"),
    (Fraction(1, 8), "0.13", "12.50%"),
    (Fraction(2, 3), "0.67", "66.67%"),
    (Fraction(-1, 1000), "0.00", "-0.10%"),
    (Fraction(-1, 100000), "0.00", "0.00%"),
    (Fraction(0), "0.00", "0.00%"),
    (Fraction(1), "1.00", "100.00%"),
    (Fraction(1, 10**9), "0.00", "0.00%"),
    (Fraction(995, 1000), "1.00", "99.50%"),
    (Fraction(9949999, 10**7), "0.99", "99.50%"),
    (Fraction(99949999, 10**8), "1.00", "99.95%"),
    (Fraction(-1, 8), "-0.13", "-12.50%"),
    (Fraction(-5, 1000), "-0.01", "-0.50%"),
    (Fraction(-3, 2), "-1.50", "-150.00%"),
    (Fraction(-1, 200000), "0.00", "0.00%"),
    (Fraction(5, 2), "2.50", "250.00%"),
    (Fraction(123456789, 8), "15432098.63", "1543209862.50%"),
]

NODE_PRELUDE = """
globalThis.document = {readyState: "complete", querySelectorAll: () => []};
for (const file of process.argv.slice(1)) require(file);
const R = globalThis.RulesRuntime, W = R.widget;
/* a value as tests send it: a whole number, {q: [n, d]} for a fraction, {f: x} for a float */
const decode = (x) => x.q ? R.ratio(BigInt(x.q[0]), BigInt(x.q[1])) : x.f !== undefined ? new R.Real(x.f) : x;
"""


def run_node(script: str, files: list[Path], payload: Any) -> Any:
    done = subprocess.run([node(), "-e", NODE_PRELUDE + script, *map(str, files)], input=json.dumps(payload),
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def sent(value: int | Fraction | float) -> Any:
    if isinstance(value, Fraction):
        return {"q": [str(value.numerator), str(value.denominator)]}
    return {"f": value} if isinstance(value, float) else value


def widget_texts(values: list[Any], fmt: str, type_: str, suffix: str = "") -> list[str]:
    script = ('const v = JSON.parse(require("fs").readFileSync(0, "utf8"));'
              f'console.log(JSON.stringify(v.map((x) => W.display(decode(x), {json.dumps(fmt)}, '
              f'{json.dumps(type_)}, [], {json.dumps(suffix)}))));')
    return list(run_node(script, [REPO / "generator/runtime/rulesc_runtime.js", WIDGET], [sent(v) for v in values]))


@pytest.mark.parametrize(("value", "decimal", "percent"), TABLE)
def test_python_display_follows_the_rule(value: Fraction, decimal: str, percent: str) -> None:
    assert display(value) == decimal
    assert display(value, "percent") == percent
    assert display(float(value)) == decimal  # a float standing for the same number shows the same
    assert display(float(value), "percent") == percent


@pytest.mark.parametrize("exact", [True, False], ids=["fractions", "floats"])
def test_widget_display_follows_the_same_rule(exact: bool) -> None:
    """The runtime hands the widget exact fractions (and a float only from sd): both show by the one rule."""
    values = [v if exact else float(v) for v, _, _ in TABLE]
    assert widget_texts(values, "decimal", "num") == [d for _, d, _ in TABLE]
    assert widget_texts(values, "percent", "num") == [p for _, _, p in TABLE]
    assert widget_texts(values, "decimal", "int") == [d for _, d, _ in TABLE]  # a fraction is never shown whole


def test_widget_rounds_floats_that_arrive_a_hair_off_the_boundary() -> None:
    """What float64 arithmetic makes of exact boundary values: (0.1 + 0.7) * 0.15625 is 0.125 less one step."""
    hairs = [("(0.1 + 0.7) * 0.15625", (0.1 + 0.7) * 0.15625, 2, "0.13"),
             ("-((0.1 + 0.7) * 0.15625)", -((0.1 + 0.7) * 0.15625), 2, "-0.13"),
             ("0.7 * 0.75 * 0.5", 0.7 * 0.75 * 0.5, 3, "0.263"), ("1.005 * 100", 1.005 * 100, 0, "101"),
             ("2.675", 2.675, 2, "2.68")]
    assert hairs[0][1] < 0.125 and hairs[2][1] < 0.2625 and hairs[3][1] < 100.5  # the premise
    script = f"console.log(JSON.stringify([{', '.join(f'W.fixed(new R.Real({js}), {d})' for js, _, d, _ in hairs)}]));"
    expected = [text for _, _, _, text in hairs]
    assert run_node(script, [REPO / "generator/runtime/rulesc_runtime.js", WIDGET], None) == expected
    assert [fixed(value, d) for _, value, d, _ in hairs] == expected
    assert run_node('console.log(JSON.stringify([-0.0, -1e-9, -0.004999].map((x) => W.fixed(new R.Real(x), 2))));',
                    [REPO / "generator/runtime/rulesc_runtime.js", WIDGET], None) == ["0.00", "0.00", "0.00"]


def test_a_whole_number_shows_by_the_output_type_not_the_branch() -> None:
    assert display(1, "percent") == "100.00%"
    assert display(0, "percent", "num") == "0.00%"
    assert display(1, "decimal", "num") == "1.00"
    assert display(-0, "decimal", "num") == "0.00"
    assert display(7) == "7" and display(-3, "decimal", "int") == "-3"
    assert widget_texts([1, 0], "percent", "num") == ["100.00%", "0.00%"]
    assert widget_texts([1, 0], "percent", "int") == ["100.00%", "0.00%"]
    assert widget_texts([1, -3], "decimal", "num") == ["1.00", "-3.00"]
    assert widget_texts([7, -3], "decimal", "int") == ["7", "-3"]


def test_a_unit_follows_every_number_alike_and_no_zero_has_a_minus_sign() -> None:
    """One rule in both runtimes: the unit after whole numbers and decimals, never after a percent; a value that
    rounds to zero shows no minus sign, in the terminal and the widget."""
    values = [Fraction(-1, 10**6), Fraction(5, 2), -0.0001, 0]
    expected = ["0.00 m", "2.50 m", "0.00 m", "0.00 m"]
    assert [display(v, "decimal", "num", (), " m") for v in values] == expected
    assert widget_texts(values, "decimal", "num", " m") == expected
    assert [display(v, "decimal", "int", (), " AD") for v in (7, -3, 0)] == ["7 AD", "-3 AD", "0 AD"]
    assert widget_texts([7, -3, 0], "decimal", "int", " AD") == ["7 AD", "-3 AD", "0 AD"]
    assert display(Fraction(-1, 10**6), "percent", "num", (), " m") == "0.00%"
    assert widget_texts([Fraction(-1, 10**6)], "percent", "num", " m") == ["0.00%"]


SYSTEM = """\
id: tally-ho
title: Tally Ho
summary: A test rulebook whose calculator lands on rounding boundaries.
sources:
  - {id: notes, file: notes.txt, title: Notes}
dice:
  summary: Roll d6s.
terms: []
"""

CHAPTER = """\
id: odds
title: Odds
order: 1
summary: Fractions that sit on rounding boundaries.
rules:
  - id: odd-ratios
    name: Odd ratios
    kind: general
    text: >-
      Divide the hits by the tries. With luck the answer is certain.
    provenance:
      source: notes
      section: Ratios
    calculators:
      - id: ratio-calculator
        title: Ratios
        inputs:
          - {name: hits, type: int, label: Hits, min: -100, max: 100, default: 39}
          - {name: tries, type: int, label: Tries, min: 1, max: 1000, default: 40}
          - {name: lucky, type: bool, label: Lucky, default: false}
        outputs:
          - {name: ratio, label: Ratio, expr: "hits / tries"}
          - {name: share, label: Share, expr: "hits / tries", format: percent}
          - {name: sure, label: Sure, expr: "if lucky then 1 else hits / tries", format: percent}
          - {name: plain, label: Plain, expr: "if lucky then 1 else hits / tries"}
          - {name: tiny, label: Tiny, expr: "0 - 1 / (tries * 1000)"}
          - {name: whole, label: Whole, expr: "hits * 2", format: percent}
          - {name: rolled, label: Rolled, expr: "roll(1d6 + 1d4)"}
          - {name: eights, label: Eights, expr: "p_at_least(roll(1d8), 8)", format: percent}
"""

OUTPUT = re.compile(r'<output name="([^"]+)"[^>]*>([^<]*)</output>')
INPUTS = [{"hits": 39, "tries": 40, "lucky": False}, {"hits": 1, "tries": 32, "lucky": False},
          {"hits": -1, "tries": 8, "lucky": False}, {"hits": 1, "tries": 32, "lucky": True},
          {"hits": 0, "tries": 1, "lucky": False}, {"hits": 199, "tries": 200, "lucky": False}]

WIDGET_RUN = """
const calls = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(calls.map((c) => {
  const calc = globalThis.RulesSystems[c.system].calculators[c.calculator];
  const env = Object.assign(Object.create(null), c.inputs), out = {};
  for (const spec of calc.inputs) {
    if (spec.type === "dice") env[spec.name] = globalThis.RulesRuntime.parseDice(env[spec.name]);
  }
  for (const o of calc.outputs) {
    env[o.name] = o.run(env);
    out[o.name] = W.display(env[o.name], o.format, o.type, o.labels, (c.suffixes || {})[o.name]);
  }
  return out;
})));
"""


def compiled(root: Path, systems: dict[str, dict[str, str]]) -> tuple[Program, ...]:
    shutil.copytree(REPO / "schema", root / "schema")
    for system, files in systems.items():
        (root / "content" / system).mkdir(parents=True)
        for name, text in files.items():
            (root / "content" / system / name).write_text(text, encoding="utf-8")
    return compile_project(Project(root)).programs


def widget_results(tmp: Path, programs: tuple[Program, ...], calls: list[dict[str, Any]]) -> list[dict[str, str]]:
    for name, text in emit_scripts([system_script(p) for p in programs]).items():
        (tmp / Path(name).name).write_text(text, encoding="utf-8")
    files = [tmp / "runtime.js", tmp / "formulas.js", WIDGET]
    return list(run_node(WIDGET_RUN, files, calls))


def prerendered(program: Program, calc_id: str) -> dict[str, str]:
    return dict(OUTPUT.findall(render_calculator(program, program.calculators[calc_id])))


def python_texts(program: Program, calc_id: str, inputs: dict[str, Any]) -> dict[str, str]:
    calc = program.calculators[calc_id]
    results = program.calculate(calc_id, inputs)
    return {o.name: show_output(program, o, results) for o in calc.outputs}


def test_an_outside_calculator_shows_the_same_text_in_python_and_the_widget(tmp_path: Path) -> None:
    (program,) = compiled(tmp_path / "project", {"tally-ho": {"system.yaml": SYSTEM, "odds.yaml": CHAPTER}})
    calls = [{"system": "tally-ho", "calculator": "ratio-calculator", "inputs": i} for i in INPUTS]
    widget = widget_results(tmp_path, (program,), calls)
    python = [python_texts(program, "ratio-calculator", i) for i in INPUTS]
    assert widget == python
    assert prerendered(program, "ratio-calculator") == python[0]
    assert [(p["ratio"], p["share"], p["sure"], p["plain"]) for p in python] == [
        ("0.98", "97.50%", "97.50%", "0.98"), ("0.03", "3.13%", "3.13%", "0.03"),
        ("-0.13", "-12.50%", "-12.50%", "-0.13"), ("0.03", "3.13%", "100.00%", "1.00"),
        ("0.00", "0.00%", "0.00%", "0.00"), ("1.00", "99.50%", "99.50%", "1.00")]
    assert python[0]["tiny"] == "0.00" and python[0]["whole"] == "7800.00%"
    assert python[0]["rolled"] == "Average 6.00, typically within \u00b12.04" and python[0]["eights"] == "12.50%"


def test_every_bundled_calculator_prerenders_what_the_widget_shows(tmp_path: Path) -> None:
    programs = compile_project(Project(REPO)).programs
    calls, expected = [], []
    for program in programs:
        for calc in program.calculators.values():
            inputs = {p.name: _json_input(default_of(p), p.type) for p in calc.inputs}
            calls.append({"system": program.system.id, "calculator": calc.id, "inputs": inputs,
                          "suffixes": {o.name: o.suffix for o in calc.outputs if o.suffix}})
            expected.append(prerendered(program, calc.id))
    assert len(calls) > 5
    widget = widget_results(tmp_path, programs, calls)
    assert widget == expected


def _json_input(value: Any, type_: str) -> Any:
    return list(value) if type_ == "upgrades" else str(value) if type_ == "dice" else value
