"""What the benches need beyond rulesc: the bench extra's packages (Playwright, icepool) and a Chromium to drive."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

INSTALL = "pip install 'rulesc[bench]'"
CHROMIUM_VARIABLE = "RULESC_CHROMIUM"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# Playwright turns these Chromium features off itself (its chromiumSwitches.ts); a second --disable-features would
# replace its list, so CHROMIUM_ARGS repeats it (the tests check it against the installed Playwright's).
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying",
    "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion")
# Chromium loads the address bar's popup, a WebUI page never shown headless, into a renderer of its own for each
# window, that is each browser context, and the phone bench opens a context per page load: with it off, four loads
# of `bench --phone` cost 9.6 CPU-seconds of the process tree instead of 14.4 (medians of three).
UNSHOWN_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + UNSHOWN_FEATURES)]


class Unavailable(Exception):
    """A bench cannot run here: what is missing and how to get it (`rulesc bench` exits 1 with this message)."""


def playwright(bench: str) -> Any:
    """Playwright's sync_playwright, for `bench` (such as "bench --phone") to drive Chromium with."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise Unavailable(f"{bench} drives Chromium with Playwright, which is not installed: {INSTALL}") from None
    return sync_playwright


def find_chromium() -> str:
    """The Chromium to drive: $RULESC_CHROMIUM, else the first of CHROMIUM_NAMES on PATH, else the one Playwright
    installs itself (`playwright install chromium`)."""
    given = os.environ.get(CHROMIUM_VARIABLE, "")
    if given:
        if not os.access(given, os.X_OK) or not Path(given).is_file():
            raise Unavailable(f"{CHROMIUM_VARIABLE} names {given}, which is no program this user can run")
        return given
    found = next((path for path in map(shutil.which, CHROMIUM_NAMES) if path), None) or playwrights_own()
    if found is None:
        raise Unavailable(f"the benches drive Chromium, and none was found: install it (apt-get install chromium, "
                          f"or python -m playwright install chromium), or set {CHROMIUM_VARIABLE} to its path")
    return found


def playwrights_own() -> str | None:
    """The Chromium Playwright downloaded for itself, where it did (None without Playwright or its browser)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    with sync_playwright() as driver:
        path = str(driver.chromium.executable_path)
    return path if Path(path).is_file() else None
