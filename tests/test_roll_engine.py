"""The engine rolls: rules_engine.roll() on a system's ROLL_TABLES and on a formula's roll, seeded as
random.Random(seed), gives what `rulesc roll --seed` and the JavaScript runtime give."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesc.runtime import JS_RUNTIME
from tests.backends import Built, built_case, node


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    with built_case(tmp_path_factory, "roll-tables") as found:
        yield found


def test_the_module_lists_its_roll_tables_with_plain_texts(oracle: Built) -> None:
    _, _, module = oracle
    assert sorted(module.ROLL_TABLES) == ["action_oracle", "fortune", "gifts", "hoard", "reaction", "wilds"]
    table = module.ROLL_TABLES["action_oracle"]
    assert table.keys == ("01-05", "06-50", "51-95", "96-00") and table.weights == (5, 45, 45, 5)
    assert table.outcomes[:2] == ((1, 1, 0), (2, 1, 0)) and table.outcomes[-1] == (100, 1, 3)
    assert module.ROLL_TABLES["gifts"].outcomes[5:7] == ((16, 1, 0), (21, 1, 1))  # d66: no 17 to 20
    assert table.texts[1:3] == ("Clash, see Reaction", "An unexpected Omen & a <sign>")  # links as names
    assert "ROLL_TABLES" in module.__all__


def test_roll_follows_a_chain_as_the_terminal_does(oracle: Built) -> None:
    root, _, module = oracle
    import rules_engine

    steps = rules_engine.roll(module.ROLL_TABLES["action_oracle"], random.Random(23))
    assert [(s.value, s.key, s.text, s.depth, s.kept) for s in steps] == [
        (100, "96-00", "Roll twice more", 0, False), (38, "06-50", "Clash, see Reaction", 1, True),
        (3, "01-05", "Scheme", 1, True)]
    assert rules_engine.roll(module.fortune_roll(), random.Random(1)) == 0
    assert rules_engine.roll(module.fortune_roll()) in (-1, 0, 1)


def test_javascript_rolls_the_engines_tables_alike(oracle: Built) -> None:
    root, _, module = oracle
    import rules_engine

    specs = [[t.name, t.roll, list(t.keys), list(t.weights), list(t.texts),
              [None if c is None else [c.table, c.times, c.keep, c.reroll] for c in t.chains],
              [list(o) for o in t.outcomes]] for t in module.ROLL_TABLES.values()]
    script = (f"require({json.dumps(str(JS_RUNTIME))}); const R = globalThis.RulesRuntime;"
              "const book = R.rollTables(JSON.parse(process.argv[1])), rng = R.seeded(11), out = [];"
              "for (let n = 0; n < 200; n++) out.push(R.roll(book.reaction, rng).map((s) => [s[0], s[1], s[6]]));"
              "console.log(JSON.stringify(out))")
    done = subprocess.run([node(), "-e", script, json.dumps(specs)], capture_output=True, text=True, check=True,
                          timeout=60)
    rng = random.Random(11)
    python = [[[s.table, s.row, s.value] for s in rules_engine.roll(module.ROLL_TABLES["reaction"], rng)]
              for _ in range(200)]
    assert json.loads(done.stdout) == python
    assert any(len(steps) > 1 for steps in python)  # some reached the gifts table
    assert Path(root / "build/engine/rules_engine/oracle.py").read_text().count("ROLL_TABLES") == 3
