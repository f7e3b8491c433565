// @ts-check
/* The keyboard: as Material's, but never while a field has the focus or a modifier is held. n/. and p/, go to
   the next and previous page (on a part page, the next and previous part); Enter on a focused label opens it. */
import {toggle} from "./dom.js";

/** @param {Element | null} element @param {string} key */
function typing(element, key) {
  if (!element) return false;
  if (element.tagName === "INPUT") return /** @type {HTMLInputElement} */ (element).type !== "radio" || /^Arrow/.test(key);
  return element.tagName === "SELECT" || element.tagName === "TEXTAREA" || /** @type {HTMLElement} */ (element).isContentEditable;
}

/* the pages before and after: the navigation's, or on a part page (not in the navigation) its own links */
const STEP = {next: "link[rel=next], .rulesc-part-steps a[rel=next]", prev: "link[rel=prev], .rulesc-part-steps a[rel=prev]"};

export function bindKeys() {
  window.addEventListener("keydown", (event) => {
    if (event.metaKey || event.ctrlKey || event.isComposing) return;
    const search = toggle("search"), active = /** @type {HTMLElement | null} */ (document.activeElement);
    if ((search && search.checked) || typing(active, event.key)) return;
    /** @type {HTMLLinkElement | HTMLAnchorElement | null} */
    let link = null;
    if (event.key === "n" || event.key === ".") link = document.querySelector(STEP.next);
    else if (event.key === "p" || event.key === ",") link = document.querySelector(STEP.prev);
    else if (event.key === "Enter" && active && active.tagName === "LABEL") active.click();
    if (link) location.href = link.href;
  });
}
