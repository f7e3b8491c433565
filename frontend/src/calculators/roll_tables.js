// @ts-check
/* Roll tables: a Roll button on each [data-roll-table] element that rolls the table on the device (the runtime's
   R.roll, with random bits from crypto.getRandomValues), follows every roll its rows lead to, and lists each step:
   the table and the row, linked to the row, with the row's cells as the page shows them (links live) where the row
   is on this page, else its text. Each roll goes to the roll log. */
import {root} from "../site/root.js";
import {logRoll, showLog} from "../shared/roll_log.js";
import {rollControl} from "./roll.js";
import {R, systemOf} from "./runtime.js";

/** Where a step's row is: its table's page (under the site's root) and the row's anchor.
    @param {RollSystem} system @param {RollStep} step */
function rowHref(system, step) {
  const place = system.rollPlaces[step[0]], url = new URL(place.page, root());
  url.hash = place.rows[step[1]];
  return url.toString();
}

/** A step's row as this page shows it: its cells after the key, links live; or its text.
    @param {RollSystem} system @param {RollStep} step */
function rowContent(system, step) {
  const row = document.getElementById(system.rollPlaces[step[0]].rows[step[1]]);
  const span = document.createElement("span");
  if (!row) { span.textContent = step[3]; return span; }
  [...row.children].slice(1).forEach((cell, i) => {
    if (i) span.append(" \u00b7 ");
    span.append(...[...cell.childNodes].map((node) => node.cloneNode(true)));
  });
  return span;
}

/** One step: "Table · key" linked to its row, then the row; a row that only leads on is marked so.
    @param {RollSystem} system @param {RollStep} step */
function stepItem(system, step) {
  const item = document.createElement("li"), link = document.createElement("a");
  link.href = rowHref(system, step);
  link.textContent = system.rollPlaces[step[0]].title + " \u00b7 " + step[2];
  item.append(link, ": ", rowContent(system, step));
  item.className = step[5] ? "rulesc-roll__step" : "rulesc-roll__step rulesc-roll__step--on";
  item.style.marginLeft = step[4] + "em";
  return item;
}

/** The roll as one line for the log: every step's key and text, in order. @param {RollStep[]} steps */
function logLine(steps) {
  return steps.map((step) => step[2] + " " + step[3]).join(" \u2192 ");
}

/** Rolls once on the table and shows each step. @param {RollSystem} system @param {string} name
    @param {HTMLElement} shown */
function rollTable(system, name, shown) {
  let steps;
  try { steps = /** @type {RollStep[]} */ (R.roll(system.rollTables[name])); } catch (e) {
    shown.textContent = /** @type {Error} */ (e).message;
    return;
  }
  const list = document.createElement("ol");
  list.className = "rulesc-roll__steps";
  list.append(...steps.map((step) => stepItem(system, step)));
  shown.replaceChildren(list);
  logRoll({title: system.rollPlaces[name].title, href: rowHref(system, steps[0]), result: logLine(steps)});
}

/** Makes a [data-roll-table] element rollable, once. @param {Element} element */
export function setupRollTable(element) {
  if (element.getAttribute("data-ready") === "1") return;
  const parts = /** @type {string} */ (element.getAttribute("data-roll-table")).split("/");
  const found = systemOf(parts[0]), name = parts[1];
  if (!found || !found.rollTables || !found.rollPlaces || !found.rollPlaces[name]) return;
  const system = /** @type {RollSystem} */ (found);
  element.setAttribute("data-ready", "1");
  const [box, button, shown] = rollControl("div", "Roll on " + system.rollPlaces[name].title);
  element.prepend(box);
  button.addEventListener("click", () => { rollTable(system, name, shown); });
  showLog();
}
