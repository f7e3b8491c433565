// @ts-check
/* How a result reads: the one number rule is R.fixed (the runtime's), the same as fixed() in
   rulesc/emit/site/calculators.py, which pre-renders the page and prints `rulesc calc`: the runtime computes
   exactly, so both round the same exact value. A percent is the value times 100 with 2 decimals. */
import {R} from "./runtime.js";

/** @param {unknown} value @returns {value is RulesNumber} */
function isNumber(value) { return typeof value === "number" || value instanceof R.Q || value instanceof R.Real; }

export function percent(/** @type {RulesNumber} */ value) { return R.fixed(R.nmul(value, 100), 2) + "%"; }

/** A roll's named outcomes with their chances, those in `labels` first in that order (display()'s in_order in
    Python). @param {RulesOutcomes} value @param {string[] | null | undefined} labels
    @returns {[string, RulesNumber][]} */
export function inOrder(value, labels) {
  /** @type {Record<string, number>} */
  const rank = {};
  /** @type {[string, RulesNumber][]} */
  const items = value.labels.map((label, i) => [String(label), R.ratio(value.weights[i], value.total)]);
  (labels || []).forEach((label, i) => { rank[label] = i; });
  const last = (labels || []).length;
  return items.map((item, i) => /** @type {[[string, RulesNumber], number]} */ ([item, i])).sort((a, b) => {
    const x = a[0][0] in rank ? rank[a[0][0]] : last, y = b[0][0] in rank ? rank[b[0][0]] : last;
    return x - y || a[1] - b[1];
  }).map((pair) => pair[0]);
}

function sentence(/** @type {string} */ text) { return text.charAt(0).toUpperCase() + text.slice(1); }

/** One named outcome as a sentence of what happens: its name, its chance and its text, ended by a stop.
    @param {string} label @param {RulesNumber} chance @param {Record<string, string>} texts */
function told(label, chance, texts) {
  const said = sentence(label) + " " + percent(chance) + (label in texts ? ": " + texts[label] : "");
  return /[.!?]$/.test(said) ? said : said + ".";
}

/** display() in calculators.py: a percent output shows a percent, a "num" output decimals, whichever branch
    produced the value; a number is followed by its unit (suffix); a roll reads as a sentence, or, with the texts of
    its named outcomes (a rule's), a sentence of what happens on each.
    @param {unknown} value @param {string | null | undefined} format @param {string | null | undefined} type
    @param {string[] | null | undefined} [labels] @param {string | null} [suffix]
    @param {Record<string, string> | null} [texts] */
export function display(value, format, type, labels, suffix, texts) {
  suffix = suffix || "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value instanceof R.Outcomes && (type === "event" || value.labels.every((l) => typeof l === "boolean")))
    return percent(R.p(value));
  if (value instanceof R.Outcomes && texts && Object.keys(texts).length)
    return inOrder(value, labels).map((item) => told(item[0], item[1], texts)).join(" ");
  if (value instanceof R.Outcomes)
    return sentence(inOrder(value, labels).map((item) => item[0] + " " + percent(item[1])).join(", "));
  if (Array.isArray(value)) return value.length ? value.join("; ") : "none";
  if (value instanceof R.Dist)
    return "Average " + R.fixed(R.mean(value), 2) + suffix + ", typically within \u00b1" + R.fixed(R.sd(value), 2) + suffix;
  if (isNumber(value) && format === "percent") return percent(value);
  if (isNumber(value) && (type === "num" || typeof value !== "number")) return R.fixed(value, 2) + suffix;
  if (isNumber(value)) return String(value) + suffix;
  if (value instanceof R.Dice && !value.counts.length && !value.c) return "\u2014";
  return String(value);
}
