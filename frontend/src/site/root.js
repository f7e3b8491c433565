// @ts-check
/* Where the site's root is: the header's search form knows its relative path. */

export function root() {
  const form = document.querySelector(".rulesc-qs");
  const base = form ? form.getAttribute("data-rulesc-root") || "." : ".";
  return new URL(base.replace(/\/?$/, "/"), location.href);
}
