// @ts-check
/* rulesc's theme script: on a site whose Material features it covers (partials/rulesc-theme.html decides), it does
   what Material's own script (assets/javascripts/bundle.*.js) does on rulesc's pages, and the page loads no bundle.
   That bundle costs a phone with a 4x slower CPU 100-150 ms on every page: it subscribes every component through
   RxJS and reads the viewport's offset and elements' sizes while the page is still being parsed, which forces the
   first style and layout pass early and then again. Here nothing reads a size or an offset until the page is shown:
   the layout-dependent parts (follow.js) run from one scroll handler, once per frame, and once after the load event.

   Covered, as Material does them: the table wrappers (tables.js); a link's target inside a closed <details> opens
   it, every <details> opens for printing (details.js); the keyboard (keyboard.js); the drawer closes when a link
   changes the location's hash (drawer.js); navigation.expand's half-open sections, truncated titles and iOS's
   scroll fix (navigation.js); the table of contents, the back-to-top button, the header's title and the current
   page in the sidebar (follow.js). The sidebars' heights are CSS (site.css).

   Material pins: these modules use Material's private class names and data attributes, so pyproject.toml pins
   mkdocs-material to the minor version they were tested with. */
import {openForPrinting, openTarget} from "./details.js";
import {themeFeatures} from "./dom.js";
import {bindHashChange} from "./drawer.js";
import {findParts, follow} from "./follow.js";
import {bindKeys} from "./keyboard.js";
import {bindLabels, bindTitles, patchNavigation} from "./navigation.js";
import {wrapTables} from "./tables.js";

function startTheme() {
  const features = themeFeatures();
  openForPrinting();
  bindKeys();
  bindHashChange();
  bindLabels();
  bindTitles();
  findParts(features);
  wrapTables();
  patchNavigation();
  /* After site.js's own start (it sets each "Sources and formulas" box as the reader left it): then a target inside
     one opens it, as Material's script does once the document is ready. */
  document.addEventListener("DOMContentLoaded", openTarget);
  /* Sizes and offsets only once the page has been shown: the frame after the load event. */
  const afterLoad = () => { window.requestAnimationFrame(follow); };
  if (document.readyState === "complete") afterLoad();
  else window.addEventListener("load", afterLoad);
}

startTheme();
