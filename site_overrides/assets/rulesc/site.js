/* rulesc site: copy-link buttons, link previews, sortable index tables and Pagefind search. Hand-written. */
(function () {
  "use strict";
  /* once a page, even where an older mkdocs.yml still lists this script besides rulesc's own <head> tag */
  if (globalThis.RulesSite) return;
  globalThis.RulesSite = true;
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };
  var lastPointer = "mouse", pagefind = null;
  /* the folder of this script (assets/rulesc/): the calculators' scripts are loaded from it */
  var ASSETS = document.currentScript && document.currentScript.src ? document.currentScript.src.replace(/[^/]*$/, "")
    : null;

  /* ---- calculators: only a page that has one loads the runtime, the formulas of its systems (one script a
     system) and calculators.js, as plain scripts in that order (file:// too); calculators.js binds them ---- */
  var loading = Object.create(null);

  function script(name) {
    if (!loading[name]) loading[name] = new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = ASSETS + name;
      tag.async = false;  /* run in the order asked for: the runtime, then formulas, then calculators.js */
      tag.onload = resolve;
      tag.onerror = function () { delete loading[name]; reject(new Error("rulesc: cannot load " + name)); };
      document.head.appendChild(tag);
    });
    return loading[name];
  }

  function calculators() {
    var systems = Object.create(null), known = globalThis.RulesSystems || {}, wanted = [];
    each(document.querySelectorAll("[data-calculator]"), function (box) {
      systems[box.getAttribute("data-calculator").split("/")[0]] = true;
    });
    var ids = Object.keys(systems).sort();
    if (!ids.length || !ASSETS) return;
    if (!globalThis.RulesRuntime) wanted.push("runtime.js");
    ids.forEach(function (id) { if (!known[id]) wanted.push("formulas/" + id + ".js"); });
    if (!globalThis.RulesCalculators) wanted.push("calculators.js");
    Promise.all(wanted.map(script)).then(function () {
      if (globalThis.RulesCalculators) globalThis.RulesCalculators.init();
    }, function (error) { if (window.console) console.error(error.message); });
  }

  /* ---- where the site root is (the header form knows its relative path) ---- */
  function root() {
    var form = document.querySelector(".rulesc-qs");
    var base = form ? form.getAttribute("data-rulesc-root") || "." : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href);
  }

  /* ---- a page the navigation does not list (a part of a long chapter, of a GM screen, of the error codes or the
     index tables): the link of the page it belongs to (the longest address above it) is marked as Material marks
     the page being read, and the sections above it are open, so the sidebar and the phone's drawer show where the
     reader is ---- */
  function markPlace() {
    var nav = document.querySelector(".md-nav--primary");
    if (!nav || nav.querySelector(".md-nav__link--active")) return;
    var top = root().pathname, here = location.pathname, best = null;
    each(nav.querySelectorAll("a.md-nav__link[href]"), function (link) {
      var path = link.pathname;
      if (path.length <= top.length || path.slice(-1) !== "/" || here.indexOf(path) !== 0) return;
      if (!best || path.length > best.pathname.length) best = link;
    });
    if (!best) return;
    best.classList.add("md-nav__link--active");
    best.setAttribute("aria-current", "true");
    var own = best.closest(".md-nav__item");
    for (var item = own; item; item = item.parentElement.closest(".md-nav__item")) {
      item.classList.add("md-nav__item--active");
      var toggle = item.querySelector(":scope > input.md-nav__toggle");
      if (toggle && item !== own) toggle.checked = true;
    }
  }

  /* ---- copy a rule's link ---- */
  function copyButtons() {
    each(document.querySelectorAll(".md-content [data-kind][id]"), function (heading) {
      if (heading.querySelector(".rulesc-copy")) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "rulesc-copy";
      button.textContent = "Copy link";
      button.setAttribute("aria-label", "Copy link to " + heading.textContent.replace(/[¶\s]+$/, "").trim());
      button.addEventListener("click", function () { copyLink(button, heading.id); });
      heading.appendChild(button);
      /* one tab stop per rule: the button copies the permalink the pilcrow shows, so the pilcrow stays for the
         mouse and leaves the tab order */
      each(heading.querySelectorAll("a.headerlink"), function (link) { link.tabIndex = -1; });
    });
  }

  function copyLink(button, id) {
    var url = location.href.split("#")[0].split("?")[0] + "#" + id;
    var done = function (ok) {
      button.textContent = ok ? "Copied" : url;
      setTimeout(function () { button.textContent = "Copy link"; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(function () { done(true); }, function () { done(false); });
    } else done(false);
  }

  /* ---- previews of linked rules and terms: hover, keyboard focus, first tap on touch ---- */
  var tip = null, tipFor = null, armed = null;

  function tooltip() {
    if (tip && document.body.contains(tip)) return tip;
    tip = document.createElement("div");
    tip.id = "rulesc-preview";
    tip.className = "rulesc-preview";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    document.body.appendChild(tip);
    return tip;
  }

  function showPreview(link) {
    var box = tooltip(), rect = link.getBoundingClientRect();
    box.textContent = link.getAttribute("data-rulesc-preview");
    box.hidden = false;
    var top = rect.bottom + window.scrollY + 6, left = Math.max(8, Math.min(rect.left + window.scrollX,
      window.scrollX + document.documentElement.clientWidth - box.offsetWidth - 8));
    box.style.top = top + "px";
    box.style.left = left + "px";
    link.setAttribute("aria-describedby", box.id);
    tipFor = link;
  }

  function hidePreview() {
    if (!tipFor) return;
    tipFor.removeAttribute("aria-describedby");
    tooltip().hidden = true;
    tipFor = armed = null;
  }

  function previewLink(target) {
    return target && target.closest ? target.closest("a[data-rulesc-preview]") : null;
  }

  function bindPreviews() {
    document.addEventListener("pointerdown", function (e) { lastPointer = e.pointerType || "mouse"; }, true);
    document.addEventListener("mouseover", function (e) {
      var link = previewLink(e.target);
      if (link && lastPointer !== "touch") showPreview(link);
    });
    document.addEventListener("mouseout", function (e) { if (previewLink(e.target) === tipFor) hidePreview(); });
    document.addEventListener("focusin", function (e) { var l = previewLink(e.target); l ? showPreview(l) : hidePreview(); });
    document.addEventListener("focusout", function (e) { if (previewLink(e.target) === tipFor) hidePreview(); });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape") hidePreview(); });
    document.addEventListener("click", function (e) {
      var link = previewLink(e.target);
      if (!link || lastPointer !== "touch" || armed === link) return;
      e.preventDefault(); /* first tap shows the preview; a second tap follows the link */
      showPreview(link);
      armed = link;
    }, true);
  }

  /* ---- index tables: filter box and sortable columns ---- */
  function indexTables() {
    each(document.querySelectorAll("[data-index-table]"), function (box) {
      var table = box.querySelector("table");
      if (!table || box.querySelector(".rulesc-filter")) return;
      var rows = Array.prototype.slice.call(table.tBodies[0].rows), label = table.getAttribute("aria-label");
      var field = document.createElement("div"), id = table.id + "-filter";
      field.className = "rulesc-filter";
      field.innerHTML = '<label for="' + id + '"></label><input type="search" id="' + id + '" autocomplete="off">' +
        '<span role="status" aria-live="polite"></span>';
      field.querySelector("label").textContent = "Filter " + label.toLowerCase();
      var input = field.querySelector("input"), status = field.querySelector("span");
      input.addEventListener("input", function () { filterRows(rows, input.value, status); });
      box.insertBefore(field, box.firstChild);
      filterRows(rows, "", status);
      each(table.tHead.rows[0].cells, function (th, index) { sortable(table, th, index); });
      tierScaling(box, table);
    });
  }

  /* N(T), N(bT) and NdS(T) in a table, read at a chosen tier: "8(bT)" at base tier 3 shows "24 (8(bT))". */
  var SCALED = /(\d+)(d\d+)?\((b?T)\)/g;

  function tierScaling(box, table) {
    var nodes = [], walker = document.createTreeWalker(table.tBodies[0], NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) if (SCALED.test(walker.currentNode.nodeValue)) nodes.push(walker.currentNode);
    SCALED.lastIndex = 0;
    if (!nodes.length) return;
    var originals = nodes.map(function (node) { return node.nodeValue; });
    var field = document.createElement("div");
    field.className = "rulesc-filter rulesc-tiers";
    field.innerHTML = '<label>Tier of Power <input type="number" min="1" max="9" inputmode="numeric" data-tier="T"></label> ' +
      '<label>Base tier <input type="number" min="1" max="9" inputmode="numeric" data-tier="bT"></label> ' +
      '<span>show (T) and (bT) amounts at these tiers</span>';
    var inputs = field.querySelectorAll("input");
    function apply() {
      var tiers = {};
      each(inputs, function (input) { var n = Number(input.value); if (input.value && n >= 1 && n <= 9) tiers[input.getAttribute("data-tier")] = n; });
      nodes.forEach(function (node, i) {
        node.nodeValue = originals[i].replace(SCALED, function (whole, count, dice, kind) {
          var tier = tiers[kind];
          if (!tier) return whole;
          return (dice ? (Number(count) * tier) + dice : String(Number(count) * tier)) + " (" + whole + ")";
        });
      });
    }
    each(inputs, function (input) { input.addEventListener("input", apply); });
    box.insertBefore(field, box.firstChild.nextSibling);
  }

  function filterRows(rows, query, status) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      row.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
      if (!row.hidden) shown++;
    });
    status.textContent = shown + " of " + rows.length + " shown";
  }

  function sortable(table, th, index) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = th.textContent;
    th.textContent = "";
    th.appendChild(button);
    th.setAttribute("aria-sort", "none");
    button.addEventListener("click", function () {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      each(th.parentNode.cells, function (other) { other.setAttribute("aria-sort", "none"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[index].textContent.trim(), y = b.cells[index].textContent.trim();
        if (!x !== !y) return x ? -1 : 1; /* empty cells last either way */
        var order = x.localeCompare(y, undefined, {numeric: true, sensitivity: "base"});
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  }

  /* ---- search (Pagefind, loaded on first use) ---- */
  var PAGE_SIZE = 20, EXACT_WINDOW = 30, NEAR_BOOST = 2;

  function loadPagefind() {
    if (!pagefind) {
      var base = root();
      pagefind = import(new URL("pagefind/pagefind.js", base).href).then(function (pf) {
        return pf.options({baseUrl: base.pathname}).then(function () { return pf; });
      });
    }
    return pagefind;
  }

  /* The system whose pages are being read: the first folder under the site root, if search knows it. */
  function pageSystem() {
    var path = location.pathname.slice(root().pathname.length).split("/")[0];
    return path ? loadPagefind().then(function (pf) { return pf.filters(); }).then(function (f) {
      return f.system && Object.prototype.hasOwnProperty.call(f.system, path) ? path : "";
    }, function () { return ""; }) : Promise.resolve("");
  }

  var loaded = {};
  function dataOf(result) { return loaded[result.id] || (loaded[result.id] = result.data()); }

  function withSystem(filters, near) {
    var copy = {};
    Object.keys(filters).forEach(function (k) { copy[k] = filters[k]; });
    copy.system = near;
    return copy;
  }

  /* Every hit in order: results of the `near` system score NEAR_BOOST times more; then, among the best
     EXACT_WINDOW, an exact name comes first (a rule before a term). Resolves to {total, page: [data...]}. */
  function search(query, filters, near, page, size) {
    var q = (query || "").trim() || null;
    return loadPagefind().then(function (pf) {
      var all = pf.search(q, {filters: filters});
      var mine = near && !filters.system ? pf.search(q, {filters: withSystem(filters, near)}) : null;
      return Promise.all([all, mine]);
    }).then(function (found) {
      var inNear = {};
      if (found[1]) found[1].results.forEach(function (r) { inNear[r.id] = true; });
      var ranked = found[0].results.map(function (r, i) {
        return {r: r, i: i, score: (r.score || 1) * (inNear[r.id] ? NEAR_BOOST : 1)};
      }).sort(function (a, b) { return b.score - a.score || a.i - b.i; }).map(function (x) { return x.r; });
      var top = ranked.slice(0, EXACT_WINDOW);
      return Promise.all(top.map(dataOf)).then(function (data) {
        var rank = function (d) {
          var named = (d.meta.names || "").split("|").some(function (n) { return q && n.toLowerCase() === q.toLowerCase(); });
          return named ? ((d.filters.kind || []).indexOf("term") < 0 || d.filters.kind.length > 1 ? 0 : 1) : 2;
        };
        var order = top.map(function (r, i) { return {r: r, key: rank(data[i]) * 1000 + i}; })
          .sort(function (a, b) { return a.key - b.key; }).map(function (x) { return x.r; });
        var ordered = order.concat(ranked.slice(EXACT_WINDOW)), start = (page - 1) * size;
        return Promise.all(ordered.slice(start, start + size).map(dataOf)).then(function (shown) {
          return {total: ordered.length, page: shown};
        });
      });
    });
  }

  /* A hit's address and place, which search.py stores base64-coded: Pagefind matches queries in metadata too. */
  function unpack(text) {
    var bytes = Uint8Array.from(atob(text || ""), function (c) { return c.charCodeAt(0); });
    return new TextDecoder().decode(bytes);
  }

  /* A snippet of the hit's own text (never its names or parents): SNIPPET_WORDS words around the first word the
     query matches, each matching word marked. */
  var SNIPPET_WORDS = 24;

  function snippet(text, query) {
    var words = (text || "").split(/\s+/).filter(Boolean), out = document.createElement("span");
    var terms = (query || "").toLowerCase().split(/[^\w\u00c0-\uffff]+/).filter(Boolean);
    var hit = function (word) {
      var w = word.toLowerCase().replace(/^[^\w\u00c0-\uffff]+/, "");
      return terms.some(function (t) { return w.indexOf(t) === 0; });
    };
    var at = words.findIndex(hit), start = Math.max(0, at - Math.floor(SNIPPET_WORDS / 3));
    var shown = words.slice(start, start + SNIPPET_WORDS);
    if (start > 0) out.appendChild(document.createTextNode("\u2026 "));
    shown.forEach(function (word, i) {
      if (i) out.appendChild(document.createTextNode(" "));
      if (hit(word)) { var m = document.createElement("mark"); m.textContent = word; out.appendChild(m); }
      else out.appendChild(document.createTextNode(word));
    });
    if (start + SNIPPET_WORDS < words.length) out.appendChild(document.createTextNode(" \u2026"));
    return out;
  }

  /* A hit: its name, where it sits (system > chapter > parent rules) and its kinds, and a snippet of its text
     with the matched words marked. */
  function resultItem(d, query) {
    var li = document.createElement("li"), a = document.createElement("a"), info = document.createElement("span");
    var p = document.createElement("p");
    a.href = new URL(unpack(d.meta.href), root()).href;
    a.textContent = d.meta.title;
    info.className = "rulesc-muted rulesc-search__where";
    info.textContent = unpack(d.meta.crumbs) + " \u00b7 " + (d.filters.kind || []).join(", ");
    p.className = "rulesc-search__snippet";
    p.appendChild(snippet(d.meta.text, query));
    li.appendChild(a);
    li.appendChild(info);
    li.appendChild(p);
    return li;
  }

  /* Arrow keys walk every link of a result list; ArrowUp from the first goes back to the box. */
  function arrowKeys(input, list) {
    function links() { return Array.prototype.slice.call(list.querySelectorAll("a")); }
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && !list.hidden && links().length) { e.preventDefault(); links()[0].focus(); }
    });
    list.addEventListener("keydown", function (e) {
      var all = links(), at = all.indexOf(document.activeElement);
      if (at < 0 || (e.key !== "ArrowDown" && e.key !== "ArrowUp" && e.key !== "Home" && e.key !== "End")) return;
      e.preventDefault();
      var next = e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : at + (e.key === "ArrowDown" ? 1 : -1);
      if (next < 0) input.focus(); else all[Math.min(next, all.length - 1)].focus();
    });
  }

  function quickSearch() {
    var form = document.querySelector(".rulesc-qs");
    if (!form || form.getAttribute("data-ready")) return;
    form.setAttribute("data-ready", "1");
    var input = form.querySelector("input[name=q]"), list = form.querySelector("ul"), status = form.querySelector("[role=status]");
    var nearField = form.querySelector("input[name=near]"), run = 0, first = null, near = "";
    input.addEventListener("focus", function () {
      pageSystem().then(function (s) {
        near = s;
        if (nearField) { nearField.value = s; nearField.disabled = !s; }
      });
    });
    input.addEventListener("input", function () {
      var mine = ++run, q = input.value.trim();
      if (!q) { list.hidden = true; list.textContent = ""; first = null; return; }
      pageSystem().then(function (s) { near = s; return search(q, {}, near, 1, 8); }).then(function (found) {
        if (mine !== run) return;
        var data = found.page;
        list.textContent = "";
        data.forEach(function (d) { list.appendChild(resultItem(d, q)); });
        var all = document.createElement("li"), link = document.createElement("a");
        link.href = form.action + "?q=" + encodeURIComponent(q) + (near ? "&near=" + encodeURIComponent(near) : "");
        link.textContent = "All " + found.total + " results and filters";
        all.className = "rulesc-qs__all";
        all.appendChild(link);
        list.appendChild(all);
        list.hidden = false;
        first = data.length ? new URL(unpack(data[0].meta.href), root()).href : null;
        status.textContent = data.length ? found.total + " results; press Enter for " + data[0].meta.title +
          ", or the down arrow to go through them" : "No results";
      });
    });
    form.addEventListener("submit", function (e) { if (first && document.activeElement === input) { e.preventDefault(); location.href = first; } });
    arrowKeys(input, list);
    form.addEventListener("keydown", function (e) { if (e.key === "Escape") { list.hidden = true; input.focus(); } });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) list.hidden = true; });
  }

  /* The search page: query, filters, boosted system and page live in the address, so a link restores them. */
  function searchPage() {
    var box = document.querySelector(".rulesc-search");
    if (!box || box.getAttribute("data-ready")) return;
    box.setAttribute("data-ready", "1");
    var form = box.querySelector("form"), input = form.querySelector("input[name=q]");
    var status = box.querySelector("[role=status]"), list = box.querySelector("ol"), run = 0;
    var pager = document.createElement("nav");
    pager.className = "rulesc-search__pages";
    pager.setAttribute("aria-label", "Result pages");
    list.parentNode.insertBefore(pager, list.nextSibling);
    var params = new URLSearchParams(location.search), near = params.get("near") || "";
    var page = Math.max(1, parseInt(params.get("page"), 10) || 1);
    input.value = params.get("q") || "";
    each(form.querySelectorAll("input[type=checkbox]"), function (c) { c.checked = params.getAll(c.name).indexOf(c.value) >= 0; });
    function state() {
      var out = new URLSearchParams(), filters = {};
      if (input.value.trim()) out.set("q", input.value.trim());
      each(form.querySelectorAll("input[type=checkbox]:checked"), function (c) {
        (filters[c.name] = filters[c.name] || {any: []}).any.push(c.value);
        out.append(c.name, c.value);
      });
      if (near) out.set("near", near);
      if (page > 1) out.set("page", String(page));
      return {filters: filters, query: out.toString()};
    }
    function update() {
      var s = state(), mine = ++run;
      history.replaceState(history.state, "", location.pathname + (s.query ? "?" + s.query : ""));
      if (!input.value.trim() && !Object.keys(s.filters).length) {
        list.textContent = ""; pager.textContent = ""; status.textContent = "Type to search."; return;
      }
      status.textContent = "Searching\u2026";
      search(input.value, s.filters, near, page, PAGE_SIZE).then(function (found) {
        if (mine !== run) return;
        var pages = Math.max(1, Math.ceil(found.total / PAGE_SIZE));
        if (page > pages) { page = pages; update(); return; }
        list.textContent = "";
        list.start = (page - 1) * PAGE_SIZE + 1;
        found.page.forEach(function (d) { list.appendChild(resultItem(d, input.value)); });
        status.textContent = found.total ? found.total + " results" + (pages > 1 ? ", page " + page + " of " + pages +
          " (" + list.start + "\u2013" + (list.start + found.page.length - 1) + ")" : "") : "No results";
        pagerLinks(pages);
      }, function () { status.textContent = "Search could not load: serve the site over HTTP."; });
    }
    function pagerLinks(pages) {
      pager.textContent = "";
      if (pages < 2) return;
      [["Previous", page - 1], ["Next", page + 1]].forEach(function (pair) {
        if (pair[1] < 1 || pair[1] > pages) return;
        var button = document.createElement("button");
        button.type = "button";
        button.className = "md-button rulesc-search__page";
        button.textContent = pair[0] + " page";
        button.setAttribute("data-page", String(pair[1]));
        button.addEventListener("click", function () {
          page = pair[1]; update();
          list.scrollIntoView({block: "nearest"});
          status.focus();
        });
        pager.appendChild(button);
      });
    }
    status.tabIndex = -1;
    form.addEventListener("input", function () { page = 1; update(); });
    form.addEventListener("submit", function (e) { e.preventDefault(); update(); });
    arrowKeys(input, list);
    update();
  }

  /* ---- the attack set builder: the chosen upgrades as removable chips, groups closed on a phone ---- */
  var PHONE = "(max-width: 44.9375em)";

  function upgradePickers() {
    each(document.querySelectorAll(".rulesc-calc__picker"), function (picker) {
      var chosen = picker.querySelector(".rulesc-calc__chosen"), filter = picker.querySelector(".rulesc-calc__filter");
      if (!chosen || picker.getAttribute("data-chips")) return;
      picker.setAttribute("data-chips", "1");
      var groups = picker.querySelectorAll(".rulesc-calc__group");
      if (window.matchMedia && window.matchMedia(PHONE).matches) each(groups, function (g) { g.open = false; });
      var draw = function () { drawChips(picker, chosen); };
      picker.addEventListener("input", draw);
      picker.addEventListener("change", draw);
      var calc = picker.closest("[data-calculator]");
      if (calc && window.MutationObserver) {  /* Reset and a shared link set the boxes without an event */
        new MutationObserver(draw).observe(calc, {attributes: true, attributeFilter: ["data-state"]});
      }
      if (filter) filter.addEventListener("input", function () { openMatches(groups, filter.value); });
      draw();
    });
  }

  function drawChips(picker, chosen) {
    var picks = [];
    each(picker.querySelectorAll("[data-upgrade]"), function (el) {
      var times = el.type === "checkbox" ? (el.checked ? 1 : 0) : parseInt(el.value, 10) || 0;
      if (times > 0) picks.push({el: el, times: times});
    });
    /* one edit asks up to three times (its input and change events, then the results it leads to): the chips are
       rebuilt only when the picks have changed, so the frame after the edit lays out one new list */
    var key = picks.map(function (pick) { return pick.el.getAttribute("data-upgrade") + "*" + pick.times; }).join(" ");
    if (picker.rulescChips === key) return;
    picker.rulescChips = key;
    /* no list items: calculators.js's filter hides every li of the picker that does not match */
    var heading = document.createElement("p"), list = document.createElement("div");
    heading.className = "rulesc-calc__chosen-title";
    heading.textContent = picks.length ? "Chosen (" + picks.length + "):" : "Chosen: none yet.";
    list.className = "rulesc-calc__chips";
    picks.forEach(function (pick) {
      var button = document.createElement("button");
      var label = pick.el.getAttribute("data-label") || pick.el.getAttribute("data-upgrade");
      button.type = "button";
      button.className = "rulesc-calc__chip";
      button.textContent = label + (pick.times > 1 ? " \u00d7" + pick.times : "") + " \u2715";
      button.setAttribute("aria-label", "Remove " + label);
      button.addEventListener("click", function () { removePick(picker, pick.el); });
      list.appendChild(button);
    });
    chosen.replaceChildren(heading, list);
  }

  function removePick(picker, el) {
    if (el.type === "checkbox") el.checked = false; else el.value = "0";
    el.dispatchEvent(new Event("change", {bubbles: true}));
    var next = picker.querySelector(".rulesc-calc__chip") || picker.querySelector(".rulesc-calc__filter");
    if (next) next.focus();
  }

  /* Typing in the filter opens every group with a match and closes the others; clearing it closes them all on a
     phone and opens them all elsewhere. */
  function openMatches(groups, text) {
    var words = text.trim().toLowerCase(), phone = window.matchMedia && window.matchMedia(PHONE).matches;
    each(groups, function (group) {
      if (!words) { group.open = !phone; return; }
      group.open = Array.prototype.some.call(group.querySelectorAll("li"), function (item) {
        return item.textContent.toLowerCase().indexOf(words) >= 0;
      });
    });
  }

  /* A table or code example wider than the screen scrolls sideways: its scrolling box takes one tab stop and a
     name, so a keyboard can scroll it too (axe: scrollable-region-focusable). Each box is checked once the browser
     has laid it out anyway (a ResizeObserver reports after layout), and again when its or its content's width changes: a box in a
     rule still off screen (content-visibility) is not laid out, so reading its width at load would force the
     layout of the whole chapter. */
  var regions = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var wrap = entry.target.hasAttribute("data-rulesc-watched") ? entry.target : entry.target.parentNode;
      if (entry.contentRect.width > 0) markRegion(wrap);
    });
  });

  function markRegion(wrap) {
    var wide = wrap.scrollWidth > wrap.clientWidth, code = wrap.tagName === "CODE", heading = wrap.previousElementSibling;
    if (!wide) {
      if (wrap.hasAttribute("data-rulesc-region")) {
        wrap.removeAttribute("tabindex"); wrap.removeAttribute("role"); wrap.removeAttribute("aria-label");
        wrap.removeAttribute("data-rulesc-region");
      }
      return;
    }
    if (wrap.hasAttribute("data-rulesc-region") || wrap.hasAttribute("tabindex")) return;
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    wrap.setAttribute("data-rulesc-region", "");
    wrap.setAttribute("aria-label", code ? "Example" : heading && /^H[2-6]$/.test(heading.tagName)
      ? heading.textContent.replace(/\u00b6/g, "").trim() + " (table)" : "Table");
  }

  function scrollRegions() {
    var boxes = document.querySelectorAll(".md-typeset__scrollwrap:not([data-rulesc-watched]), " +
      ".md-typeset pre > code:not([data-rulesc-watched])");
    each(boxes, function (wrap) {
      wrap.setAttribute("data-rulesc-watched", "");
      if (!regions) { markRegion(wrap); return; }
      /* the box, and what it holds: a table laid out wider later leaves the box's own size as it was */
      regions.observe(wrap);
      if (wrap.firstElementChild) regions.observe(wrap.firstElementChild);
    });
  }


  /* ---- "Sources and formulas": the reader's choice to keep them open, remembered for every page
     (pages without calculators too, so here and not in calculators.js) ---- */
  var SOURCES_KEY = "rulesc.sources";

  function sourcesOpen() {
    try { return window.localStorage.getItem(SOURCES_KEY) === "open"; } catch (e) { return false; }
  }

  function applySources() {
    var open = sourcesOpen();
    Array.prototype.forEach.call(document.querySelectorAll("details[data-rulesc-sources]"), function (details) {
      details.open = open;
    });
  }

  function rememberSources(event) {
    /* toggle does not bubble: caught on its way down; applySources() sets each to the stored state, so the
       toggles it causes store the same value again */
    var details = event.target;
    if (!details.matches || !details.matches("details[data-rulesc-sources]")) return;
    try { window.localStorage.setItem(SOURCES_KEY, details.open ? "open" : "closed"); } catch (e) { /* private mode */ }
  }
  if (document.addEventListener) document.addEventListener("toggle", rememberSources, true);

  function init() {
    markPlace();
    applySources();
    quickSearch();
    searchPage();
    upgradePickers();
    hidePreview();
    calculators();
    /* every change to the page at once (one style and layout pass follows); sizes are read (scrollRegions) only
       once the browser has laid each box out anyway */
    copyButtons();
    indexTables();
    scrollRegions();
  }

  bindPreviews();
  /* Material's document$ fires on every instant navigation, but never from file://: run once now as well
     (every step above skips what it has already done). */
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(init);
})();
