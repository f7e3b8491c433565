// @ts-check
/* Tables: Material wraps each plain table so that a wide one scrolls in its own box (its CSS styles the
   wrappers); site.js's scroll regions then find them. */

export function wrapTables() {
  for (const table of document.querySelectorAll(".md-typeset table:not([class])")) {
    const parent = /** @type {HTMLElement} */ (table.parentNode);
    if (parent.classList.contains("md-typeset__table")) continue;
    const scroll = document.createElement("div"), inner = document.createElement("div");
    scroll.className = "md-typeset__scrollwrap";
    inner.className = "md-typeset__table";
    parent.insertBefore(scroll, table);
    inner.appendChild(table);
    scroll.appendChild(inner);
  }
}
