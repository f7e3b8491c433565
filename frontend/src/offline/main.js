// @ts-check
/* rulesc offline: once the page has loaded, registers the site's service worker (sw.js at the site root), which
   keeps what the reader visits and, when the reader asks (choice.js), the whole site for use offline. Only over
   http(s): a page opened from file:// registers nothing and shows no choice. */
import {offerChoice} from "./choice.js";

/** Registers the worker of the site this script belongs to, once the page has loaded. */
function registerWorker() {
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  if (!script || !("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  const root = new URL("../../", script.src);  /* this file is assets/rulesc/offline.js under the site root */
  const register = () => {
    navigator.serviceWorker.register(new URL("sw.js", root).href, {scope: root.pathname}).then(offerChoice, () => {
      /* no worker here (a plain `mkdocs serve` of a docs folder rulesc did not write): the site works online */
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
}

registerWorker();
