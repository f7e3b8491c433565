/* rulesc offline: once the page has loaded, registers the site's service worker (sw.js at the site root), which
   keeps the whole site for use offline. Only over http(s): a page opened from file:// registers nothing. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  var root = new URL("../../", script.src);  /* this file is assets/rulesc/offline.js under the site root */
  function register() {
    navigator.serviceWorker.register(new URL("sw.js", root).href, {scope: root.pathname}).catch(function () {
      /* no worker here (a plain `mkdocs serve` of a docs folder rulesc did not write): the site works online */
    });
  }
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
