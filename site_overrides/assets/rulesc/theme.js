/* rulesc's theme script: on a site whose Material features it covers (partials/rulesc-theme.html decides), it does
   what Material's own script (assets/javascripts/bundle.*.js) does on rulesc's pages, and the page loads no bundle.
   That bundle costs a phone with a 4x slower CPU 100-150 ms on every page: it subscribes every component through
   RxJS and reads the viewport's offset and elements' sizes while the page is still being parsed, which forces the
   first style and layout pass early and then again. Here nothing reads a size or an offset until the page is shown:
   the layout-dependent parts (the table of contents, the back-to-top button, the header's title) run from one
   scroll handler, once per frame, and once after the load event.

   Covered, as Material does them: the table wrappers Material's CSS styles (a wide table scrolls in its own box);
   a link's target inside a closed <details> opens it; every <details> opens for printing; the keyboard's n/. and p/,
   go to the next and previous page (on a part page, the next and previous part), and Enter on a focused navigation label opens it; the drawer closes when a link
   changes the location's hash; navigation.expand's half-open sections; the table of contents marks the section
   being read (toc.follow: and scrolls it into view); the back-to-top button (navigation.top) shows while the reader
   scrolls up; the header shows the page's title once its heading has scrolled away; on a desktop the navigation
   sidebar shows the current page; a truncated navigation title gets its full text as a tooltip; iOS's scroll fix
   for the sidebars. The sidebars' heights are CSS (site.css). */
(function () {
  "use strict";

  var root = document.documentElement;
  var features = [];
  try { features = JSON.parse(document.getElementById("__config").textContent).features || []; } catch (e) { /* none */ }

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }
  function toggle(name) { return document.querySelector("[data-md-toggle=" + name + "]"); }
  function setToggle(name, value) {
    var input = toggle(name);
    if (input && input.checked !== value) input.click();
  }

  /* ---- tables: Material wraps each plain table so that a wide one scrolls in its own box (its CSS styles the
     wrappers); site.js's scroll regions then find them ---- */
  function wrapTables() {
    each(document.querySelectorAll(".md-typeset table:not([class])"), function (table) {
      if (table.parentNode.classList.contains("md-typeset__table")) return;
      var scroll = document.createElement("div"), inner = document.createElement("div");
      scroll.className = "md-typeset__scrollwrap";
      inner.className = "md-typeset__table";
      table.parentNode.insertBefore(scroll, table);
      inner.appendChild(table);
      scroll.appendChild(inner);
    });
  }

  /* ---- details: the location's target inside a closed <details> opens it; printing opens them all ---- */
  function openTarget() {
    var id = "";
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { id = location.hash.slice(1); }
    var target = id && document.getElementById(id);
    if (!target) return;
    var closed = false;
    for (var box = target.closest("details:not([open])"); box; box = box.parentElement.closest("details:not([open])")) {
      box.open = true;
      closed = true;
    }
    if (closed) target.scrollIntoView();
  }

  var printed = [];
  window.addEventListener("beforeprint", function () {
    printed = Array.prototype.filter.call(document.querySelectorAll("details:not([open])"), function (box) {
      box.open = true;
      return true;
    });
  });
  window.addEventListener("afterprint", function () {
    printed.forEach(function (box) { box.open = false; });
    printed = [];
  });

  /* ---- keyboard: as Material's, but never while a field has the focus or a modifier is held ---- */
  function typing(element, key) {
    if (!element) return false;
    if (element.tagName === "INPUT") return element.type !== "radio" || /^Arrow/.test(key);
    return element.tagName === "SELECT" || element.tagName === "TEXTAREA" || element.isContentEditable;
  }

  /* the pages before and after: the navigation's, or on a part page (not in the navigation) its own links */
  var STEP = {next: "link[rel=next], .rulesc-part-steps a[rel=next]", prev: "link[rel=prev], .rulesc-part-steps a[rel=prev]"};

  window.addEventListener("keydown", function (event) {
    if (event.metaKey || event.ctrlKey || event.isComposing) return;
    var search = toggle("search");
    if ((search && search.checked) || typing(document.activeElement, event.key)) return;
    var link = null;
    if (event.key === "n" || event.key === ".") link = document.querySelector(STEP.next);
    else if (event.key === "p" || event.key === ",") link = document.querySelector(STEP.prev);
    else if (event.key === "Enter" && document.activeElement && document.activeElement.tagName === "LABEL") {
      document.activeElement.click();
    }
    if (link) location.href = link.href;
  });

  /* ---- the drawer: a link to a heading (the phone's table of contents sits in the drawer) closes it ---- */
  window.addEventListener("hashchange", function () {
    openTarget();
    quietTop = Date.now() + 250;
    hideTop(true);
    setTimeout(function () {
      setToggle("drawer", false);
      setToggle("search", false);
    }, 125);
  });

  /* ---- navigation: navigation.expand's half-open sections, labels' aria-expanded, truncated titles ---- */
  function patchNavigation() {
    var tablet = window.matchMedia("(min-width: 60em)");
    each(document.querySelectorAll(".md-toggle--indeterminate"), function (input) {
      input.indeterminate = true;
      input.checked = false;
      input.addEventListener("change", function first() {
        input.removeEventListener("change", first);
        input.classList.remove("md-toggle--indeterminate");
        if (tablet.matches) input.checked = false;
      });
    });
    if (/(iPad|iPhone|iPod)/.test(navigator.userAgent)) {
      each(document.querySelectorAll("[data-md-scrollfix]"), function (box) {
        box.addEventListener("touchstart", function () {
          if (box.scrollTop === 0) box.scrollTop = 1;
          else if (box.scrollTop + box.offsetHeight === box.scrollHeight) box.scrollTop -= 1;
        }, {passive: true});
      });
    }
    each(document.querySelectorAll("[data-md-scrollfix]"), function (box) { box.removeAttribute("data-md-scrollfix"); });
  }

  document.addEventListener("click", function (event) {
    var label = event.target.closest && event.target.closest(".md-sidebar label[tabindex]");
    if (!label) return;
    setTimeout(function () {
      var input = document.getElementById(label.htmlFor);
      var nav = label.id && document.querySelector("[aria-labelledby=\"" + label.id + "\"]");
      if (input && nav) nav.setAttribute("aria-expanded", String(input.checked));
    }, 0);
  });

  document.addEventListener("mouseover", function (event) {
    var text = event.target.closest && event.target.closest(".md-ellipsis");
    if (!text || text.hasAttribute("data-rulesc-titled")) return;
    text.setAttribute("data-rulesc-titled", "");
    if (text.offsetWidth < text.scrollWidth) (text.closest("a") || text).title = text.innerText;
  });

  /* ---- what depends on where the reader is: one handler, run once per frame while scrolling ---- */
  var header = document.querySelector("[data-md-component=header]");
  var title = document.querySelector("[data-md-component=header-title]");
  var heading = document.querySelector(".md-content h1");
  var top = features.indexOf("navigation.top") >= 0 ? document.querySelector("[data-md-component=top]") : null;
  var follow = features.indexOf("toc.follow") >= 0;
  var tocs = [], lastY = 0, quietTop = 0, margin = 0, pending = false;

  function tableOfContents(nav) {
    var entries = [];
    each(nav.querySelectorAll(".md-nav__link"), function (anchor) {
      var id = "";
      try { id = decodeURIComponent(anchor.hash.slice(1)); } catch (e) { id = anchor.hash.slice(1); }
      var target = id && document.getElementById(id);
      if (target) entries.push({anchor: anchor, target: target});
    });
    return {entries: entries, active: -2};
  }

  /* A target's top in the viewport; a hidden one (a closed details) counts where its nearest shown box is. */
  function topOf(element) {
    for (; element; element = element.parentElement) {
      var box = element.getBoundingClientRect();
      if (box.top || box.height) return box.top;
    }
    return 0;
  }

  function headerHeight() { return header ? header.offsetHeight : 0; }

  /* The sections passed: those whose heading is above the header (plus part of the page's top margin, as Material
     reckons it), or all of them at the bottom of the page. Headings are in page order: a binary search. */
  function passed(entries, line, bottom) {
    if (bottom) return entries.length;
    var low = 0, high = entries.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (topOf(entries[middle].target) < line) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function markToc(toc, count) {
    var active = count - 1;
    if (active === toc.active) return;
    toc.entries.forEach(function (entry, index) {
      entry.anchor.classList.toggle("md-nav__link--passed", index < count);
      entry.anchor.classList.toggle("md-nav__link--active", index === active);
    });
    toc.active = active;
    var anchor = active >= 0 && toc.entries[active].anchor;
    if (!follow || !anchor || !anchor.offsetHeight) return;
    var box = anchor.closest(".md-sidebar__scrollwrap");
    if (box) box.scrollTo({top: anchor.offsetTop - box.offsetTop - box.clientHeight / 2});
  }

  function hideTop(hidden) {
    if (!top || top.hidden === hidden) return;
    top.hidden = hidden;
    if (hidden) {
      top.setAttribute("tabindex", "-1");
      top.blur();
    } else {
      top.removeAttribute("tabindex");
    }
  }

  function update() {
    pending = false;
    var y = Math.max(0, window.scrollY), line = headerHeight();
    if (title && heading) {
      var shown = heading.offsetHeight > 0 && heading.getBoundingClientRect().bottom <= line;
      title.classList.toggle("md-header__title--active", shown);
    }
    if (tocs.length) {
      var bottom = y + window.innerHeight >= document.body.scrollHeight - 1;
      tocs.forEach(function (toc) { markToc(toc, passed(toc.entries, line + 0.8 * margin, bottom)); });
    }
    /* the button shows while the reader scrolls up, not at the very top, and not just after a jump to a link */
    if (top && Date.now() >= quietTop) hideTop(!(y < lastY && y > 0));
    lastY = y;
  }

  function schedule() {
    if (pending) return;
    pending = true;
    window.requestAnimationFrame(update);
  }

  function follows() {
    each(document.querySelectorAll("[data-md-component=toc]"), function (nav) { tocs.push(tableOfContents(nav)); });
    if (top) {
      top.addEventListener("click", function (event) {
        event.preventDefault();
        window.scrollTo({top: 0});
      });
    }
    window.addEventListener("scroll", schedule, {passive: true});
    window.addEventListener("resize", schedule, {passive: true});
    var main = document.querySelector("[data-md-component=main]"), grid = main && main.firstElementChild;
    if (grid) margin = grid.getBoundingClientRect().top - main.getBoundingClientRect().top;
    lastY = Math.max(0, window.scrollY);
    revealCurrentPage();
    update();
  }

  /* On a desktop the navigation sidebar scrolls so the current page's link is in its middle. */
  function revealCurrentPage() {
    each(document.querySelectorAll(".md-sidebar--primary .md-nav__link--active[href]"), function (link) {
      if (!link.clientHeight) return;
      var box = link.closest(".md-sidebar__scrollwrap");
      if (box) box.scrollTo({top: link.offsetTop - box.offsetTop - box.clientHeight / 2});
    });
  }

  wrapTables();
  patchNavigation();
  /* After site.js's own start (it sets each "Sources and formulas" box as the reader left it): then a target inside
     one opens it, as Material's script does once the document is ready. */
  document.addEventListener("DOMContentLoaded", openTarget);
  /* Sizes and offsets only once the page has been shown: the frame after the load event. */
  function afterLoad() { window.requestAnimationFrame(follows); }
  if (document.readyState === "complete") afterLoad();
  else window.addEventListener("load", afterLoad);
})();
