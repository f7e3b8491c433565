// @ts-check
/* The order of search hits, beyond Pagefind's own: results of the system being read score NEAR_BOOST times more;
   then, among the best EXACT_WINDOW, an exact name comes first (a rule, then a calculator, then a term). */

export const EXACT_WINDOW = 30;
const NEAR_BOOST = 2;

/** Pagefind's hits reordered by score, those in `near` boosted; ties go by the hit's id, since Pagefind's own order
    of equal scores can differ between two searches for the same words.
    @template {{id: string, score?: number}} Hit @param {Hit[]} hits @param {Set<string>} near @returns {Hit[]} */
export function boostNear(hits, near) {
  return hits.map((r) => ({r, score: (r.score || 1) * (near.has(r.id) ? NEAR_BOOST : 1)}))
    .sort((a, b) => b.score - a.score || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0)).map((x) => x.r);
}

/** Where a hit named exactly `query` comes: 0 a rule (a rule and its term merged in too), 1 a calculator, 2 a term
    alone; 3 a hit not named so. A rule outranks the calculator of its own name: the calculator works out the rule.
    @param {HitData} data @param {string | null} query */
export function nameRank(data, query) {
  const names = (data.meta.names || "").split("|");
  const named = names.some((n) => Boolean(query) && n.toLowerCase() === /** @type {string} */ (query).toLowerCase());
  const first = (data.filters.kind || [])[0];
  return !named ? 3 : first === "calculator" ? 1 : first === "term" ? 2 : 0;
}

/** The best hits (with their data, in the same order) with exact names first, else in the order given.
    @template T @param {T[]} top @param {HitData[]} data @param {string | null} query @returns {T[]} */
export function exactFirst(top, data, query) {
  return top.map((r, i) => ({r, key: nameRank(data[i], query) * 1000 + i}))
    .sort((a, b) => a.key - b.key).map((x) => x.r);
}
