// @ts-check
/* The search page: query, filters, boosted system and page live in the address, so a link restores them. */
import {search} from "./pagefind.js";
import {arrowKeys, resultItem} from "./results.js";

const PAGE_SIZE = 20;

/** @typedef {{query: string, checked: {name: string, value: string}[], near: string, page: number}} SearchState */

/** The search's filters for Pagefind and its address's query string.
    @param {SearchState} s @returns {{filters: Record<string, {any: string[]}>, query: string}} */
export function searchState(s) {
  const out = new URLSearchParams();
  /** @type {Record<string, {any: string[]}>} */
  const filters = {};
  if (s.query.trim()) out.set("q", s.query.trim());
  s.checked.forEach((c) => {
    (filters[c.name] = filters[c.name] || {any: []}).any.push(c.value);
    out.append(c.name, c.value);
  });
  if (s.near) out.set("near", s.near);
  if (s.page > 1) out.set("page", String(s.page));
  return {filters, query: out.toString()};
}

/** The page of results an address asks for: 1 unless it names a later one. */
export function pageOf(/** @type {URLSearchParams} */ params) {
  return Math.max(1, parseInt(params.get("page") || "", 10) || 1);
}

/** What the status line says of `total` hits on `page` of `pages`, the first shown numbered `start`.
    @param {number} total @param {number} page @param {number} pages @param {number} start @param {number} count */
export function resultsStatus(total, page, pages, start, count) {
  if (!total) return "No results";
  return total + " results" + (pages > 1 ? ", page " + page + " of " + pages +
    " (" + start + "\u2013" + (start + count - 1) + ")" : "");
}

/** The search page's parts and where it is: its query, filters and page are read from the form.
    @typedef {{form: HTMLFormElement, input: HTMLInputElement, status: HTMLElement, list: HTMLOListElement,
      pager: HTMLElement, near: string, page: number, run: number}} SearchPage */

/** @param {Element} box @returns {SearchPage} */
function partsOf(box) {
  const form = /** @type {HTMLFormElement} */ (box.querySelector("form"));
  const list = /** @type {HTMLOListElement} */ (box.querySelector("ol")), pager = document.createElement("nav");
  pager.className = "rulesc-search__pages";
  pager.setAttribute("aria-label", "Result pages");
  list.after(pager);
  const params = new URLSearchParams(location.search);
  const input = /** @type {HTMLInputElement} */ (form.querySelector("input[name=q]"));
  input.value = params.get("q") || "";
  checkboxes(form).forEach((c) => { c.checked = params.getAll(c.name).indexOf(c.value) >= 0; });
  return {form, input, status: /** @type {HTMLElement} */ (box.querySelector("[role=status]")), list, pager,
    near: params.get("near") || "", page: pageOf(params), run: 0};
}

function checkboxes(/** @type {HTMLFormElement} */ form) {
  return /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll("input[type=checkbox]")]);
}

/** Searches for what the form asks, after writing it into the address. @param {SearchPage} p */
function update(p) {
  const checked = checkboxes(p.form).filter((c) => c.checked).map((c) => ({name: c.name, value: c.value}));
  const s = searchState({query: p.input.value, checked, near: p.near, page: p.page}), mine = ++p.run;
  history.replaceState(history.state, "", location.pathname + (s.query ? "?" + s.query : ""));
  if (!p.input.value.trim() && !Object.keys(s.filters).length) {
    p.list.textContent = ""; p.pager.textContent = ""; p.status.textContent = "Type to search."; return;
  }
  p.status.textContent = "Searching\u2026";
  search(p.input.value, s.filters, p.near, p.page, PAGE_SIZE).then((found) => {
    if (mine === p.run) showFound(p, found);
  }, () => { p.status.textContent = "Search could not load: serve the site over HTTP."; });
}

/** A page of results, or the last page when the address asks for one past it.
    @param {SearchPage} p @param {{total: number, page: HitData[]}} found */
function showFound(p, found) {
  const pages = Math.max(1, Math.ceil(found.total / PAGE_SIZE));
  if (p.page > pages) { p.page = pages; update(p); return; }
  p.list.textContent = "";
  p.list.start = (p.page - 1) * PAGE_SIZE + 1;
  found.page.forEach((d) => { p.list.appendChild(resultItem(d, p.input.value)); });
  p.status.textContent = resultsStatus(found.total, p.page, pages, p.list.start, found.page.length);
  pagerLinks(p, pages);
}

/** Previous and Next buttons, where there is such a page. @param {SearchPage} p @param {number} pages */
function pagerLinks(p, pages) {
  p.pager.textContent = "";
  if (pages < 2) return;
  /** @type {[string, number][]} */ ([["Previous", p.page - 1], ["Next", p.page + 1]]).forEach(([label, to]) => {
    if (to < 1 || to > pages) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "md-button rulesc-search__page";
    button.textContent = label + " page";
    button.setAttribute("data-page", String(to));
    button.addEventListener("click", () => {
      p.page = to; update(p);
      p.list.scrollIntoView({block: "nearest"});
      p.status.focus();
    });
    p.pager.appendChild(button);
  });
}

export function searchPage() {
  const box = document.querySelector(".rulesc-search");
  if (!box || box.getAttribute("data-ready")) return;
  box.setAttribute("data-ready", "1");
  const p = partsOf(box);
  p.status.tabIndex = -1;
  p.form.addEventListener("input", () => { p.page = 1; update(p); });
  p.form.addEventListener("submit", (e) => { e.preventDefault(); update(p); });
  arrowKeys(p.input, p.list);
  update(p);
}
