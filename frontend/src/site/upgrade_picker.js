// @ts-check
/* The attack set builder: the chosen upgrades as removable chips, groups closed on a phone. */

const PHONE = "(max-width: 44.9375em)";
/** Each picker's chips as last drawn (see drawChips). @type {WeakMap<Element, string>} */
const drawn = new WeakMap();

function onPhone() { return Boolean(window.matchMedia && window.matchMedia(PHONE).matches); }

export function upgradePickers() {
  document.querySelectorAll(".rulesc-calc__picker").forEach((picker) => {
    const chosen = picker.querySelector(".rulesc-calc__chosen");
    const filter = /** @type {HTMLInputElement | null} */ (picker.querySelector(".rulesc-calc__filter"));
    if (!chosen || picker.getAttribute("data-chips")) return;
    picker.setAttribute("data-chips", "1");
    const groups = /** @type {NodeListOf<HTMLDetailsElement>} */ (picker.querySelectorAll(".rulesc-calc__group"));
    if (onPhone()) groups.forEach((g) => { g.open = false; });
    const draw = () => { drawChips(picker, chosen); };
    picker.addEventListener("input", draw);
    picker.addEventListener("change", draw);
    const calc = picker.closest("[data-calculator]");
    if (calc && window.MutationObserver) {  /* Reset and a shared link set the boxes without an event */
      new MutationObserver(draw).observe(calc, {attributes: true, attributeFilter: ["data-state"]});
    }
    if (filter) filter.addEventListener("input", () => { openMatches(groups, filter.value); });
    draw();
  });
}

/** @typedef {{el: HTMLInputElement, times: number}} Pick */

/** The upgrades chosen in a picker, with how many times each. @param {Element} picker @returns {Pick[]} */
function picksOf(picker) {
  /** @type {Pick[]} */
  const picks = [];
  picker.querySelectorAll("[data-upgrade]").forEach((node) => {
    const el = /** @type {HTMLInputElement} */ (node);
    const times = el.type === "checkbox" ? (el.checked ? 1 : 0) : parseInt(el.value, 10) || 0;
    if (times > 0) picks.push({el, times});
  });
  return picks;
}

/** A chip's text: the upgrade, how many times if more than once, and a cross. */
export function chipText(/** @type {string} */ label, /** @type {number} */ times) {
  return label + (times > 1 ? " \u00d7" + times : "") + " \u2715";
}

/** @param {Element} picker @param {Element} chosen */
function drawChips(picker, chosen) {
  const picks = picksOf(picker);
  /* one edit asks up to three times (its input and change events, then the results it leads to): the chips are
     rebuilt only when the picks have changed, so the frame after the edit lays out one new list */
  const key = picks.map((pick) => pick.el.getAttribute("data-upgrade") + "*" + pick.times).join(" ");
  if (drawn.get(picker) === key) return;
  drawn.set(picker, key);
  /* no list items: calculators.js's filter hides every li of the picker that does not match */
  const heading = document.createElement("p"), list = document.createElement("div");
  heading.className = "rulesc-calc__chosen-title";
  heading.textContent = picks.length ? "Chosen (" + picks.length + "):" : "Chosen: none yet.";
  list.className = "rulesc-calc__chips";
  picks.forEach((pick) => {
    const button = document.createElement("button");
    const label = /** @type {string} */ (pick.el.getAttribute("data-label") || pick.el.getAttribute("data-upgrade"));
    button.type = "button";
    button.className = "rulesc-calc__chip";
    button.textContent = chipText(label, pick.times);
    button.setAttribute("aria-label", "Remove " + label);
    button.addEventListener("click", () => { removePick(picker, pick.el); });
    list.appendChild(button);
  });
  chosen.replaceChildren(heading, list);
}

/** @param {Element} picker @param {HTMLInputElement} el */
function removePick(picker, el) {
  if (el.type === "checkbox") el.checked = false; else el.value = "0";
  el.dispatchEvent(new Event("change", {bubbles: true}));
  const next = /** @type {HTMLElement | null} */ (picker.querySelector(".rulesc-calc__chip") || picker.querySelector(".rulesc-calc__filter"));
  if (next) next.focus();
}

/** Typing in the filter opens every group with a match and closes the others; clearing it closes them all on a
    phone and opens them all elsewhere. @param {NodeListOf<HTMLDetailsElement>} groups @param {string} text */
function openMatches(groups, text) {
  const words = text.trim().toLowerCase(), phone = onPhone();
  groups.forEach((group) => {
    if (!words) { group.open = !phone; return; }
    group.open = [...group.querySelectorAll("li")].some((item) => (item.textContent || "").toLowerCase().indexOf(words) >= 0);
  });
}
