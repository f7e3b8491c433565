// @ts-check
/* A rule's heading gets a button that copies the rule's link. */
import {chapterAddress, landingOfPage} from "../shared/chapter.js";

/** A rule's permalink from the page at `href`: `id` on its chapter's page, which sends it on to the part holding
    it, so the link outlives any resplitting. @param {string} href @param {string} id @param {string | null} chapter */
export function permalink(href, id, chapter = null) {
  return chapterAddress(href, chapter) + "#" + id;
}

export function copyButtons() {
  document.querySelectorAll(".md-content [data-kind][id]").forEach((heading) => {
    if (heading.querySelector(".rulesc-copy")) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rulesc-copy";
    button.textContent = "Copy link";
    button.setAttribute("aria-label", "Copy link to " + (heading.textContent || "").replace(/[¶\s]+$/, "").trim());
    button.addEventListener("click", () => { copyLink(button, heading.id); });
    heading.appendChild(button);
    /* one tab stop per rule: the button copies the rule's permalink (the pilcrow's anchor on its chapter's page), so the pilcrow stays for the
       mouse and leaves the tab order */
    heading.querySelectorAll("a.headerlink").forEach((link) => { /** @type {HTMLElement} */ (link).tabIndex = -1; });
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
