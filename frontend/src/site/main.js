// @ts-check
/* rulesc site: copy-link buttons, link previews, sortable index tables, the GM screen's filter, Pagefind search, the
   upgrade pickers' chips, scrollable regions, the "Sources and formulas" choice, and on a page with calculators their scripts. */
import {namespace} from "../shared/namespace.js";
import {bindCopyButtons, copyButtons} from "./copy_link.js";
import {gmFilter} from "./gm_filter.js";
import {indexTables} from "./index_tables.js";
import {loadCalculators} from "./loader.js";
import {markPlace} from "./place.js";
import {bindPreviews, hidePreview} from "./previews.js";
import {quickSearch} from "./quick_search.js";
import {scrollRegions} from "./scroll_regions.js";
import {searchButton} from "./search_button.js";
import {searchPage} from "./search_page.js";
import {applySources, rememberSources} from "./sources.js";
import {upgradePickers} from "./upgrade_picker.js";

/** Every step skips what it has already done, so init() runs again on each of Material's instant navigations. */
function init() {
  markPlace();
  applySources();
  quickSearch();
  searchButton();
  searchPage();
  upgradePickers();
  hidePreview();
  loadCalculators();
  /* every change to the page at once (one style and layout pass follows); sizes are read (scrollRegions) only
     once the browser has laid each box out anyway */
  copyButtons();
  indexTables();
  gmFilter();
  scrollRegions();
}

/** Whether the page's document$ is rulesc's own (partials/rulesc-head.html, where Material's script is left out): it
    announces the page once parsed, from file:// too, and replays that to a later subscriber. */
function announcedByRulesc() {
  /* read through dataset: site.js's strings name the attributes the page's inlined styles keep (page_styles.py) */
  return typeof document$ !== "undefined" && document.documentElement.dataset.rulescTheme === "lean";
}

function startSite() {
  /* once a page, even where an older mkdocs.yml still lists this script besides rulesc's own <head> tag */
  const ns = namespace();
  if (ns.site) return;
  ns.site = true;
  rememberSources();
  bindPreviews();
  bindCopyButtons();
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(init);
  /* Material's document$ fires on every instant navigation, but never from file://: run once now as well. rulesc's
     own fires for this page (at DOMContentLoaded): running now too would do every step twice in the task that ends
     the parse, the longest of a phone's first visit after its first frame. */
  if (announcedByRulesc()) return;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
}

startSite();
