// @ts-check
/* One calculator made live: its inputs read on every edit, its outputs computed by the compiled formulas and
   shown in the frame right after the input, its charts drawn after that frame is painted, its inputs saved in
   the address once typing pauses. */
import {drawChart, drawOutcomes} from "./charts.js";
import {keepFieldsClear} from "./clear.js";
import {display, inOrder} from "./display.js";
import {parseField} from "./fields.js";
import {computeWhenNear} from "./near.js";
import {rollButtons} from "./roll.js";
import {R, systemOf} from "./runtime.js";
import {restoreFromUrl, saveToUrl, shareButton} from "./share.js";

const SAVE_DELAY_MS = 300;

/** A calculator on the page and what it has shown.
    @typedef {{element: Element, form: HTMLFormElement, calc: Calculator, calcId: string,
      stale: Element | null, computed: boolean, drawing: number, saveTimer: number | undefined,
      results: Record<string, unknown> | null}} Widget */

/** @param {Element} element @returns {Widget | null} */
function widgetOf(element) {
  const parts = /** @type {string} */ (element.getAttribute("data-calculator")).split("/");
  const system = systemOf(parts[0]);
  const calc = system && system.calculators[parts[1]];
  const form = element.querySelector("form");
  if (!calc || !form) return null;
  /* computed: whether the results on show answer the inputs on show: the page's own results do, for the
     defaults, until the address sets other inputs */
  return {element, form, calc, calcId: parts[1], stale: element.querySelector(".rulesc-calc__stale"),
    computed: false, drawing: 0, saveTimer: undefined, results: null};
}

/** The charts are drawn after the numbers' frame is painted (a newer result cancels the charts still to draw);
    data-computed tells that they are drawn. @param {Widget} w @param {(() => void)[]} charts */
function drawAfterPaint(w, charts) {
  const mine = ++w.drawing;
  const draw = () => {
    if (mine !== w.drawing) return;
    charts.forEach((chart) => { chart(); });
    w.element.setAttribute("data-computed", "1");
  };
  if (!charts.length || !window.requestAnimationFrame) draw();
  else window.requestAnimationFrame(() => { setTimeout(draw, 0); });
}

/** Results out of date: marked so, with what to do; before any result of the reader's own, none is shown.
    @param {Widget} w @param {string} message */
function invalid(w, message) {
  w.results = null;
  w.element.setAttribute("data-state", "invalid");
  if (w.stale) w.stale.textContent = message;
  if (w.computed) return;  /* the last results stay, their charts drawn too */
  w.drawing++;
  w.form.querySelectorAll("output").forEach((node) => { node.textContent = "\u2014"; });
  w.form.querySelectorAll("[data-chart]").forEach((chart) => { chart.replaceChildren(); });
}

/** The result a chart marks as its target: an output's value or a fixed number.
    @param {Element} chart @param {Record<string, unknown>} env */
function target(chart, env) {
  const name = chart.getAttribute("data-target-name"), value = chart.getAttribute("data-target");
  const found = name !== null ? env[name] : value !== null ? Number(value) : null;
  return typeof found === "number" ? found : null;
}

/** Every input parsed into `env` (no prototype: an input may be named __proto__), each field's message set;
    whether all parsed. @param {Widget} w @param {Record<string, unknown>} env */
function readInputs(w, env) {
  let ok = true;
  w.calc.inputs.forEach((spec) => {
    const control = /** @type {FormControl} */ (w.form.elements.namedItem(spec.name));
    const message = /** @type {Element} */ (w.form.querySelector("#" + control.id + "-msg"));
    const parsed = parseField(control, spec);
    message.textContent = parsed.error || "";
    control.setAttribute("aria-invalid", parsed.error ? "true" : "false");
    if (parsed.error) ok = false; else env[spec.name] = parsed.value;
  });
  return ok;
}

/** Each output's text set, and the charts still to draw. @param {Widget} w @param {Record<string, unknown>} env
    @param {Record<string, unknown>} results */
function showResults(w, env, results) {
  /** @type {(() => void)[]} */
  const charts = [];
  w.calc.outputs.forEach((out) => {
    const node = w.form.querySelector(`output[name="${out.name}"]`), value = results[out.name];
    if (node) node.textContent = display(value, out.format, out.type, out.labels, node.getAttribute("data-suffix"), out.texts);
    const chart = w.form.querySelector(`[data-chart="${out.name}"]`);
    if (chart && value instanceof R.Dist) charts.push(() => { drawChart(chart, value, out.label, target(chart, env)); });
    if (chart && value instanceof R.Outcomes) charts.push(() => { drawOutcomes(chart, inOrder(value, out.labels), out.label); });
  });
  return charts;
}

/** Recomputes every output from the inputs on show; `save` writes them into the address once typing pauses.
    @param {Widget} w @param {boolean} save */
function recompute(w, save) {
  const env = Object.create(null), results = Object.create(null);
  if (!readInputs(w, env)) { invalid(w, "Fix the highlighted field: the results below are out of date."); return; }
  try {
    w.calc.outputs.forEach((out) => { env[out.name] = results[out.name] = out.run(env); });
  } catch (e) {
    const error = /** @type {{message?: string} | null} */ (e);
    invalid(w, (error && error.message ? error.message : "No result for these inputs.") + " The results below are out of date.");
    return;
  }
  const charts = showResults(w, env, results);
  w.computed = true;
  w.results = results;
  if (w.stale) w.stale.textContent = "";
  w.element.setAttribute("data-state", "ok");
  drawAfterPaint(w, charts);
  if (save) {  /* writing history on every keystroke costs more than the maths: save once typing pauses */
    clearTimeout(w.saveTimer);
    w.saveTimer = setTimeout(() => { saveToUrl(w.form, w.calcId, w.calc); }, SAVE_DELAY_MS);
  }
}

/** An upgrade picker's filter hides the choices it does not match; filtering changes no input. @param {Widget} w */
function bindFilters(w) {
  for (const filter of /** @type {NodeListOf<HTMLInputElement>} */ (w.form.querySelectorAll(".rulesc-calc__filter"))) {
    filter.addEventListener("input", (event) => {
      event.stopPropagation();
      const words = filter.value.trim().toLowerCase();
      /** @type {Element} */ (filter.parentNode).querySelectorAll("li").forEach((item) => {
        item.hidden = words !== "" && item.textContent.toLowerCase().indexOf(words) < 0;
      });
    });
  }
}

/** A choice or a box fires input then change for one edit, and a number its change on leaving the field: the
    change recomputes only what no input event has already shown. @param {Widget} w */
function bindEdits(w) {
  let shown = false;
  w.form.addEventListener("submit", (event) => { event.preventDefault(); });
  bindFilters(w);
  w.form.addEventListener("input", () => { shown = true; recompute(w, true); });
  w.form.addEventListener("change", () => { if (!shown) recompute(w, true); shown = false; });
  w.form.addEventListener("reset", () => { setTimeout(() => { recompute(w, true); }, 0); });
}

/** Makes a [data-calculator] element live, once. @param {Element} element */
export function setup(element) {
  if (element.getAttribute("data-ready") === "1") return;
  const w = widgetOf(element);
  if (!w) return;
  element.setAttribute("data-ready", "1");
  bindEdits(w);
  keepFieldsClear(element);
  const restored = restoreFromUrl(w.form, w.calcId, w.calc);
  w.computed = !restored;
  shareButton(element, w.form, w.calcId, w.calc);
  /* a Roll before the calculator came near the viewport works the results out first */
  rollButtons(element, w.form, w.calc, () => { if (!w.results) recompute(w, false); return w.results; });
  if (restored) recompute(w, false); else computeWhenNear(element, () => { recompute(w, false); });
}
