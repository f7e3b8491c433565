"""rulesc's theme overrides (calculator widget, search box, styles): where they are, and layered under a project's."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent.parent


def packaged_overrides(package: Path = PACKAGE) -> Path:
    """rulesc/site_overrides/ when installed from a wheel (pyproject.toml packages the repository's
    site_overrides/ folder there), else the source checkout's site_overrides/ itself (an editable install)."""
    installed = package / "site_overrides"
    return installed if installed.is_dir() else package.parent / "site_overrides"


def with_rulesc_theme(dirs: list[str], custom_dir: str | None) -> list[str]:
    """A theme's folders with rulesc's overrides right after the project's own custom_dir (which wins)."""
    ours = packaged_overrides()
    if any(same_folder(Path(d), ours) for d in dirs):
        return dirs
    at = 1 if custom_dir else 0
    return [*dirs[:at], str(ours), *dirs[at:]]


def same_folder(a: Path, b: Path) -> bool:
    return a.is_dir() and b.is_dir() and a.resolve() == b.resolve()
