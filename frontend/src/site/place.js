// @ts-check
/* A page the navigation does not list (a part of a long chapter, of a GM screen, of the error codes or the index
   tables): the link of the page it belongs to (the longest address above it) is marked as Material marks the page
   being read, and the sections above it are open, so the sidebar and the phone's drawer show where the reader is.
   The page's own entry with its table of contents (partials/nav.html puts it first in the drawer) moves to just
   under that link, in the section the drawer opens at. Where the navigation lists no page above it (a section of
   the error codes, for the rulebook's authors), the other parts its Previous/Next links name (data-rulesc-parts)
   are listed after its own entry instead, so the drawer reaches them all. */
import {root} from "./root.js";

/** The navigation's link to the page holding `here`: the longest folder address above it, below the site's root.
    @param {HTMLAnchorElement[]} links @param {string} top @param {string} here */
export function holdingLink(links, top, here) {
  /** @type {HTMLAnchorElement | null} */
  let best = null;
  for (const link of links) {
    const path = link.pathname;
    if (path.length <= top.length || path.slice(-1) !== "/" || here.indexOf(path) !== 0) continue;
    if (!best || path.length > best.pathname.length) best = link;
  }
  return best;
}

export function markPlace() {
  const nav = document.querySelector(".md-nav--primary");
  if (!nav || nav.querySelector("a.md-nav__link--active")) return;
  const links = /** @type {HTMLAnchorElement[]} */ ([...nav.querySelectorAll("a.md-nav__link[href]")])
    .filter((link) => !link.closest(".rulesc-nav__here"));
  const best = holdingLink(links, root().pathname, location.pathname);
  if (!best) {
    listParts(nav);
    return;
  }
  best.classList.add("md-nav__link--active");
  best.setAttribute("aria-current", "true");
  const own = best.closest(".md-nav__item");
  for (let item = own; item; item = /** @type {HTMLElement} */ (item.parentElement).closest(".md-nav__item")) {
    item.classList.add("md-nav__item--active");
    const toggle = /** @type {HTMLInputElement | null} */ (item.querySelector(":scope > input.md-nav__toggle"));
    if (toggle && item !== own) toggle.checked = true;
  }
  const here = nav.querySelector(".rulesc-nav__here");
  if (here && own) own.after(here);
}

/** The drawer's entries for the parts the page's steps list, but the page itself: each address (relative to the
    page) with its title. @param {[string, string][]} parts @param {string} page */
export function otherParts(parts, page) {
  return parts.filter(([address]) => new URL(address, page).pathname !== new URL(page).pathname);
}

/** After the page's own entry, one for each other part of what it belongs to. @param {Element} nav */
function listParts(nav) {
  const here = nav.querySelector(".rulesc-nav__here");
  const steps = document.querySelector("nav.rulesc-part-steps[data-rulesc-parts]");
  if (!here || !steps || nav.querySelector(".rulesc-nav__part")) return;
  const parts = /** @type {[string, string][]} */ (JSON.parse(steps.getAttribute("data-rulesc-parts") || "[]"));
  here.after(...otherParts(parts, location.href).map(([address, title]) => {
    const item = document.createElement("li"), link = document.createElement("a"), name = document.createElement("span");
    item.className = "md-nav__item rulesc-nav__part";
    link.className = "md-nav__link";
    link.href = address;
    name.className = "md-ellipsis";
    name.textContent = title;
    link.append(name);
    item.append(link);
    return item;
  }));
}
