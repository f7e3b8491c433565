"""One display rule: Python's display() (pages, `rulesc calc`) and the widget's formatter (display.js) agree."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rulesc.analyze.program import Program
from rulesc.emit.scripts import emit_scripts, system_script
from rulesc.emit.site.calculators import display, fixed, render_calculator, show_output
from rulesc.model import default_of
from rulesc.pipeline import Project, compile_project
from tests.backends import node
from tests.test_runtime_contract import NODE_RUNNER, decode, for_js

REPO = Path(__file__).resolve().parent.parent
WIDGET = REPO / "frontend/src/calculators/display.js"  # an ES module: Node requires it after the runtime

DISPLAY = REPO / "rulesc/runtime/spec/display/display.json"
CASES: list[dict[str, Any]] = json.loads(DISPLAY.read_text(encoding="utf-8"))["cases"]
"""How each value shows, the case table both display()s read: fractions on or near a rounding boundary as
decimals and percents (exact, and as the float standing for them), units, signs that must not show, flags, lists,
pools, rolls and named outcomes."""

NODE_PRELUDE = """
globalThis.document = {readyState: "complete", querySelectorAll: () => []};
const modules = process.argv.slice(1).map((file) => require(file));
/* the widget's formatter: display() from its module, and the runtime's fixed(), which it rounds with */
const R = globalThis.RulesRuntime, W = {fixed: R.fixed, display: modules.find((m) => m.display).display};
/* a value as tests send it: a whole number, {q: [n, d]} for a fraction, {f: x} for a float */
const decode = (x) => x.q ? R.ratio(BigInt(x.q[0]), BigInt(x.q[1])) : x.f !== undefined ? new R.Real(x.f) : x;
"""


def run_node(script: str, files: list[Path], payload: Any) -> Any:
    done = subprocess.run([node(), "-e", NODE_PRELUDE + script, *map(str, files)], input=json.dumps(payload),
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout)


def python_text(case: dict[str, Any]) -> str:
    value = decode(case["value"])
    return display(list(value) if isinstance(value, tuple) else value, case["format"], case["type"],
                   case.get("labels", ()), case.get("suffix", ""), case.get("texts"))


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{json.dumps(case['value'])}-{case['format']}")
def test_python_display_follows_the_case_table(case: dict[str, Any]) -> None:
    assert python_text(case) == case["text"]


def test_widget_display_follows_the_same_case_table() -> None:
    """The runtime hands the widget exact fractions (and a float only from sd): both show by the one rule."""
    sent = [{"display": for_js(case["value"]), **{k: v for k, v in case.items() if k not in ("value", "text")}}
            for case in CASES]
    done = subprocess.run([node(), str(NODE_RUNNER), str(REPO / "rulesc/runtime/rulesc_runtime.js"), str(WIDGET)],
                          input=json.dumps(sent), capture_output=True, text=True, check=True, timeout=120)
    assert [found["text"] for found in json.loads(done.stdout)] == [case["text"] for case in CASES]
    assert len(CASES) > 100


def test_widget_rounds_floats_that_arrive_a_hair_off_the_boundary() -> None:
    """What float64 arithmetic makes of exact boundary values: (0.1 + 0.7) * 0.15625 is 0.125 less one step."""
    hairs = [("(0.1 + 0.7) * 0.15625", (0.1 + 0.7) * 0.15625, 2, "0.13"),
             ("-((0.1 + 0.7) * 0.15625)", -((0.1 + 0.7) * 0.15625), 2, "-0.13"),
             ("0.7 * 0.75 * 0.5", 0.7 * 0.75 * 0.5, 3, "0.263"), ("1.005 * 100", 1.005 * 100, 0, "101"),
             ("2.675", 2.675, 2, "2.68")]
    assert hairs[0][1] < 0.125 and hairs[2][1] < 0.2625 and hairs[3][1] < 100.5  # the premise
    script = f"console.log(JSON.stringify([{', '.join(f'W.fixed(new R.Real({js}), {d})' for js, _, d, _ in hairs)}]));"
    expected = [text for _, _, _, text in hairs]
    assert run_node(script, [REPO / "rulesc/runtime/rulesc_runtime.js", WIDGET], None) == expected
    assert [fixed(value, d) for _, value, d, _ in hairs] == expected
    assert run_node('console.log(JSON.stringify([-0.0, -1e-9, -0.004999].map((x) => W.fixed(new R.Real(x), 2))));',
                    [REPO / "rulesc/runtime/rulesc_runtime.js", WIDGET], None) == ["0.00", "0.00", "0.00"]


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
    scripts = emit_scripts([system_script(p) for p in programs], [p.system.id for p in programs])
    for name, text in scripts.items():
        (tmp / Path(name).name).write_text(text, encoding="utf-8")
    files = [tmp / "runtime.js", *(tmp / f"{p.system.id}.js" for p in programs), WIDGET]
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
