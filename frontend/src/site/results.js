// @ts-check
/* A list of search hits: each one link holding its name, what it is and where it sits (Maneuver · system >
   chapter > parent rules), and a snippet of its text with the matched words marked; the arrow keys walk them. */
import {root} from "./root.js";
import {snippet, unpack} from "./snippets.js";

/** A hit as a list item: the whole of it is the link, so a tap on its snippet follows it too.
    @param {HitData} d @param {string} query */
export function resultItem(d, query) {
  const li = document.createElement("li"), a = document.createElement("a");
  a.href = hitHref(d);
  a.className = "rulesc-hit";
  a.appendChild(part("rulesc-hit__title", d.meta.title));
  a.appendChild(part("rulesc-muted rulesc-search__where", hitPlace(d)));
  a.appendChild(part("rulesc-search__snippet", "")).appendChild(snippet(d.meta.text, query));
  li.appendChild(a);
  return li;
}

/** What a hit is and where it sits, as the line under its name shows them. @param {HitData} d */
export function hitPlace(d) {
  const what = unpack(d.meta.what);
  return (what ? what + " \u00b7 " : "") + unpack(d.meta.crumbs);
}

/** @param {string} className @param {string} text */
function part(className, text) {
  const span = document.createElement("span");
  span.className = className;
  span.textContent = text;
  return span;
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
