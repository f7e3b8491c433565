"""Diff, over a history: the rulebook's tagged versions in order, and what changed from each to the next."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rulesc.compile import Project, discover
from rulesc.diagnostics.core import Diagnostics
from rulesc.diff.compare import RulebookDiff, diff_revisions
from rulesc.diff.git import GitError, commit_of, git, is_shallow
from rulesc.load import load_document

Listed = tuple[str, str, str | None]  # a version a system.yaml lists: (name, git ref, date or None)


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


def declared_versions(project: Project) -> dict[str, list[Listed]]:
    """Each system's id and the versions its system.yaml lists, oldest first ([] where it lists none)."""
    found: dict[str, list[Listed]] = {}
    for system_file, _ in discover(project, Diagnostics()):
        doc = load_document(system_file, project.display(system_file), Diagnostics(), project.root)
        data: Any = doc.data if doc is not None else None
        if isinstance(data, dict) and isinstance(data.get("id"), str):
            found[data["id"]] = [(v["name"], v["ref"], v.get("date")) for v in data.get("versions", ())
                                 if isinstance(v, dict) and "name" in v and "ref" in v]
    return found


class UnknownSystem(LookupError):
    """A system id that no system.yaml has."""


def changelog(project: Project, system: str | None = None) -> Changelog:
    """What changed in each tagged version since the one before; a clear note where the history cannot say.
    With a system: that system only, over the versions its system.yaml lists (the tags if it lists none)."""
    declared = declared_versions(project)
    if system is not None and system not in declared:
        raise UnknownSystem(f"no system {system!r} in {project.display(project.content)}; "
                            f"there are: {', '.join(sorted(declared)) or 'none'}")
    if system is not None:
        listed = declared.get(system)
        return _listed_changelog(project, system, listed) if listed else \
            _only(_tagged_changelog(project, versions(project)), system)
    log = _tagged_changelog(project, versions(project))
    own = [sid for sid, listed in sorted(declared.items()) if listed]
    if not own:
        return log
    hint = "; ".join(f"rulesc changelog --system {sid}" for sid in own)
    return replace(log, note=f"{log.note + '. ' if log.note else ''}Some systems list their own versions in "
                             f"system.yaml; for those, run {hint}")


def _tagged_changelog(project: Project, found: tuple[Version, ...]) -> Changelog:
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


def _listed_changelog(project: Project, system: str, listed: list[Listed]) -> Changelog:
    """A system's own versions, each compared with the one before, newest first; refs not in this history are
    left out and named in the note."""
    found, missing = resolve_listed(project, listed)
    resolved = [Version(name, commit) for (name, _, _), commit in found]
    changes = tuple(replace(diff_revisions(project, before.commit, after.commit), base=before.tag, head=after.tag)
                    for before, after in zip(resolved, resolved[1:], strict=False))
    note = None
    if len(resolved) < 2:
        note = f"Only {resolved[0].tag} is a version so far: nothing to compare it with yet" if resolved else \
            "None of the listed versions is in this history"
    return _only(Changelog(tuple(resolved), tuple(reversed(changes)), with_missing(note, missing)), system)


def resolve_listed(project: Project, listed: list[Listed]) -> tuple[list[tuple[Listed, str]], list[str]]:
    """The listed versions found in this history, each with its commit, and the others as "name (ref)"."""
    found, missing = [], []
    for version in listed:
        try:
            found.append((version, commit_of(project.root, version[1])))
        except GitError:
            missing.append(f"{version[0]} ({version[1]})")
    return found, missing


def with_missing(note: str | None, missing: list[str]) -> str | None:
    """A note with the versions left out because their refs are not in this history."""
    if not missing:
        return note
    gone = f"Not in this history, so left out: {', '.join(missing)}"
    return f"{note}. {gone}" if note else gone


def _only(log: Changelog, system: str) -> Changelog:
    """The changelog with each comparison cut down to one system."""
    return replace(log, changes=tuple(replace(c, systems=tuple(s for s in c.systems if s.id == system))
                                      for c in log.changes))
