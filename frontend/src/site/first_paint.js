// @ts-check
/* The moment a page's first contentful paint has reached the screen: work no reader needs for that paint (a
   calculator's scripts) waits for it. */

/** Whether the page's first contentful paint has been shown (reported with the time it reached the screen). */
export function painted() {
  return performance.getEntriesByName("first-contentful-paint").length > 0;
}

/** Runs `then` once the page's first contentful paint has reached the screen; at once where it already has, in a
    hidden tab (which paints nothing) and where the browser reports no paints. @param {() => void} then */
export function afterFirstPaint(then) {
  const PO = window.PerformanceObserver;
  if (painted() || document.visibilityState === "hidden" || !PO || !(PO.supportedEntryTypes || []).includes("paint")) {
    then();
    return;
  }
  const observer = new PO(() => {
    if (!painted()) return;
    observer.disconnect();
    then();
  });
  observer.observe({type: "paint"});
}
