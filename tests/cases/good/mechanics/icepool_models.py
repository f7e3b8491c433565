"""The fourteen mechanics of this case computed by icepool, independently of rulesc: MODELS maps each
'system/formula' to a function of the formula's arguments (pools as text) giving the same answer.

tests/test_mechanics.py compares every formula with its model over its parameters' ranges; `rulesc bench --dice
--icepool tests/cases/good/mechanics/icepool_models.py` (with --root tests/cases/good/mechanics) times both.
Each model builds its dice on every call, so that a benchmark run finds nothing computed before.

Each model is the fastest way found to ask icepool 2.1.3 its question (timed on the bench's calls, cold caches):
a question that is a sum over the dice is `n @ die` of a die that reads each face (icepool adds the n copies one
at a time, a small dictionary product each); the best or worst of n equal dice is `Die.highest(n)` or
`Die.lowest(n)`, which icepool computes from cumulative counts (x ** n) without a pool; only a mixed pool's best
two goes through a multiset evaluator (`Pool.highest(2).sum()`), which groups equal dice. Rolls of all the dice
(`Pool.expand()`, `icepool.map` over a pool) enumerate every sorted roll and are avoided: they were 10 to 200
times slower. Explosions go to the depth rulesc's engine explodes to (one more explosion less likely than 1e-15).
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
    return icepool.d(sides)


def pool_mean(text: str) -> tuple[Fraction, int]:
    """A pool written like 1d8+3, 2d6-1 or 0 (plain dice and a constant): the mean of its dice, and the
    constant. The mean of a sum is the sum of the dice's means, so no die of the sum is built."""
    dice, constant = Fraction(0), 0
    for sign, count, sides, number in re.findall(r"([+-]?)(?:(\d*)d(\d+)|(\d+))", text.replace(" ", "")):
        times = -1 if sign == "-" else 1
        if sides:
            dice += times * int(count or 1) * Fraction(d(int(sides)).mean())
        else:
            constant += times * int(number)
    return dice, constant


# ---- Blades: the best of a pool of d6, the worse of two with no dots -------------------------------------------

def blades_band(best: int) -> str:
    return "full success" if best == 6 else "partial success" if best >= 4 else "bad outcome"


def action_roll(dots: int) -> icepool.Die:
    """How many sixes (a sum of yes/no dice); with none, the dice are d5s and their best is Die.highest."""
    if dots == 0:
        return d(6).lowest(2).map(blades_band)
    return (dots @ (d(6) == 6)).map(lambda sixes: "critical" if sixes >= 2 else "full success" if sixes
                                    else d(5).highest(dots).map(blades_band))


def resistance_stress(dots: int) -> icepool.Die:
    """As action_roll(): the sixes counted, the best of the other dice as the best of d5s."""
    if dots == 0:
        return 6 - d(6).lowest(2)
    return (dots @ (d(6) == 6)).map(lambda sixes: -1 if sixes >= 2 else 0 if sixes else 6 - d(5).highest(dots))


# ---- Fate, PbtA, Ironsworn: a sum read in bands ------------------------------------------------------------------

def ladder(skill: int, difficulty: int) -> icepool.Die:
    shifts = 4 @ icepool.Die([-1, 0, 1]) + skill - difficulty
    return shifts.map(lambda s: "fail" if s < 0 else "tie" if s == 0 else "success with style" if s >= 3
                      else "success")


def move(stat: int) -> icepool.Die:
    """The stat added inside the reading rather than to the die: one die fewer to build."""
    return (d(6) + d(6)).map(lambda r: "strong hit" if r + stat >= 10 else "weak hit" if r + stat >= 7 else "miss")


def action(stat: int, adds: int) -> icepool.Die:
    """For each action score, how many of the two challenge dice it beats (a sum of yes/no dice): 6 small dice
    mixed instead of 600 combinations of three dice."""
    beaten = (d(6) + stat + adds).map(lambda score: 2 @ (d(10) < min(score, 10)))
    return beaten.map(lambda b: "strong hit" if b == 2 else "weak hit" if b == 1 else "miss")


# ---- D&D 5e: advantage, a critical range, damage with critical dice -------------------------------------------

def natural(edge: int) -> icepool.Die:
    return d(20) if edge == 0 else d(20).highest(2) if edge > 0 else d(20).lowest(2)


def attack_roll(bonus: int, armour: int, edge: int) -> icepool.Die:
    return natural(edge).map(lambda n: "critical" if n >= 19 else "miss" if n == 1 else
                             "hit" if n + bonus >= armour else "miss")


def expected_damage(weapon: str, bonus: int, armour: int, edge: int) -> Fraction:
    """Each natural roll's mean damage (the weapon's mean, twice its dice's on a critical), then their mean."""
    dice, plus = pool_mean(weapon)
    return Fraction(natural(edge).map(lambda n: 2 * dice + plus if n >= 19 else
                                      dice + plus if n > 1 and n + bonus >= armour else Fraction(0)).mean())


# ---- pools: hits and glitches, ten-again, pushes, hitches ------------------------------------------------------

def hits(pool: int) -> icepool.Die:
    return pool @ (d(6) >= 5)


def glitch(pool: int) -> icepool.Die:
    """A 1 marks 1 and a hit 100, so one sum of at most 20 dice counts both (the ones are below 100)."""
    marks = pool @ d(6).map({1: 1, 2: 0, 3: 0, 4: 0, 5: 100, 6: 100})
    return marks.map(lambda m: "no glitch" if (m % 100) * 2 <= pool else "critical glitch" if m < 100 else "glitch")


def success_chain() -> icepool.Die:
    """One die's successes with the dice its 10s add: Again rolls the chain again, to rulesc's depth."""
    return d(10).map(lambda x: 1 + icepool.Again if x == 10 else int(x >= 8), again_depth=depth(10))


def successes_rolled(pool: int) -> icepool.Die:
    return pool @ success_chain()


def ten_again(pool: int) -> icepool.Die:
    return successes_rolled(pool).map(lambda s: "exceptional success" if s >= 5 else "success" if s else "failure")


def first_successes(dice: int) -> icepool.Die:
    return dice @ (d(6) == 6)


def pushed_die() -> icepool.Die:
    return d(6).reroll([2, 3, 4, 5], depth=1)


def pushed(dice: int) -> icepool.Die:
    """The formula is itself a sum over the dice: each 6 is 10, each 1 is 1."""
    return dice @ pushed_die().map({1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 10})


def pushed_result(dice: int) -> icepool.Die:
    """A 6 marks 100 and a 1 marks 1, so one sum of at most 10 dice tells both apart."""
    marks = dice @ pushed_die().map({1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 100})
    return marks.map(lambda m: "failure" if m < 100 else "success with banes" if m % 100 else "success")


def hitch_die(sides: int) -> icepool.Die:
    return icepool.Die([0, *range(2, sides + 1)])


def total(d6s: int, d8s: int, d10s: int) -> icepool.Die:
    """The best two of a mixed pool: icepool's keep evaluator over the pool, equal dice grouped by count."""
    if not d6s + d8s + d10s:
        return icepool.Die([0])
    return icepool.Pool({hitch_die(6): d6s, hitch_die(8): d8s, hitch_die(10): d10s}).highest(2).sum()


def hitches(d6s: int, d8s: int, d10s: int) -> icepool.Die:
    """The hitches are a sum of yes/no dice, kind by kind, with no pool evaluated."""
    dice = d6s + d8s + d10s
    if not dice:
        return icepool.Die([-1])
    found = d6s @ (hitch_die(6) == 0) + d8s @ (hitch_die(8) == 0) + d10s @ (hitch_die(10) == 0)
    return found.map(lambda h: -1 if h == dice else h)


# ---- Savage Worlds, Call of Cthulhu, AGE, rerolls, d66 ---------------------------------------------------------

def trait(die: int, modifier: int) -> icepool.Die:
    """The best of the two exploding dice by icepool.highest (cumulative counts); both show 1 exactly when the
    best is 1."""
    best = icepool.highest(d(die).explode(depth=depth(die)), d(6).explode(depth=depth(6)))
    return best.map(lambda b: "critical failure" if b == 1 else "raise" if b + modifier >= 8 else
                    "success" if b + modifier >= 4 else "failure")


def skill_roll(skill: int, dice: int) -> icepool.Die:
    """For each units die, the tens dice read as percentiles (00 and 0 being 100): the best reading with bonus
    dice is Die.lowest of them, the worst with penalty dice Die.highest; the ten units mixed by map."""
    tens = icepool.Die(range(10))

    def rolled(units: int) -> icepool.Die:
        reading = tens.map(lambda t: 100 if t == 0 and units == 0 else t * 10 + units)
        return reading.lowest(1 + dice) if dice >= 0 else reading.highest(1 - dice)

    def level(roll: int) -> str:
        return "critical" if roll == 1 else "fumble" if roll == 100 or (skill < 50 and roll >= 96) else \
            "extreme" if roll <= skill // 5 else "hard" if roll <= skill // 2 else \
            "regular" if roll <= skill else "fail"
    return icepool.Die(range(10)).map(rolled).map(level)


def stunt_points(ability: int, target: int) -> icepool.Die:
    def stunts(a: int, b: int, dragon: int) -> int:
        doubles = a in (b, dragon) or b == dragon
        return dragon if a + b + dragon + ability >= target and doubles else 0
    return icepool.map(stunts, d(6), d(6), d(6))


def damage(bonus: int) -> icepool.Die:
    return 2 @ d(6).reroll([1, 2], depth=1) + bonus


def average_damage(bonus: int) -> Fraction:
    """The mean of a sum is the sum of the means: no sum of dice is built."""
    return 2 * Fraction(d(6).reroll([1, 2], depth=1).mean()) + bonus


ROAD = [(range(11, 27), "quiet road"), (range(31, 35), "travellers"), (range(35, 37), "storm"),
        (range(41, 47), "travellers"), (range(51, 56), "storm"), (range(56, 67), "bandits")]


def road_event() -> icepool.Die:
    """Mapping the two dice at once is faster than building 10 * d6 + d6 and mapping that."""
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
