// @ts-check
/* A table or code example wider than the screen scrolls sideways: its scrolling box takes one tab stop and a
   name, so a keyboard can scroll it too (axe: scrollable-region-focusable). Each box is checked once the browser
   has laid it out anyway (a ResizeObserver reports after layout), and again when its or its content's width
   changes: a box in a rule still off screen (content-visibility) is not laid out, so reading its width at load
   would force the layout of the whole chapter. */

const regions = typeof ResizeObserver === "undefined" ? null : new ResizeObserver((entries) => {
  entries.forEach((entry) => {
    const wrap = entry.target.hasAttribute("data-rulesc-watched") ? entry.target : /** @type {Element} */ (entry.target.parentNode);
    if (entry.contentRect.width > 0) markRegion(/** @type {HTMLElement} */ (wrap));
  });
});

/** A scrolling box's name: "Example" for code, else its heading's text and "(table)", else "Table".
    @param {boolean} code @param {string | null} heading the text of the heading right before it, if any */
export function regionName(code, heading) {
  return code ? "Example" : heading !== null ? heading.replace(/\u00b6/g, "").trim() + " (table)" : "Table";
}

function markRegion(/** @type {HTMLElement} */ wrap) {
  const wide = wrap.scrollWidth > wrap.clientWidth, code = wrap.tagName === "CODE", heading = wrap.previousElementSibling;
  if (!wide) {
    if (wrap.hasAttribute("data-rulesc-region")) {
      wrap.removeAttribute("tabindex"); wrap.removeAttribute("role"); wrap.removeAttribute("aria-label");
      wrap.removeAttribute("data-rulesc-region");
    }
    return;
  }
  if (wrap.hasAttribute("data-rulesc-region") || wrap.hasAttribute("tabindex")) return;
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("data-rulesc-region", "");
  const titled = heading && /^H[2-6]$/.test(heading.tagName) ? heading.textContent || "" : null;
  wrap.setAttribute("aria-label", regionName(code, titled));
}

export function scrollRegions() {
  const boxes = document.querySelectorAll(".md-typeset__scrollwrap:not([data-rulesc-watched]), " +
    ".md-typeset pre > code:not([data-rulesc-watched])");
  boxes.forEach((node) => {
    const wrap = /** @type {HTMLElement} */ (node);
    wrap.setAttribute("data-rulesc-watched", "");
    if (!regions) { markRegion(wrap); return; }
    /* the box, and what it holds: a table laid out wider later leaves the box's own size as it was */
    regions.observe(wrap);
    if (wrap.firstElementChild) regions.observe(wrap.firstElementChild);
  });
}
