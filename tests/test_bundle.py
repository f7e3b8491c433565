"""The front end's joiner: ES modules in, one classic script per folder out, in import order, the same every time."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rulesc.emit.site.bundle import BundleError, emit_front_end, join_script
from tests.backends import node

MODULES = {
    "app/main.js": ('// @ts-check\n/* the entry */\nimport {b} from "./b.js";\nimport {a} from "./a.js";\n\n'
                    "b(a);  /* at once */\nconst c = /* one */ 1, d = [/** @type {number} */ (c)];\n"),
    "app/a.js": ('// @ts-check\nimport {shared} from "../common/s.js";\n/** @type {number} */\n'
                 "export const a = shared;\n"),
    "app/b.js": ('import {shared} from "../common/s.js";\n/** Calls `f`. @param {number} f */\n'
                 "export function b(f) { return /** @type {number} */ (f) + shared; }\n"),
    "common/s.js": "export const shared = 1;\n",
}


def write(root: Path, modules: dict[str, str]) -> Path:
    for name, text in modules.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_modules_join_dependencies_first_without_imports_exports_or_comments(tmp_path: Path) -> None:
    assert join_script(write(tmp_path, MODULES), "app") == (
        "/* rulesc app.js: joined by rulesc from frontend/src/app/ (edit those). */\n"
        '(function () {\n"use strict";\n'
        "/* ---- common/s.js ---- */\nconst shared = 1;\n\n"
        "/* ---- app/b.js ---- */\nfunction b(f) { return (f) + shared; }\n\n"
        "/* ---- app/a.js ---- */\nconst a = shared;\n\n"
        "/* ---- app/main.js ---- */\nb(a);\nconst c = 1, d = [(c)];\n"
        "})();\n")


@pytest.mark.parametrize(("change", "message"), [
    ({"app/a.js": "export const a = 1;\nfunction b() {}\n"}, "'b' is declared by both app/b.js and app/a.js"),
    ({"common/s.js": 'import {a} from "../app/a.js";\nexport const shared = a;\n'},
     "modules import each other: app/main.js -> app/b.js -> common/s.js -> app/a.js -> common/s.js"),
    ({"app/a.js": 'import {x} from "./missing.js";\nexport const a = x;\n'}, "missing.js: no such module"),
    ({"app/a.js": "export default 1;\n"}, 'only `import {...} from "./x.js";` and `export` declarations join'),
])
def test_what_would_not_join_is_refused_by_name(tmp_path: Path, change: dict[str, str], message: str) -> None:
    with pytest.raises(BundleError) as caught:
        join_script(write(tmp_path, {**MODULES, **change}), "app")
    assert str(caught.value).endswith(message)


def test_the_sites_scripts_are_valid_javascript_and_the_same_every_time(tmp_path: Path) -> None:
    scripts = emit_front_end()
    assert sorted(scripts) == [f"assets/rulesc/{name}.js" for name in ("calculators", "offline", "site", "theme")]
    assert emit_front_end() == scripts
    for name, text in scripts.items():
        assert "/**" not in text and "\nimport " not in text and "\nexport " not in text, name
        (tmp_path / "check.js").write_text(text, encoding="utf-8")
        done = subprocess.run([node(), "--check", str(tmp_path / "check.js")], capture_output=True, text=True)
        assert done.returncode == 0, (name, done.stderr)
