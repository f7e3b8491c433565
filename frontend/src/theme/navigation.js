// @ts-check
/* Navigation: navigation.expand's half-open sections, labels' aria-expanded, truncated titles as tooltips, and
   iOS's scroll fix for the sidebars. */

export function patchNavigation() {
  const tablet = window.matchMedia("(min-width: 60em)");
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll(".md-toggle--indeterminate"))) {
    input.indeterminate = true;
    input.checked = false;
    input.addEventListener("change", function first() {
      input.removeEventListener("change", first);
      input.classList.remove("md-toggle--indeterminate");
      if (tablet.matches) input.checked = false;
    });
  }
  const boxes = /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-md-scrollfix]"));
  if (/(iPad|iPhone|iPod)/.test(navigator.userAgent)) boxes.forEach(scrollFix);
  boxes.forEach((box) => { box.removeAttribute("data-md-scrollfix"); });
}

/** @param {HTMLElement} box */
function scrollFix(box) {
  box.addEventListener("touchstart", () => {
    if (box.scrollTop === 0) box.scrollTop = 1;
    else if (box.scrollTop + box.offsetHeight === box.scrollHeight) box.scrollTop -= 1;
  }, {passive: true});
}

/** A label that opens a section tells its section's navigation whether it is expanded. */
export function bindLabels() {
  document.addEventListener("click", (event) => {
    const target = /** @type {Element} */ (event.target);
    const label = /** @type {HTMLLabelElement | null} */ (target.closest && target.closest(".md-sidebar label[tabindex]"));
    if (!label) return;
    setTimeout(() => {
      const input = /** @type {HTMLInputElement | null} */ (document.getElementById(label.htmlFor));
      const nav = label.id && document.querySelector(`[aria-labelledby="${label.id}"]`);
      if (input && nav) nav.setAttribute("aria-expanded", String(input.checked));
    }, 0);
  });
}

/** A truncated navigation title gets its full text as a tooltip, the first time the pointer is on it. */
export function bindTitles() {
  document.addEventListener("mouseover", (event) => {
    const target = /** @type {Element} */ (event.target);
    const text = /** @type {HTMLElement | null} */ (target.closest && target.closest(".md-ellipsis"));
    if (!text || text.hasAttribute("data-rulesc-titled")) return;
    text.setAttribute("data-rulesc-titled", "");
    if (text.offsetWidth < text.scrollWidth) (text.closest("a") || text).title = text.innerText;
  });
}
