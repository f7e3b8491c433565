"""The fourteen mechanics of this case computed by icepool, independently of rulesc: MODELS maps each
'system/formula' to a function of the formula's arguments (pools as text) giving the same answer.

tests/test_mechanics.py compares every formula with its model over its parameters' ranges; `rulesc bench --dice
--icepool tests/cases/good/mechanics/icepool_models.py` (with --root tests/cases/good/mechanics) times both.
Each model builds its dice on every call, so that a benchmark run finds nothing computed before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import icepool

EXPLODE_CUT = Fraction(1, 10**15)
"""rulesc explodes a die until one more explosion is less likely than this; icepool is given that depth."""


def depth(sides: int, faces: int = 1) -> int:
    found = 0
    while Fraction(faces, sides) ** (found + 1) >= EXPLODE_CUT:
        found += 1
    return found


def d(sides: int) -> icepool.Die:
    return icepool.Die(range(1, sides + 1))


def pool_parts(text: str) -> tuple[icepool.Die, int]:
    """A pool written like 1d8+3, 2d6-1 or 0 (plain dice and a constant): the die of its dice's sum, and the
    constant."""
    dice, constant = icepool.Die([0]), 0
    for sign, count, sides, number in re.findall(r"([+-]?)(?:(\d*)d(\d+)|(\d+))", text.replace(" ", "")):
        times = -1 if sign == "-" else 1
        if sides:
            dice = dice + (int(count or 1) @ d(int(sides))) * times
        else:
            constant += times * int(number)
    return dice, constant


# ---- Blades: the best of a pool of d6, the worse of two with no dots -------------------------------------------

def blades_reading(best: int, sixes: int) -> str:
    return "critical" if sixes >= 2 else "full success" if best == 6 else \
        "partial success" if best >= 4 else "bad outcome"


def action_roll(dots: int) -> icepool.Die:
    if dots == 0:
        return icepool.lowest(d(6), d(6)).map(lambda best: blades_reading(best, 0))
    return icepool.map(lambda f: blades_reading(max(f), f.count(6)), d(6).pool(dots).expand(), star=False)


def resistance_stress(dots: int) -> icepool.Die:
    if dots == 0:
        return 6 - icepool.lowest(d(6), d(6))
    return icepool.map(lambda f: -1 if f.count(6) >= 2 else 6 - max(f), d(6).pool(dots).expand(), star=False)


# ---- Fate, PbtA, Ironsworn: a sum read in bands ------------------------------------------------------------------

def ladder(skill: int, difficulty: int) -> icepool.Die:
    shifts = 4 @ icepool.Die([-1, 0, 1]) + skill - difficulty
    return shifts.map(lambda s: "fail" if s < 0 else "tie" if s == 0 else "success with style" if s >= 3
                      else "success")


def move(stat: int) -> icepool.Die:
    return (2 @ d(6) + stat).map(lambda r: "strong hit" if r >= 10 else "weak hit" if r >= 7 else "miss")


def action(stat: int, adds: int) -> icepool.Die:
    def result(a: int, c1: int, c2: int) -> str:
        score = min(a + stat + adds, 10)
        beaten = (score > c1) + (score > c2)
        return "strong hit" if beaten == 2 else "weak hit" if beaten == 1 else "miss"
    return icepool.map(result, d(6), d(10), d(10))


# ---- D&D 5e: advantage, a critical range, damage with critical dice -------------------------------------------

def natural(edge: int) -> icepool.Die:
    return d(20) if edge == 0 else icepool.highest(d(20), d(20)) if edge > 0 else icepool.lowest(d(20), d(20))


def attack_roll(bonus: int, armour: int, edge: int) -> icepool.Die:
    return natural(edge).map(lambda n: "critical" if n >= 19 else "miss" if n == 1 else
                             "hit" if n + bonus >= armour else "miss")


def expected_damage(weapon: str, bonus: int, armour: int, edge: int) -> Fraction:
    dice_only, plus = pool_parts(weapon)
    damage = natural(edge).map(lambda n: dice_only + dice_only + plus if n >= 19 else
                               dice_only + plus if n > 1 and n + bonus >= armour else 0)
    return Fraction(damage.mean())


# ---- pools: hits and glitches, ten-again, pushes, hitches ------------------------------------------------------

def hits(pool: int) -> icepool.Die:
    return pool @ d(6).map(lambda x: int(x >= 5))


def glitch(pool: int) -> icepool.Die:
    def read(faces: tuple[int, ...]) -> str:
        if faces.count(1) * 2 <= pool:
            return "no glitch"
        return "critical glitch" if not any(f >= 5 for f in faces) else "glitch"
    return icepool.map(read, d(6).pool(pool).expand(), star=False)


def successes_rolled(pool: int) -> icepool.Die:
    """A 10 is 1001: one success and 1000 marking it, so each chain explodes on it; mod 1000 counts successes."""
    chain = d(10).map(lambda x: 1001 if x == 10 else int(x >= 8)).explode([1001], depth=depth(10))
    return (pool @ chain).map(lambda v: v % 1000)


def ten_again(pool: int) -> icepool.Die:
    return successes_rolled(pool).map(lambda s: "exceptional success" if s >= 5 else "success" if s else "failure")


def first_successes(dice: int) -> icepool.Die:
    return dice @ d(6).map(lambda x: int(x == 6))


def pushed_faces(dice: int) -> Any:
    return d(6).reroll([2, 3, 4, 5], depth=1).pool(dice).expand()


def pushed(dice: int) -> icepool.Die:
    return icepool.map(lambda f: f.count(6) * 10 + f.count(1), pushed_faces(dice), star=False)


def pushed_result(dice: int) -> icepool.Die:
    return icepool.map(lambda f: "failure" if 6 not in f else "success with banes" if 1 in f else "success",
                       pushed_faces(dice), star=False)


def hitch_pool(d6s: int, d8s: int, d10s: int) -> icepool.Pool:
    return icepool.Pool([icepool.Die([0, *range(2, sides + 1)]) for sides, count in ((6, d6s), (8, d8s),
                                                                                       (10, d10s))
                         for _ in range(count)])


def total(d6s: int, d8s: int, d10s: int) -> icepool.Die:
    return hitch_pool(d6s, d8s, d10s).highest(2).sum() if d6s + d8s + d10s else icepool.Die([0])


def hitches(d6s: int, d8s: int, d10s: int) -> icepool.Die:
    dice = d6s + d8s + d10s
    if not dice:
        return icepool.Die([-1])
    return hitch_pool(d6s, d8s, d10s).count_subset([0]).map(lambda h: -1 if h == dice else h)


# ---- Savage Worlds, Call of Cthulhu, AGE, rerolls, d66 ---------------------------------------------------------

def trait(die: int, modifier: int) -> icepool.Die:
    def result(t: int, w: int) -> str:
        best = max(t, w) + modifier
        return "critical failure" if t == w == 1 else "raise" if best >= 8 else \
            "success" if best >= 4 else "failure"
    return icepool.map(result, d(die).explode(depth=depth(die)), d(6).explode(depth=depth(6)))


def skill_roll(skill: int, dice: int) -> icepool.Die:
    """Each tens die read with the units die (00 and 0 being 100): the best reading with bonus dice, the worst
    with penalty dice."""
    tens = icepool.Die(range(10))

    def level(faces: tuple[int, ...], units: int) -> str:
        readings = [100 if t == 0 and units == 0 else t * 10 + units for t in faces]
        roll = min(readings) if dice >= 0 else max(readings)
        return "critical" if roll == 1 else "fumble" if roll == 100 or (skill < 50 and roll >= 96) else \
            "extreme" if roll <= skill // 5 else "hard" if roll <= skill // 2 else \
            "regular" if roll <= skill else "fail"
    return icepool.map(level, tens.pool(1 + abs(dice)).expand(), icepool.Die(range(10)), star=False)


def stunt_points(ability: int, target: int) -> icepool.Die:
    def stunts(a: int, b: int, dragon: int) -> int:
        doubles = a in (b, dragon) or b == dragon
        return dragon if a + b + dragon + ability >= target and doubles else 0
    return icepool.map(stunts, d(6), d(6), d(6))


def damage(bonus: int) -> icepool.Die:
    return 2 @ d(6).reroll([1, 2], depth=1) + bonus


def average_damage(bonus: int) -> Fraction:
    return Fraction(damage(bonus).mean())


ROAD = [(range(11, 27), "quiet road"), (range(31, 35), "travellers"), (range(35, 37), "storm"),
        (range(41, 47), "travellers"), (range(51, 56), "storm"), (range(56, 67), "bandits")]


def road_event() -> icepool.Die:
    return icepool.map(lambda t, u: next(event for keys, event in ROAD if t * 10 + u in keys), d(6), d(6))


MODELS: dict[str, Callable[..., Any]] = {
    "blades/action_roll": action_roll, "blades/resistance_stress": resistance_stress,
    "fate/ladder": ladder, "apocalypse/move": move, "ironsworn/action": action,
    "fifth/attack_roll": attack_roll, "fifth/expected_damage": expected_damage,
    "shadowrun/hits": hits, "shadowrun/glitch": glitch,
    "darkness/successes_rolled": successes_rolled, "darkness/ten_again": ten_again,
    "yearzero/first_successes": first_successes, "yearzero/pushed": pushed, "yearzero/pushed_result": pushed_result,
    "cortex/total": total, "cortex/hitches": hitches,
    "savage/trait": trait, "cthulhu/skill_roll": skill_roll, "age/stunt_points": stunt_points,
    "reroll/damage": damage, "reroll/average_damage": average_damage, "oracle/road_event": road_event,
}
