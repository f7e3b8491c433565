// @ts-check
/* The header's search button on a phone: the box is folded into it (site.css) so the page's title keeps the
   header; a tap opens the box over the header and puts the caret in it, and leaving the box (Escape, or focus
   going elsewhere than the button) folds it again. Without this script the button is a link to the search page. */

/** @param {HTMLFormElement} form @param {HTMLElement} button @param {boolean} open */
function setOpen(form, button, open) {
  form.classList.toggle("rulesc-qs--open", open);
  button.setAttribute("aria-expanded", String(open));
}

export function searchButton() {
  const button = /** @type {HTMLElement | null} */ (document.querySelector(".rulesc-qs-open"));
  const form = /** @type {HTMLFormElement | null} */ (document.querySelector(".rulesc-qs"));
  if (!button || !form || button.hasAttribute("data-ready")) return;
  button.setAttribute("data-ready", "");
  button.setAttribute("role", "button");
  button.setAttribute("aria-controls", "rulesc-qs-input");
  button.setAttribute("aria-expanded", "false");
  const input = /** @type {HTMLInputElement} */ (form.querySelector("input[name=q]"));
  button.addEventListener("click", (event) => {
    event.preventDefault();
    setOpen(form, button, true);
    input.focus();
  });
  form.addEventListener("focusout", (event) => {
    const next = /** @type {Node | null} */ (event.relatedTarget);
    if (next !== button && !form.contains(next)) setOpen(form, button, false);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !form.classList.contains("rulesc-qs--open")) return;
    setOpen(form, button, false);
    button.focus();
  });
}
