"""Diff, over a history: the rulebook's tagged versions in order, and what changed from each to the next."""

from __future__ import annotations

from dataclasses import dataclass

from generator.diff.compare import RulebookDiff, diff_revisions
from generator.diff.git import GitError, commit_of, git, is_shallow
from generator.pipeline import Project


@dataclass(frozen=True)
class Version:
    tag: str
    commit: str


@dataclass(frozen=True)
class Changelog:
    """Each version after the first with what changed since the one before, newest first; `note` says why there
    is nothing to list (no repository, a shallow clone, no tags)."""

    versions: tuple[Version, ...]
    changes: tuple[RulebookDiff, ...]
    note: str | None = None


def versions(project: Project) -> tuple[Version, ...]:
    """The tags on the current history, oldest first: in the order their commits were made (the history's
    topological order, the same for the same history), tags of one commit by name."""
    try:
        commit_of(project.root, "HEAD")
    except GitError:
        return ()
    order = git(project.root, "rev-list", "--topo-order", "--reverse", "HEAD").decode().split()
    position = {commit: index for index, commit in enumerate(order)}
    found = []
    for line in git(project.root, "tag", "--merged", "HEAD", "--format=%(refname:strip=2)").decode().splitlines():
        tag = line.strip()
        commit = commit_of(project.root, tag) if tag else ""
        if commit in position:
            found.append((position[commit], tag, commit))
    return tuple(Version(tag, commit) for _, tag, commit in sorted(found))


def changelog(project: Project) -> Changelog:
    """What changed in each tagged version since the one before; a clear note where the history cannot say."""
    found = versions(project)
    if not found:
        shallow = is_shallow(project.root)
        note = ("This is a shallow clone, so its history and tags are not here: fetch them "
                "(git fetch --unshallow --tags) for a changelog" if shallow else
                "No tagged versions in this history: tag a release (git tag v1.0) to start a changelog")
        return Changelog((), (), note)
    pairs = zip(found, found[1:], strict=False)
    changes = tuple(diff_revisions(project, before.tag, after.tag) for before, after in pairs)
    return Changelog(found, tuple(reversed(changes)),
                     None if changes else f"Only {found[0].tag} is tagged: nothing to compare it with yet")
