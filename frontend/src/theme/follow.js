// @ts-check
/* What depends on where the reader is, from one handler run once per frame while scrolling: the table of contents
   marks the section being read (toc.follow: and scrolls it into view); the back-to-top button (navigation.top)
   shows while the reader scrolls up; the header shows the page's title once its heading has scrolled away; on a
   desktop the navigation sidebar shows the current page. Nothing here reads a size before the page is shown. */
import {hashId} from "./dom.js";

/** @typedef {{anchor: HTMLAnchorElement, target: HTMLElement}} TocEntry */
/** @typedef {{entries: TocEntry[], active: number}} Toc */

const parts = {
  /** @type {HTMLElement | null} */ header: null,
  /** @type {HTMLElement | null} */ title: null,
  /** @type {HTMLElement | null} */ heading: null,
  /** @type {HTMLElement | null} */ top: null,
  follow: false,
};
/** @type {Toc[]} */
const tocs = [];
const place = {lastY: 0, quietTop: 0, margin: 0, pending: false};
/* Below Material's desktop breakpoint the navigation sidebar is the phone's drawer: off screen until opened, and not
   laid out till then (content-visibility, partials/rulesc-head.html). A size read in it would lay it all out, and
   its lists scroll on their own, so nothing here reads one there. */
const drawer = window.matchMedia("(max-width: 76.234375em)");

/** Whether `element` is in the closed phone's drawer, where reading a size lays the whole drawer out. */
function inDrawer(/** @type {Element} */ element) {
  return drawer.matches && Boolean(element.closest(".md-sidebar--primary"));
}

/** The page's header, title, first heading and back-to-top button, and whether the contents follow. */
export function findParts(/** @type {string[]} */ features) {
  parts.header = document.querySelector("[data-md-component=header]");
  parts.title = document.querySelector("[data-md-component=header-title]");
  parts.heading = document.querySelector(".md-content h1");
  parts.top = features.includes("navigation.top") ? document.querySelector("[data-md-component=top]") : null;
  parts.follow = features.includes("toc.follow");
}

/** @param {Element} nav @returns {Toc} */
function tableOfContents(nav) {
  /** @type {TocEntry[]} */
  const entries = [];
  for (const anchor of /** @type {NodeListOf<HTMLAnchorElement>} */ (nav.querySelectorAll(".md-nav__link"))) {
    const id = hashId(anchor.hash);
    const target = id && document.getElementById(id);
    if (target) entries.push({anchor, target});
  }
  return {entries, active: -2};
}

/** A target's top in the viewport; a hidden one (a closed details) counts where its nearest shown box is. */
function topOf(/** @type {HTMLElement | null} */ element) {
  for (; element; element = element.parentElement) {
    const box = element.getBoundingClientRect();
    if (box.top || box.height) return box.top;
  }
  return 0;
}

function headerHeight() { return parts.header ? parts.header.offsetHeight : 0; }

/** The sections passed: those whose heading is above the header (plus part of the page's top margin, as Material
    reckons it), or all of them at the bottom of the page. Headings are in page order: a binary search.
    @param {TocEntry[]} entries @param {number} line @param {boolean} bottom */
function passed(entries, line, bottom) {
  if (bottom) return entries.length;
  let low = 0, high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (topOf(entries[middle].target) < line) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** @param {Toc} toc @param {number} count */
function markToc(toc, count) {
  const active = count - 1;
  if (active === toc.active) return;
  toc.entries.forEach((entry, index) => {
    entry.anchor.classList.toggle("md-nav__link--passed", index < count);
    entry.anchor.classList.toggle("md-nav__link--active", index === active);
  });
  toc.active = active;
  const anchor = active >= 0 && toc.entries[active].anchor;
  if (!parts.follow || !anchor || inDrawer(anchor) || !anchor.offsetHeight) return;
  scrollToMiddle(anchor);
}

/** Scrolls the sidebar holding `link` so that the link is in its middle. */
function scrollToMiddle(/** @type {HTMLElement} */ link) {
  const box = /** @type {HTMLElement | null} */ (link.closest(".md-sidebar__scrollwrap"));
  if (box) box.scrollTo({top: link.offsetTop - box.offsetTop - box.clientHeight / 2});
}

function hideTop(/** @type {boolean} */ hidden) {
  const top = parts.top;
  if (!top || top.hidden === hidden) return;
  top.hidden = hidden;
  if (hidden) {
    top.setAttribute("tabindex", "-1");
    top.blur();
  } else {
    top.removeAttribute("tabindex");
  }
}

/** Hides the back-to-top button for a moment: the reader just jumped to a link, which is no scrolling up. */
export function quietTop() {
  place.quietTop = Date.now() + 250;
  hideTop(true);
}

function update() {
  place.pending = false;
  const y = Math.max(0, window.scrollY), line = headerHeight();
  if (parts.title && parts.heading) {
    const shown = parts.heading.offsetHeight > 0 && parts.heading.getBoundingClientRect().bottom <= line;
    parts.title.classList.toggle("md-header__title--active", shown);
  }
  if (tocs.length) {
    const bottom = y + window.innerHeight >= document.body.scrollHeight - 1;
    tocs.forEach((toc) => { markToc(toc, passed(toc.entries, line + 0.8 * place.margin, bottom)); });
  }
  /* the button shows while the reader scrolls up, not at the very top, and not just after a jump to a link */
  if (parts.top && Date.now() >= place.quietTop) hideTop(!(y < place.lastY && y > 0));
  place.lastY = y;
}

function schedule() {
  if (place.pending) return;
  place.pending = true;
  window.requestAnimationFrame(update);
}

/** Starts following the reader: the first sizes read, and from now on once a frame while scrolling. */
export function follow() {
  document.querySelectorAll("[data-md-component=toc]").forEach((nav) => { tocs.push(tableOfContents(nav)); });
  if (parts.top) {
    parts.top.addEventListener("click", (event) => {
      event.preventDefault();
      window.scrollTo({top: 0});
    });
  }
  window.addEventListener("scroll", schedule, {passive: true});
  window.addEventListener("resize", schedule, {passive: true});
  const main = document.querySelector("[data-md-component=main]"), grid = main && main.firstElementChild;
  if (main && grid) place.margin = grid.getBoundingClientRect().top - main.getBoundingClientRect().top;
  place.lastY = Math.max(0, window.scrollY);
  revealCurrentPage();
  update();
}

/** On a desktop the navigation sidebar scrolls so the current page's link is in its middle. */
function revealCurrentPage() {
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".md-sidebar--primary .md-nav__link--active[href]"))) {
    if (!inDrawer(link) && link.clientHeight) scrollToMiddle(link);
  }
}
