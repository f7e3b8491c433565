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
  // A table as a book prints it: table(columns, row, ...), each row [low, high] (the keys it covers), then its values.
  function table(columns) {
    var rows = Array.prototype.slice.call(arguments, 1), byName = {};
    columns.forEach(function (name, i) { byName[name] = rows.map(function (row) { return row[i + 1]; }); });
    return {keys: rows.map(function (row) { return row[0]; }), columns: byName};
  }
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

  /* ---- distributions: outcome offset+i has probability p[i] (float64) ---- */
  var MAX_DICE = 1000, MAX_OUTCOMES = 1000000;
  function Dist(offset, p) { this.offset = offset; this.p = p; }
  Dist.prototype.toString = function () {
    return "mean " + mean(this).toFixed(2) + ", sd " + sd(this).toFixed(2);
  };
  function trim(offset, p) {
    var lo = 0, hi = p.length - 1;
    while (lo < hi && p[lo] === 0) lo++;
    while (hi > lo && p[hi] === 0) hi--;
    if (hi - lo + 1 > MAX_OUTCOMES) throw new RulesError("a roll with more than " + MAX_OUTCOMES + " outcomes is refused");
    return new Dist(offset + lo, p.slice(lo, hi + 1));
  }
  function constDist(v) { return new Dist(v, new Float64Array([1])); }
  function withinBounds(outcomes) {
    if (outcomes > MAX_OUTCOMES) throw new RulesError("a roll with more than " + MAX_OUTCOMES + " outcomes is refused");
  }
  function die(sides) {
    if (sides < 1) throw new RulesError("a die needs at least one side, not " + sides);
    withinBounds(sides);
    var p = new Float64Array(sides); p.fill(1 / sides); return new Dist(1, p);
  }
  function asDist(x) {
    if (x instanceof Dist) return x;
    if (typeof x === "number") return constDist(x);
    var total = constDist(x.c);
    x.counts.forEach(function (pair) { total = dadd(total, repeat(die(pair[0]), pair[1])); });
    return total;
  }
  function convolve(a, b) {
    var out = new Float64Array(a.length + b.length - 1);
    for (var i = 0; i < a.length; i++) {
      var x = a[i]; if (x === 0) continue;
      for (var j = 0; j < b.length; j++) out[i + j] += x * b[j];
    }
    return out;
  }
  function dadd(a, b) { a = asDist(a); b = asDist(b); withinBounds(a.p.length + b.p.length - 1); return trim(a.offset + b.offset, convolve(a.p, b.p)); }
  function dneg(a) { a = asDist(a); return new Dist(-(a.offset + a.p.length - 1), a.p.slice().reverse()); }
  function dsub(a, b) { return dadd(a, dneg(b)); }
  function repeat(a, times) {
    if (times < 0) throw new RulesError("cannot roll " + times + " dice");
    if (times > MAX_DICE) throw new RulesError("a roll of more than " + MAX_DICE + " dice is refused (" + times + " asked)");
    withinBounds((a.p.length - 1) * times + 1);
    var result = constDist(0), power = a;
    while (times) {
      if (times & 1) result = dadd(result, power);
      times >>= 1;
      if (times) power = dadd(power, power);
    }
    return result;
  }
  function dmap(a, f) {
    a = asDist(a);
    var lo = Infinity, hi = -Infinity, keys = [];
    for (var i = 0; i < a.p.length; i++) {
      var k = a.p[i] === 0 ? null : f(a.offset + i);
      keys.push(k);
      if (k !== null) { if (k < lo) lo = k; if (k > hi) hi = k; }
    }
    if (hi - lo + 1 > MAX_OUTCOMES) throw new RulesError("a roll with more than " + MAX_OUTCOMES + " outcomes is refused");
    var out = new Float64Array(hi - lo + 1);
    for (var j = 0; j < keys.length; j++) if (keys[j] !== null) out[keys[j] - lo] += a.p[j];
    return trim(lo, out);
  }
  function mix(a, f) {
    a = asDist(a);
    var parts = [], lo = Infinity, hi = -Infinity;
    for (var i = 0; i < a.p.length; i++) {
      if (a.p[i] === 0) continue;
      var d = asDist(f(a.offset + i));
      parts.push([a.p[i], d]);
      lo = Math.min(lo, d.offset); hi = Math.max(hi, d.offset + d.p.length - 1);
    }
    if (hi - lo + 1 > MAX_OUTCOMES) throw new RulesError("a roll with more than " + MAX_OUTCOMES + " outcomes is refused");
    var out = new Float64Array(hi - lo + 1);
    parts.forEach(function (part) {
      var w = part[0], d = part[1];
      for (var j = 0; j < d.p.length; j++) out[d.offset - lo + j] += w * d.p[j];
    });
    return trim(lo, out);
  }
  function bernoulliSum(n, p) {
    var out = new Float64Array(n + 1); out[0] = 1;
    for (var i = 1; i <= n; i++) {
      for (var k = i; k >= 1; k--) out[k] = out[k] * (1 - p) + out[k - 1] * p;
      out[0] *= (1 - p);
    }
    return out;
  }
  function successes(pool, t) {
    var total = constDist(0);
    pool.counts.forEach(function (pair) {
      var sides = pair[0], n = pair[1];
      if (n > MAX_DICE) throw new RulesError("a roll of more than " + MAX_DICE + " dice is refused (" + n + " asked)");
      var hits = Math.max(0, Math.min(sides, sides - t + 1));
      total = dadd(total, trim(0, bernoulliSum(n, hits / sides)));
    });
    return total;
  }
  function keepPool(pool, k, highest) {
    if (pool.counts.length !== 1) throw new RulesError("keep highest or lowest needs dice of one size, not " + pool);
    var sides = pool.counts[0][0], n = pool.counts[0][1];
    if (n > MAX_DICE) throw new RulesError("a roll of more than " + MAX_DICE + " dice is refused (" + n + " asked)");
    k = Math.max(0, Math.min(k, n));
    var d;
    if (k === 0) d = constDist(0);
    else if (k === 1 && highest) {
      var p = new Float64Array(sides);
      for (var x = 1; x <= sides; x++) p[x - 1] = Math.pow(x / sides, n) - Math.pow((x - 1) / sides, n);
      d = trim(1, p);
    } else {
      d = keepTable(n, sides, k);
      if (!highest) d = dmap(d, function (s) { return (sides + 1) * k - s; });
    }
    return pool.c ? dadd(d, pool.c) : d;
  }
  function keepTable(n, sides, k) {
    var states = new Map(); states.set("0,0", 1);
    for (var face = sides; face >= 1; face--) {
      var next = new Map();
      states.forEach(function (prob, key) {
        var parts = key.split(","), placed = Number(parts[0]), total = Number(parts[1]), left = n - placed;
        var pmf = face === 1 ? null : bernoulliSum(left, 1 / face);
        for (var c = 0; c <= left; c++) {
          var pc = face === 1 ? (c === left ? 1 : 0) : pmf[c];
          if (pc === 0) continue;
          var kept = Math.max(0, Math.min(c, k - placed));
          var nk = (placed + c) + "," + (total + kept * face);
          next.set(nk, (next.get(nk) || 0) + prob * pc);
        }
      });
      states = next;
    }
    var top = 0; states.forEach(function (_, key) { top = Math.max(top, Number(key.split(",")[1])); });
    var out = new Float64Array(top + 1);
    states.forEach(function (prob, key) { var parts = key.split(","); if (Number(parts[0]) === n) out[Number(parts[1])] += prob; });
    return trim(0, out);
  }
  function atLeast(a, k) { a = asDist(a); var s = 0; for (var i = Math.max(0, k - a.offset); i < a.p.length; i++) s += a.p[i]; return s; }
  function atMost(a, k) { a = asDist(a); var s = 0; for (var i = 0; i < a.p.length && a.offset + i <= k; i++) s += a.p[i]; return s; }
  function probEq(a, k) { a = asDist(a); var i = k - a.offset; return i >= 0 && i < a.p.length ? a.p[i] : 0; }
  function mean(a) { a = asDist(a); var s = 0; for (var i = 0; i < a.p.length; i++) s += (a.offset + i) * a.p[i]; return s; }
  function sd(a) {
    a = asDist(a); var mu = mean(a), v = 0;
    for (var i = 0; i < a.p.length; i++) { var d = a.offset + i - mu; v += a.p[i] * d * d; }
    return Math.sqrt(v);
  }
  function win(a, b, tiesToFirst) { return atLeast(dsub(a, b), tiesToFirst ? 0 : 1); }
  function power(base, exponent) {
    if (exponent < 0 || exponent > 10000) throw new RulesError("the exponent must be from 0 to 10000, not " + exponent);
    var result = Math.pow(base, exponent);
    if (Number.isInteger(base) && Math.abs(result) > 9007199254740991)
      throw new RulesError(base + "^" + exponent + " is beyond the largest whole number rulesc computes (9007199254740991)");
    return result;
  }
  function divide(a, b) { if (b === 0) throw new RulesError("division by zero"); return a / b; }
  function bind(a, f) { return mix(asDist(a), f); }
  function greater(a, b) { return atLeast(dsub(a, b), 1); }
  function tie(a, b) { return probEq(dsub(a, b), 0); }
  function clampDist(a, low, high) {
    a = asDist(a);
    var p = Array.prototype.slice.call(a.p), offset = a.offset, cut, sum, i;
    if (low !== null && offset < low) {
      cut = low - offset;
      if (cut >= p.length) { p = [1]; }
      else { sum = 0; for (i = 0; i <= cut; i++) sum += p[i]; p = [sum].concat(p.slice(cut + 1)); }
      offset = low;
    }
    if (high !== null && offset + p.length - 1 > high) {
      cut = high - offset;
      if (cut < 0) { p = [1]; offset = high; }
      else { sum = 0; for (i = cut; i < p.length; i++) sum += p[i]; p = p.slice(0, cut).concat([sum]); }
    }
    return trim(offset, Float64Array.from(p));
  }
  function dmax(a, b) { if (typeof b === "number") return clampDist(a, b, null);
    return mix(asDist(a), function (x) { return clampDist(b, x, null); }); }
  function dmin(a, b) { if (typeof b === "number") return clampDist(a, null, b);
    return mix(asDist(a), function (x) { return clampDist(b, null, x); }); }
  function dscale(a, k) { return dmap(a, function (x) { return x * k; }); }
  function dfloorDiv(a, k) { if (k === 0) throw new RulesError("division by zero"); return dmap(a, function (x) { return Math.floor(x / k); }); }
  /* ---- upgrade sets: upgrades maps id -> {name, requires, excludes, max_times} ---- */
  function upgradeProblems(upgrades, chosen) {
    var counts = {}, order = [], problems = [];
    chosen.forEach(function (id) { if (!(id in counts)) { counts[id] = 0; order.push(id); } counts[id] += 1; });
    function name(id) { return upgrades[id] ? upgrades[id].name : id; }
    order.forEach(function (id) { if (!upgrades[id]) problems.push("unknown upgrade '" + id + "'"); });
    order.forEach(function (id) {
      var rule = upgrades[id];
      if (!rule) return;
      rule.requires.forEach(function (r) { if (!(r in counts)) problems.push(rule.name + " requires " + name(r)); });
      rule.excludes.forEach(function (x) {
        if ((x in counts) && (!upgrades[x] || id < x || upgrades[x].excludes.indexOf(id) < 0))
          problems.push(rule.name + " cannot be taken with " + name(x));
      });
      if (counts[id] > rule.max_times)
        problems.push(rule.name + " may be taken at most " + rule.max_times + " time(s), not " + counts[id]);
    });
    return problems;
  }
  function format(v) { return typeof v === "boolean" ? (v ? "yes" : "no") : String(v); }

  root.RulesRuntime = {
    Dice: Dice, RulesError: RulesError, dice: dice, diceAdd: diceAdd, diceScale: diceScale,
    category: category, categoryIndex: categoryIndex, step: step, floorDiv: floorDiv, ceilDiv: ceilDiv,
    clamp: clamp, table: table, lookup: lookup, parseDice: parseDice, format: format,
    Dist: Dist, asDist: asDist, roll: asDist, dadd: dadd, dsub: dsub, dneg: dneg, dmap: dmap, mix: mix, repeat: repeat,
    successes: successes, keep: keepPool, atLeast: atLeast, atMost: atMost, probEq: probEq, mean: mean, sd: sd,
    greater: greater, tie: tie, win: win, divide: divide, power: power, upgradeProblems: upgradeProblems, bind: bind, dmax: dmax, dmin: dmin, dscale: dscale, dfloorDiv: dfloorDiv
  };
})(typeof globalThis !== "undefined" ? globalThis : this);
