/* rulesc site: copy-link buttons, link previews, sortable index tables and Pagefind search. Hand-written. */
(function () {
  "use strict";
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };
  var lastPointer = "mouse", pagefind = null;

  /* ---- where the site root is (the header form knows its relative path) ---- */
  function root() {
    var form = document.querySelector(".rulesc-qs");
    var base = form ? form.getAttribute("data-rulesc-root") || "." : ".";
    return new URL(base.replace(/\/?$/, "/"), location.href);
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
    box.textContent = link.getAttribute("data-preview");
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
    return target && target.closest ? target.closest("a[data-preview]") : null;
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
  function loadPagefind() {
    if (!pagefind) {
      var base = root();
      pagefind = import(new URL("pagefind/pagefind.js", base).href).then(function (pf) {
        return pf.options({baseUrl: base.pathname}).then(function () { return pf; });
      });
    }
    return pagefind;
  }

  function search(query, filters, limit) {
    return loadPagefind().then(function (pf) {
      return pf.search(query || null, {filters: filters});
    }).then(function (found) {
      return Promise.all(found.results.slice(0, Math.max(limit, 12)).map(function (r) { return r.data(); }));
    }).then(function (data) {
      var q = (query || "").trim().toLowerCase();
      var exact = function (d) { /* an exact name first, a rule before a term of the same name */
        var named = (d.meta.names || "").split("|").some(function (n) { return n.toLowerCase() === q; });
        return named ? ((d.filters.kind || []).indexOf("term") < 0 ? 0 : 1) : 2;
      };
      return data.map(function (d, i) { return {d: d, key: exact(d) * 1000 + i}; })
        .sort(function (a, b) { return a.key - b.key; }).slice(0, limit).map(function (x) { return x.d; });
    });
  }

  function excerpt(html) {
    var out = document.createElement("span"), doc = new DOMParser().parseFromString(html, "text/html");
    each(doc.body.childNodes, function (node) {
      if (node.nodeName === "MARK") { var m = document.createElement("mark"); m.textContent = node.textContent; out.appendChild(m); }
      else out.appendChild(document.createTextNode(node.textContent));
    });
    return out;
  }

  function resultItem(d, withExcerpt) {
    var li = document.createElement("li"), a = document.createElement("a"), info = document.createElement("span");
    a.href = new URL(d.meta.url, root()).href;
    a.textContent = d.meta.title;
    info.className = "rulesc-muted";
    info.textContent = " " + d.meta.system + " \u00b7 " + (d.filters.kind || []).join(", ");
    li.appendChild(a);
    li.appendChild(info);
    if (withExcerpt) { var p = document.createElement("p"); p.appendChild(excerpt(d.excerpt)); li.appendChild(p); }
    return li;
  }

  function quickSearch() {
    var form = document.querySelector(".rulesc-qs");
    if (!form || form.getAttribute("data-ready")) return;
    form.setAttribute("data-ready", "1");
    var input = form.querySelector("input"), list = form.querySelector("ul"), status = form.querySelector("[role=status]");
    var run = 0, first = null;
    input.addEventListener("focus", function () { loadPagefind(); });
    input.addEventListener("input", function () {
      var mine = ++run, q = input.value.trim();
      if (!q) { list.hidden = true; list.textContent = ""; first = null; return; }
      search(q, {}, 8).then(function (data) {
        if (mine !== run) return;
        list.textContent = "";
        data.forEach(function (d) { list.appendChild(resultItem(d, false)); });
        var all = document.createElement("li"), link = document.createElement("a");
        link.href = form.action + "?q=" + encodeURIComponent(q);
        link.textContent = "All results and filters";
        all.appendChild(link);
        list.appendChild(all);
        list.hidden = false;
        first = data.length ? new URL(data[0].meta.url, root()).href : null;
        status.textContent = data.length ? data.length + " results; press Enter for " + data[0].meta.title : "No results";
      });
    });
    form.addEventListener("submit", function (e) { if (first) { e.preventDefault(); location.href = first; } });
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && !list.hidden) { e.preventDefault(); list.querySelector("a").focus(); }
      if (e.key === "Escape") list.hidden = true;
    });
    document.addEventListener("click", function (e) { if (!form.contains(e.target)) list.hidden = true; });
  }

  function searchPage() {
    var box = document.querySelector(".rulesc-search");
    if (!box || box.getAttribute("data-ready")) return;
    box.setAttribute("data-ready", "1");
    var form = box.querySelector("form"), input = form.querySelector("input[name=q]");
    var status = box.querySelector("[role=status]"), list = box.querySelector("ol"), run = 0;
    var params = new URLSearchParams(location.search);
    input.value = params.get("q") || "";
    each(form.querySelectorAll("input[type=checkbox]"), function (c) { c.checked = params.getAll(c.name).indexOf(c.value) >= 0; });
    function update() {
      var filters = {}, mine = ++run;
      each(form.querySelectorAll("input[type=checkbox]:checked"), function (c) {
        (filters[c.name] = filters[c.name] || {any: []}).any.push(c.value);
      });
      if (!input.value.trim() && !Object.keys(filters).length) { list.textContent = ""; status.textContent = "Type to search."; return; }
      status.textContent = "Searching\u2026";
      search(input.value, filters, 20).then(function (data) {
        if (mine !== run) return;
        list.textContent = "";
        data.forEach(function (d) { list.appendChild(resultItem(d, true)); });
        status.textContent = data.length ? data.length + (data.length === 20 ? "+" : "") + " results" : "No results";
      }, function () { status.textContent = "Search could not load: serve the site over HTTP."; });
    }
    form.addEventListener("input", update);
    form.addEventListener("submit", function (e) { e.preventDefault(); update(); });
    update();
  }

  function init() {
    copyButtons();
    indexTables();
    quickSearch();
    searchPage();
    hidePreview();
  }

  bindPreviews();
  /* Material's document$ fires on every instant navigation, but never from file://: run once now as well
     (every step above skips what it has already done). */
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(init);
})();
