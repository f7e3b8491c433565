// @ts-check
/* Where a rule's permalink and a Share link point: the chapter's (or GM screen's) page, which, split, is the landing
   page that sends each anchor on to its part (rulesc/emit/site/links.py permalink(), moved.py). */

/** The address of the chapter the page at `href` belongs to, without the page's query or hash: the page itself, or
    on a part of a split chapter `chapter`, the chapter's page relative to it (from file://, its index.html).
    @param {string} href @param {string | null} chapter */
export function chapterAddress(href, chapter) {
  const page = href.split("#")[0].split("?")[0];
  if (chapter === null) return page;
  const url = new URL(chapter, page).toString();
  return url + (url.startsWith("file:") && url.endsWith("/") ? "index.html" : "");
}

/** The landing page of the split page this part belongs to (a chapter's, or the GM screen's), relative to it, as
    the part names it: that page holds its anchors whatever the split (null on a page that is not a part). */
export function landingOfPage() {
  const part = document.querySelector("[data-rulesc-landing]");
  return part ? part.getAttribute("data-rulesc-landing") : null;
}
