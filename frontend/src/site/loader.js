// @ts-check
/* Calculators and roll tables: only a page that has one loads the runtime, the formulas of its systems (one script
   a system, with their roll tables) and calculators.js, as plain scripts in that order (file:// too);
   calculators.js binds them. */
import {namespace} from "../shared/namespace.js";
import {afterFirstPaint} from "./first_paint.js";

/** The folder of this script (assets/rulesc/): the calculators' scripts are loaded from it. */
const ASSETS = document.currentScript && /** @type {HTMLScriptElement} */ (document.currentScript).src
  ? /** @type {HTMLScriptElement} */ (document.currentScript).src.replace(/[^/]*$/, "") : null;

/** @type {Record<string, Promise<unknown>>} */
const loading = Object.create(null);

function script(/** @type {string} */ name) {
  if (!loading[name]) loading[name] = new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = ASSETS + name;
    tag.async = false;  /* run in the order asked for: the runtime, then formulas, then calculators.js */
    tag.onload = resolve;
    tag.onerror = () => { delete loading[name]; reject(new Error("rulesc: cannot load " + name)); };
    document.head.appendChild(tag);
  });
  return loading[name];
}

/** The scripts a page's calculators need that are not loaded yet, in the order they must run.
    @param {string[]} ids the systems of the page's calculators, sorted @param {Record<string, unknown>} known
    @param {boolean} runtime whether the runtime is loaded @param {boolean} calculators whether calculators.js is */
export function scriptsToLoad(ids, known, runtime, calculators) {
  return [...(runtime ? [] : ["runtime.js"]), ...ids.filter((id) => !known[id]).map((id) => `formulas/${id}.js`),
    ...(calculators ? [] : ["calculators.js"])];
}

/** The page's calculator scripts are asked for once its first paint, the parsed page (partials/rulesc-head.html),
    is on the screen: it already shows every calculator's results for its defaults, and scripts that had arrived
    before that paint on a loaded phone were counted before it by Lighthouse, for the largest text too (LCP 1.9 s
    on a calculator's page, 1.35 s on one without). */
export function loadCalculators() {
  /** @type {Record<string, boolean>} */
  const systems = Object.create(null);
  document.querySelectorAll("[data-calculator], [data-roll-table]").forEach((box) => {
    const key = box.getAttribute("data-calculator") || /** @type {string} */ (box.getAttribute("data-roll-table"));
    systems[key.split("/")[0]] = true;
  });
  const ids = Object.keys(systems).sort();
  if (!ids.length || !ASSETS) return;
  const ns = namespace();
  const wanted = scriptsToLoad(ids, globalThis.RulesSystems || {}, Boolean(globalThis.RulesRuntime), Boolean(ns.calculators));
  afterFirstPaint(() => {
    Promise.all(wanted.map(script)).then(() => {
      if (ns.calculators) ns.calculators.init();
    }, (error) => { if (window.console) console.error(error.message); });
  });
}
