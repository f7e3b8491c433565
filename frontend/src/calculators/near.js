// @ts-check
/* The page's HTML already shows each calculator's results for its defaults, so a calculator whose inputs the
   address leaves alone computes (and draws its charts) only when it comes within a screen of the viewport: a long
   page is ready at once and never computes calculators out of sight. Each one answers input from the start. Those
   that come near together compute a slice at a time, one task each (slices.js). */
import {sliced} from "./slices.js";

/** @type {WeakMap<Element, () => void>} */
const waiting = new WeakMap();
const computeAll = sliced((/** @type {() => void} */ compute) => { compute(); });

const near = typeof IntersectionObserver === "undefined" ? null : new IntersectionObserver((entries) => {
  /** @type {(() => void)[]} */
  const computes = [];
  entries.forEach((entry) => {
    if (!entry.isIntersecting || !near) return;
    near.unobserve(entry.target);
    const compute = waiting.get(entry.target);
    waiting.delete(entry.target);
    if (compute) computes.push(compute);
  });
  computeAll(computes);
}, {rootMargin: "100% 0px"});

/** Runs `compute` once `element` is within a screen of the viewport (at once where that cannot be told).
    @param {Element} element @param {() => void} compute */
export function computeWhenNear(element, compute) {
  if (!near) { compute(); return; }
  element.setAttribute("data-state", "ok");
  waiting.set(element, compute);
  near.observe(element);
}
