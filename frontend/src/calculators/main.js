// @ts-check
/* rulesc calculators: binds every [data-calculator] element to its compiled formulas, and makes every
   [data-roll-table] rollable. site.js loads this script (after the runtime and the page's formulas) and calls init()
   again once a page's formulas are loaded. Material's instant navigation announces each new page on document$; it
   never fires for pages opened from file://, so this also starts on load. setup() marks each calculator (and
   setupRollTable() each table), so starting twice does no harm; the boxes are made live a few at a time, a slice
   of a few milliseconds per task (a GM screen part's four took one task of about 3 ms unthrottled). */
import {namespace} from "../shared/namespace.js";
import {setupRollTable} from "./roll_tables.js";
import {setup} from "./setup.js";
import {sliced} from "./slices.js";

/** A calculator or a roll table made live. @param {Element} box */
function bind(box) {
  if (box.hasAttribute("data-calculator")) setup(box); else setupRollTable(box);
}

const bindAll = sliced(bind);

function init() {
  bindAll([...document.querySelectorAll("[data-calculator]"), ...document.querySelectorAll("[data-roll-table]")]);
}

function startCalculators() {
  namespace().calculators = {init};
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
}

startCalculators();
