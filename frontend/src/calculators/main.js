// @ts-check
/* rulesc calculators: binds every [data-calculator] element to its compiled formulas, and makes every
   [data-roll-table] rollable. site.js loads this script (after the runtime and the page's formulas) and calls init()
   again once a page's formulas are loaded. Material's instant navigation announces each new page on document$; it
   never fires for pages opened from file://, so this also starts on load. setup() marks each calculator (and
   setupRollTable() each table), so starting twice does no harm. */
import {namespace} from "../shared/namespace.js";
import {setupRollTable} from "./roll_tables.js";
import {setup} from "./setup.js";

function init() {
  document.querySelectorAll("[data-calculator]").forEach(setup);
  document.querySelectorAll("[data-roll-table]").forEach(setupRollTable);
}

function startCalculators() {
  namespace().calculators = {init};
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
}

startCalculators();
