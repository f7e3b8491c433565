// @ts-check
/* The header's search box: live results from Pagefind as the reader types, the system being read boosted; Enter
   opens the first hit, and the last item links to the search page with every result and the filters. */
import {pageSystem, search} from "./pagefind.js";
import {arrowKeys, hitHref, resultItem} from "./results.js";

/** The search page's address for `query`, boosting the system `near` if any. */
export function searchPageHref(/** @type {string} */ action, /** @type {string} */ query, /** @type {string} */ near) {
  return action + "?q=" + encodeURIComponent(query) + (near ? "&near=" + encodeURIComponent(near) : "");
}

/** @param {HTMLFormElement} form @param {HTMLElement} list @param {{total: number, page: HitData[]}} found
    @param {string} q @param {string} near */
function showHits(form, list, found, q, near) {
  list.textContent = "";
  found.page.forEach((d) => { list.appendChild(resultItem(d, q)); });
  const all = document.createElement("li"), link = document.createElement("a");
  link.href = searchPageHref(form.action, q, near);
  link.textContent = "All " + found.total + " results and filters";
  all.className = "rulesc-qs__all";
  all.appendChild(link);
  list.appendChild(all);
  list.hidden = false;
}

export function quickSearch() {
  const form = /** @type {HTMLFormElement | null} */ (document.querySelector(".rulesc-qs"));
  if (!form || form.getAttribute("data-ready")) return;
  form.setAttribute("data-ready", "1");
  const input = /** @type {HTMLInputElement} */ (form.querySelector("input[name=q]"));
  const list = /** @type {HTMLElement} */ (form.querySelector("ul"));
  const status = /** @type {HTMLElement} */ (form.querySelector("[role=status]"));
  const nearField = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=near]"));
  let run = 0, near = "";
  /** @type {string | null} */
  let first = null;
  input.addEventListener("focus", () => {
    pageSystem().then((s) => {
      near = s;
      if (nearField) { nearField.value = s; nearField.disabled = !s; }
    });
  });
  input.addEventListener("input", () => {
    const mine = ++run, q = input.value.trim();
    if (!q) { list.hidden = true; list.textContent = ""; list.removeAttribute("aria-busy"); first = null; return; }
    list.setAttribute("aria-busy", "true");  // until this query's hits are shown: older ones may still be listed
    pageSystem().then((s) => { near = s; return search(q, {}, near, 1, 8); }).then((found) => {
      if (mine !== run) return;
      list.removeAttribute("aria-busy");
      const data = found.page;
      showHits(form, list, found, q, near);
      first = data.length ? hitHref(data[0]) : null;
      status.textContent = data.length ? found.total + " results; press Enter for " + data[0].meta.title +
        ", or the down arrow to go through them" : "No results";
    });
  });
  form.addEventListener("submit", (e) => { if (first && document.activeElement === input) { e.preventDefault(); location.href = first; } });
  arrowKeys(input, list);
  form.addEventListener("keydown", (e) => { if (e.key === "Escape") { list.hidden = true; input.focus(); } });
  document.addEventListener("click", (e) => { if (!form.contains(/** @type {Node} */ (e.target))) list.hidden = true; });
}
