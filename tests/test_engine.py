"""The generated engine: importable, installable with pip, standard library only, typed and documented."""

from __future__ import annotations

import ast
import doctest
import shutil
import subprocess
import sys
from pathlib import Path

from tests.backends import import_engine

STDLIB = set(sys.stdlib_module_names)
OWN = {"_runtime"}  # a module run as a file of its own (python -m doctest) imports the runtime beside it


def test_engine_functions_answer(built: Path) -> None:
    dbu = import_engine(built / "build/engine", "dbu")
    assert dbu.tier_of_power(4) == 1
    assert dbu.tier_of_power(5) == 2
    assert dbu.tier_of_power(30) == 7
    assert str(dbu.tier_extra_dice(6)) == "1d10+1d4"
    assert str(dbu.critical_dice(7)) == "2d10"
    assert dbu.critical_target(5) == 7
    assert dbu.botch_range(9) == 6
    assert dbu.is_critical(9, 9) is True


def test_engine_docstrings_cite_rule_and_permalink_and_their_examples_pass(built: Path) -> None:
    dbu = import_engine(built / "build/engine", "dbu")
    doc = dbu.tier_of_power.__doc__
    assert "Implements 'Tier of Power from Power Level' (content/dbu/core-rules.yaml:" in doc
    assert "Permalink: dbu/core-rules/#tier-of-power" in doc  # its chapter, which sends it on to its part
    result = doctest.testmod(dbu)
    assert result.failed == 0 and result.attempted >= 60


def test_engine_is_typed_and_uses_the_standard_library_only(built: Path) -> None:
    package = built / "build/engine/rules_engine"
    assert (package / "py.typed").is_file()
    for source in package.glob("*.py"):
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in STDLIB | OWN for a in node.names), source
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert (node.module or "").split(".")[0] in STDLIB | OWN, source
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and source.name == "dbu.py":
                assert node.returns is not None and all(a.annotation is not None for a in node.args.args), node.name


def test_engine_installs_with_pip(built: Path, tmp_path: Path) -> None:
    engine, target = tmp_path / "engine", tmp_path / "site-packages"
    shutil.copytree(built / "build/engine", engine)  # pip builds in the folder it installs from
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(engine)], check=True, timeout=300)
    out = subprocess.run([sys.executable, "-c", "import rules_engine.dbu as d; print(d.tier_of_power(12))"],
                         env={"PYTHONPATH": str(target)}, capture_output=True, text=True, check=True, cwd=tmp_path)
    assert out.stdout == "3\n"


def test_engine_checks_an_annulus_attack_set(built: Path) -> None:
    annulus = import_engine(built / "build/engine", "annulus")
    seed = ["agility-damage"]  # every attack set starts with a Damage seed
    assert annulus.check_upgrades(seed + ["burn-trigger", "burn-trigger-up", "burn-trigger-max"]) == []
    assert annulus.check_upgrades(seed + ["blast-trigger", "spray-trigger"]) == ["Blast cannot be taken with Spray"]
    assert annulus.check_upgrades(seed + ["flashy", "stealth"]) == ["Flashy cannot be taken with Stealth"]
    assert annulus.check_upgrades(seed + ["burn-trigger-max"]) == ["Burn Trigger Max requires Burn Trigger Up"]
    assert annulus.check_upgrades(seed + ["stealth"] + ["improved-stealth"] * 4) == [
        "Improved Stealth may be taken at most 3 time(s), not 4"]
    assert annulus.check_upgrades(["no-such-upgrade"]) == ["unknown upgrade 'no-such-upgrade'"]
    assert annulus.check_upgrades(["stealth"]) == ["the set needs Agility Damage, Toughness Damage or Insight Damage"]
    assert annulus.check_upgrades(["insight-damage", "agility-damage"]) == [
        "Agility Damage cannot be taken with Insight Damage"]
