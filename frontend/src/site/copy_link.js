// @ts-check
/* A rule's heading gets a button that copies the rule's link. */

/** The address of `id` on the page at `href`, without the page's query or hash. */
export function permalink(/** @type {string} */ href, /** @type {string} */ id) {
  return href.split("#")[0].split("?")[0] + "#" + id;
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
    /* one tab stop per rule: the button copies the permalink the pilcrow shows, so the pilcrow stays for the
       mouse and leaves the tab order */
    heading.querySelectorAll("a.headerlink").forEach((link) => { /** @type {HTMLElement} */ (link).tabIndex = -1; });
  });
}

/** @param {HTMLButtonElement} button @param {string} id */
function copyLink(button, id) {
  const url = permalink(location.href, id);
  const done = (/** @type {boolean} */ ok) => {
    button.textContent = ok ? "Copied" : url;
    setTimeout(() => { button.textContent = "Copy link"; }, 2000);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(() => { done(true); }, () => { done(false); });
  } else done(false);
}
