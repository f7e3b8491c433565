// @ts-check
/* Where a rule's permalink points: its chapter's page, which a split chapter keeps as the landing page that sends
   each rule's anchor on to its part (generator/emit/site/links.py permalink()). */

/** The address of the chapter the page at `href` belongs to, without the page's query or hash: the page itself, or
    on a part of a split chapter `chapter`, the chapter's page relative to it (from file://, its index.html).
    @param {string} href @param {string | null} chapter */
export function chapterAddress(href, chapter) {
  const page = href.split("#")[0].split("?")[0];
  if (chapter === null) return page;
  const url = new URL(chapter, page).toString();
  return url + (url.startsWith("file:") && url.endsWith("/") ? "index.html" : "");
}

/** The chapter a part page belongs to, as the page names it (null on a whole chapter's page). */
export function chapterOfPage() {
  const part = document.querySelector("[data-rulesc-chapter]");
  return part ? part.getAttribute("data-rulesc-chapter") : null;
}
