"""The runtimes' contract: both export the names contract.py says, every export has conformance cases in
rulesc/runtime/spec/, and each runtime gives each case's exact result or error (the Python runner is here, the
Node runner is tests/runtime_spec.js)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.runtime import JS_RUNTIME
from rulesc.runtime import rulesc_runtime as R
from rulesc.runtime.contract import JS_ONLY, PYTHON_ONLY, js_name, mismatches
from tests.backends import node

SPEC = Path(__file__).resolve().parent.parent / "rulesc/runtime/spec"
NODE_RUNNER = Path(__file__).resolve().parent / "runtime_spec.js"

CALLBACKS: dict[str, Callable[..., Any]] = {  # the spec's {"fn": name} arguments; runtime_spec.js has the same
    "double": lambda x: 2 * x,
    "plus_one": lambda x: x + 1,
    "halve": lambda x: R.floor_div(x, 2),
    "at_least_4": lambda x: x >= 4,
    "high_low": lambda x: "high" if x >= 4 else "low",
    "roll_die": lambda r: R.as_dist(R.dice(1, r)),
    "one": lambda: 1,
    "zero": lambda: 0,
    "hit": lambda: "hit",
    "miss": lambda: "miss",
    "sum": lambda *xs: sum(xs),
    "sum_high_low": lambda *xs: "high" if sum(xs) >= 5 else "low",
    "first_two": lambda answers: answers[0] + answers[1],
    "answers_sum": sum,
    "first_at_least_4": lambda answers: answers[0] >= 4,
    "first_high_low": lambda answers: "high" if answers[0] >= 4 else "low",
    "damage_by_first": lambda answers: R.dice_add(R.dice(2, 8), 3) if answers[0] == 6 else
    R.dice_add(R.dice(1, 8), 3) if answers[0] >= 3 else 0,
    "roll_by_first": lambda answers: R.as_dist(R.dice(answers[0], 4)),
    "far_by_first": lambda answers: 0 if answers[0] == 1 else 2_000_000,
}


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every case of every spec file, each with an id: the file's name and the case's place in it."""
    found = []
    for path in sorted(SPEC.glob("*.json")):
        for index, case in enumerate(json.loads(path.read_text(encoding="utf-8"))["cases"]):
            found.append((f"{path.stem}-{index}", case))
    return found


CASES = load_cases()


def subject(case: dict[str, Any]) -> str:
    """The export a case is about, as its runtime spells it."""
    return str(case.get("is") or case["call"])


def runs_in_python(case: dict[str, Any]) -> bool:
    return subject(case) not in JS_ONLY


def runs_in_js(case: dict[str, Any]) -> bool:
    return subject(case) not in PYTHON_ONLY


def decode(value: Any) -> Any:
    """A spec value as the Python runtime takes it (the encoding is rulesc/runtime/spec/README.md's)."""
    if isinstance(value, list):
        return tuple(decode(item) for item in value)
    if not isinstance(value, dict):
        return value
    kind, given = next(iter(value.items()))
    readers: dict[str, Callable[[Any], Any]] = {
        "call": lambda name: getattr(R, name)(*decode(value["args"])),
        "dice": R.parse_dice, "roll": lambda text: R.as_dist(R.parse_dice(text)), "exact": Fraction,
        "float": float, "big": int, "fn": CALLBACKS.__getitem__, "upgrades": upgrades,
        "map": lambda pairs: {key: decode(item) for key, item in pairs},
        "roll_table": lambda name: R.roll_tables(decode(value["tables"]))[name],
    }
    return readers[kind](given)


def upgrades(given: dict[str, dict[str, Any]]) -> dict[str, R.Upgrade]:
    return {key: R.Upgrade(u["name"], tuple(u.get("requires", ())), tuple(u.get("excludes", ())),
                           u.get("max_times", 1), tuple(tuple(g) for g in u.get("requires_any", ())))
            for key, u in given.items()}


def encode(value: Any, shape: str | None = None) -> Any:
    """A Python result in the spec's encoding, as runtime_spec.js encodes a JavaScript one."""
    if shape == "joint":
        joint, total = value
        return {"joint": sorted([",".join(map(str, key)), str(w)] for key, w in joint.items()), "total": str(total)}
    if isinstance(value, R.Dice):
        return {"dice": str(value)}
    if isinstance(value, R.Dist):
        return {"dist": [[x, str(p)] for x, p in value.items()]}
    if isinstance(value, R.Outcomes):
        return {"outcomes": [[label, str(p)] for label, p in value.items()]}
    if isinstance(value, Fraction) or (type(value) is int and abs(value) > R.MAX_INT):
        return {"exact": str(value)}
    if isinstance(value, float):
        return {"float": value}
    if isinstance(value, (list, tuple)):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {str(key): encode(item) for key, item in value.items()}
    return value


def run_python(case: dict[str, Any]) -> dict[str, Any]:
    """A case's outcome in the Python runtime: {"result": ...} or {"error": message, "type": class name}."""
    try:
        if "is" in case:
            return {"result": isinstance(decode(case["value"]), getattr(R, case["is"]))}
        found = getattr(R, case["call"])
        return {"result": encode(found(*decode(case["args"])) if "args" in case else found, case.get("as"))}
    except R.RulesError as exc:
        kind = case.get("error_type", "RulesError")
        return {"error": str(exc), "type": kind if isinstance(exc, getattr(R, kind)) else type(exc).__name__}


def expected(case: dict[str, Any]) -> dict[str, Any]:
    if "error" in case:
        return {"error": case["error"], "type": case.get("error_type", "RulesError")}
    return {"result": case["result"]}


def for_js(value: Any) -> Any:
    """A case with every export it names spelled as the JavaScript runtime spells it."""
    if isinstance(value, list):
        return [for_js(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {key: js_name(item) if key in ("call", "is") and item not in JS_ONLY else for_js(item)
            for key, item in value.items()}


@pytest.fixture(scope="module")
def js_outcomes() -> dict[str, Any]:
    """Every case's outcome in the JavaScript runtime, by case id: one Node process runs them all."""
    chosen = [(key, case) for key, case in CASES if runs_in_js(case)]
    done = subprocess.run([node(), str(NODE_RUNNER), str(JS_RUNTIME)], input=json.dumps(
        [for_js(case) for _, case in chosen]), capture_output=True, text=True, check=True, timeout=300)
    return dict(zip([key for key, _ in chosen], json.loads(done.stdout), strict=True))


@pytest.mark.parametrize(("key", "case"), [(k, c) for k, c in CASES if runs_in_python(c)], ids=lambda v: str(v)
                         if isinstance(v, str) else "")
def test_python_runtime(key: str, case: dict[str, Any]) -> None:
    assert run_python(case) == expected(case), case.get("note", "")


@pytest.mark.parametrize(("key", "case"), [(k, c) for k, c in CASES if runs_in_js(c)], ids=lambda v: str(v)
                         if isinstance(v, str) else "")
def test_js_runtime(js_outcomes: dict[str, Any], key: str, case: dict[str, Any]) -> None:
    got = js_outcomes[key]
    if "error" in got and got.get("type") == "RulesError":  # JavaScript has one error class; the message decides
        got = {**got, "type": case.get("error_type", "RulesError")}
    assert got == expected(case), case.get("note", "")


def test_python_show_prints_the_value_as_exact_text(capsys: pytest.CaptureFixture[str]) -> None:
    """show() is the engine's doctests' way to print a value, so what it prints is what they compare: the spec can only
    see that it returns None."""
    R.show(R.as_dist(R.dice(1, 2)))
    R.show("miss")
    assert capsys.readouterr().out == "{1: '1/2', 2: '1/2'}\nmiss\n"


def test_a_roll_may_lead_to_max_chain_rolls_rolls_in_both_runtimes_and_no_more() -> None:
    """The budget is MAX_CHAIN_ROLLS rolls, that many allowed: the spec's table that rolls on itself forever cannot
    tell "more than 500" from "500 or more", and its 500 rolls are too long a result to write there."""
    def rolls_on(times: int) -> dict[str, Any]:
        tables = [["many", "1d1", ["1"], [1], ["Many"], [["leaf", times, True, False]], [[1, 1, 0]]],
                  ["leaf", "1d1", ["1"], [1], ["Leaf"], [None], [[1, 1, 0]]]]
        return {"call": "roll_on", "args": [{"roll_table": "many", "tables": tables}, {"call": "seeded", "args": [1]}]}

    cases = [rolls_on(R.MAX_CHAIN_ROLLS - 1), rolls_on(R.MAX_CHAIN_ROLLS)]
    done = subprocess.run([node(), str(NODE_RUNNER), str(JS_RUNTIME)], input=json.dumps(for_js(cases)),
                          capture_output=True, text=True, check=True, timeout=60)
    too_many = {"error": "a roll on 'many' led to more than 500 rolls", "type": "RulesError"}
    for found in ([run_python(case) for case in cases], json.loads(done.stdout)):
        assert len(found[0]["result"]) == R.MAX_CHAIN_ROLLS
        assert found[1] == too_many


def test_python_sample_draws_one_roll_so_the_next_draw_goes_on_from_there() -> None:
    """Rolls one at a time from a generator are the rolls samples() draws at once: sample() takes no more bits than its
    own roll needs, or a seeded session's later rolls would change (and stop matching JavaScript's)."""
    pool, rng = R.dice(1, 100), R.seeded(2024)
    one_by_one = [R.sample(pool, rng) for _ in range(4)]
    assert one_by_one == R.samples(pool, R.seeded(2024), 4) == [61, 24, 94, 75]


def js_exports() -> set[str]:
    """The names the JavaScript runtime exports."""
    script = f"require({json.dumps(str(JS_RUNTIME))}); console.log(JSON.stringify(Object.keys(RulesRuntime)))"
    done = subprocess.run([node(), "-e", script], capture_output=True, text=True, check=True, timeout=60)
    return set(json.loads(done.stdout))


def covered(cases: list[tuple[str, dict[str, Any]]]) -> set[str]:
    """The exports the cases call (an argument made by a call counts: its result is checked through the call it
    feeds), in Python spelling (JavaScript's own by their own names), and the error classes they expect."""
    called = {str(v["call"]) for _, case in cases for v in iter_values(case.get("args", [])) if "call" in v}
    called |= {"roll_tables" for _, case in cases for v in iter_values(case.get("args", [])) if "roll_table" in v}
    return called | {subject(case) for _, case in cases} | {case.get("error_type", "RulesError")
                                                            for _, case in cases if "error" in case}


def test_both_runtimes_export_what_the_contract_says() -> None:
    assert mismatches(R.__all__, js_exports()) == []
    assert all(hasattr(R, name) for name in R.__all__)


def test_every_export_of_both_runtimes_has_a_case() -> None:
    names = covered(CASES)
    assert sorted(set(R.__all__) - names) == []
    js = {js_name(name) for name in names if name not in JS_ONLY} | (names & set(JS_ONLY))
    assert sorted(js_exports() - js) == []


def test_the_contract_checks_see_what_they_guard() -> None:
    """A missing twin, an undeclared extra and a stale declaration are found; the spelling is camelCase."""
    assert js_name("as_dist") == "asDist" and js_name("bind_named") == "bind" and js_name("MAX_INT") == "MAX_INT"
    assert js_name("keep_pool") == "keep" and js_name("dfloor_div") == "dfloorDiv"
    found = mismatches(["as_dist", "show"], ["asDist", "extra", "Q"])
    assert found == ["Python lacks a twin of JavaScript's extra"] + sorted(
        f"{name} is declared one runtime's own but is not exported"
        for name in {*PYTHON_ONLY, *JS_ONLY} - {"show", "Q"})
    assert mismatches(["tie"], [])[0] == "JavaScript lacks tie (Python's tie)"
    assert covered([("x", {"call": "floor_div", "args": [1, 0], "error": "division by zero"})]) == {
        "floor_div", "RulesError"}


def iter_values(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, list):
        for item in value:
            yield from iter_values(item)
    elif isinstance(value, dict):
        yield value
        for item in value.values():
            yield from iter_values(item)


def test_every_case_is_well_formed() -> None:
    """Each case names an export, expects exactly one of a result or an error, and its callbacks exist."""
    assert len(CASES) > 150
    for key, case in CASES:
        assert ("result" in case) != ("error" in case), key
        assert ("call" in case) != ("is" in case), key
        assert hasattr(R, subject(case)) or subject(case) in JS_ONLY, key
        names = {v["fn"] for v in iter_values(case.get("args", [])) if "fn" in v}
        assert names <= set(CALLBACKS), key
