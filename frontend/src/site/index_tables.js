// @ts-check
/* Index tables: a filter box, sortable columns, and (N)(T) amounts read at a chosen tier. */
import {SCALED, atTiers, chosenTiers, compareCells, matchesAll, midSentence} from "./filters.js";

export function indexTables() {
  document.querySelectorAll("[data-index-table]").forEach((box) => {
    const table = box.querySelector("table");
    if (!table || box.querySelector(".rulesc-filter")) return;
    const rows = [...table.tBodies[0].rows], label = /** @type {string} */ (table.getAttribute("aria-label"));
    const field = document.createElement("div"), id = table.id + "-filter";
    field.className = "rulesc-filter";
    field.innerHTML = '<label for="' + id + '"></label><input type="search" id="' + id + '" autocomplete="off">' +
      '<span role="status" aria-live="polite"></span>';
    /** @type {HTMLElement} */ (field.querySelector("label")).textContent = "Filter " + midSentence(label);
    const input = /** @type {HTMLInputElement} */ (field.querySelector("input"));
    const status = /** @type {HTMLElement} */ (field.querySelector("span"));
    input.addEventListener("input", () => { filterRows(rows, input.value, status); });
    box.insertBefore(field, box.firstChild);
    filterRows(rows, "", status);
    [.../** @type {HTMLTableSectionElement} */ (table.tHead).rows[0].cells].forEach((th, index) => { sortable(table, th, index); });
    tierScaling(box, table);
  });
}

/** Scaled amounts in the table get two fields, Tier of Power and Base tier, that show them at those tiers.
    @param {Element} box @param {HTMLTableElement} table */
function tierScaling(box, table) {
  /** @type {Text[]} */
  const nodes = [];
  const walker = document.createTreeWalker(table.tBodies[0], NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) if (SCALED.test(/** @type {string} */ (walker.currentNode.nodeValue))) nodes.push(/** @type {Text} */ (walker.currentNode));
  SCALED.lastIndex = 0;
  if (!nodes.length) return;
  const originals = nodes.map((node) => /** @type {string} */ (node.nodeValue));
  const field = document.createElement("div");
  field.className = "rulesc-filter rulesc-tiers";
  field.innerHTML = '<label>Tier of Power <input type="number" min="1" max="9" inputmode="numeric" data-tier="T"></label> ' +
    '<label>Base tier <input type="number" min="1" max="9" inputmode="numeric" data-tier="bT"></label> ' +
    '<span>show (T) and (bT) amounts at these tiers</span>';
  const inputs = /** @type {HTMLInputElement[]} */ ([...field.querySelectorAll("input")]);
  const apply = () => {
    const tiers = chosenTiers(inputs.map((input) => ({kind: /** @type {string} */ (input.getAttribute("data-tier")), value: input.value})));
    nodes.forEach((node, i) => { node.nodeValue = atTiers(originals[i], tiers); });
  };
  inputs.forEach((input) => { input.addEventListener("input", apply); });
  box.insertBefore(field, /** @type {ChildNode} */ (box.firstChild).nextSibling);
}

/** @param {HTMLTableRowElement[]} rows @param {string} query @param {HTMLElement} status */
function filterRows(rows, query, status) {
  let shown = 0;
  rows.forEach((row) => {
    row.hidden = !matchesAll(/** @type {string} */ (row.textContent), query);
    if (!row.hidden) shown++;
  });
  status.textContent = shown + " of " + rows.length + " shown";
}

/** @param {HTMLTableElement} table @param {HTMLTableCellElement} th @param {number} index */
function sortable(table, th, index) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = th.textContent;
  th.textContent = "";
  th.appendChild(button);
  th.setAttribute("aria-sort", "none");
  button.addEventListener("click", () => {
    const ascending = th.getAttribute("aria-sort") !== "ascending";
    [.../** @type {HTMLTableRowElement} */ (th.parentNode).cells].forEach((other) => { other.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    const body = table.tBodies[0], rows = [...body.rows];
    const cell = (/** @type {HTMLTableRowElement} */ row) => /** @type {string} */ (row.cells[index].textContent).trim();
    rows.sort((a, b) => compareCells(cell(a), cell(b), ascending));
    rows.forEach((row) => { body.appendChild(row); });
  });
}
