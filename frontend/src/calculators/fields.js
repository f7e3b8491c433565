// @ts-check
/* A calculator's inputs read from its form, each by its type: a whole number within its range or options, a yes
   or no, a dice pool, or a set of upgrades (a box each, or a count each). */
import {R} from "./runtime.js";

/** @typedef {{value: unknown, error?: undefined} | {error: string, value?: undefined}} Parsed */

/** The upgrades chosen in an upgrade picker, one id per time taken. @param {Element} control @returns {Parsed} */
export function pickedUpgrades(control) {
  /** @type {string[]} */
  const chosen = [];
  let error = null;
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (control.querySelectorAll("[data-upgrade]"))) {
    const id = /** @type {string} */ (el.getAttribute("data-upgrade"));
    if (el.type === "checkbox") { if (el.checked) chosen.push(id); continue; }
    const text = el.value.trim(), times = text === "" ? 0 : Number(text);
    if (!Number.isInteger(times) || times < 0 || times > Number(el.max)) { error = "Counts go from 0 to " + el.max + "."; continue; }
    for (let i = 0; i < times; i++) chosen.push(id);
  }
  return error ? {error} : {value: chosen};
}

/** Sets an upgrade picker to a list of ids (an id twice is a count of 2). @param {Element} control @param {string[]} list */
export function setUpgrades(control, list) {
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (control.querySelectorAll("[data-upgrade]"))) {
    const id = el.getAttribute("data-upgrade"), times = list.filter((x) => x === id).length;
    if (el.type === "checkbox") el.checked = times > 0; else el.value = String(times);
  }
}

/** A whole number typed in a field, checked against its input's options and range.
    @param {string} text @param {CalculatorInput} spec @returns {Parsed} */
export function parseWhole(text, spec) {
  if (!/^-?\d+$/.test(text)) return {error: text === "" ? "Enter a whole number." : "Not a whole number."};
  const n = Number(text);
  if (spec.options && spec.options.indexOf(n) < 0) return {error: "Choose one of the options."};
  if (spec.min !== undefined && n < spec.min) return {error: "At least " + spec.min + "."};
  if (spec.max !== undefined && n > spec.max) return {error: "At most " + spec.max + "."};
  return {value: n};
}

/** A pool typed in a field; one whose roll passes the roll budget is refused here, before any output works on it.
    @param {string} text @returns {Parsed} */
export function parsePool(text) {
  let pool;
  try { pool = R.parseDice(text); } catch (e) {
    const reason = /** @type {Error} */ (e).message;  /* d66!: why, and what to write instead */
    return {error: /is not a dice pool$/.test(reason) ? "Enter dice like 1d10+1d4." : reason.charAt(0).toUpperCase() + reason.slice(1) + "."};
  }
  try { return {value: R.rollable(pool)}; } catch (e) { return {error: "Too many dice to work out exactly."}; }
}

/** @param {FormControl} control @param {CalculatorInput} spec @returns {Parsed} */
export function parseField(control, spec) {
  if (spec.type === "bool") return {value: /** @type {HTMLInputElement} */ (control).checked};
  if (spec.type === "upgrades") return pickedUpgrades(control);
  const text = /** @type {HTMLInputElement} */ (control).value.trim();
  if (spec.type === "dice") return parsePool(text);
  return parseWhole(text, spec);
}
