// @ts-check
/* Previews of linked rules and terms: on hover and on keyboard focus a tooltip; on a touch screen the first tap
   opens a card instead, with the definition, a link to the rule that defines a term (or to the rule linked) and a
   close button; a second tap on the same link follows it, as before. A built page writes each distinct preview
   once, in a JSON list (#rulesc-previews, rulesc/emit/site/preview_table.py), and a link's data-rulesc-preview is
   its index there; a page without the list keeps the preview's text in the link. */

const state = {
  /** @type {HTMLElement | null} */ tip: null,
  /** @type {HTMLElement | null} */ tipFor: null,
  /** @type {HTMLElement | null} */ armed: null,
  lastPointer: "mouse",
};

/** The page's list of previews, parsed the first time one shows (again if an instant navigation brought another). */
/** @type {{from: Element | null, previews: string[]}} */
const pagePreviews = {from: null, previews: []};

/** The preview a link shows: from the page's list where it has one, else the link's own.
    @param {HTMLElement} link @returns {string} */
function previewText(link) {
  const own = link.getAttribute("data-rulesc-preview") || "", block = document.getElementById("rulesc-previews");
  if (!block) return own;
  if (block !== pagePreviews.from) {
    pagePreviews.from = block;
    pagePreviews.previews = JSON.parse(block.textContent || "[]");
  }
  return pagePreviews.previews[Number(own)] || "";
}

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

/** The card's contents: the preview, the way on to the rule, and a close button. @param {HTMLElement} box
    @param {HTMLElement} link */
function fillCard(box, link) {
  const text = document.createElement("p"), onward = document.createElement("a"), close = document.createElement("button");
  text.textContent = previewText(link);
  const rule = link.getAttribute("data-rulesc-rule");
  onward.href = rule || link.getAttribute("href") || "";
  onward.className = "rulesc-preview__rule";
  onward.textContent = rule ? "Rule: " + link.getAttribute("data-rulesc-rule-name")
    : link.classList.contains("rulesc-ref--term") ? "Glossary entry" : "Go to the rule";
  close.type = "button";
  close.className = "rulesc-preview__close";
  close.setAttribute("aria-label", "Close");
  close.textContent = "\u00d7";
  close.addEventListener("click", () => { link.focus(); hidePreview(); });  /* focus back first: no tooltip */
  box.replaceChildren(text, onward, close);
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", link.textContent || "Preview");
  box.classList.add("rulesc-preview--card");
}

/** @param {HTMLElement} link @param {boolean} [card] */
function showPreview(link, card) {
  const box = tooltip(), rect = link.getBoundingClientRect();
  if (card) fillCard(box, link);
  else {
    box.textContent = previewText(link);
    box.setAttribute("role", "tooltip");
    box.removeAttribute("aria-label");
    box.classList.remove("rulesc-preview--card");
  }
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
  document.addEventListener("mouseout", (e) => {
    if (previewLink(e.target) === state.tipFor && !state.armed) hidePreview();  /* a card stays until closed */
  });
  document.addEventListener("focusin", (e) => {
    const link = previewLink(e.target), inCard = state.tip && state.tip.contains(/** @type {Node} */ (e.target));
    if (link && state.armed !== link) showPreview(link); else if (!link && !inCard) hidePreview();
  });
  document.addEventListener("focusout", (e) => {
    if (previewLink(e.target) === state.tipFor && !state.armed) hidePreview();
  });
  document.addEventListener("pointerdown", (e) => {
    const target = /** @type {Node} */ (e.target);
    if (state.armed && !(state.tip && state.tip.contains(target)) && !previewLink(target)) hidePreview();
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hidePreview(); });
  document.addEventListener("click", (e) => {
    const link = previewLink(e.target);
    if (!link || state.lastPointer !== "touch" || state.armed === link) return;
    e.preventDefault(); /* first tap shows the card; a second tap follows the link */
    state.armed = link;
    showPreview(link, true);
  }, true);
}
