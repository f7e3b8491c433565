"""One namespace for what rulesc writes: the names check refuses (model.SITE_FOLDERS, ENGINE_EXPORTS,
calculator_suffixes) are exactly the folders, exports and element ids a build writes."""

from __future__ import annotations

import dataclasses
import doctest
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesc.model import ENGINE_EXPORTS, SITE_FOLDERS, calculator_ids, calculator_suffixes
from rulesc.pipeline import Project, build_project, compile_project
from tests.backends import built_case, drop_engine, import_engine, run_js
from tests.hostile import hostile_content


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The hostile-text case with plain text, built with its site."""
    root = hostile_content(tmp_path_factory.mktemp("namespace"), "plain")
    build_project(Project(root))
    yield root
    drop_engine(root)


def test_the_site_folders_a_system_may_not_take_are_those_a_build_writes(plain: Path) -> None:
    folders = {path.name for path in (plain / "site").iterdir() if path.is_dir()} - {"mini"}
    assert folders == set(SITE_FOLDERS)
    docs = {path.name for path in (plain / "build/docs").iterdir() if path.is_dir()} - {"mini"}
    assert docs - {".search"} <= set(SITE_FOLDERS)  # the search records are a dot-folder no id can name


def test_the_engine_exports_a_system_may_not_take_are_the_packages_all(plain: Path) -> None:
    mini = import_engine(plain / "build/engine", "mini")
    package = __import__(mini.__package__)
    assert [name for name in package.__all__ if name not in package.SYSTEMS] == list(ENGINE_EXPORTS)


def test_a_calculators_parts_are_the_element_ids_its_form_writes(plain: Path) -> None:
    (program,) = compile_project(Project(plain)).programs
    calc, _attack = program.system.rules()[0].calculators
    page = (plain / "site/mini/basics/index.html").read_text(encoding="utf-8")
    base = "calc-mini-double-calc"
    written = set(re.findall(rf'\sid="{base}-([^"]+)"', page))
    assert written == set(calculator_suffixes(calc)) == {"title", "stale", "n", "n-help", "n-msg", "pick",
                                                          "pick-msg", "rung_of", "rung_of-msg", "out-doubled",
                                                          "out-word_out", "out-verdict_out"}
    assert set(calculator_ids("mini", calc)) == {base} | {f"{base}-{part}" for part in written}
    assert f'id="{base}"' in page


def test_a_system_id_that_is_no_python_name_gets_an_engine_module_that_is(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """A system `5e` (ids may start with a digit) is rules_engine._5e, importable and with passing doctests; the
    JavaScript keeps its id, a string key. A keyword is prefixed too; no id starts with '_', so none collide."""
    with built_case(tmp_path_factory, "system-named-5e") as (root, program, module):
        assert (program.system.module, module.__name__) == ("_5e", "rules_engine._5e")
        assert module.double(3) == 6
        assert doctest.testmod(module).failed == 0
        assert __import__("rules_engine").SYSTEMS == ("_5e",)
        call = {"system": "5e", "formula": "double", "args": {"n": 4}, "types": {"n": "int"}, "order": ["n"]}
        assert run_js(root / "build/docs", [call]) == [{"value": 8}]
    modules = {name: dataclasses.replace(program.system, id=name).module for name in ("class", "if-else", "d-20")}
    assert modules == {"class": "_class", "if-else": "if_else", "d-20": "d_20"}
