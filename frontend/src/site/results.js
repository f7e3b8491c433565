// @ts-check
/* A list of search hits: each its name, where it sits (system > chapter > parent rules) and its kinds, and a
   snippet of its text with the matched words marked; the arrow keys walk them. */
import {root} from "./root.js";
import {snippet, unpack} from "./snippets.js";

/** @param {HitData} d @param {string} query */
export function resultItem(d, query) {
  const li = document.createElement("li"), a = document.createElement("a"), info = document.createElement("span");
  const p = document.createElement("p");
  a.href = hitHref(d);
  a.textContent = d.meta.title;
  info.className = "rulesc-muted rulesc-search__where";
  info.textContent = unpack(d.meta.crumbs) + " \u00b7 " + (d.filters.kind || []).join(", ");
  p.className = "rulesc-search__snippet";
  p.appendChild(snippet(d.meta.text, query));
  li.appendChild(a);
  li.appendChild(info);
  li.appendChild(p);
  return li;
}

/** A hit's page, from the site's root. */
export function hitHref(/** @type {HitData} */ d) { return new URL(unpack(d.meta.href), root()).href; }

/** Arrow keys walk every link of a result list; ArrowUp from the first goes back to the box.
    @param {HTMLInputElement} input @param {HTMLElement} list */
export function arrowKeys(input, list) {
  const links = () => /** @type {HTMLAnchorElement[]} */ ([...list.querySelectorAll("a")]);
  input.addEventListener("keydown", (e) => {
    if (e.key === "ArrowDown" && !list.hidden && links().length) { e.preventDefault(); links()[0].focus(); }
  });
  list.addEventListener("keydown", (e) => {
    const all = links(), at = all.indexOf(/** @type {HTMLAnchorElement} */ (document.activeElement));
    if (at < 0 || (e.key !== "ArrowDown" && e.key !== "ArrowUp" && e.key !== "Home" && e.key !== "End")) return;
    e.preventDefault();
    const next = e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : at + (e.key === "ArrowDown" ? 1 : -1);
    if (next < 0) input.focus(); else all[Math.min(next, all.length - 1)].focus();
  });
}
