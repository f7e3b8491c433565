// @ts-check
/* Previews of linked rules and terms: on hover, on keyboard focus, and on the first tap on a touch screen. */

const state = {
  /** @type {HTMLElement | null} */ tip: null,
  /** @type {HTMLElement | null} */ tipFor: null,
  /** @type {HTMLElement | null} */ armed: null,
  lastPointer: "mouse",
};

function tooltip() {
  if (state.tip && document.body.contains(state.tip)) return state.tip;
  const tip = state.tip = document.createElement("div");
  tip.id = "rulesc-preview";
  tip.className = "rulesc-preview";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  document.body.appendChild(tip);
  return tip;
}

function showPreview(/** @type {HTMLElement} */ link) {
  const box = tooltip(), rect = link.getBoundingClientRect();
  box.textContent = link.getAttribute("data-rulesc-preview");
  box.hidden = false;
  const top = rect.bottom + window.scrollY + 6, left = Math.max(8, Math.min(rect.left + window.scrollX,
    window.scrollX + document.documentElement.clientWidth - box.offsetWidth - 8));
  box.style.top = top + "px";
  box.style.left = left + "px";
  link.setAttribute("aria-describedby", box.id);
  state.tipFor = link;
}

export function hidePreview() {
  if (!state.tipFor) return;
  state.tipFor.removeAttribute("aria-describedby");
  tooltip().hidden = true;
  state.tipFor = state.armed = null;
}

/** @param {EventTarget | null} target @returns {HTMLElement | null} */
function previewLink(target) {
  const element = /** @type {Element | null} */ (target);
  return element && element.closest ? element.closest("a[data-rulesc-preview]") : null;
}

export function bindPreviews() {
  document.addEventListener("pointerdown", (e) => { state.lastPointer = e.pointerType || "mouse"; }, true);
  document.addEventListener("mouseover", (e) => {
    const link = previewLink(e.target);
    if (link && state.lastPointer !== "touch") showPreview(link);
  });
  document.addEventListener("mouseout", (e) => { if (previewLink(e.target) === state.tipFor) hidePreview(); });
  document.addEventListener("focusin", (e) => {
    const link = previewLink(e.target);
    if (link) showPreview(link); else hidePreview();
  });
  document.addEventListener("focusout", (e) => { if (previewLink(e.target) === state.tipFor) hidePreview(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hidePreview(); });
  document.addEventListener("click", (e) => {
    const link = previewLink(e.target);
    if (!link || state.lastPointer !== "touch" || state.armed === link) return;
    e.preventDefault(); /* first tap shows the preview; a second tap follows the link */
    showPreview(link);
    state.armed = link;
  }, true);
}
