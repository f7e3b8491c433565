"""The runtimes' fast paths give what rolling every die gives: a pool asked only highest() settles a roll as soon
as its highest dice are placed (all rolls placing them on one face counted together), a roll whose dice are all
placed leaves the sweep, and a bind whose results are plain numbers or names adds them up with no roll made of
each. Each is checked against every roll enumerated die by die, and the JavaScript runtime against Python."""

from __future__ import annotations

import functools
import itertools
import json
import math
import subprocess
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulesc.emit.site.dice_page import emit_dice_page
from rulesc.runtime import rulesc_runtime as R
from tests.backends import node

POOLS = ["0", "1d6", "3d6", "2d4+1d6", "1d{0,2,2,5}+2d{0,0,3}", "2d6r2+1d4", "1d6rr{1,6}+2d3", "2d4!!+1d6",
         "3dF", "1d{-2,7,7}+1d8-3", "1d{4}+2d{4}", "2d10+2d8+1d6", "0d6+2d4+1d{-3,9,9}",
         "4d{0,2,2,5}", "3d6r2+2", "2d4!!", "5d3"]  # one kind: its extremes and a sum face by face
ASKED = [[("highest", 1)], [("highest", 2)], [("highest", 0)], [("highest", 5)], [("highest", 1), ("highest", 3)],
         [("highest", 2), ("total",)], [("lowest", 1), ("highest", 1)], [("lowest", 2), ("count", 0, 2)],
         [("highest", -1)], [("lowest", 9), ("successes", 4)], [("lowest", 1)],
         [("highest", 1), ("lowest", 1), ("highest", 1)], [("lowest", 1), ("total",)],
         [("highest", 1), ("count", 6)], [("count", 1, 2), ("lowest", 1), ("successes", 3)],
         [("highest", 1), ("lowest", 1), ("total",), ("count", 0)], [("lowest", 2)], [("lowest", 3), ("lowest", 2)],
         [("successes", 3), ("highest", 1)], [("lowest", 1), ("lowest", 1), ("count", 2, 3)],
         [("total",), ("highest", 1), ("highest", 1)], [("count", 5, 2), ("lowest", 2)], [("successes", 9)]]


def faces_of(key: R.DieKey) -> list[tuple[int, int]]:
    """One die's faces and the ways of each, as its distribution gives them."""
    kind = R.die_of(key)
    return [(face, w) for face, w in zip(kind.outcomes, kind.weights, strict=True) if w]


def answer(question: tuple[Any, ...], shown: Sequence[int]) -> int:
    ordered = sorted(shown, reverse=True)
    kind, numbers = question[0], [int(x) for x in question[1:]]
    if kind == "total":
        return sum(shown)
    if kind == "highest":
        return sum(ordered[:max(0, numbers[0])])
    if kind == "lowest":
        return sum(ordered[len(ordered) - max(0, min(numbers[0], len(ordered))):])
    if kind == "successes":
        return sum(1 for face in shown if face >= numbers[0])
    return sum(1 for face in shown if numbers[0] <= face <= numbers[-1])


def brute(pool: R.Dice, asked: Sequence[tuple[Any, ...]]) -> dict[tuple[int, ...], Fraction]:
    """Every roll of the pool, die by die: the chance of each joint set of answers."""
    shown_ways, total = rolls(pool)
    found: dict[tuple[int, ...], int] = {}
    for shown, ways in shown_ways:
        key = tuple(answer(q, shown) + (pool.const if q[0] == "total" else 0) for q in asked)
        found[key] = found.get(key, 0) + ways
    return {key: Fraction(ways, total) for key, ways in found.items()}


@functools.cache
def rolls(pool: R.Dice) -> tuple[list[tuple[tuple[int, ...], int]], int]:
    """Every roll of the pool, die by die, gathered by the faces it shows (highest first) with their ways, and the
    ways of all rolls: what a question asks of a roll depends on no more, and each pool is asked many questions
    (its rolls enumerated once; 2d10+2d8+1d6 rolls 38,400 ways and shows 1,784 sets of faces)."""
    dice = [faces_of(key) for key, count in pool.counts for _ in range(count)]
    ways: dict[tuple[int, ...], int] = {}
    for roll in itertools.product(*dice):
        shown = tuple(sorted((face for face, _ in roll), reverse=True))
        ways[shown] = ways.get(shown, 0) + math.prod(w for _, w in roll)
    return list(ways.items()), math.prod(sum(w for _, w in faces) for faces in dice)


def chances(pool: R.Dice, asked: Sequence[tuple[Any, ...]]) -> dict[tuple[int, ...], Fraction]:
    """The runtime's chance of each joint set of answers; worked out once a process for each pool and questions, as
    the JavaScript runtime is held to the same answers the rolls were counted against."""
    return dict(_chances(pool, tuple(asked)))


@functools.cache
def _chances(pool: R.Dice, asked: tuple[tuple[Any, ...], ...]) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    joint, total = R.pool_answers(pool, asked)
    return tuple((answers, Fraction(ways, total)) for answers, ways in joint.items() if ways)


@pytest.mark.parametrize("text", POOLS)
@pytest.mark.parametrize("asked", ASKED, ids=str)
def test_pool_answers_are_every_roll_counted(text: str, asked: list[tuple[Any, ...]]) -> None:
    pool = R.parse_dice(text)
    assert chances(pool, asked) == brute(pool, asked)


def test_a_settled_roll_counts_every_die_below_it() -> None:
    """The best 2 of 1d6 and 1d8 where only one die can show 8: the lump at 8 must not count a second 8."""
    pool = R.parse_dice("1d8+1d6")
    found = chances(pool, [("highest", 2)])
    assert found[(14,)] == Fraction(1, 48)  # 8 and 6 only
    assert (16,) not in found
    assert found == brute(pool, [("highest", 2)])


def test_more_dice_asked_than_rolled_keeps_them_all() -> None:
    pool = R.parse_dice("2d{0,3}+1d{1}")
    assert chances(pool, [("highest", 7)]) == {(1,): Fraction(1, 4), (4,): Fraction(1, 2), (7,): Fraction(1, 4)}


@pytest.mark.parametrize("n", range(1, 6))
def test_the_kept_dice_of_equal_dice_are_every_roll_counted(n: int) -> None:
    """highest(NdS, k) and lowest(NdS, k) settle a roll on the face that places the k-th kept die: every k and
    every side count up to 6, against every roll enumerated die by die."""
    for sides, k, highest in itertools.product(range(1, 7), range(1, n + 1), (True, False)):
        counted: dict[int, int] = {}
        for roll in itertools.product(range(1, sides + 1), repeat=n):
            shown = sorted(roll)
            kept = sum(shown[n - k:] if highest else shown[:k])
            counted[kept] = counted.get(kept, 0) + 1
        found = R.keep(n, sides, k, highest)
        assert dict(found.items()) == {x: Fraction(w, sides**n) for x, w in counted.items()}, (n, sides, k)


def test_a_thousand_kept_dice_are_worked_out_face_by_face() -> None:
    """The best 3 of 1000d100 settle within three dice of the top: the ways for the top total are the rolls with
    three or more 100s."""
    found = R.keep(1000, 100, 3, True)
    no_top = 99**1000
    fewer = no_top + 1000 * 99**999 + 499500 * 99**998
    assert found.weights[-1] == 100**1000 - fewer and found.offset + len(found.weights) - 1 == 300


def test_half_of_a_large_pool_is_worked_out_by_the_face_of_the_kth_die() -> None:
    """The best 150 of 300d6, split by the face of the 150th die: its top total is every roll with 150 or more
    sixes, the next one the rolls with 149 sixes and at least one five, the lowest the one roll of all ones."""
    found = R.keep(300, 6, 150, True)
    assert (found.offset, len(found.weights), found.total) == (150, 751, 6**300)
    assert found.weights[-1] == sum(math.comb(300, j) * 5 ** (300 - j) for j in range(150, 301))
    assert found.weights[-2] == math.comb(300, 149) * (5**151 - 4**151)
    assert found.weights[0] == 1


def test_the_keep_budget_refuses_before_any_work_and_only_past_it() -> None:
    """highest(1000d10, 276) is the most of 1000d10 the budget lets through (under a second here); 277 is
    refused at once, and keeping every die is their sum whatever the budget says."""
    assert R._keep_work(1000, 10, 276) <= R.MAX_KEEP_WORK < R._keep_work(1000, 10, 277)
    with pytest.raises(R.RulesError, match=r"^a roll too large to work out exactly in time is refused: "
                                           r"keeping 277 of 1000d10 would pass the keep budget of 8589934592 "
                                           r"bits added \(8642134080\)$"):
        R.keep(1000, 10, 277, False)
    assert R.keep(1000, 6, 1000, False) == R.repeat(R.die(6), 1000)
    page = next(iter(emit_dice_page().values()))
    assert "the best or worst k of many equal dice past a work budget of 8,589,934,592 (about k × k × sides × " \
        "sides / 4 additions" in page


JS_KEEP = """
const R = require(process.argv[1]).RulesRuntime || globalThis.RulesRuntime;
const out = JSON.parse(require("fs").readFileSync(0, "utf8")).map(([n, sides, k, highest]) => {
  const d = R.keep(R.dice(n, sides), k, highest);
  return [Number(d.offset), d.weights.map(String), String(d.total)];
});
console.log(JSON.stringify(out));
"""


def test_the_javascript_runtime_keeps_the_same_dice() -> None:
    """Every k of up to 7 dice of up to 6 sides, and half-pools of many dice, the same in both runtimes."""
    small = [[n, sides, k, highest] for n in range(1, 8) for sides in range(1, 7) for k in range(n + 2)
             for highest in (True, False)]
    cases = small + [[1000, 6, 100, True], [100, 100, 20, False], [300, 10, 150, True]]
    runtime = Path(R.__file__).with_suffix(".js")
    done = subprocess.run([node(), "-e", JS_KEEP, str(runtime)], input=json.dumps(cases), capture_output=True,
                          text=True, check=True, timeout=300)
    for (n, sides, k, highest), js in zip(cases, json.loads(done.stdout), strict=True):
        found = R.keep(n, sides, k, highest)
        assert js == [found.offset, [str(w) for w in found.weights], str(found.total)], (n, sides, k, highest)


def test_highest_of_dice_exploding_into_extra_dice_is_still_refused() -> None:
    with pytest.raises(R.RulesError, match=r"highest\(\) cannot be asked"):
        R.pool_answers(R.parse_dice("2d6+1d6!"), [("highest", 1)])


def test_a_bind_of_plain_numbers_is_the_mixture_of_them() -> None:
    """Three d6 bound one by one, the result a plain number: the same roll as mixing rolls of one outcome each."""
    def stunt(a: int) -> Any:
        return R.bind(R.dice(1, 6), lambda b: R.bind(R.dice(1, 4), lambda c: c if a == b else 0))
    found = R.bind(R.dice(1, 6), stunt)
    assert dict(found.items()) == {0: Fraction(5, 6), 1: Fraction(1, 24), 2: Fraction(1, 24),
                                   3: Fraction(1, 24), 4: Fraction(1, 24)}


def test_a_bind_of_names_and_of_yes_no_adds_them_by_name() -> None:
    named = R.bind_named(R.dice(1, 4), lambda x: "low" if x < 3 else "high")
    assert (named.labels, named.weights, named.total) == (("high", "low"), (1, 1), 2)
    flags = R.bind_named(R.dice(1, 6), lambda x: x == 6)
    assert (flags.labels, flags.weights, flags.total) == ((False, True), (5, 1), 6)


def test_a_bind_mixing_numbers_and_rolls_still_mixes_the_rolls() -> None:
    found = R.bind(R.dice(1, 2), lambda x: 10 if x == 1 else R.dice(1, 2))
    assert dict(found.items()) == {1: Fraction(1, 4), 2: Fraction(1, 4), 10: Fraction(1, 2)}


def mixed(found: Any) -> dict[Any, Fraction]:
    """A result's chances: a plain number, name or yes/no is certain; a roll's, outcome by outcome."""
    if isinstance(found, (str, bool)):
        return {found: Fraction(1)}
    if isinstance(found, R.Outcomes):
        return dict(zip(found.labels, (Fraction(w, found.total) for w in found.weights), strict=True))
    return dict(R.as_dist(found).items())


@pytest.mark.parametrize("reading", [lambda a: a[0] - a[1], lambda a: "wide" if a[0] - a[1] >= 2 else "narrow",
                                     lambda a: a[0] == a[1], lambda a: "same" if a[0] == a[1] else a[0] > 2,
                                     lambda a: R.dice(1, a[0]) if a[1] == 1 else a[0], lambda a: a[0] * 10 - a[1]],
                         ids=["numbers", "names", "yes-no", "names-and-yes-no", "numbers-and-rolls", "far-apart"])
def test_a_pool_bind_adds_its_results_by_result_or_mixes_them(reading: Callable[[Any], Any]) -> None:
    """pool_bind_any() adds plain results (numbers; names and yes/no) up in one pass, and mixes rolls: each the
    chance of every joint answer, roll by roll, times what its result rolls."""
    pool, asked = R.parse_dice("3d4"), [("highest", 1), ("lowest", 1)]
    expected: dict[Any, Fraction] = {}
    for answers, chance in brute(pool, asked).items():
        for result, p in mixed(reading(answers)).items():
            expected[result] = expected.get(result, Fraction(0)) + chance * p
    assert mixed(R.pool_bind_any(pool, asked, reading)) == expected


def test_a_bind_whose_numbers_are_too_far_apart_is_refused() -> None:
    with pytest.raises(R.RulesError, match="more than 1000000 outcomes"):
        R.bind(R.dice(1, 2), lambda x: 0 if x == 1 else 5_000_000)


JS_ANSWERS = """
const R = require(process.argv[1]).RulesRuntime || globalThis.RulesRuntime;
const cases = JSON.parse(require("fs").readFileSync(0, "utf8")), out = [];
for (const [text, asked] of cases) {
  const found = R.poolAnswers(R.parseDice(text), asked);
  out.push({joint: [...found.joint].map(([k, w]) => [k, String(w)]), total: String(found.total)});
}
const d = R.bind(R.parseDice("1d6"), (a) => R.bind(R.parseDice("1d6"), (b) => a === b ? a : 0));
const n = R.bind(R.parseDice("1d4"), (x) => x < 4 ? "low" : "high");
out.push([d.offset, d.weights.map(String), String(d.total)], [n.labels, n.weights.map(String), String(n.total)]);
console.log(JSON.stringify(out));
"""


@pytest.mark.slow  # every pool and question again in Node
def test_the_javascript_runtime_takes_the_same_paths() -> None:
    cases = [(text, [list(q) for q in asked]) for text in POOLS for asked in ASKED]
    runtime = Path(R.__file__).with_suffix(".js")
    done = subprocess.run([node(), "-e", JS_ANSWERS, str(runtime)], input=json.dumps(cases), capture_output=True,
                          text=True, check=True, timeout=300)
    found = json.loads(done.stdout)
    for (text, asked), js in zip(cases, found, strict=False):
        expected = chances(R.parse_dice(text), [tuple(q) for q in asked])
        assert {tuple(int(x) for x in k.split(",")) if k else (): Fraction(int(w), int(js["total"]))
                for k, w in js["joint"] if int(w)} == expected, (text, asked)
    same = R.bind(R.dice(1, 6), lambda a: R.bind(R.dice(1, 6), lambda b: a if a == b else 0))
    assert found[-2] == [0, ["30", "1", "1", "1", "1", "1", "1"], "36"] == \
        [same.offset, [str(w) for w in same.weights], str(same.total)]
    assert found[-1] == [["high", "low"], ["1", "3"], "4"]


EXTREME = (r"^a roll too large to work out exactly in time is refused: its best or worst die would pass the extreme "
           r"budget of 134217728 bits \({} faces of {} bits\)$")
SWEEP = (r"^a roll too large to work out exactly in time is refused: keeping {} of {} dice of {} kind\(s\) would "
         r"pass the keep budget of 8589934592 bits added \({}\)$")


def test_the_best_or_worst_die_of_many_is_a_difference_of_powers_within_the_extreme_budget() -> None:
    """highest(1000d10000, 1) is every die at most x less every die at most x - 1 (a power each), within the
    extreme budget (faces times the bits of a weight); lowest() is its mirror; 1000d11000 is refused before any
    work, as is the best die of a mixed pool that large."""
    top = R.keep(1000, 10000, 1, True)
    assert (top.offset, len(top.weights), top.weights[0], top.weights[-1]) == \
        (1, 10000, 1, 10000**1000 - 9999**1000)
    assert R.keep(1000, 10000, 1, False).weights == top.weights[::-1]
    with pytest.raises(R.RulesError, match=EXTREME.format(11000, 13426)):
        R.keep(1000, 11000, 1, False)
    with pytest.raises(R.RulesError, match=EXTREME.format(11000, 13415)):
        R.pool_answers(R.parse_dice("999d11000+1d6"), [("highest", 1)])
    assert 11000 * 13426 > R.MAX_EXTREME_BITS >= 10000 * top.total.bit_length()


def test_the_keep_budget_counts_a_mixed_pool_by_its_sweep() -> None:
    """The best 13 of 50d6+50d8 answer (a fifth of a second here), the best 14 are refused at once (the best 25
    took 4.5 s): each face's placings of fewer than k dice, squared, times the kept sums and a weight's bits."""
    assert R._placings([50, 50], 13) == 91 and R._placings([2, 1], 3) == 5
    found = R.keep_pool(R.parse_dice("50d6+50d8"), 13, True)
    assert (found.offset, len(found.weights), found.total) == (13, 92, 6**50 * 8**50)
    with pytest.raises(R.RulesError, match=SWEEP.format(14, 100, 2, 11997493200)):
        R.keep_pool(R.parse_dice("50d6+50d8"), 14, True)
    with pytest.raises(R.RulesError, match=SWEEP.format(14, 100, 2, 11997493200)):
        R.keep_pool(R.parse_dice("50d6+50d8"), 14, False)


JS_REFUSED = """
const R = require(process.argv[1]).RulesRuntime || globalThis.RulesRuntime;
const out = JSON.parse(require("fs").readFileSync(0, "utf8")).map(([text, k, highest]) => {
  try { const d = R.keep(R.parseDice(text), k, highest); return [d.offset, d.weights.length, String(d.total)]; }
  catch (e) { return e.message; }
});
console.log(JSON.stringify(out));
"""


def test_the_javascript_runtime_refuses_the_same_extremes_and_sweeps() -> None:
    cases = [["1000d11000", 1, True], ["1000d11000", 1, False], ["999d11000+1d6", 1, True], ["50d6+50d8", 14, True],
             ["50d6+50d8", 13, False], ["3d{1,2,9}+2d4", 2, False], ["400d{1,2,3,4,5,6}", 55, True]]
    runtime = Path(R.__file__).with_suffix(".js")
    done = subprocess.run([node(), "-e", JS_REFUSED, str(runtime)], input=json.dumps(cases), capture_output=True,
                          text=True, check=True, timeout=300)
    for (text, k, highest), js in zip(cases, json.loads(done.stdout), strict=True):
        try:
            found = R.keep_pool(R.parse_dice(text), k, highest)
        except R.RulesError as exc:
            assert js == str(exc), text
        else:
            assert js == [found.offset, len(found.weights), str(found.total)], text
