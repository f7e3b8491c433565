// @ts-check
/* Details: the location's target inside a closed <details> opens it; printing opens them all. */
import {hashId} from "./dom.js";

export function openTarget() {
  const id = hashId(location.hash);
  const target = id && document.getElementById(id);
  if (!target) return;
  let closed = false;
  for (let box = target.closest("details:not([open])"); box;
    box = /** @type {HTMLElement} */ (box.parentElement).closest("details:not([open])")) {
    /** @type {HTMLDetailsElement} */ (box).open = true;
    closed = true;
  }
  if (closed) target.scrollIntoView();
}

export function openForPrinting() {
  /** @type {HTMLDetailsElement[]} */
  let printed = [];
  window.addEventListener("beforeprint", () => {
    printed = [...document.querySelectorAll("details:not([open])")].map((box) => {
      const details = /** @type {HTMLDetailsElement} */ (box);
      details.open = true;
      return details;
    });
  });
  window.addEventListener("afterprint", () => {
    printed.forEach((box) => { box.open = false; });
    printed = [];
  });
}
