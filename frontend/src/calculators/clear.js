// @ts-check
/* A calculator's answers stay at the bottom of the screen while any of its inputs is on it (rulesc.css), so scrolling
   up brings inputs under them. The input the reader moves to is scrolled clear of them, with a little room. */

const ROOM = 8;

/** How far to scroll down so a field whose bottom is at `bottom` sits above answers whose top is at `top` (0: it
    already does). Answers taller than what shows of their calculator are held at its top rather than the screen's
    bottom, and move with the page until they reach the bottom: `stuck` is their top once there.
    @param {number} bottom @param {number} top @param {number} stuck */
export function clearance(bottom, top, stuck) {
  return bottom + ROOM <= top ? 0 : Math.ceil(bottom + ROOM - Math.min(top, stuck));
}

/** Keeps the focused field of `element`'s form clear of its answers. @param {Element} element */
export function keepFieldsClear(element) {
  const answers = element.querySelector(".rulesc-calc__results");
  if (!answers) return;
  element.addEventListener("focusin", (event) => {
    const field = event.target;
    if (!(field instanceof HTMLElement) || !field.matches("input, select, textarea")) return;
    requestAnimationFrame(() => {
      const box = answers.getBoundingClientRect();
      const by = clearance(field.getBoundingClientRect().bottom, box.top, window.innerHeight - box.height);
      if (by && field.compareDocumentPosition(answers) & Node.DOCUMENT_POSITION_FOLLOWING) window.scrollBy({top: by, behavior: "instant"});
    });
  });
}
