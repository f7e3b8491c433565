// @ts-check
/* Search with Pagefind, loaded on first use (over http(s) only: a page from file:// cannot import it). */
import {EXACT_WINDOW, boostNear, exactFirst} from "./ranking.js";
import {root} from "./root.js";

/** @type {Promise<Pagefind> | null} */
let pagefind = null;
/** @type {Record<string, Promise<HitData>>} */
const loaded = {};

function loadPagefind() {
  if (!pagefind) {
    const base = root();
    pagefind = import(new URL("pagefind/pagefind.js", base).href).then((/** @type {Pagefind} */ pf) =>
      pf.options({baseUrl: base.pathname}).then(() => pf));
  }
  return pagefind;
}

/** The system whose pages are being read: the first folder under the site root, if search knows it. */
export function pageSystem() {
  const path = location.pathname.slice(root().pathname.length).split("/")[0];
  return path ? loadPagefind().then((pf) => pf.filters()).then((f) =>
    f.system && Object.prototype.hasOwnProperty.call(f.system, path) ? path : "", () => "") : Promise.resolve("");
}

function dataOf(/** @type {PagefindHit} */ result) { return loaded[result.id] || (loaded[result.id] = result.data()); }

/** Every hit in order (ranking.js), a page of `size` of them with their data, and how many there are.
    @param {string} query @param {Record<string, unknown>} filters @param {string} near @param {number} page
    @param {number} size @returns {Promise<{total: number, page: HitData[]}>} */
export async function search(query, filters, near, page, size) {
  const q = (query || "").trim() || null;
  const pf = await loadPagefind();
  const all = pf.search(q, {filters});
  const mine = near && !filters.system ? pf.search(q, {filters: {...filters, system: near}}) : null;
  const found = await Promise.all([all, mine]);
  const inNear = new Set(found[1] ? found[1].results.map((r) => r.id) : []);
  const ranked = boostNear(found[0].results, inNear);
  const top = ranked.slice(0, EXACT_WINDOW);
  const data = await Promise.all(top.map(dataOf));
  const ordered = exactFirst(top, data, q).concat(ranked.slice(EXACT_WINDOW)), start = (page - 1) * size;
  return {total: ordered.length, page: await Promise.all(ordered.slice(start, start + size).map(dataOf))};
}
