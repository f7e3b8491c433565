// @ts-check
/* The index tables' pure parts: which rows a filter keeps, how a column sorts, and amounts read at a tier. */

/** Whether `text` holds every word of `query` (case aside); an empty query keeps everything. */
export function matchesAll(/** @type {string} */ text, /** @type {string} */ query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean), lower = text.toLowerCase();
  return words.every((w) => lower.indexOf(w) >= 0);
}

/** The order of two cells' texts: numbers by value, case aside, empty cells last either way.
    @param {string} x @param {string} y @param {boolean} ascending */
export function compareCells(x, y, ascending) {
  if (!x !== !y) return x ? -1 : 1;
  const order = x.localeCompare(y, undefined, {numeric: true, sensitivity: "base"});
  return ascending ? order : -order;
}

/** An amount carrying one of the system's scalings, written after it in parentheses: N(T) or NdS(T) where the
    system declares T. The notations come from the page (the tier fields' data-tier), as tables.py's
    scaled_pattern() builds the same pattern from the system. @param {string[]} notations */
export function scaledPattern(notations) {
  const escaped = notations.map((notation) => notation.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&"));
  return new RegExp("(\\d+)(d\\d+)?\\((" + escaped.join("|") + ")\\)", "g");
}

/** `text` with each scaled amount read at the chosen values: "8(bT)" at base tier 3 reads "24 (8(bT))"; an amount
    whose scaling has no value chosen stays as written.
    @param {string} text @param {Record<string, number>} tiers @param {RegExp} pattern from scaledPattern() */
export function atTiers(text, tiers, pattern) {
  return text.replace(pattern, (whole, count, dice, kind) => {
    const tier = tiers[kind];
    if (tier === undefined) return whole;
    return (dice ? (Number(count) * tier) + dice : String(Number(count) * tier)) + " (" + whole + ")";
  });
}

/** The values typed in the tier fields, by the scaling they are for: whole numbers within each field's range only.
    @param {{kind: string, value: string, min: number, max: number}[]} fields */
export function chosenTiers(fields) {
  /** @type {Record<string, number>} */
  const tiers = {};
  fields.forEach((field) => {
    const n = Number(field.value);
    if (field.value.trim() && Number.isInteger(n) && n >= field.min && n <= field.max) tiers[field.kind] = n;
  });
  return tiers;
}

/** Words as they read inside a sentence (kinds.py's mid_sentence): a capital first letter lowered, unless the second
    is a capital too, so "Moves" reads "moves" and an initialism such as "GM moves" keeps its case.
    @param {string} words */
export function midSentence(words) {
  const first = words.charAt(0), second = words.charAt(1);
  const capital = (/** @type {string} */ c) => c !== c.toLowerCase() && c === c.toUpperCase();
  return words.length > 1 && capital(first) && !capital(second) ? first.toLowerCase() + words.slice(1) : words;
}
