"""The dice mechanics of fourteen well-known games as an outside author writes them: exact, equal to icepool.

tests/cases/good/mechanics/content holds one small system per game, each rule in its own words with worked
examples. Each formula is checked here against icepool (exact Fractions, equal) over its parameters' ranges, and
in the interpreter, the generated engine and the generated JavaScript at once.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import pytest

from generator.analyze.program import Program
from generator.build.staging import build_project
from generator.pipeline import Project, compile_project
from generator.runtime import rulesc_runtime as R
from tests.backends import CASES, drop_engine, icepool_chances, import_engine
from tests.test_exact_runtimes import three_ways

GAMES = ("age", "apocalypse", "blades", "cortex", "cthulhu", "darkness", "fate", "fifth", "ironsworn", "oracle",
         "reroll", "savage", "shadowrun", "yearzero")
D6, D10, D20 = icepool.d6, icepool.d10, icepool.d20
FUDGE = icepool.Die([-1, 0, 1])
TENS = icepool.Die(range(10))


class Book:
    """The mechanics case built once: each game's compiled program and imported engine module."""

    def __init__(self, root: Path, programs: dict[str, Program], modules: dict[str, Any]):
        self.root, self.programs, self.modules = root, programs, modules

    def chances(self, game: str, formula: str, *args: object) -> dict[object, Fraction]:
        found = self.programs[game].call(formula, list(args))
        return dict((R.as_dist(found) if isinstance(found, R.Dice) else found).items())

    def value(self, game: str, formula: str, *args: object) -> object:
        return self.programs[game].call(formula, list(args))


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Book]:
    root = tmp_path_factory.mktemp("mechanics")
    shutil.copytree(CASES / "good" / "mechanics" / "content", root / "content")
    build_project(Project(root), site=False)
    programs = {program.system.id: program for program in compile_project(Project(root)).programs}
    try:
        modules = {game: import_engine(root / "build/engine", programs[game].system.module) for game in programs}
        yield Book(root, programs, modules)
    finally:
        drop_engine(root)


def test_the_case_holds_the_fourteen_games(book: Book) -> None:
    assert sorted(book.programs) == list(GAMES)


def named(die: icepool.Die, read: Callable[..., str]) -> dict[object, Fraction]:
    return icepool_chances(die.map(read))


def test_blades_action_and_resistance(book: Book) -> None:
    def result(best: int, sixes: int) -> str:
        return "critical" if sixes >= 2 else "full success" if best == 6 else \
            "partial success" if best >= 4 else "bad outcome"
    assert book.chances("blades", "action_roll", 0) == named(icepool.lowest(D6, D6), lambda b: result(b, 0))
    for dots in range(1, 7):
        faces = D6.pool(dots).expand()
        action = icepool.map(lambda f: result(max(f), f.count(6)), faces, star=False)
        assert book.chances("blades", "action_roll", dots) == icepool_chances(action), dots
        stress = icepool.map(lambda f: -1 if f.count(6) >= 2 else 6 - max(f), faces, star=False)
        assert book.chances("blades", "resistance_stress", dots) == icepool_chances(stress), dots
    assert book.chances("blades", "resistance_stress", 0) == icepool_chances(6 - icepool.lowest(D6, D6))


def test_fate_ladder(book: Book) -> None:
    for skill in range(0, 9, 2):
        for difficulty in (0, 3, 8):
            shifts = 4 @ FUDGE + skill - difficulty
            expected = named(shifts, lambda s: "fail" if s < 0 else "tie" if s == 0 else
                             "success with style" if s >= 3 else "success")
            assert book.chances("fate", "ladder", skill, difficulty) == expected, (skill, difficulty)


def natural_roll(edge: int) -> icepool.Die:
    return D20 if edge == 0 else icepool.highest(D20, D20) if edge > 0 else icepool.lowest(D20, D20)


def attack_reader(bonus: int, armour: int) -> Callable[[int], str]:
    return lambda n: "critical" if n >= 19 else "miss" if n == 1 else "hit" if n + bonus >= armour else "miss"


def damage_reader(dice: icepool.Die, plus: int, bonus: int, armour: int) -> Callable[[int], Any]:
    """A natural roll's damage: the dice twice on a critical (19 or 20), once on a hit, none on a miss."""
    return lambda n: 2 @ dice + plus if n >= 19 else dice + plus if n > 1 and n + bonus >= armour else 0


def test_fifth_edition_advantage_and_critical_damage(book: Book) -> None:
    for bonus, armour in ((0, 5), (5, 15), (7, 18), (15, 30)):
        for edge in (-1, 0, 1):
            attack = named(natural_roll(edge), attack_reader(bonus, armour))
            assert book.chances("fifth", "attack_roll", bonus, armour, edge) == attack, (bonus, armour, edge)
            for weapon, dice, plus in (("1d8+3", icepool.d8, 3), ("2d6+4", 2 @ D6, 4), ("1d12-1", icepool.d12, -1)):
                damage = natural_roll(edge).map(damage_reader(dice, plus, bonus, armour))
                found = book.value("fifth", "expected_damage", R.parse_dice(weapon), bonus, armour, edge)
                assert found == damage.mean(), (weapon, bonus, armour, edge)


def test_powered_by_the_apocalypse_moves(book: Book) -> None:
    for stat in range(-2, 4):
        expected = named(2 @ D6 + stat, lambda r: "strong hit" if r >= 10 else "weak hit" if r >= 7 else "miss")
        assert book.chances("apocalypse", "move", stat) == expected, stat


def test_ironsworn_action_against_challenge_dice(book: Book) -> None:
    for stat in range(1, 6):
        for adds in (0, 2, 5):
            def result(a: int, c1: int, c2: int, stat: int = stat, adds: int = adds) -> str:
                score = min(a + stat + adds, 10)
                beaten = (score > c1) + (score > c2)
                return "strong hit" if beaten == 2 else "weak hit" if beaten == 1 else "miss"
            expected = icepool_chances(icepool.map(result, D6, D10, D10))
            assert book.chances("ironsworn", "action", stat, adds) == expected, (stat, adds)


def test_shadowrun_hits_and_glitches(book: Book) -> None:
    for pool in (1, 2, 3, 6, 11, 20):
        assert book.chances("shadowrun", "hits", pool) == icepool_chances(pool @ D6.map(lambda x: int(x >= 5)))

        def glitch(faces: tuple[int, ...], pool: int = pool) -> str:
            if faces.count(1) * 2 <= pool:
                return "no glitch"
            return "critical glitch" if not any(f >= 5 for f in faces) else "glitch"
        expected = icepool_chances(icepool.map(glitch, D6.pool(pool).expand(), star=False))
        assert book.chances("shadowrun", "glitch", pool) == expected, pool


TEN_AGAIN = D10.map(lambda x: 1001 if x == 10 else int(x >= 8)).explode([1001], depth=15)
"""One die of a ten-again pool: a 10 is 1001 (one success, 1000 to mark it): a pool mod 1000 is its successes."""


def test_world_of_darkness_ten_again(book: Book) -> None:
    for pool in (1, 2, 5, 9, 15):
        successes = (pool @ TEN_AGAIN).map(lambda v: v % 1000)
        assert book.chances("darkness", "successes_rolled", pool) == icepool_chances(successes), pool
        expected = named(successes, lambda s: "exceptional success" if s >= 5 else "success" if s else "failure")
        assert book.chances("darkness", "ten_again", pool) == expected, pool


def test_savage_worlds_trait_and_wild_die(book: Book) -> None:
    wild = D6.explode(depth=R._explode_depth(6, (6,)))
    for die in (4, 6, 8, 10, 12):
        trait = icepool.Die(range(1, die + 1)).explode(depth=R._explode_depth(die, (die,)))
        for modifier in (-4, 0, 3):
            def result(t: int, w: int, modifier: int = modifier) -> str:
                best = max(t, w) + modifier
                return "critical failure" if t == w == 1 else "raise" if best >= 8 else \
                    "success" if best >= 4 else "failure"
            expected = icepool_chances(icepool.map(result, trait, wild))
            assert book.chances("savage", "trait", die, modifier) == expected, (die, modifier)


def test_year_zero_push(book: Book) -> None:
    pushed_die = D6.reroll([2, 3, 4, 5], depth=1)
    for dice in (1, 2, 4, 7, 10):
        assert book.chances("yearzero", "first_successes", dice) == \
            icepool_chances(dice @ D6.map(lambda x: int(x == 6)))
        faces = pushed_die.pool(dice).expand()
        joint = icepool.map(lambda f: f.count(6) * 10 + f.count(1), faces, star=False)
        assert book.chances("yearzero", "pushed", dice) == icepool_chances(joint), dice
        result = icepool.map(lambda f: "failure" if 6 not in f else "success with banes" if 1 in f else "success",
                             faces, star=False)
        assert book.chances("yearzero", "pushed_result", dice) == icepool_chances(result), dice


def percentile(tens: tuple[int, ...], units: int, dice: int) -> int:
    """The roll a player reads: each tens die with the units die, 00 and 0 being 100; the best of them with bonus
    dice, the worst with penalty dice."""
    readings = [100 if t == 0 and units == 0 else t * 10 + units for t in tens]
    return min(readings) if dice >= 0 else max(readings)


def test_call_of_cthulhu_bonus_and_penalty_dice(book: Book) -> None:
    for skill in (1, 40, 49, 65, 99):
        for dice in range(-2, 3):
            def level(tens: tuple[int, ...], units: int, skill: int = skill, dice: int = dice) -> str:
                roll = percentile(tens, units, dice)
                return "critical" if roll == 1 else "fumble" if roll == 100 or (skill < 50 and roll >= 96) else \
                    "extreme" if roll <= skill // 5 else "hard" if roll <= skill // 2 else \
                    "regular" if roll <= skill else "fail"
            expected = icepool.map(level, TENS.pool(1 + abs(dice)).expand(), TENS, star=False)
            assert book.chances("cthulhu", "skill_roll", skill, dice) == icepool_chances(expected), (skill, dice)


def hitch_die(sides: int) -> icepool.Die:
    return icepool.Die([0, *range(2, sides + 1)])


def test_cortex_best_two_and_hitches(book: Book) -> None:
    for d6s, d8s, d10s in ((1, 0, 0), (1, 1, 0), (2, 1, 1), (0, 4, 0), (4, 4, 4), (0, 0, 2)):
        dice = [hitch_die(6)] * d6s + [hitch_die(8)] * d8s + [hitch_die(10)] * d10s
        pool = icepool.Pool(dice)
        assert book.chances("cortex", "total", d6s, d8s, d10s) == icepool_chances(pool.highest(2).sum())
        everything = len(dice)
        hitches = pool.count_subset([0]).map(lambda h: -1 if h == everything else h)  # noqa: B023 (used at once)
        assert book.chances("cortex", "hitches", d6s, d8s, d10s) == icepool_chances(hitches)


def test_age_stunt_points(book: Book) -> None:
    for ability in (-2, 0, 2, 6):
        for target in (5, 11, 13, 21):
            def stunts(a: int, b: int, dragon: int, ability: int = ability, target: int = target) -> int:
                doubles = a in (b, dragon) or b == dragon
                return dragon if a + b + dragon + ability >= target and doubles else 0
            expected = icepool_chances(icepool.map(stunts, D6, D6, D6))
            assert book.chances("age", "stunt_points", ability, target) == expected, (ability, target)


def test_rerolling_ones_and_twos_once(book: Book) -> None:
    rerolled = 2 @ D6.reroll([1, 2], depth=1)
    for bonus in range(6):
        assert book.chances("reroll", "damage", bonus) == icepool_chances(rerolled + bonus)
        assert book.value("reroll", "average_damage", bonus) == (rerolled + bonus).mean() == Fraction(25, 3) + bonus


ROAD = {**{n: "quiet road" for n in range(11, 27)}, **{n: "travellers" for n in (*range(31, 35), *range(41, 47))},
        **{n: "storm" for n in (35, 36, *range(51, 56))}, **{n: "bandits" for n in (56, *range(61, 67))}}


def test_a_table_read_by_d66(book: Book) -> None:
    expected = icepool.map(lambda tens, units: ROAD[tens * 10 + units], D6, D6)
    assert book.chances("oracle", "road_event") == icepool_chances(expected)
    assert book.chances("oracle", "road_event")["bandits"] == Fraction(7, 36)


EDGES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "blades": [(f, {"dots": d}) for f in ("action_roll", "resistance_stress") for d in (0, 1, 6)],
    "fate": [("ladder", {"skill": s, "difficulty": d}) for s in (0, 8) for d in (0, 8)],
    "fifth": [("attack_roll", {"bonus": 15, "armour": a, "edge": e}) for a in (5, 30) for e in (-1, 1)]
    + [("expected_damage", {"weapon": R.parse_dice(w), "bonus": 15, "armour": 30, "edge": 1})
       for w in ("1d8+3", "0", "3d6!!+2")],
    "apocalypse": [("move", {"stat": s}) for s in (-2, 3)],
    "ironsworn": [("action", {"stat": s, "adds": a}) for s in (1, 5) for a in (0, 5)],
    "shadowrun": [(f, {"pool": p}) for f in ("hits", "glitch") for p in (1, 20)],
    "darkness": [(f, {"pool": p}) for f in ("successes_rolled", "ten_again") for p in (1, 15)],
    "savage": [("trait", {"die": d, "modifier": m}) for d in (4, 12) for m in (-4, 4)],
    "yearzero": [(f, {"dice": d}) for f in ("first_successes", "pushed", "pushed_result") for d in (1, 10)],
    "cthulhu": [("skill_roll", {"skill": s, "dice": d}) for s in (1, 99) for d in (-2, 2)],
    "cortex": [(f, {"d6s": a, "d8s": b, "d10s": c}) for f in ("total", "hitches") for a, b, c in ((0, 0, 0),
                                                                                                   (4, 4, 4))],
    "age": [("stunt_points", {"ability": a, "target": t}) for a in (-2, 6) for t in (5, 21)],
    "reroll": [(f, {"bonus": b}) for f in ("damage", "average_damage") for b in (0, 5)],
    "oracle": [("road_event", {})],
}


@pytest.mark.parametrize("game", GAMES)
def test_each_game_agrees_in_three_runtimes_at_the_edges(book: Book, game: str) -> None:
    found = three_ways((book.root, book.programs[game], book.modules[game]), EDGES[game])
    assert all("value" in answer for answer in found) or game == "cortex", found
    if game == "cortex":  # no dice at all: the best two of nothing is 0, and every die (none) a hitch
        assert found[0] == {"value": {"dist": [[0, "1"]]}} and found[2] == {"value": {"dist": [[-1, "1"]]}}
