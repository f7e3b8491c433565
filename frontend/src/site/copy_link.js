// @ts-check
/* A rule's heading gets a button that copies the rule's link. */
import {chapterAddress, landingOfPage} from "../shared/chapter.js";

/** A rule's permalink from the page at `href`: `id` on its chapter's page, which sends it on to the part holding
    it, so the link outlives any resplitting. @param {string} href @param {string} id @param {string | null} chapter */
export function permalink(href, id, chapter = null) {
  return chapterAddress(href, chapter) + "#" + id;
}

/** A rule heading's button, as the build writes it into the page (rulesc/emit/site/copy_buttons.py): one tab stop per
    rule, copying its permalink, so the pilcrow (its anchor on this page) stays for the mouse and leaves the tab
    order. @param {Element} heading */
function addButton(heading) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "rulesc-copy";
  button.textContent = "Copy link";
  button.setAttribute("aria-label", "Copy link to " + (heading.textContent || "").replace(/[¶\s]+$/, "").trim());
  heading.appendChild(button);
  heading.querySelectorAll("a.headerlink").forEach((link) => { /** @type {HTMLElement} */ (link).tabIndex = -1; });
}

/** A button for each rule heading the build left without one (a page built before it wrote them, or by a builder
    rulesc did not finish): the built pages have theirs, so a first visit changes no heading once parsed. */
export function copyButtons() {
  document.querySelectorAll(".md-content [data-kind][id]").forEach((heading) => {
    if (!heading.querySelector(".rulesc-copy")) addButton(heading);
  });
}

/** One listener for every heading's button, those in the page and those added later. */
export function bindCopyButtons() {
  document.addEventListener("click", (event) => {
    const target = /** @type {Element | null} */ (event.target);
    const button = target && target.closest ? target.closest(".md-content .rulesc-copy") : null;
    const heading = button && button.closest("[data-kind][id]");
    if (button && heading) copyLink(/** @type {HTMLButtonElement} */ (button), heading.id);
  });
}

/** @param {HTMLButtonElement} button @param {string} id */
function copyLink(button, id) {
  const url = permalink(location.href, id, landingOfPage());
  const done = (/** @type {boolean} */ ok) => {
    button.textContent = ok ? "Copied" : url;
    setTimeout(() => { button.textContent = "Copy link"; }, 2000);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(() => { done(true); }, () => { done(false); });
  } else done(false);
}
