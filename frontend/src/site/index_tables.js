// @ts-check
/* Index tables: a filter box, sortable columns, and scaled amounts such as 2(T) read at a chosen value. */
import {atTiers, chosenTiers, compareCells, matchesAll, scaledPattern} from "./filters.js";

/** Each index table's filter and tier fields, in the page as built (so that nothing moves when they start
    working), made to work, and its columns sortable. */
export function indexTables() {
  document.querySelectorAll("[data-index-table]").forEach((box) => {
    const table = box.querySelector("table"), field = box.querySelector(".rulesc-filter:not(.rulesc-tiers)");
    if (!table || !field || box.getAttribute("data-ready")) return;
    box.setAttribute("data-ready", "1");
    const rows = [...table.tBodies[0].rows];
    const input = /** @type {HTMLInputElement} */ (field.querySelector("input"));
    const status = /** @type {HTMLElement} */ (field.querySelector("span"));
    input.addEventListener("input", () => { filterRows(rows, input.value, status); });
    if (input.value) filterRows(rows, input.value, status);  /* a value the browser kept going back */
    [.../** @type {HTMLTableSectionElement} */ (table.tHead).rows[0].cells].forEach((th, index) => { sortable(table, th, index); });
    tierScaling(box, table);
  });
}

/** The tier fields (where the table has scaled amounts, one per scaling they use) show those amounts at the values
    chosen. The cells holding them are found at the first change, not as the page starts: a walk over every cell of
    a kind's table (about 1 ms unthrottled, in the task that ends the parse). @param {Element} box
    @param {HTMLTableElement} table */
function tierScaling(box, table) {
  const field = box.querySelector(".rulesc-tiers");
  if (!field) return;
  const inputs = /** @type {HTMLInputElement[]} */ ([...field.querySelectorAll("input")]);
  const pattern = scaledPattern(inputs.map((input) => /** @type {string} */ (input.getAttribute("data-tier"))));
  /** @type {{node: Text, original: string}[] | null} */
  let scaled = null;
  const apply = () => {
    scaled = scaled || scaledCells(table, pattern);
    const tiers = chosenTiers(inputs.map((input) => ({kind: /** @type {string} */ (input.getAttribute("data-tier")), value: input.value,
                                                      min: Number(input.min), max: Number(input.max)})));
    scaled.forEach(({node, original}) => { node.nodeValue = atTiers(original, tiers, pattern); });
  };
  inputs.forEach((input) => { input.addEventListener("input", apply); });
  if (inputs.some((input) => input.value)) apply();
}

/** The texts of a table's body that hold a scaled amount, with their text as built. @param {HTMLTableElement} table
    @param {RegExp} pattern */
function scaledCells(table, pattern) {
  /** @type {{node: Text, original: string}[]} */
  const found = [];
  const walker = document.createTreeWalker(table.tBodies[0], NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = /** @type {Text} */ (walker.currentNode);
    if (node.data.search(pattern) >= 0) found.push({node, original: node.data});
  }
  return found;
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
