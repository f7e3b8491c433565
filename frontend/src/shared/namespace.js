// @ts-check
/* rulesc's one global, window.Rulesc: what one of its scripts tells the others. */

/** The namespace, made on first use. */
export function namespace() {
  return globalThis.Rulesc || (globalThis.Rulesc = {});
}
