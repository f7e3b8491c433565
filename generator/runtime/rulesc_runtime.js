/* rulesc runtime for the generated calculators: dice pools, tables and integer arithmetic. */
(function (root) {
  "use strict";
  var SIDES = [4, 6, 8, 10];

  function RulesError(message) { this.name = "RulesError"; this.message = message; }
  RulesError.prototype = Object.create(Error.prototype);

  function Dice(counts, c) { this.counts = counts; this.c = c || 0; }
  Dice.prototype.toString = function () {
    var parts = this.counts.map(function (p) { return p[1] + "d" + p[0]; });
    if (this.c || !parts.length) parts.push(String(this.c));
    return parts.join("+").replace("+-", "-");
  };

  function pool(map, c) {
    var sides = Object.keys(map).map(Number).filter(function (s) { return map[s]; });
    sides.sort(function (a, b) { return b - a; });
    return new Dice(sides.map(function (s) { return [s, map[s]]; }), c || 0);
  }
  function toMap(d) { var m = {}; d.counts.forEach(function (p) { m[p[0]] = p[1]; }); return m; }
  function asDice(x) { return x instanceof Dice ? x : new Dice([], x); }

  function dice(count, sides) {
    if (count < 0 || sides < 1) throw new RulesError("cannot roll " + count + "d" + sides);
    var m = {}; m[sides] = count; return pool(m, 0);
  }
  function diceAdd(a, b, sign) {
    sign = sign === undefined ? 1 : sign;
    a = asDice(a); b = asDice(b);
    var m = toMap(a);
    b.counts.forEach(function (p) { m[p[0]] = (m[p[0]] || 0) + sign * p[1]; });
    for (var k in m) if (m[k] < 0) throw new RulesError("cannot take " + b + " away from " + a);
    return pool(m, a.c + sign * b.c);
  }
  function diceScale(a, k) {
    if (k < 0) throw new RulesError("cannot multiply " + a + " by " + k);
    var m = {}; a.counts.forEach(function (p) { m[p[0]] = p[1] * k; });
    return pool(m, a.c * k);
  }
  function category(index) {
    if (index <= 0) return new Dice([], 0);
    var tens = Math.floor(index / 4), rest = index % 4, m = {10: tens};
    if (rest) m[SIDES[rest - 1]] = (m[SIDES[rest - 1]] || 0) + 1;
    return pool(m, 0);
  }
  function categoryIndex(d) {
    var m = toMap(d), tens = m[10] || 0; delete m[10];
    var small = Object.keys(m).map(Number);
    if (d.c || small.length > 1 || (small.length && (m[small[0]] !== 1 || SIDES.indexOf(small[0]) < 0)))
      throw new RulesError(d + " is not on the dice category progression");
    return tens * 4 + (small.length ? SIDES.indexOf(small[0]) + 1 : 0);
  }
  function step(d, n) { return category(Math.max(0, categoryIndex(d) + n)); }
  function floorDiv(a, b) { if (b === 0) throw new RulesError("division by zero"); return Math.floor(a / b); }
  function ceilDiv(a, b) { if (b === 0) throw new RulesError("division by zero"); return Math.ceil(a / b); }
  function clamp(x, lo, hi) { return Math.max(lo, Math.min(hi, x)); }
  function lookup(table, column, key) {
    for (var i = 0; i < table.keys.length; i++) {
      if (table.keys[i][0] <= key && key <= table.keys[i][1]) return table.columns[column][i];
    }
    throw new RulesError(key + " is not in the table");
  }
  function parseDice(text) {
    var t = String(text).trim();
    if (["", "0", "-", "\u2013", "\u2014"].indexOf(t) >= 0) return new Dice([], 0);
    var re = /\s*([+-]?)\s*(?:(\d*)d(\d+)|(\d+))\s*/y, total = new Dice([], 0), pos = 0, m;
    while (pos < t.length) {
      re.lastIndex = pos; m = re.exec(t);
      if (!m || re.lastIndex === pos) throw new RulesError(JSON.stringify(text) + " is not a dice pool");
      var term = m[4] !== undefined ? Number(m[4]) : dice(Number(m[2] || 1), Number(m[3]));
      total = diceAdd(total, term, m[1] === "-" ? -1 : 1);
      pos = re.lastIndex;
    }
    return total;
  }
  function format(v) { return typeof v === "boolean" ? (v ? "yes" : "no") : String(v); }

  root.RulesRuntime = {
    Dice: Dice, RulesError: RulesError, dice: dice, diceAdd: diceAdd, diceScale: diceScale,
    category: category, categoryIndex: categoryIndex, step: step, floorDiv: floorDiv, ceilDiv: ceilDiv,
    clamp: clamp, lookup: lookup, parseDice: parseDice, format: format
  };
})(typeof globalThis !== "undefined" ? globalThis : this);
