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

function startSite() {
  /* once a page, even where an older mkdocs.yml still lists this script besides rulesc's own <head> tag */
  const ns = namespace();
  if (ns.site) return;
  ns.site = true;
  rememberSources();
  bindPreviews();
  bindCopyButtons();
  /* Material's document$ fires on every instant navigation, but never from file://: run once now as well. */
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(init);
}

startSite();
