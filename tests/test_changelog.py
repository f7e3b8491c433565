"""rulesc changelog: what changed in each tagged version, from a scripted git history; and without one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.run_case import run_rulesc
from tests.test_diff import DASH, DOUBLING, commit, git
from tests.test_diff import repo as repo  # noqa: F401 - the fixture: a repository whose first commit is the base


def changelog(root: Path, *args: str) -> tuple[int, str, str]:
    return run_rulesc("--root", str(root), "changelog", *args)


def test_each_tagged_version_lists_what_changed_since_the_one_before(repo: Path) -> None:
    git(repo, "tag", "v1.0")
    commit(repo, DOUBLING.replace("factor: 2", "factor: 3").replace("expect: 6", "expect: 9") + DASH, "factor 3")
    git(repo, "tag", "v1.1")
    commit(repo, DOUBLING.replace("factor: 2", "factor: 3").replace("expect: 6", "expect: 9"), "no dash")
    commit(repo, DOUBLING.replace("factor: 2", "factor: 3").replace("expect: 6", "expect: 9").replace(
        "Twice a", "Double a"), "untagged")
    git(repo, "tag", "v2.0", "HEAD~1")
    status, out, err = changelog(repo)
    assert (status, err) == (0, "")
    assert out.startswith("# What changed\n\n## v1.1 -> v2.0\n")
    newer, older = out.split("## v1.0 -> v1.1")
    assert "#### Rules removed\n\n- `dash` Dash (mini/basics/) **breaking: no alias keeps its permalink**" in newer
    assert "#### Rules changed\n\n- Doubling: value factor 2 -> 3" in older
    assert out.rstrip().endswith("First tagged version: v1.0.")
    again = changelog(repo)
    assert again == (status, out, err)  # the same history gives the same bytes
    status, out, _ = changelog(repo, "--format", "json")
    report = json.loads(out)
    assert (status, report["versions"], report["note"]) == (0, ["v1.0", "v1.1", "v2.0"], None)
    assert [(c["base"]["revision"], c["head"]["revision"]) for c in report["changes"]] == [("v1.1", "v2.0"),
                                                                                          ("v1.0", "v1.1")]


def test_without_versions_the_changelog_says_why(repo: Path) -> None:
    assert changelog(repo) == (0, "# What changed\n\nNo tagged versions in this history: tag a release (git tag "
                                  "v1.0) to start a changelog.\n", "")
    git(repo, "tag", "v1.0")
    status, out, _ = changelog(repo)
    assert (status, out) == (0, "# What changed\n\nOnly v1.0 is tagged: nothing to compare it with yet.\n\n"
                                "First tagged version: v1.0.\n")


def test_a_shallow_clone_builds_a_note_instead_of_failing(repo: Path, tmp_path: Path) -> None:
    git(repo, "tag", "v1.0")
    commit(repo, DOUBLING + DASH.replace("Move again", "Move once more"), "text")
    git(repo, "tag", "v1.1")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-tags", f"file://{repo}", str(shallow))
    status, out, err = changelog(shallow)
    assert (status, err) == (0, "")
    assert "shallow clone" in out and "git fetch --unshallow --tags" in out
    shutil.rmtree(shallow)
