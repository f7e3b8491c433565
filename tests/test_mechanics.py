"""The dice mechanics of fourteen well-known games as an outside author writes them: exact, equal to icepool.

tests/cases/good/mechanics/content holds one small system per game, each rule in its own words with worked
examples. Each formula is checked here against icepool (exact Fractions, equal) over its parameters' ranges, and
in the interpreter, the generated engine and the generated JavaScript at once.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import icepool
import pytest

from rulesc.analyze.program import Program
from rulesc.pipeline import Project, build_project, compile_project
from rulesc.runtime import rulesc_runtime as R
from tests.backends import CASES, drop_engine, icepool_chances, import_engine
from tests.test_exact_runtimes import three_ways

GAMES = ("age", "apocalypse", "blades", "cortex", "cthulhu", "darkness", "fate", "fifth", "ironsworn", "oracle",
         "reroll", "savage", "shadowrun", "yearzero")


class Book:
    """The mechanics case built once: each game's compiled program and imported engine module."""

    def __init__(self, root: Path, programs: dict[str, Program], modules: dict[str, Any]):
        self.root, self.programs, self.modules = root, programs, modules

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


def _models() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mechanics_icepool_models", MODELS_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MODELS_FILE = CASES / "good" / "mechanics" / "icepool_models.py"
M = _models()

GRIDS: dict[str, list[tuple[Any, ...]]] = {
    "blades/action_roll": [(dots,) for dots in range(7)],
    "blades/resistance_stress": [(dots,) for dots in range(7)],
    "fate/ladder": [(skill, difficulty) for skill in range(0, 9, 2) for difficulty in (0, 3, 8)],
    "apocalypse/move": [(stat,) for stat in range(-2, 4)],
    "ironsworn/action": [(stat, adds) for stat in range(1, 6) for adds in (0, 2, 5)],
    "fifth/attack_roll": [(b, a, e) for b, a in ((0, 5), (5, 15), (7, 18), (15, 30)) for e in (-1, 0, 1)],
    "fifth/expected_damage": [(w, b, a, e) for w in ("1d8+3", "2d6+4", "1d12-1", "0") for b, a in ((5, 15), (15, 30))
                              for e in (-1, 0, 1)],
    "shadowrun/hits": [(pool,) for pool in (1, 2, 3, 6, 11, 20)],
    "shadowrun/glitch": [(pool,) for pool in (1, 2, 3, 6, 11, 20)],
    "darkness/successes_rolled": [(pool,) for pool in (1, 2, 5, 9, 15)],
    "darkness/ten_again": [(pool,) for pool in (1, 2, 5, 9, 15)],
    "yearzero/first_successes": [(dice,) for dice in (1, 2, 4, 7, 10)],
    "yearzero/pushed": [(dice,) for dice in (1, 2, 4, 7, 10)],
    "yearzero/pushed_result": [(dice,) for dice in (1, 2, 4, 7, 10)],
    "cortex/total": [(1, 0, 0), (1, 1, 0), (2, 1, 1), (0, 4, 0), (4, 4, 4), (0, 0, 2), (0, 0, 0)],
    "cortex/hitches": [(1, 0, 0), (1, 1, 0), (2, 1, 1), (0, 4, 0), (4, 4, 4), (0, 0, 2), (0, 0, 0)],
    "savage/trait": [(die, m) for die in (4, 6, 8, 10, 12) for m in (-4, 0, 3)],
    "cthulhu/skill_roll": [(skill, dice) for skill in (1, 40, 49, 65, 99) for dice in range(-2, 3)],
    "age/stunt_points": [(a, t) for a in (-2, 0, 2, 6) for t in (5, 11, 13, 21)],
    "reroll/damage": [(bonus,) for bonus in range(6)],
    "reroll/average_damage": [(bonus,) for bonus in range(6)],
    "oracle/road_event": [()],
}


def test_every_formula_has_a_model_and_a_grid(book: Book) -> None:
    formulas = {f"{game}/{formula}" for game, program in book.programs.items() for formula in program.formulas}
    assert formulas == set(M.MODELS) == set(GRIDS)


def answer(value: object) -> object:
    """A runtime's or icepool's answer as exact chances by outcome, or the number itself."""
    if isinstance(value, R.Dice):
        value = R.as_dist(value)
    if isinstance(value, (R.Dist, R.Outcomes)):
        return dict(value.items())
    if isinstance(value, icepool.Die):
        return icepool_chances(value)
    return value


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_each_formula_equals_icepool_over_its_range(book: Book, name: str) -> None:
    game, formula = name.split("/")
    params = book.programs[game].formulas[formula].params
    for args in GRIDS[name]:
        given = [R.parse_dice(v) if p.type == "dice" else v for p, v in zip(params, args, strict=True)]
        assert answer(book.value(game, formula, *given)) == answer(M.MODELS[name](*args)), (name, args)


def test_the_models_read_the_rules_as_written() -> None:
    """Spot checks of the models themselves, by hand: they are what the formulas are held to."""
    assert icepool_chances(M.action_roll(2))["critical"] == Fraction(1, 36)
    assert icepool_chances(M.road_event())["bandits"] == Fraction(7, 36)
    assert M.average_damage(0) == Fraction(25, 3)
    assert icepool_chances(M.skill_roll(50, 0)) == {"critical": Fraction(1, 100), "extreme": Fraction(9, 100),
                                                     "hard": Fraction(15, 100), "regular": Fraction(25, 100),
                                                     "fail": Fraction(49, 100), "fumble": Fraction(1, 100)}
    one_die = icepool_chances(M.successes_rolled(1))  # 1-7 fails; 8 or 9 is one; a 10 is one and rolls again
    assert (one_die[0], one_die[1]) == (Fraction(7, 10), Fraction(2, 10) + Fraction(1, 10) * Fraction(7, 10))


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
