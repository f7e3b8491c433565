"""rulesc changelog: what changed in each tagged version, from a scripted git history; and without one."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from tests.run_case import run_rulesc
from tests.test_diff import DASH, DOUBLING, MORE, commit, git
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
    assert out.rstrip().endswith("First version: v1.0.")
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
                                "First version: v1.0.\n")


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


FACTOR_3 = DOUBLING.replace("factor: 2", "factor: 3").replace("expect: 6", "expect: 9")


def built_page(root: Path, page: str) -> str:
    return (root / "build/docs/mini" / page).read_text(encoding="utf-8")


def build(root: Path) -> tuple[int, str, str]:
    return run_rulesc("--root", str(root), "build", "--no-site")


def day(repo: Path, revision: str) -> str:
    return git(repo, "log", "-1", "--format=%cs", revision).strip()


def test_the_site_has_a_what_changed_page_and_each_rule_its_history(repo: Path) -> None:
    git(repo, "tag", "v1.0")
    commit(repo, FACTOR_3 + DASH, "factor 3")
    git(repo, "tag", "v1.1")
    commit(repo, FACTOR_3.replace("Twice a", "Double a"), "no dash")
    git(repo, "tag", "v2.0")
    status, out, err = build(repo)
    assert status == 0, err
    page = built_page(repo, "what-changed.md")
    newer, older = page.split(f"## v1\\.1 \\({day(repo, 'v1.1')}\\)".replace("-", "\\-"))
    assert f"## v2\\.0 \\({day(repo, 'v2.0')}\\)".replace("-", "\\-") in newer
    assert "<p>Since v1.1.</p>\n<h3>Rules removed</h3><ul><li>Dash (dash): its link no longer works</li></ul>" in newer
    assert "<li>Doubling: text reworded: <del>Twice</del> <ins>Double</ins> a pool is factor times" in newer
    assert "<h3>Rules changed</h3><ul><li>Doubling: value factor 2 -&gt; 3</li></ul>" in older
    assert "<li>double(n=3): 6 -&gt; 9</li>" in older
    assert "<li>Doubler: doubler(n=4) Twice the number: 8 -&gt; 12</li>" in older
    assert older.rstrip().endswith("<p>First version: v1.0.</p>\n</div>")
    chapter = built_page(repo, "basics.md")
    assert ('<details class="rulesc-history"><summary>History (4 changes)</summary><ul><li>text reworded: '
            "<del>Twice</del> <ins>Double</ins> a pool is factor times as … in v2.0</li>"
            "<li>value factor 2 -&gt; 3 in v1.1</li><li>double(n=3): 6 -&gt; 9 in v1.1</li>"
            "<li>Doubler: doubler(n=4) Twice the number: 8 -&gt; 12 in v1.1</li></ul></details>") in chapter
    assert build(repo)[0] == 0
    assert (built_page(repo, "what-changed.md"), built_page(repo, "basics.md")) == (page, chapter)  # same bytes


def test_a_rule_moved_to_another_chapter_is_a_move_on_the_what_changed_page_and_in_its_history(repo: Path) -> None:
    git(repo, "tag", "v1.0")
    (repo / "content/mini/more.yaml").write_text(MORE + DASH, encoding="utf-8")
    commit(repo, DOUBLING, "dash to its own chapter")
    git(repo, "tag", "v1.1")
    status, _, err = build(repo)
    assert status == 0, err
    assert ("<h3>Rules moved</h3><ul><li>Dash (dash): from Basics to More, so its old link no longer works</li></ul>"
            in built_page(repo, "what-changed.md"))
    assert ('<details class="rulesc-history"><summary>History (1 change)</summary><ul><li>moved from Basics to More '
            "in v1.1</li></ul></details>") in built_page(repo, "more.md")


def test_versions_listed_in_system_yaml_name_their_commits_and_dates(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    commit(repo, DOUBLING + DASH.replace("count: 2", "count: 3"), "faster dash")
    git(repo, "tag", "ignored-because-the-system-lists-its-own")
    system = repo / "content/mini/system.yaml"
    system.write_text(system.read_text(encoding="utf-8") + f"versions:\n  - {{name: First printing, ref: {first}, "
                      "date: 2024-01-31}\n  - {name: Second printing, ref: HEAD, date: 2024-06-30}\n"
                      "  - {name: Lost printing, ref: no-such-tag}\n", encoding="utf-8")
    assert build(repo)[0] == 0
    page = built_page(repo, "what-changed.md")
    assert "## Second printing \\(2024\\-06\\-30\\)\n" in page and "ignored" not in page
    assert "<p>Since First printing.</p>\n<h3>Rules changed</h3><ul><li>Dash: fact Limit 2 per round -&gt; " \
           "3 per round</li></ul>" in page
    assert "<p>Not in this history, so left out: Lost printing (no-such-tag).</p>" in page
    assert "<li>fact Limit 2 per round -&gt; 3 per round in Second printing</li>" in built_page(repo, "basics.md")


def test_outside_git_and_in_a_shallow_clone_the_build_notes_why_there_is_no_history(repo: Path,
                                                                                     tmp_path: Path) -> None:
    plain = Path(tempfile.mkdtemp(prefix="rulesc-no-git-")) / "plain"  # tmp_path is the repository itself
    shutil.copytree(repo / "content", plain / "content")
    assert build(plain)[0] == 0
    assert "<p>This copy of the rules is not in a git repository, so there is no history to show.</p>" in \
        built_page(plain, "what-changed.md")
    shutil.rmtree(plain.parent)
    git(repo, "tag", "v1.0")
    commit(repo, FACTOR_3 + DASH, "factor 3")
    git(repo, "tag", "v1.1")
    shallow = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", "--no-tags", f"file://{repo}", str(shallow))
    status, out, err = build(shallow)
    assert (status, err) == (0, "")
    assert "This is a shallow clone, so its history and tags are not here: fetch them (git fetch --unshallow " \
           "--tags) to fill this page." in built_page(shallow, "what-changed.md")
    assert "rulesc-history\"" not in built_page(shallow, "basics.md")


def test_the_changelog_of_one_system_follows_the_versions_its_system_yaml_lists(repo: Path) -> None:
    first = git(repo, "rev-parse", "HEAD").strip()
    commit(repo, DOUBLING + DASH.replace("count: 2", "count: 3"), "faster dash")
    git(repo, "tag", "v9")  # a tag the system's own list leaves out
    system = repo / "content/mini/system.yaml"
    system.write_text(system.read_text(encoding="utf-8") + f"versions:\n  - {{name: First printing, ref: {first}}}\n"
                      "  - {name: Second printing, ref: HEAD}\n  - {name: Lost printing, ref: no-such-tag}\n",
                      encoding="utf-8")
    git(repo, "commit", "-q", "-am", "list the versions")
    status, out, err = changelog(repo, "--system", "mini")
    assert (status, err) == (0, "")
    assert out.startswith("# What changed\n\nNot in this history, so left out: Lost printing (no-such-tag).\n\n"
                          "## First printing -> Second printing\n")
    assert "- Dash: fact Limit 2 per round -> 3 per round" in out and "v9" not in out
    assert out.rstrip().endswith("First version: First printing.")
    status, out, _ = changelog(repo, "--system", "mini", "--format", "json")
    assert [(c["base"]["revision"], c["head"]["revision"]) for c in json.loads(out)["changes"]] == [
        ("First printing", "Second printing")]
    status, out, _ = changelog(repo)  # the whole rulebook still follows the tags, and says where to look
    assert status == 0 and "run rulesc changelog --system mini." in out
    status, _, err = changelog(repo, "--system", "nope")
    assert status == 2 and "no system 'nope'" in err and "there are: mini" in err


def test_a_history_line_is_marked_up_in_one_pass() -> None:
    """[-removed-] and {+added+} become <del> and <ins>; text of 100,000 unclosed '[-' (the lazy regex it replaced
    took 10 s at 8,000) is escaped and left as written, at once."""
    import time

    from rulesc.emit.site.rule_notes import history_html

    assert history_html("text reworded: a [-old <b>-] {+new+} b [-x-]{+y+} [-open") == \
        "text reworded: a <del>old &lt;b&gt;</del> <ins>new</ins> b <del>x</del><ins>y</ins> [-open"
    hostile = "[-{+" * 100_000
    started = time.process_time()
    assert history_html(hostile) == hostile
    assert time.process_time() - started < 0.5
