"""Named outcomes, conditions on rolls and words from tables: the same in the interpreter, engine and JavaScript."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from rulesc.analyze.program import Program, label_order
from rulesc.diagnostics.core import Diagnostic, Diagnostics, Span
from rulesc.emit.site.calculators import display, render_calculator
from rulesc.formula.check import Scope, check_types
from rulesc.formula.lexer import FormulaSyntaxError
from rulesc.formula.parser import parse_formula
from tests.backends import Built, agree, built_case, encode, run_js
from tests.scripts import require_scripts
from tests.test_display import run_node
from tests.test_exact_runtimes import three_ways

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tiers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "named-outcomes") as found:
        yield found


def test_every_formula_agrees_three_ways(tiers: tuple[Path, Program, ModuleType]) -> None:
    calls = ([("action", {"dots": d}) for d in range(5)] + [("critical_chance", {"dots": d}) for d in range(5)]
             + [("move", {"stat": s}) for s in range(-3, 4)]
             + [(f, {"bonus": b, "armour": a}) for f in ("hits", "hit_and_crit", "damage") for b, a in
                ((0, 1), (5, 15), (15, 30), (3, 21))]
             + [("mean_damage_on_a_hit_roll", {"armour": a}) for a in (1, 11, 20, 21, 30)]
             + [("word_for", {"shifts": s}) for s in range(-4, 9)] + [("roll_on_ladder", {})])
    found = three_ways(tiers, calls)
    assert found[2] == {"value": {"outcomes": [["bad", "1/4"], ["critical", "1/36"], ["full", "5/18"],
                                               ["partial", "4/9"]]}}
    assert found[5 + 4] == {"value": {"exact": "19/144"}}  # a critical with four dots: 1 - (625 + 500) / 1296
    assert [f["value"] for f in found[-14:-1]] == ["Poor"] * 4 + ["Fair"] * 2 + ["Great"] * 7


def test_a_condition_on_a_roll_is_a_chance(tiers: tuple[Path, Program, ModuleType]) -> None:
    _, program, _ = tiers
    assert encode(program.call("hits", [5, 15])) == {"outcomes": [[False, "9/20"], [True, "11/20"]]}
    assert encode(program.call("hits", [15, 1])) == {"outcomes": [[True, "1"]]}
    assert display(program.call("hits", [5, 15]), "percent", "event") == "55.00%"


def test_named_outcomes_show_in_the_formulas_order(tiers: tuple[Path, Program, ModuleType]) -> None:
    root, program, _ = tiers
    calc = program.calculators["action-odds"]
    node = calc.outputs[0].expr.node
    assert node is not None and label_order(program, node) == ["critical", "full", "partial", "bad"]
    results = program.calculate("action-odds", {"dots": 2, "armour": 15})
    shown = display(results["result"], "decimal", "outcome", label_order(program, node))
    assert shown == "Critical 2.78%, full 27.78%, partial 44.44%, bad 25.00%"
    js = run_js(root / "build/docs", [{"system": program.system.id, "calculator": "action-odds",
                                       "types": {"dots": "int", "armour": "int"}, "args": {"dots": 2, "armour": 15}}])
    assert agree(js[0]["value"], encode(results))
    script = (require_scripts(root / "build/docs", runtime=False) +
              "const calc = globalThis.RulesSystems['outcome-tiers'].calculators['action-odds'];"
              "const env = {dots: 2, armour: 15}; const out = calc.outputs.map((o) => env[o.name] = o.run(env));"
              "console.log(JSON.stringify(calc.outputs.map((o, i) => W.display(out[i], o.format, o.type, o.labels))));")
    texts = run_node(script, [REPO / "rulesc/runtime/rulesc_runtime.js",
                              REPO / "frontend/src/calculators/display.js"], None)
    assert texts == [shown, "55.00%"]


def typing_failure(source: str) -> Diagnostic:
    node = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    diags = Diagnostics()
    assert check_types(node, Scope({"n": "int"}, {}, {}, lambda name, span: None), diags) is None
    return diags.items[0]


def typing_error(source: str) -> str:
    return typing_failure(source).message


def test_names_and_events_are_typed() -> None:
    assert typing_error('"hit" + 1') == "'+' cannot combine text and int"
    assert typing_error('if 1d20 >= 10 then 1 / 2 else 0') == \
        "on a condition on a roll, the branches must be numbers, rolls, names or yes/no, got num"
    assert typing_error('"hit" < "miss"') == "'<' cannot compare text with text"
    assert typing_error('if n > 1 then "hit" else 2') == "the branches of 'if' differ: text and int"
    with pytest.raises(FormulaSyntaxError, match="a quoted name is not closed"):
        parse_formula('"hit', lambda offset: Span("<test>", 1, offset + 1))


def test_a_count_with_too_few_arguments_is_e0404_and_shows_its_forms() -> None:
    """The code is part of the message authors see (error[E0404]) and look up; the hint gives both forms."""
    assert typing_failure("count(3d6)") == Diagnostic("error", "E0404", "count() takes 2 or 3 arguments, got 1",
                                                      Span("<test>", 1, 1),
                                                      "count(pool, face) or count(pool, low, high)")


def test_an_operator_that_cannot_combine_its_sides_says_what_can() -> None:
    """The type error's hint reaches the author: for text, that a name is chosen whole, never joined; for anything
    else, what each operator combines."""
    assert typing_failure('"hit" + 1').hint == (
        "text is a whole name and is never added or joined: write the name you mean in one quote, or choose it "
        'whole, as in if total >= 10 then "strong hit" else "miss"')
    assert typing_failure("n * true").hint == (
        "dice pools add to dice or numbers, repeat(pool, n) repeats one; rolls (dist) add to rolls, numbers and "
        "pools and multiply by numbers; '//' takes whole numbers and '/' gives an exact fraction")


def test_a_calculators_choices_come_from_a_table_column(tiers: tuple[Path, Program, ModuleType]) -> None:
    """The ladder is typed once, in its table: the input's choices are its rows, labelled by its word column."""
    _, program, _ = tiers
    shifts = program.calculators["ladder-words"].inputs[0]
    assert [(o.value, o.label) for o in shifts.options] == [(-4, "Poor"), (0, "Fair"), (2, "Great")]
    assert program.calculate("ladder-words", {"shifts": 2}) == {"word": "Great"}
    page = render_calculator(program, program.calculators["ladder-words"])
    assert ('<option value="-4" selected>Poor</option><option value="0">Fair</option>'
            '<option value="2">Great</option></select>') in page
