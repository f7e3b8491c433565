// @ts-check
/* A roll's chart: a bar per outcome (or per named outcome), and the same numbers as a table for every reader.
   Every number shown is rounded from the exact chance; the bars' heights are floats, for drawing only. */
import {percent} from "./display.js";
import {R} from "./runtime.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320, HEIGHT = 90;

/** Each outcome's chance as a float, for drawing only. */
function floats(/** @type {RulesDist} */ dist) {
  const total = Number(dist.total);
  return dist.weights.map((w) => Number(w) / total);
}

/** The outcomes worth drawing: tails below 0.05% are dropped so long rolls stay readable. */
export function shownRange(/** @type {number[]} */ p) {
  let lo = 0, hi = p.length - 1;
  while (lo < hi && p[lo] < 0.0005) lo++;
  while (hi > lo && p[hi] < 0.0005) hi--;
  return {lo, hi};
}

/** @param {string} name @param {Record<string, string>} attributes */
function svgElement(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

/** @typedef {{lo: number, hi: number}} Range */

/** The bars; `target` (a number, or null) is the result the calculator asks for: the bars at or above it are
    coloured. @param {RulesDist} dist @param {Range} range @param {string} label @param {number | null} target */
function bars(dist, range, label, target) {
  const p = floats(dist), bar = WIDTH / (range.hi - range.lo + 1);
  let top = 0, best = range.lo;
  for (let i = range.lo; i <= range.hi; i++) top = Math.max(top, p[i]);
  for (let i = range.lo; i <= range.hi; i++) if (dist.weights[i] > dist.weights[best]) best = i;
  const svg = svgElement("svg", {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "rulesc-chart", role: "img"});
  svg.setAttribute("aria-label", label + ": from " + (dist.offset + range.lo) + " to " + (dist.offset + range.hi) +
    ", most likely " + (dist.offset + best) + " (" +
    R.fixed(R.nmul(R.ratio(dist.weights[best], dist.total), 100), 1) + "%)");
  for (let i = range.lo; i <= range.hi; i++) {
    const h = top ? p[i] / top * HEIGHT : 0;
    const rect = svgElement("rect", {x: ((i - range.lo) * bar + 0.5).toFixed(2), y: (HEIGHT - h).toFixed(2),
      width: Math.max(0.5, bar - 1).toFixed(2), height: h.toFixed(2)});
    if (target !== null && dist.offset + i >= target) rect.setAttribute("class", "rulesc-chart__hit");
    const tip = document.createElementNS(SVG, "title");
    tip.textContent = (dist.offset + i) + ": " + percent(R.ratio(dist.weights[i], dist.total));
    rect.appendChild(tip);
    svg.appendChild(rect);
  }
  return svg;
}

/** The lowest and highest outcome drawn, under the bars. @param {RulesDist} dist @param {Range} range */
function axis(dist, range) {
  const edges = document.createElement("p");
  edges.className = "rulesc-chart__axis";
  edges.setAttribute("aria-hidden", "true");
  [range.lo, range.hi].forEach((edge) => {
    const text = document.createElement("span");
    text.textContent = String(dist.offset + edge);
    edges.appendChild(text);
  });
  return edges;
}

/** A dashed line where the target starts, and the target named under the chart and in its label.
    @param {SVGElement} svg @param {HTMLElement} edges @param {RulesDist} dist @param {Range} range
    @param {number} target */
function markTarget(svg, edges, dist, range, target) {
  const bar = WIDTH / (range.hi - range.lo + 1);
  if (target > dist.offset + range.lo && target <= dist.offset + range.hi) {
    const x = ((target - dist.offset - range.lo) * bar).toFixed(2);
    svg.appendChild(svgElement("line", {class: "rulesc-chart__target", x1: x, x2: x, y1: "0", y2: String(HEIGHT)}));
  }
  const mark = document.createElement("span");
  mark.className = "rulesc-chart__goal";
  mark.textContent = "target " + target + "+";
  edges.insertBefore(mark, edges.lastChild);
  svg.setAttribute("aria-label", svg.getAttribute("aria-label") + "; target " + target + " or more");
}

/** A collapsed table: a header row of `head`, then `rows`. @param {string} label @param {string[]} head
    @param {string[][]} rows */
function tableOf(label, head, rows) {
  const details = document.createElement("details"), summary = document.createElement("summary");
  summary.textContent = "Table of " + label;
  const table = document.createElement("table"), top = table.insertRow();
  head.forEach((t) => { const th = document.createElement("th"); th.textContent = t; top.appendChild(th); });
  rows.forEach((cells) => {
    const row = table.insertRow();
    cells.forEach((t) => { row.insertCell().textContent = t; });
  });
  details.appendChild(summary); details.appendChild(table);
  return details;
}

/** Each outcome drawn: its chance exactly and at least. @param {RulesDist} dist @param {Range} range */
function distRows(dist, range) {
  const rows = [];
  let tail = dist.total;  /* the weight of this outcome and every one above it */
  for (let i = 0; i < dist.weights.length; i++) {
    if (i >= range.lo && i <= range.hi) {
      rows.push([String(dist.offset + i), percent(R.ratio(dist.weights[i], dist.total)), percent(R.ratio(tail, dist.total))]);
    }
    tail -= dist.weights[i];
  }
  return rows;
}

/** Bars of each outcome's chance, and its table. @param {Element} container @param {RulesDist} dist
    @param {string} label @param {number | null} target */
export function drawChart(container, dist, label, target) {
  const range = shownRange(floats(dist));
  const svg = bars(dist, range, label, target), edges = axis(dist, range);
  if (target !== null) markTarget(svg, edges, dist, range, target);
  container.replaceChildren(svg, edges, tableOf(label, ["Result", "Exactly", "At least"], distRows(dist, range)));
}

/** A labelled bar per named outcome, in the formula's order, and the same as a table.
    @param {Element} container @param {[string, RulesNumber][]} items @param {string} label */
export function drawOutcomes(container, items, label) {
  const list = document.createElement("ul");
  list.className = "rulesc-outcomes";
  list.setAttribute("aria-label", label);
  items.forEach((item) => {
    const li = document.createElement("li"), name = document.createElement("span"), bar = document.createElement("span");
    name.className = "rulesc-outcomes__name"; name.textContent = item[0] + " " + percent(item[1]);
    bar.className = "rulesc-outcomes__bar"; bar.style.width = (R.toFloat(item[1]) * 100).toFixed(2) + "%";
    li.appendChild(name); li.appendChild(bar); list.appendChild(li);
  });
  const rows = items.map((item) => [item[0], percent(item[1])]);
  container.replaceChildren(list, tableOf(label, ["Outcome", "Chance"], rows));
}
