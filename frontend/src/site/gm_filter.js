// @ts-check
/* The GM screen index's filter: type to narrow the list of every calculator to those whose title, rule, section or
   chapter hold every word typed; a heading with nothing left under it hides too. Enter opens the first one left. */
import {matchesAll} from "./filters.js";

/** The index's filter field (in the page from the start, so nothing moves when it starts working); no index,
    nothing to do. */
export function gmFilter() {
  const intro = document.querySelector("[data-rulesc-gm-index]");
  const form = /** @type {HTMLFormElement | null} */ (document.querySelector("form.rulesc-gm-filter"));
  if (!intro || !form || intro.getAttribute("data-ready")) return;
  intro.setAttribute("data-ready", "1");
  const input = /** @type {HTMLInputElement} */ (form.querySelector("input"));
  const status = /** @type {HTMLElement} */ (form.querySelector("span"));
  const root = /** @type {HTMLElement} */ (intro.parentElement);
  input.addEventListener("input", () => { status.textContent = narrow(root, input.value); });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const first = /** @type {HTMLAnchorElement | null} */ (root.querySelector(".rulesc-gm__list li:not([hidden]) a"));
    if (first) location.href = first.href;
  });
  if (input.value) status.textContent = narrow(root, input.value);  /* a value the browser kept going back */
}

/** Shows the calculators matching `query` and the headings above them; says how many are shown.
    @param {HTMLElement} root @param {string} query */
function narrow(root, query) {
  const items = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".rulesc-gm__list li")]);
  items.forEach((li) => { li.hidden = !matchesAll(li.textContent + " " + (li.getAttribute("data-words") || ""), query); });
  const lists = /** @type {HTMLElement[]} */ ([...root.querySelectorAll(".rulesc-gm__list")]);
  lists.forEach((list) => { list.hidden = !list.querySelector("li:not([hidden])"); });
  groups(root).forEach((g) => { g.heading.hidden = g.lists.every((list) => list.hidden); });
  const shown = items.filter((li) => !li.hidden).length;
  if (!query.trim()) return items.length + " calculators";
  return shown ? shown + " of " + items.length + " calculators" : "No calculator matches";
}

/** Each chapter's and section's heading with the lists below it (a chapter's: up to the next chapter).
    @param {HTMLElement} root @returns {{heading: HTMLElement, lists: HTMLElement[]}[]} */
function groups(root) {
  /** @type {{heading: HTMLElement, lists: HTMLElement[]}[]} */
  const found = [];
  /** @typedef {{heading: HTMLElement, lists: HTMLElement[]}} Group */
  /** @type {Group | null} */
  let chapter = null;
  /** @type {Group | null} */
  let section = null;
  [.../** @type {HTMLCollectionOf<HTMLElement>} */ (root.children)].forEach((el) => {
    if (el.tagName === "H2") { chapter = {heading: el, lists: []}; section = null; found.push(chapter); }
    else if (el.tagName === "H3") { section = {heading: el, lists: []}; found.push(section); }
    else if (el.classList.contains("rulesc-gm__list")) [chapter, section].forEach((g) => { if (g) g.lists.push(el); });
  });
  return found;
}
