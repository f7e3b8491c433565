// @ts-check
/* The moment after a page's load that no reader waits on: the browser's first idle period once the load event has
   run (at most IDLE_WAIT_MS later), or a task of its own where the browser has no idle callbacks. */

/** How long an idle period is waited for, in ms, before the work runs anyway. */
export const IDLE_WAIT_MS = 2000;

/** Runs `then` in the first idle period after the page's load event, in a task of its own: never in the load
    event's task, which on a page whose every resource has arrived is the one that finishes the parse.
    @param {() => void} then */
export function afterLoadWhenIdle(then) {
  const idle = () => {
    if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(then, {timeout: IDLE_WAIT_MS});
    else setTimeout(then, 0);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle);
}
