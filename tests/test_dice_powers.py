"""Sums of many dice as polynomial powers, the joint answers of sum questions as one power, and a pool's mean and
variance from its dice's: each checked against the dice rolled one by one (every roll enumerated, or the answers
added die by die), and the JavaScript runtime against Python on the same calls."""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
import subprocess
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from rulesc.runtime import rulesc_runtime as R
from tests.backends import node


def multiplied(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two polynomials, term by term."""
    out = [0] * (len(a) + len(b) - 1)
    for (i, x), (j, y) in itertools.product(enumerate(a), enumerate(b)):
        out[i + j] += x * y
    return out


def powered(poly: Sequence[int], times: int) -> list[int]:
    out = [1]
    for _ in range(times):
        out = multiplied(out, poly)
    return out


@pytest.mark.parametrize("sides", range(1, 9))
def test_a_plain_dies_power_is_the_dice_multiplied_one_by_one(sides: int) -> None:
    for times in range(9):
        assert R._uniform_power(sides, times) == powered([1] * sides, times), times


def test_millers_recurrence_and_squaring_give_the_product_of_the_copies() -> None:
    rng = random.Random(36)
    for _ in range(200):
        poly = [rng.randint(0, 4) for _ in range(rng.randint(1, 7))] + [rng.randint(1, 4)]
        times = rng.randint(0, 8)
        expected = powered(poly, times)
        assert R._power(poly, times) == expected, (poly, times)
        if poly[0]:
            assert R._miller_power(poly, times) == expected, (poly, times)
    wide = [rng.getrandbits(64) for _ in range(40)]  # past MILLER_WORK: repeated squaring
    assert R._power(wide, 30) == powered(wide, 30)


def test_packed_products_in_bytes_and_in_decimal_digits_are_exact() -> None:
    rng = random.Random(7)
    small, big = [rng.getrandbits(50) for _ in range(30)], [rng.getrandbits(3000) for _ in range(120)]
    big[0] = (1 << 3000) - 1  # every bit of a slot set: the widest coefficient the slots must hold
    assert R._convolve(small, small[:20]) == multiplied(small, small[:20])
    assert R._convolve(big, big) == multiplied(big, big)  # above DECIMAL_BITS: the Decimal path
    assert R._decimal_convolve(small, big, 930) == multiplied(small, big)
    assert R._convolve([3], big) == [3 * w for w in big]


def rolled(text: str) -> dict[int, Fraction]:
    """The sum of a pool, every roll of its dice enumerated one by one."""
    return dict(_rolled(text))


@functools.cache
def _rolled(text: str) -> tuple[tuple[int, Fraction], ...]:
    """rolled() worked out once a process: two tests ask each pool, and 3d4!! rolls a million ways. The ways of
    each sum are added as whole numbers and divided once, as adding a million fractions took most of its time."""
    pool = R.parse_dice(text)
    dice = [list(zip(R.die_of(key).outcomes, R.die_of(key).weights, strict=True)) for key, count in pool.counts
            for _ in range(count)]
    total = math.prod(R.die_of(key).total ** count for key, count in pool.counts)
    found: dict[int, int] = {}
    for roll in itertools.product(*dice):
        ways = math.prod(w for _, w in roll)
        if ways:
            x = sum(face for face, _ in roll) + pool.const
            found[x] = found.get(x, 0) + ways
    return tuple((x, Fraction(ways, total)) for x, ways in found.items())


SUMS = ["5d6", "4d7", "6d2", "3d{0,2,2,5}", "5dF", "4d6r2", "3d6rr{1,6}", "3d4!!", "2d6!+1d4", "4d3+3d5-2", "1d20"]


@pytest.mark.parametrize("text", SUMS)
def test_a_sum_of_dice_is_every_roll_counted(text: str) -> None:
    assert dict(R.as_dist(R.parse_dice(text)).items()) == rolled(text)


@pytest.mark.parametrize("text", SUMS)
def test_a_pools_mean_and_variance_are_those_of_its_sum(text: str) -> None:
    found = rolled(text)
    mean = sum((x * p for x, p in found.items()), Fraction(0))
    variance = sum(((x - mean) ** 2 * p for x, p in found.items()), Fraction(0))
    pool = R.parse_dice(text)
    assert (R.mean(pool), R.variance(pool), R.variance(R.as_dist(pool))) == (mean, variance, variance)
    assert R.sd(pool) == math.sqrt(variance)


def test_a_pools_mean_is_refused_as_its_roll_is() -> None:
    for text, message in (("1001d6", r"more than 1000 dice is refused \(1001 asked\)"),
                          ("600d1000+600d999", r"roll budget of 1073741824 bits \(599401 outcomes of 5980 bits\)")):
        for compute in (R.as_dist, R.mean, R.sd):
            with pytest.raises(R.RulesError, match=message):
                compute(R.parse_dice(text))


CHAINED = [("3d6!", [("successes", 5), ("count", 1)]), ("2d10!+2d6", [("count", 1), ("successes", 8), ("total",)]),
           ("4d6r{2,3,4,5}", [("count", 6), ("count", 1)]), ("5dF+2d4!", [("total",), ("count", -1)]),
           ("2d6!{5,6}", [("successes", 4)])]


@pytest.mark.parametrize(("text", "asked"), CHAINED, ids=str)
def test_joint_sums_as_one_power_are_the_chains_added_die_by_die(text: str, asked: list[tuple[object, ...]]) -> None:
    pool = R.parse_dice(text)
    chains = [(R._chain(key, tuple(asked))[0], count) for key, count in pool.counts]
    by_power = R._summed_chains(chains, len(asked))
    assert by_power == R._added_chains(chains, len(asked))
    assert sum(by_power.values()) == math.prod(R._chain(key, tuple(asked))[1] ** n for key, n in pool.counts)


JS_POWERS = """
const R = require(process.argv[1]).RulesRuntime || globalThis.RulesRuntime;
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const weights = (d) => [d.offset, d.weights.map(String), String(d.total)];
console.log(JSON.stringify({
  sums: cases.sums.map((t) => weights(R.asDist(R.parseDice(t)))),
  moments: cases.sums.map((t) => [String(R.mean(R.parseDice(t))), R.sd(R.parseDice(t)).v]),
  joint: cases.chained.map(([t, asked]) => {
    const found = R.poolAnswers(R.parseDice(t), asked);
    return [[...found.joint].map(([k, w]) => [k, String(w)]).sort(), String(found.total)];
  }),
  counted: cases.counted.map(([t, low]) => weights(R.countFaces(R.parseDice(t), low, R.MAX_INT))),
  margins: cases.margins.map(([t, low]) => weights(R.dsub(R.successes(R.parseDice(t), low),
                                                          R.successes(R.parseDice(t), low)))),
}));
"""

LARGE = ["100d100", "37d6", "200d{0,1,1,3}", "40d6!", "30d12!!"]  # 60d6! passes the product budget


@pytest.mark.slow  # rolls of hundreds of dice in both runtimes
def test_the_javascript_runtime_sums_and_answers_alike() -> None:
    sums = SUMS + LARGE
    chained = [(text, [list(q) for q in asked]) for text, asked in CHAINED]
    counted = [("15d10!", 8), ("40d6", 5), ("9d6r{2,3,4,5}", 6)]
    # products of 11 x 11 terms in floats, 16 x 16 past 2**53 term by term, 21 x 21 to 62 x 62 packed
    # (KRONECKER_TERMS, 400)
    margins = [("10d6", 5), ("15d10", 8), ("20d6", 5), ("21d10", 8), ("31d6", 5), ("61d6", 5)]
    runtime = Path(R.__file__).with_suffix(".js")
    done = subprocess.run([node(), "-e", JS_POWERS, str(runtime)], capture_output=True, text=True, check=True,
                          timeout=300, input=json.dumps({"sums": sums, "chained": chained, "counted": counted,
                                                         "margins": margins}))
    found = json.loads(done.stdout)

    def weights(dist: R.Dist) -> list[object]:
        return [dist.offset, [str(w) for w in dist.weights], str(dist.total)]
    assert found["sums"] == [weights(R.as_dist(R.parse_dice(text))) for text in sums]
    assert found["moments"] == [[str(R.mean(R.parse_dice(t))), R.sd(R.parse_dice(t))] for t in sums]
    for (text, asked), (joint, total) in zip(CHAINED, found["joint"], strict=True):
        ours, size = R.pool_answers(R.parse_dice(text), asked)
        assert (sorted([",".join(map(str, k)), str(w)] for k, w in ours.items()), str(size)) == \
            (sorted(joint), total), text
    assert found["counted"] == [weights(R.successes(R.parse_dice(t), low)) for t, low in counted]
    assert found["margins"] == [weights(R.dsub(R.successes(R.parse_dice(t), low), R.successes(R.parse_dice(t), low)))
                                for t, low in margins]
