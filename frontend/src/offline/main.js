// @ts-check
/* rulesc offline: once the page has loaded and the browser is idle (idle.js), registers the site's service worker
   (sw.js at the site root), which keeps what the reader visits and, when the reader asks (choice.js), the whole site
   for use offline. Only over http(s): a page opened from file:// registers nothing and shows no choice. Registered
   in the load event's own task, it added 1-3 ms to a task that on a phone (4x slower) already came near 50 ms, the
   length from which Lighthouse counts a task as blocking. */
import {offerChoice} from "./choice.js";
import {afterLoadWhenIdle} from "./idle.js";

/** Registers the worker of the site this script belongs to, once the page has loaded and the browser is idle. */
function registerWorker() {
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  if (!script || !("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const root = new URL("../../", script.src);  /* this file is assets/rulesc/offline.js under the site root */
  const register = () => {
    navigator.serviceWorker.register(new URL("sw.js", root).href, {scope: root.pathname}).then(offerChoice, () => {
      /* no worker here (a plain `mkdocs serve` of a docs folder rulesc did not write): the site works online */
    });
  };
  afterLoadWhenIdle(register);
}

registerWorker();
