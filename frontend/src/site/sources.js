// @ts-check
/* "Sources and formulas": the reader's choice to keep them open, remembered for every page (pages without
   calculators too, so here and not in calculators.js). */

const SOURCES_KEY = "rulesc.sources";

function sourcesOpen() {
  try { return window.localStorage.getItem(SOURCES_KEY) === "open"; } catch (e) { return false; }
}

export function applySources() {
  const open = sourcesOpen();
  document.querySelectorAll("details[data-rulesc-sources]").forEach((details) => {
    /** @type {HTMLDetailsElement} */ (details).open = open;
  });
}

/** A reader's click on a summary is stored as it happens, with the state the click gives its disclosure (it
    toggles once the click's listeners have run, unless one of them cancelled it). Stored from the toggle events
    instead, the choice would land a task later: a reload right after the click could miss it, and the toggles
    applySources() causes would store the state it applied, not one the reader chose. */
export function rememberSources() {
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    const summary = target.closest ? target.closest("details[data-rulesc-sources] > summary") : null;
    if (!summary || event.defaultPrevented) return;
    const details = /** @type {HTMLDetailsElement} */ (summary.parentElement);
    try { window.localStorage.setItem(SOURCES_KEY, details.open ? "closed" : "open"); } catch (e) { /* private mode */ }
  });
}
