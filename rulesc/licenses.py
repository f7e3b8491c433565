"""The licenses games are published under, by SPDX id: what each is called, where it is, and what it asks of a copy."""

from __future__ import annotations

from dataclasses import dataclass

CUSTOM = "LicenseRef-"
"""SPDX's prefix for a license of the author's own naming: the way to cite one that is not in LICENSES."""


@dataclass(frozen=True)
class License:
    id: str
    name: str
    url: str
    composed: bool  # True: the attribution can be composed from the source's fields (title, authors, URL, changes)
    attribution: bool = True  # False: the license asks for no attribution (CC0)


LICENSES = {lic.id: lic for lic in (
    License("CC-BY-4.0", "CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/", True),
    License("CC-BY-SA-4.0", "CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/", True),
    License("CC-BY-3.0", "CC BY 3.0", "https://creativecommons.org/licenses/by/3.0/", True),
    License("CC-BY-SA-3.0", "CC BY-SA 3.0", "https://creativecommons.org/licenses/by-sa/3.0/", True),
    License("CC-BY-NC-4.0", "CC BY-NC 4.0", "https://creativecommons.org/licenses/by-nc/4.0/", True),
    License("CC-BY-NC-SA-4.0", "CC BY-NC-SA 4.0", "https://creativecommons.org/licenses/by-nc-sa/4.0/", True),
    License("CC0-1.0", "CC0 1.0", "https://creativecommons.org/publicdomain/zero/1.0/", False, attribution=False),
    License("OGL-1.0a", "Open Game License 1.0a", "https://opengamingfoundation.org/ogl.html", False),
    License("ORC", "ORC License", "https://paizo.com/orclicense", False),
)}
"""The licenses rulesc knows (a short list: the ones open games use). Any other is written `LicenseRef-<name>` with
its attribution text."""


def license_of(spdx: str | None) -> License | None:
    """The known license of an SPDX id; None for no license, an unknown id or a LicenseRef- one."""
    return LICENSES.get(spdx) if spdx else None
