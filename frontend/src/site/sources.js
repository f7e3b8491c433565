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

/** toggle does not bubble: caught on its way down; applySources() sets each to the stored state, so the toggles
    it causes store the same value again. */
export function rememberSources() {
  document.addEventListener("toggle", (event) => {
    const details = /** @type {HTMLDetailsElement} */ (event.target);
    if (!details.matches || !details.matches("details[data-rulesc-sources]")) return;
    try { window.localStorage.setItem(SOURCES_KEY, details.open ? "open" : "closed"); } catch (e) { /* private mode */ }
  }, true);
}
