/* rulesc calculators: binds every [data-calculator] element to its compiled formulas. Hand-written. */
(function () {
  "use strict";
  var R = globalThis.RulesRuntime;
  var SAVE_DELAY_MS = 300;

  /* The one number rule is R.fixed (the runtime's), the same as fixed() in generator/emit/site/calculators.py,
     which pre-renders the page and prints `rulesc calc`: the runtime computes exactly, so both round the same
     exact value. A percent is the value times 100 with 2 decimals. */
  function isNumber(value) { return typeof value === "number" || value instanceof R.Q || value instanceof R.Real; }

  function percent(value) { return R.fixed(R.nmul(value, 100), 2) + "%"; }

  function inOrder(value, labels) {
    /* a roll's named outcomes, those in `labels` first in that order (display()'s in_order in Python) */
    var rank = {}, items = value.labels.map(function (label, i) { return [String(label), R.ratio(value.weights[i], value.total)]; });
    (labels || []).forEach(function (label, i) { rank[label] = i; });
    var last = (labels || []).length;
    return items.map(function (item, i) { return [item, i]; }).sort(function (a, b) {
      var x = a[0][0] in rank ? rank[a[0][0]] : last, y = b[0][0] in rank ? rank[b[0][0]] : last;
      return x - y || a[1] - b[1];
    }).map(function (pair) { return pair[0]; });
  }

  function sentence(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  function display(value, format, type, labels, suffix) {
    /* display() in calculators.py: a percent output shows a percent, a "num" output decimals, whichever branch
       produced the value; a number is followed by its unit (suffix); a roll reads as a sentence */
    suffix = suffix || "";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (value instanceof R.Outcomes && (type === "event" || value.labels.every(function (l) { return typeof l === "boolean"; })))
      return percent(R.p(value));
    if (value instanceof R.Outcomes)
      return sentence(inOrder(value, labels).map(function (item) { return item[0] + " " + percent(item[1]); }).join(", "));
    if (Array.isArray(value)) return value.length ? value.join("; ") : "none";
    if (value instanceof R.Dist)
      return "Average " + R.fixed(R.mean(value), 2) + suffix + ", typically within \u00b1" + R.fixed(R.sd(value), 2) + suffix;
    if (isNumber(value) && format === "percent") return percent(value);
    if (isNumber(value) && (type === "num" || typeof value !== "number")) return R.fixed(value, 2) + suffix;
    if (isNumber(value)) return String(value) + suffix;
    if (value instanceof R.Dice && !value.counts.length && !value.c) return "\u2014";
    return String(value);
  }

  /* exposed for tests (tests/test_display.py runs them in Node against Python's display()) */
  R.widget = {fixed: R.fixed, display: display};

  var SVG = "http://www.w3.org/2000/svg";

  function floats(dist) {
    /* each outcome's chance as a float, for drawing only: every number shown is rounded from the exact chance */
    var total = Number(dist.total);
    return dist.weights.map(function (w) { return Number(w) / total; });
  }

  function shown(p) {
    /* the outcomes worth drawing: drop tails below 0.05% so long rolls stay readable */
    var lo = 0, hi = p.length - 1;
    while (lo < hi && p[lo] < 0.0005) lo++;
    while (hi > lo && p[hi] < 0.0005) hi--;
    return {lo: lo, hi: hi};
  }

  function drawChart(container, dist, label, target) {
    /* bars of each outcome's chance; `target` (a number, or null) is the result the calculator asks for: the
       bars at or above it are coloured and a dashed line marks where it starts */
    var p = floats(dist), range = shown(p), n = range.hi - range.lo + 1, top = 0, i;
    for (i = range.lo; i <= range.hi; i++) top = Math.max(top, p[i]);
    var width = 320, height = 90, bar = width / n;
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 " + width + " " + height);
    svg.setAttribute("class", "rulesc-chart");
    svg.setAttribute("role", "img");
    var best = range.lo;
    for (i = range.lo; i <= range.hi; i++) if (dist.weights[i] > dist.weights[best]) best = i;
    svg.setAttribute("aria-label", label + ": from " + (dist.offset + range.lo) + " to " + (dist.offset + range.hi) +
      ", most likely " + (dist.offset + best) + " (" +
      R.fixed(R.nmul(R.ratio(dist.weights[best], dist.total), 100), 1) + "%)");
    for (i = range.lo; i <= range.hi; i++) {
      var h = top ? p[i] / top * height : 0, rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("x", ((i - range.lo) * bar + 0.5).toFixed(2));
      rect.setAttribute("y", (height - h).toFixed(2));
      rect.setAttribute("width", Math.max(0.5, bar - 1).toFixed(2));
      rect.setAttribute("height", h.toFixed(2));
      if (target !== null && dist.offset + i >= target) rect.setAttribute("class", "rulesc-chart__hit");
      var tip = document.createElementNS(SVG, "title");
      tip.textContent = (dist.offset + i) + ": " + percent(R.ratio(dist.weights[i], dist.total));
      rect.appendChild(tip);
      svg.appendChild(rect);
    }
    var axis = document.createElement("p");
    axis.className = "rulesc-chart__axis";
    axis.setAttribute("aria-hidden", "true");
    [range.lo, range.hi].forEach(function (edge) {
      var text = document.createElement("span");
      text.textContent = String(dist.offset + edge);
      axis.appendChild(text);
    });
    if (target !== null && target > dist.offset + range.lo && target <= dist.offset + range.hi) {
      var x = (target - dist.offset - range.lo) * bar, line = document.createElementNS(SVG, "line");
      line.setAttribute("class", "rulesc-chart__target");
      line.setAttribute("x1", x.toFixed(2)); line.setAttribute("x2", x.toFixed(2));
      line.setAttribute("y1", "0"); line.setAttribute("y2", String(height));
      svg.appendChild(line);
    }
    if (target !== null) {
      var mark = document.createElement("span");
      mark.className = "rulesc-chart__goal";
      mark.textContent = "target " + target + "+";
      axis.insertBefore(mark, axis.lastChild);
      svg.setAttribute("aria-label", svg.getAttribute("aria-label") + "; target " + target + " or more");
    }
    var details = document.createElement("details"), summary = document.createElement("summary");
    summary.textContent = "Table of " + label;
    var table = document.createElement("table"), head = table.insertRow();
    ["Result", "Exactly", "At least"].forEach(function (t) { var th = document.createElement("th"); th.textContent = t; head.appendChild(th); });
    var tail = dist.total;  /* the weight of this outcome and every one above it */
    for (i = 0; i < dist.weights.length; i++) {
      if (i >= range.lo && i <= range.hi) {
        var row = table.insertRow();
        [String(dist.offset + i), percent(R.ratio(dist.weights[i], dist.total)), percent(R.ratio(tail, dist.total))]
          .forEach(function (t) { row.insertCell().textContent = t; });
      }
      tail -= dist.weights[i];
    }
    details.appendChild(summary); details.appendChild(table);
    container.replaceChildren(svg, axis, details);
  }

  function drawOutcomes(container, items, label) {
    /* a labelled bar per named outcome, in the formula's order, and the same as a table */
    var list = document.createElement("ul"), table = document.createElement("table"), head = table.insertRow();
    list.className = "rulesc-outcomes";
    list.setAttribute("aria-label", label);
    ["Outcome", "Chance"].forEach(function (t) { var th = document.createElement("th"); th.textContent = t; head.appendChild(th); });
    items.forEach(function (item) {
      var li = document.createElement("li"), name = document.createElement("span"), bar = document.createElement("span");
      name.className = "rulesc-outcomes__name"; name.textContent = item[0] + " " + percent(item[1]);
      bar.className = "rulesc-outcomes__bar"; bar.style.width = (R.toFloat(item[1]) * 100).toFixed(2) + "%";
      li.appendChild(name); li.appendChild(bar); list.appendChild(li);
      var row = table.insertRow();
      row.insertCell().textContent = item[0]; row.insertCell().textContent = percent(item[1]);
    });
    var details = document.createElement("details"), summary = document.createElement("summary");
    summary.textContent = "Table of " + label;
    details.appendChild(summary); details.appendChild(table);
    container.replaceChildren(list, details);
  }

  function pickedUpgrades(control) {
    var chosen = [], error = null;
    Array.prototype.forEach.call(control.querySelectorAll("[data-upgrade]"), function (el) {
      var id = el.getAttribute("data-upgrade");
      if (el.type === "checkbox") { if (el.checked) chosen.push(id); return; }
      var text = el.value.trim(), times = text === "" ? 0 : Number(text);
      if (!Number.isInteger(times) || times < 0 || times > Number(el.max)) { error = "Counts go from 0 to " + el.max + "."; return; }
      for (var i = 0; i < times; i++) chosen.push(id);
    });
    return error ? {error: error} : {value: chosen};
  }

  function setUpgrades(control, list) {
    Array.prototype.forEach.call(control.querySelectorAll("[data-upgrade]"), function (el) {
      var id = el.getAttribute("data-upgrade"), times = list.filter(function (x) { return x === id; }).length;
      if (el.type === "checkbox") el.checked = times > 0; else el.value = String(times);
    });
  }

  function parsePool(text) {  /* a pool whose roll passes the roll budget is refused here, before any output works on it */
    var pool;
    try { pool = R.parseDice(text); } catch (e) { return {error: "Enter dice like 1d10+1d4."}; }
    try { return {value: R.rollable(pool)}; } catch (e) { return {error: "Too many dice to work out exactly."}; }
  }

  function parseField(control, spec) {
    if (spec.type === "bool") return {value: control.checked};
    if (spec.type === "upgrades") return pickedUpgrades(control);
    var text = control.value.trim();
    if (spec.type === "dice") return parsePool(text);
    if (!/^-?\d+$/.test(text)) return {error: text === "" ? "Enter a whole number." : "Not a whole number."};
    var n = Number(text);
    if (spec.options && spec.options.indexOf(n) < 0) return {error: "Choose one of the options."};
    if (spec.min !== undefined && n < spec.min) return {error: "At least " + spec.min + "."};
    if (spec.max !== undefined && n > spec.max) return {error: "At most " + spec.max + "."};
    return {value: n};
  }

  function stateKey(calcId, name) { return calcId + "." + name; }

  function restoreFromUrl(form, calcId, calc) {
    var params = new URLSearchParams(window.location.search), restored = false;
    calc.inputs.forEach(function (spec) {
      var raw = params.get(stateKey(calcId, spec.name));
      var control = form.elements.namedItem(spec.name);
      if (raw === null || !control) return;
      restored = true;
      if (spec.type === "bool") control.checked = raw === "1";
      else if (spec.type === "upgrades") setUpgrades(control, raw ? raw.split(",") : []);
      else control.value = raw;
    });
    return restored;
  }

  function saveToUrl(form, calcId, calc) {
    window.history.replaceState(window.history.state, "", stateUrl(form, calcId, calc).toString());
  }

  function stateUrl(form, calcId, calc) {
    /* the page's address with the calculator's inputs that differ from their defaults */
    var url = new URL(window.location.href);
    calc.inputs.forEach(function (spec) {
      var control = form.elements.namedItem(spec.name);
      var key = stateKey(calcId, spec.name);
      var value = spec.type === "bool" ? (control.checked ? "1" : "0")
        : spec.type === "upgrades" ? (pickedUpgrades(control).value || []).join(",") : control.value;
      var initial = spec.type === "bool" ? (spec["default"] ? "1" : "0")
        : spec.type === "upgrades" ? "" : String(spec["default"]);
      if (value === initial) url.searchParams.delete(key); else url.searchParams.set(key, value);
    });
    return url;
  }

  /* ---- Share: copy a link that restores this calculator's inputs and lands on it ---- */
  function shareButton(element, form, calcId, calc) {
    var reset = form.querySelector(".rulesc-calc__reset");
    var button = document.createElement("button"), status = document.createElement("span");
    button.type = "button";
    button.className = "md-button rulesc-calc__share";
    button.textContent = "Share";
    button.setAttribute("aria-label", "Share a link to " + calc.title + " with these inputs");
    status.className = "rulesc-calc__shared";
    status.setAttribute("role", "status");
    reset.parentNode.insertBefore(button, reset.nextSibling);
    button.parentNode.insertBefore(status, button.nextSibling);
    button.addEventListener("click", function () {
      var url = stateUrl(form, calcId, calc);
      url.hash = element.getAttribute("data-anchor") || element.id;
      copyText(url.toString(), status);
    });
  }

  function copyText(text, status) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { status.textContent = "Link copied."; },
        function () { showForCopy(text, status); });
    } else showForCopy(text, status);
  }

  function showForCopy(text, status) {
    /* no clipboard: the link in a field, selected, for the reader to copy */
    var field = document.createElement("input");
    field.type = "text";
    field.readOnly = true;
    field.value = text;
    field.className = "rulesc-calc__link";
    field.setAttribute("aria-label", "Link to copy");
    status.replaceChildren(document.createTextNode("Copy this link: "), field);
    field.focus();
    field.select();
  }

  function setup(element) {
    if (element.getAttribute("data-ready") === "1") return;
    var parts = element.getAttribute("data-calculator").split("/");
    var system = globalThis.RulesSystems && globalThis.RulesSystems[parts[0]];
    var calc = system && system.calculators[parts[1]];
    var form = element.querySelector("form");
    if (!calc || !form) return;
    element.setAttribute("data-ready", "1");
    var saveTimer = null;

    /* whether the results on show answer the inputs on show: the page's own results do, for the defaults, until
       the address sets other inputs */
    var computed = false;
    var stale = element.querySelector(".rulesc-calc__stale");

    /* The numbers show in the frame right after the input; the charts are drawn after that frame is painted (a
       newer result cancels the charts still to draw). data-computed tells that the charts are drawn. */
    var drawing = 0;

    function drawAfterPaint(charts) {
      var mine = ++drawing;
      var draw = function () {
        if (mine !== drawing) return;
        charts.forEach(function (chart) { chart(); });
        element.setAttribute("data-computed", "1");
      };
      if (!charts.length || !window.requestAnimationFrame) draw();
      else window.requestAnimationFrame(function () { setTimeout(draw, 0); });
    }

    function invalid(message) {
      /* results out of date: marked so, with what to do; before any result of the reader's own, none is shown */
      element.setAttribute("data-state", "invalid");
      if (stale) stale.textContent = message;
      if (computed) return;  /* the last results stay, their charts drawn too */
      drawing++;
      Array.prototype.forEach.call(form.querySelectorAll("output"), function (node) { node.textContent = "\u2014"; });
      Array.prototype.forEach.call(form.querySelectorAll("[data-chart]"), function (chart) { chart.replaceChildren(); });
    }

    function target(chart, env) {
      var name = chart.getAttribute("data-target-name"), value = chart.getAttribute("data-target");
      var found = name !== null ? env[name] : value !== null ? Number(value) : null;
      return typeof found === "number" ? found : null;
    }

    function recompute(save) {
      var env = Object.create(null), ok = true;  // no prototype: an input may be named __proto__
      calc.inputs.forEach(function (spec) {
        var control = form.elements.namedItem(spec.name);
        var message = form.querySelector("#" + control.id + "-msg");
        var parsed = parseField(control, spec);
        message.textContent = parsed.error || "";
        control.setAttribute("aria-invalid", parsed.error ? "true" : "false");
        if (parsed.error) ok = false; else env[spec.name] = parsed.value;
      });
      if (!ok) { invalid("Fix the highlighted field: the results below are out of date."); return; }
      var results = Object.create(null);
      try {
        calc.outputs.forEach(function (out) { env[out.name] = results[out.name] = out.run(env); });
      } catch (e) {
        invalid((e && e.message ? e.message : "No result for these inputs.") + " The results below are out of date.");
        return;
      }
      var charts = [];
      calc.outputs.forEach(function (out) {
        var node = form.querySelector('output[name="' + out.name + '"]');
        if (node) node.textContent = display(results[out.name], out.format, out.type, out.labels, node.getAttribute("data-suffix"));
        var chart = form.querySelector('[data-chart="' + out.name + '"]'), value = results[out.name];
        if (chart && value instanceof R.Dist) {
          charts.push(function () { drawChart(chart, value, out.label, target(chart, env)); });
        }
        if (chart && value instanceof R.Outcomes) {
          charts.push(function () { drawOutcomes(chart, inOrder(value, out.labels), out.label); });
        }
      });
      computed = true;
      if (stale) stale.textContent = "";
      element.setAttribute("data-state", "ok");
      drawAfterPaint(charts);
      if (save) {  /* writing history on every keystroke costs more than the maths: save once typing pauses */
        clearTimeout(saveTimer);
        saveTimer = setTimeout(function () { saveToUrl(form, parts[1], calc); }, SAVE_DELAY_MS);
      }
    }

    form.addEventListener("submit", function (event) { event.preventDefault(); });
    Array.prototype.forEach.call(form.querySelectorAll(".rulesc-calc__filter"), function (filter) {
      filter.addEventListener("input", function (event) {
        event.stopPropagation();  /* filtering the list changes no input */
        var words = filter.value.trim().toLowerCase();
        Array.prototype.forEach.call(filter.parentNode.querySelectorAll("li"), function (item) {
          item.hidden = words !== "" && item.textContent.toLowerCase().indexOf(words) < 0;
        });
      });
    });
    /* a choice or a box fires input then change for one edit, and a number its change on leaving the field: the
       change recomputes only what no input event has already shown */
    var shown = false;
    form.addEventListener("input", function () { shown = true; recompute(true); });
    form.addEventListener("change", function () { if (!shown) recompute(true); shown = false; });
    form.addEventListener("reset", function () { setTimeout(function () { recompute(true); }, 0); });
    var restored = restoreFromUrl(form, parts[1], calc);
    computed = !restored;
    shareButton(element, form, parts[1], calc);
    if (restored) recompute(false); else computeWhenNear(element, function () { recompute(false); });
  }

  /* The page's HTML already shows each calculator's results for its defaults, so a calculator whose inputs the
     address leaves alone computes (and draws its charts) only when it comes within a screen of the viewport: a long
     page is ready at once and never computes calculators out of sight. Each one answers input from the start. */
  var near = typeof IntersectionObserver === "undefined" ? null : new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting) return;
      near.unobserve(entry.target);
      if (entry.target.rulescCompute) entry.target.rulescCompute();
    });
  }, {rootMargin: "100% 0px"});

  function computeWhenNear(element, compute) {
    if (!near) { compute(); return; }
    element.setAttribute("data-state", "ok");
    element.rulescCompute = compute;
    near.observe(element);
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-calculator]"), setup);
  }

  /* site.js loads this script (after the runtime and the page's formulas) and calls init() again once a page's
     formulas are loaded. Material's instant navigation announces each new page on document$; it never fires for
     pages opened from file://, so also start on load. setup() marks each calculator, so starting twice does no
     harm. */
  globalThis.RulesCalculators = {init: init};
  if (typeof document$ !== "undefined" && document$.subscribe) document$.subscribe(init);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
