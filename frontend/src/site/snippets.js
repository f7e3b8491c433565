// @ts-check
/* A hit's text shown under its name: a snippet of its own text (never its names or parents), SNIPPET_WORDS words
   around the first word the query matches, each matching word marked. */

const SNIPPET_WORDS = 24;

/** @typedef {{words: {word: string, hit: boolean}[], before: boolean, after: boolean}} Snippet */

/** The words shown of `text` for `query`, which of them match it, and whether text was left out before or after.
    @param {string} text @param {string} query @returns {Snippet} */
export function snippetOf(text, query) {
  const words = (text || "").split(/\s+/).filter(Boolean);
  const terms = (query || "").toLowerCase().split(/[^\w\u00c0-\uffff]+/).filter(Boolean);
  const hit = (/** @type {string} */ word) => {
    const w = word.toLowerCase().replace(/^[^\w\u00c0-\uffff]+/, "");
    return terms.some((t) => w.indexOf(t) === 0);
  };
  const at = words.findIndex(hit), start = Math.max(0, at - Math.floor(SNIPPET_WORDS / 3));
  const shown = words.slice(start, start + SNIPPET_WORDS).map((word) => ({word, hit: hit(word)}));
  return {words: shown, before: start > 0, after: start + SNIPPET_WORDS < words.length};
}

/** A snippet as a span, its matching words in <mark>. @param {string} text @param {string} query */
export function snippet(text, query) {
  const found = snippetOf(text, query), out = document.createElement("span");
  if (found.before) out.appendChild(document.createTextNode("\u2026 "));
  found.words.forEach((item, i) => {
    if (i) out.appendChild(document.createTextNode(" "));
    if (item.hit) { const m = document.createElement("mark"); m.textContent = item.word; out.appendChild(m); }
    else out.appendChild(document.createTextNode(item.word));
  });
  if (found.after) out.appendChild(document.createTextNode(" \u2026"));
  return out;
}

/** A hit's address and place, which search.py stores base64-coded: Pagefind matches queries in metadata too. */
export function unpack(/** @type {string | undefined} */ text) {
  const bytes = Uint8Array.from(atob(text || ""), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
