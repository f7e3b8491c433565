"""One roll of a pool, asked several questions: exact in the runtime, the same in all three runtimes."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.analyze.program import Program
from rulesc.diagnostics.core import Diagnostics, Span
from rulesc.formula.check import Scope, check_types
from rulesc.formula.parser import parse_formula
from rulesc.runtime import rulesc_runtime as R
from tests.backends import Built, built_case, icepool_chances
from tests.test_exact_runtimes import three_ways


@pytest.fixture(scope="module")
def pools(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "pool-questions") as found:
        yield found


def by_brute_force(pool: list[int], const: int, asked: list[tuple[int | str, ...]]) -> Counter[tuple[int, ...]]:
    """Every roll of the pool, one by one, answered as the questions say."""
    found: Counter[tuple[int, ...]] = Counter()
    for faces in itertools.product(*(range(1, sides + 1) for sides in pool)):
        ordered = sorted(faces, reverse=True)
        answers = []
        for kind, *numbers in asked:
            k = max(0, numbers[0]) if numbers else 0
            answers.append({"total": sum(faces) + const, "highest": sum(ordered[:k]),
                            "lowest": sum(ordered[len(ordered) - min(k, len(ordered)):]),
                            "successes": sum(1 for f in faces if f >= numbers[0]) if numbers else 0,
                            "count": sum(1 for f in faces if numbers[0] <= f <= numbers[-1]) if numbers else 0}[
                                str(kind)])
        found[tuple(answers)] += 1
    return found


QUESTION = st.one_of(st.just(("total",)), st.tuples(st.sampled_from(["highest", "lowest"]), st.integers(-1, 5)),
                     st.tuples(st.just("successes"), st.integers(0, 11)),
                     st.tuples(st.just("count"), st.integers(0, 11)),
                     st.tuples(st.just("count"), st.integers(0, 6), st.integers(3, 11)))


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from([2, 3, 4, 6, 8, 10]), min_size=0, max_size=4), st.integers(-3, 3),
       st.lists(QUESTION, min_size=1, max_size=3))
def test_joint_answers_are_every_roll_counted(sizes: list[int], const: int, asked: list[tuple[int | str, ...]]) -> None:
    pool = R.Dice(tuple(sorted(Counter(sizes).items(), reverse=True)), const)
    joint, total = R.pool_answers(pool, asked)
    expected = by_brute_force(sorted(sizes, reverse=True), const, asked)
    assert total == sum(expected.values())
    assert joint == dict(expected)


def test_the_three_runtimes_agree_on_every_roll(pools: tuple[Path, Program, ModuleType]) -> None:
    calls = ([("best_and_tops", {"n": k}) for k in (1, 4, 8)] + [("ones_and_highs", {"n": k}) for k in (1, 12)]
             + [("ones_among", {"n": k}) for k in (0, 1, 7, 30)] + [("spread", {"n": k}) for k in (1, 6)]
             + [("best_two_plus_total", {"bonus": b}) for b in range(-3, 4)])
    found = three_ways(pools, calls)
    assert all("value" in f for f in found)


def test_questions_to_one_roll_match_icepool(pools: tuple[Path, Program, ModuleType]) -> None:
    _, program, _ = pools
    for n in range(1, 7):
        faces = icepool.d6.pool(n).expand()
        tops = icepool.map(lambda f: max(f) * 10 + f.count(6), faces, star=False)
        assert dict(program.call("best_and_tops", [n]).items()) == icepool_chances(tops), n
        highs = icepool.map(lambda f: f.count(1) * 100 + sum(1 for x in f if x >= 5), faces, star=False)
        assert dict(program.call("ones_and_highs", [n]).items()) == icepool_chances(highs), n
        spread = icepool.map(lambda f: max(f) - min(f), icepool.d10.pool(n).expand(), star=False)
        assert dict(program.call("spread", [n]).items()) == icepool_chances(spread), n


def typing_error(source: str) -> str:
    node = parse_formula(source, lambda offset: Span("<test>", 1, offset + 1))
    diags = Diagnostics()
    assert check_types(node, Scope({"n": "int"}, {}, {}, lambda name, span: None), diags) is None
    return diags.items[0].message


def test_what_a_pool_is_asked_is_fixed_before_it_is_rolled() -> None:
    assert typing_error("let p = 3d6 in let k = p in highest(p, k)") == \
        "argument 2 of highest() uses 'k', which is known only after 'p' is rolled"
    assert typing_error("let p = 3d6 in count(p, 1, 2, 3)") == "count() takes 2 or 3 argument(s), got 4"
    assert typing_error("count(3d6)") == "count() takes 2 or 3 arguments, got 1"
    assert typing_error("let p = 3d6 in highest(p, p)") == \
        "argument 2 of highest() uses 'p', which is known only after 'p' is rolled"


@pytest.mark.parametrize("part", [R.parse_dice("1d6+2d{3,5}+10"), R.as_dist(R.parse_dice("3d4-20")), 5],
                         ids=["pool of several kinds and a constant", "roll", "number"])
def test_a_pool_mean_is_refused_just_where_its_mixture_would_be(part: R.Dice | R.Dist | int) -> None:
    """pool_bind_mean() makes no mixture, but refuses what pool_bind() would: the mixture's outcomes, from the lowest
    any part can give to the highest, may number MAX_OUTCOMES and no more. Each kind of part is put at one end of
    that width and a number at the other, so a part's lowest or highest outcome worked out wrong (a constant or a
    die's faces left out) moves the edge; the pool's second kind has faces from 3, two of them."""
    low, high = R.as_dist(part).offset, R.as_dist(part).offset + len(R.as_dist(part).weights) - 1
    pool, asked = R.parse_dice("1d2"), [("highest", 1)]

    def part_or(other: int) -> Callable[[R.Answers], R.Dice | R.Dist | int]:
        return lambda answers: part if answers[0] == 1 else other

    for other in (high - R.MAX_OUTCOMES + 1, low + R.MAX_OUTCOMES - 1):  # exactly MAX_OUTCOMES outcomes
        assert R.pool_bind_mean(pool, asked, part_or(other)) == (R.mean(part) + other) / 2
    for other in (high - R.MAX_OUTCOMES, low + R.MAX_OUTCOMES):  # one more
        for bound in (R.pool_bind_mean, R.pool_bind):
            with pytest.raises(R.RulesError, match=f"^a roll with more than {R.MAX_OUTCOMES} outcomes is refused$"):
                bound(pool, asked, part_or(other))
