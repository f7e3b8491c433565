/* rulesc runtime for the generated calculators: dice pools, tables and integer arithmetic. */
(function (root) {
  "use strict";
  var SIDES = [4, 6, 8, 10];

  function RulesError(message) { this.name = "RulesError"; this.message = message; }
  RulesError.prototype = Object.create(Error.prototype);

  function Dice(counts, c) { this.counts = counts; this.c = c || 0; }
  /* d66 and d666 are tens and units (dice of these listed faces), so a die of 66 sides is written d(66) */
  var TENS_AND_UNITS = {}, WRITTEN_DIGITS = {};
  ["66", "666"].forEach(function (written) {
    var faces = [""];
    for (var i = 0; i < written.length; i++) {
      faces = [].concat.apply([], faces.map(function (f) { return "123456".split("").map(function (d) { return f + d; }); }));
    }
    TENS_AND_UNITS[written] = "{" + faces.join(",") + "}";
    WRITTEN_DIGITS[TENS_AND_UNITS[written]] = written;
  });
  function writtenKind(key) {  /* a kind of die as dice text writes it */
    var written = String(key);
    if (Object.prototype.hasOwnProperty.call(WRITTEN_DIGITS, written)) return WRITTEN_DIGITS[written];
    return written.replace(/^(666?)(?=\D|$)/, "($1)");
  }
  Dice.prototype.toString = function () {
    var parts = this.counts.map(function (p) { return p[1] + "d" + writtenKind(p[0]); });
    if (this.c || !parts.length) parts.push(String(this.c));
    return parts.join("+").replace("+-", "-");
  };

  /* a pool's dice are kept by kind: sides (a number), or a special kind written as text: "F" Fudge,
     "{0,1,1,2}" listed faces, "6!" exploding, "6r2" faces 1-2 rerolled once; numbers first, largest first */
  function kindOrder(a, b) {
    var x = a[0], y = b[0];
    if (typeof x === "number" && typeof y === "number") return y - x;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  function pool(map, c) {
    var kept = Array.from(map.entries()).filter(function (e) { return e[1]; });
    kept.sort(kindOrder);
    return new Dice(kept, c || 0);
  }
  function toMap(d) { return new Map(d.counts); }
  function asDice(x) { return x instanceof Dice ? x : new Dice([], x); }

  var diceCache = new Map();
  function dice(count, sides, special) {  /* made once per count and kind */
    special = special || "";
    var cacheKey = count + "d" + sides + special, found = diceCache.get(cacheKey);
    if (!found) {
      found = newDice(count, sides, special);
      if (diceCache.size > 1024) diceCache.clear();
      diceCache.set(cacheKey, found);
    }
    return found;
  }
  function newDice(count, sides, special) {
    if (count < 0 || (sides < 1 && special !== "F" && special[0] !== "{"))
      throw new RulesError("cannot roll " + count + "d" + sides + special);
    if (!special) { refuseWidth(sides); return new Dice(count ? [[sides, count]] : [], 0); }  /* plain dice */
    var key = !special ? sides : special === "F" || special[0] === "{" ? special : kindKey(sides, special);
    refuseKind(key);
    return pool(new Map([[key, count]]), 0);
  }
  /* a special die: sides, its mark (! extra dice, !! compounding, r once, rr while) and the faces it acts on */
  var SPECIAL = /^(\d+)(!!?|rr?)(\d+)?(\{-?\d+(?:,-?\d+)*\})?$/;
  function kindKey(sides, special) {  /* the one way a special die is written */
    var found = SPECIAL.exec(sides + special.replace(/ /g, ""));
    if (!found) throw new RulesError("d" + sides + special + " is not a kind of die");
    var mode = found[2], faces = specialFaces(sides, found);
    if (mode[0] === "!") return sides + mode + (faces.length === 1 && faces[0] === sides ? "" : braced(faces));
    return sides + mode + (faces.every(function (f, i) { return f === i + 1; }) ? String(faces.length) : braced(faces));
  }
  function specialFaces(sides, found) {  /* the faces a special die explodes or rerolls on, sorted, each once */
    if (found[4]) {
      var listed = found[4].slice(1, -1).split(",").map(Number);
      return listed.filter(function (f, i) { return listed.indexOf(f) === i; }).sort(function (a, b) { return a - b; });
    }
    var faces = [];
    if (found[3]) for (var f = 1; f <= Number(found[3]); f++) faces.push(f);
    else if (found[2][0] === "!") faces.push(sides);
    return faces;
  }
  function braced(faces) { return "{" + faces.join(",") + "}"; }
  function diceAdd(a, b, sign) {
    sign = sign === undefined ? 1 : sign;
    a = asDice(a); b = asDice(b);
    var m = toMap(a);
    b.counts.forEach(function (p) { m.set(p[0], whole((m.get(p[0]) || 0) + sign * p[1])); });
    m.forEach(function (count) { if (count < 0) throw new RulesError("cannot take " + b + " away from " + a); });
    return pool(m, whole(a.c + sign * b.c));
  }
  function diceScale(a, k) {
    if (k < 0) throw new RulesError("cannot repeat " + a + " " + k + " times");
    var m = new Map(); a.counts.forEach(function (p) { m.set(p[0], whole(p[1] * k)); });
    return pool(m, whole(a.c * k));
  }
  function dicePart(pool) { return new Dice(pool.counts, 0); }  /* 2d6+3 gives 2d6 */
  function modifier(pool) { return pool.c; }  /* 2d6+3 gives 3 */
  function category(index) {
    if (index <= 0) return new Dice([], 0);
    var tens = Math.floor(index / 4), rest = index % 4, m = new Map([[10, tens]]);
    if (rest) m.set(SIDES[rest - 1], (m.get(SIDES[rest - 1]) || 0) + 1);
    return pool(m, 0);
  }
  function categoryIndex(d) {
    var m = toMap(d), tens = m.get(10) || 0; m.delete(10);
    var small = Array.from(m.keys());
    if (d.c || small.length > 1 || (small.length && (m.get(small[0]) !== 1 || SIDES.indexOf(small[0]) < 0)))
      throw new RulesError(d + " is not on the dice category progression");
    return tens * 4 + (small.length ? SIDES.indexOf(small[0]) + 1 : 0);
  }
  function step(d, n) { return category(Math.max(0, categoryIndex(d) + n)); }
  function floorDiv(a, b) {  /* exact for every whole number within MAX_INT: a % b is exact, a / b may round */
    if (b === 0) throw new RulesError("division by zero");
    var rest = a % b, q = (a - rest) / b;
    return rest !== 0 && (rest < 0) !== (b < 0) ? q - 1 : q;
  }
  function ceilDiv(a, b) { return -floorDiv(-a, b); }
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
  function quoted(text) {  /* text as Python's repr() writes it (quotes, backslashes and line breaks) */
    var q = text.indexOf("'") >= 0 && text.indexOf('"') < 0 ? '"' : "'";
    var escapes = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"};
    escapes[q] = "\\" + q;
    return q + text.replace(/[\\\n\r\t'"]/g, function (c) { return escapes[c] || c; }) + q;
  }
  function parseDice(text) {
    var t = String(text).trim();
    if (["", "0", "-", "\u2013", "\u2014"].indexOf(t) >= 0) return new Dice([], 0);
    if (/\d{101}/.test(t)) throw new RulesError(quoted(String(text)) + " is not a dice pool");  /* no pool is written so */
    var faces = "\\{\\s*-?\\d+(?:\\s*,\\s*-?\\d+)*\\s*\\}";
    var kind = "(?:\\d+|\\(\\s*\\d+\\s*\\))(?:!!?(?:" + faces + ")?|rr?(?:\\d+|" + faces + "))?|F|" + faces;
    var re = new RegExp("\\s*([+-]?)\\s*(?:(\\d*)d(" + kind + ")|(\\d+))\\s*", "y");
    var total = new Dice([], 0), pos = 0, m;
    while (pos < t.length) {
      re.lastIndex = pos; m = re.exec(t);
      if (!m || re.lastIndex === pos) throw new RulesError(quoted(String(text)) + " is not a dice pool");
      var term = m[4] !== undefined ? Number(m[4]) : parsedDice(Number(m[2] || 1), m[3]);
      total = diceAdd(total, term, m[1] === "-" ? -1 : 1);
      pos = re.lastIndex;
    }
    return total;
  }
  function parsedDice(count, written) {  /* a dice term as written after 'd' */
    if (written === "F") return dice(count, 0, "F");
    if (written[0] === "{") return dice(count, 0, "{" + written.match(/-?\d+/g).join(",") + "}");
    var sides = /^(?:\d+|\(\s*(\d+)\s*\))/.exec(written), rest = written.slice(sides[0].length);
    if (Object.prototype.hasOwnProperty.call(TENS_AND_UNITS, sides[0])) {
      if (rest) throw new RulesError("d" + sides[0] + " is a roll read as tens and units, which cannot explode or be " +
        "rerolled: write 1d(" + sides[0] + ")" + rest + " for a die of " + sides[0] + " sides");
      return dice(count, 0, TENS_AND_UNITS[sides[0]]);
    }
    return dice(count, Number(sides[1] || sides[0]), rest);
  }

  /* ---- exact numbers, as the Python engine computes them ----
     A whole number (formula type int) is a Number within MAX_INT; every int operation that could leave that range
     is checked (whole()), so a Number never holds an inexact integer. A fraction is a Q: BigInt numerator and
     denominator in lowest terms, denominator above zero. A float is a Real: only sd() makes one, and what is
     computed from it follows Python's rules (a float meeting a fraction turns the fraction into the nearest
     float). Comparisons are exact, so both runtimes take the same branch on every input. */
  var MAX_INT = 9007199254740991, BIG_MAX_INT = BigInt(MAX_INT);
  function beyond() { return new RulesError("a whole number went beyond " + MAX_INT + ", the largest rulesc computes with"); }
  function whole(x) { if (x > MAX_INT || x < -MAX_INT) throw beyond(); return x; }
  function Q(n, d) { this.n = n; this.d = d; }
  Q.prototype.toString = function () { return this.d === 1n ? String(this.n) : this.n + "/" + this.d; };
  function Real(v) { this.v = v; }
  Real.prototype.toString = function () { return String(this.v); };
  function gcd(a, b) {
    if (a < 0n) a = -a;
    if (b < 0n) b = -b;
    while (b) { var t = a % b; a = b; b = t; }
    return a;
  }
  function ratio(n, d) {
    if (d === 0n) throw new RulesError("division by zero");
    if (d < 0n) { n = -n; d = -d; }
    var g = gcd(n, d);
    return g > 1n ? new Q(n / g, d / g) : new Q(n, d);
  }
  function fromBig(n) { return n <= BIG_MAX_INT && n >= -BIG_MAX_INT ? Number(n) : new Q(n, 1n); }
  function floatParts(v) {  /* a finite float as an exact [numerator, denominator] */
    if (!isFinite(v)) throw new RulesError(v + " is not a number rulesc can compare");
    var view = new DataView(new ArrayBuffer(8)); view.setFloat64(0, v);
    var hi = view.getUint32(0), exp = (hi >>> 20) & 0x7ff;
    var mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
    if (exp) mant |= 1n << 52n; else exp = 1;
    if (hi >>> 31) mant = -mant;
    var e = exp - 1075;
    return e >= 0 ? [mant << BigInt(e), 1n] : [mant, 1n << BigInt(-e)];
  }
  function parts(x) {  /* any number as an exact [numerator, denominator] */
    if (x instanceof Q) return [x.n, x.d];
    if (x instanceof Real) return floatParts(x.v);
    return [BigInt(x), 1n];
  }
  function bitLength(n) { return n === 0n ? 0 : n.toString(2).length; }
  function pow2(e) { return e < -1000 ? Math.pow(2, e + 1000) * Math.pow(2, -1000) : Math.pow(2, e); }
  function toFloat(x) {
    /* the float nearest to x, ties to even, as Python's float(Fraction) and int / int give */
    if (x instanceof Real) return x.v;
    if (typeof x === "number") return x;
    var n = x.n, d = x.d, negative = n < 0n;
    if (negative) n = -n;
    if (n <= BIG_MAX_INT && d <= BIG_MAX_INT) return (negative ? -1 : 1) * (Number(n) / Number(d));
    var k = 55 - (bitLength(n) - bitLength(d));  /* n * 2^k / d has 55 or 56 bits */
    var scaled = k >= 0 ? n << BigInt(k) : n, divisor = k >= 0 ? d : d << BigInt(-k);
    var q = scaled / divisor, sticky = scaled % divisor !== 0n;
    var drop = Math.max(bitLength(q) - 53, k - 1074), kept, rest, half;
    if (drop > 0) {
      kept = q >> BigInt(drop); rest = q - (kept << BigInt(drop)); half = 1n << BigInt(drop - 1);
      if (rest > half || (rest === half && (sticky || (kept & 1n)))) kept += 1n;
    } else { kept = q; drop = 0; }
    var value = Number(kept) * pow2(drop - k);
    return negative ? -value : value;
  }
  function cmp(a, b) {
    /* -1, 0 or 1 as a < b, a = b, a > b, exactly, for whole numbers, fractions and floats alike */
    if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
    if (a instanceof Real && b instanceof Real) return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
    var x = parts(a), y = parts(b), left = x[0] * y[1], right = y[0] * x[1];
    return left < right ? -1 : left > right ? 1 : 0;
  }
  function exactOp(a, b, op) {
    var x = parts(a), y = parts(b);
    if (op === "+") return ratio(x[0] * y[1] + y[0] * x[1], x[1] * y[1]);
    if (op === "-") return ratio(x[0] * y[1] - y[0] * x[1], x[1] * y[1]);
    return ratio(x[0] * y[0], x[1] * y[1]);
  }
  function arith(a, b, op) {
    if (a instanceof Real || b instanceof Real) {
      var x = toFloat(a), y = toFloat(b);
      return new Real(op === "+" ? x + y : op === "-" ? x - y : x * y);
    }
    if (typeof a === "number" && typeof b === "number") {
      var r = op === "+" ? a + b : op === "-" ? a - b : a * b;
      if (Number.isSafeInteger(r)) return r;
      return fromBig(op === "+" ? BigInt(a) + BigInt(b) : op === "-" ? BigInt(a) - BigInt(b) : BigInt(a) * BigInt(b));
    }
    return exactOp(a, b, op);
  }
  function nadd(a, b) { return arith(a, b, "+"); }
  function nsub(a, b) { return arith(a, b, "-"); }
  function nmul(a, b) { return arith(a, b, "*"); }
  function nneg(a) { return a instanceof Q ? new Q(-a.n, a.d) : a instanceof Real ? new Real(-a.v) : -a; }
  function nmin() {  /* the first of the smallest, as Python's min() */
    var best = arguments[0];
    for (var i = 1; i < arguments.length; i++) if (cmp(arguments[i], best) < 0) best = arguments[i];
    return best;
  }
  function nmax() {
    var best = arguments[0];
    for (var i = 1; i < arguments.length; i++) if (cmp(arguments[i], best) > 0) best = arguments[i];
    return best;
  }
  function divide(a, b) {
    var x = parts(a), y = parts(b);
    if (y[0] === 0n) throw new RulesError("division by zero");
    return ratio(x[0] * y[1], x[1] * y[0]);
  }
  var MAX_EXPONENT = 10000, MAX_POWER_BITS = 1048576;  /* the power budget */
  function power(base, exponent) {
    if (exponent < 0 || exponent > MAX_EXPONENT)
      throw new RulesError("the exponent must be from 0 to " + MAX_EXPONENT + ", not " + exponent);
    if (base instanceof Real) {  /* by squaring, lowest bit first: the float both runtimes make */
      var result = 1, factor = base.v, e = exponent;
      while (e) { if (e & 1) result *= factor; e = Math.floor(e / 2); if (e) factor *= factor; }
      return new Real(result);
    }
    var x = parts(base), bits = Math.max(bitLength(x[0] < 0n ? -x[0] : x[0]), bitLength(x[1]));
    if (bits * exponent > MAX_POWER_BITS)
      throw new RulesError("a power too large to work out exactly is refused: its answer would pass the power " +
                           "budget of " + MAX_POWER_BITS + " bits (" + bits * exponent + " bits)");
    if (base instanceof Q) return new Q(base.n ** BigInt(exponent), base.d ** BigInt(exponent));
    var big = BigInt(base) ** BigInt(exponent);
    if (big > BIG_MAX_INT || big < -BIG_MAX_INT)
      throw new RulesError(base + "^" + exponent + " is beyond the largest whole number rulesc computes (" + MAX_INT + ")");
    return Number(big);
  }
  function fixed(value, places) {
    /* The one number rule (fixed() in rulesc/emit/site/calculators.py): round half away from zero to `places`
       decimals, exactly for whole numbers and fractions; a float is first pushed away from zero by FLOAT_NUDGE of
       itself. A result that rounds to zero has no minus sign. */
    var scale = 10n ** BigInt(places), units, negative;
    if (value instanceof Real) {
      var f = Math.floor(Math.abs(value.v) * Math.pow(10, places) * (1 + FLOAT_NUDGE) + 0.5);
      if (!isFinite(f) || f >= 1e21) return value.v.toFixed(places);
      units = BigInt(f); negative = value.v < 0;
    } else {
      var x = parts(value), n = x[0] < 0n ? -x[0] : x[0];
      units = (2n * n * scale + x[1]) / (2n * x[1]); negative = x[0] < 0n;
    }
    var digits = String(units % scale);
    while (digits.length < places) digits = "0" + digits;
    return (negative && units ? "-" : "") + String(units / scale) + (places ? "." + digits : "");
  }
  var FLOAT_NUDGE = 1e-13;

  /* ---- distributions: outcome offset+i has probability weights[i] / total, exactly (BigInt) ---- */
  var MAX_DICE = 1000, MAX_OUTCOMES = 1000000;
  function Dist(offset, weights, total) { this.offset = offset; this.weights = weights; this.total = total; }
  Dist.prototype.toString = function () {
    return "mean " + fixed(mean(this), 2) + ", sd " + fixed(sd(this), 2);
  };
  function refuseWidth(outcomes) {
    if (outcomes > MAX_OUTCOMES) throw new RulesError("a roll with more than " + MAX_OUTCOMES + " outcomes is refused");
  }
  var MAX_ROLL_BITS = 1073741824;  /* the roll budget: outcomes times the bits of their weights */
  function refuseWork(outcomes, bits) {
    if (outcomes * bits > MAX_ROLL_BITS)
      throw new RulesError("a roll too large to work out exactly is refused: its answer would pass the roll budget " +
                           "of " + MAX_ROLL_BITS + " bits (" + outcomes + " outcomes of " + bits + " bits)");
  }
  var MAX_KEEP_WORK = 8589934592n;  /* the keep budget: keepWork() of the k highest of n dice */
  var MAX_EXTREME_BITS = 134217728;  /* the extreme budget: the best or worst die's faces times the bits of a weight */
  function refuseExtremes(faces, bits) {
    if (faces * bits > MAX_EXTREME_BITS)
      throw new RulesError("a roll too large to work out exactly in time is refused: its best or worst die would pass " +
                           "the extreme budget of " + MAX_EXTREME_BITS + " bits (" + faces + " faces of " + bits + " bits)");
  }
  var MAX_PRODUCT_BITS = 8388608;  /* the product budget: the smaller factor's outcomes times the product's bits */
  function refuseProduct(outcomes, bits) {
    if (outcomes * bits > MAX_PRODUCT_BITS)
      throw new RulesError("a roll too large to work out exactly in time is refused: multiplying its dice out would pass " +
                           "the product budget of " + MAX_PRODUCT_BITS + " bits (" + outcomes + " outcomes of " + bits + " bits)");
  }
  function make(offset, weights, total) {
    var lo = 0, hi = weights.length - 1;
    while (lo <= hi && weights[lo] === 0n) lo++;
    if (lo > hi) throw new RulesError("a distribution needs at least one outcome");
    while (weights[hi] === 0n) hi--;
    refuseWidth(hi - lo + 1);
    var kept = lo || hi < weights.length - 1 ? weights.slice(lo, hi + 1) : weights, g = total;
    for (var i = 0; i < kept.length && g !== 1n; i++) g = gcd(g, kept[i]);
    if (g !== 1n) { kept = kept.map(function (w) { return w / g; }); total /= g; }
    return new Dist(whole(offset + lo), kept, total);
  }
  function constDist(v) { return new Dist(whole(v), [1n], 1n); }
  function die(sides) {
    if (sides < 1) throw new RulesError("a die needs at least one side, not " + sides);
    refuseWidth(sides);
    var w = new Array(sides); w.fill(1n); return new Dist(1, w, BigInt(sides));
  }
  var kindCache = new Map(), EXPLODE_CUT_DENOMINATOR = 10n ** 15n;
  function dieOf(key) {  /* the roll of one die of a kind, exactly */
    var found = kindCache.get(key);
    if (found) return found;
    if (typeof key === "number") found = die(key);
    else if (key === "F") found = new Dist(-1, [1n, 1n, 1n], 3n);
    else if (key[0] === "{") {
      var faces = key.slice(1, -1).split(",").map(Number), low = Math.min.apply(null, faces);
      var w = [];
      for (var x = low; x <= Math.max.apply(null, faces); x++)
        w.push(BigInt(faces.filter(function (f) { return f === x; }).length));
      found = make(low, w, BigInt(faces.length));
    } else {
      var parts = kindParts(key);
      found = parts[1][0] === "!" ? exploding(parts[0], parts[2])
        : parts[1] === "r" ? rerolled(parts[0], parts[2]) : rerolledWhile(parts[0], parts[2]);
    }
    kindCache.set(key, found);
    return found;
  }
  function kindParts(key) {  /* [sides, mark, faces] of a special die */
    var found = SPECIAL.exec(key);
    if (!found) throw new RulesError(JSON.stringify(key) + " is not a kind of die");
    var sides = Number(found[1]), faces = specialFaces(sides, found);
    if (faces.some(function (f) { return f < 1 || f > sides; }))
      throw new RulesError("d" + key + " names a face a d" + sides + " does not have");
    return [sides, found[2], faces];
  }
  function separate(key) {  /* whether a kind explodes into extra dice (d6!), each a die of its own */
    var found = typeof key === "string" ? SPECIAL.exec(key) : null;
    return found !== null && found[2] === "!";
  }
  function explodeDepth(sides, faces) {  /* explosions until one more is less likely than 1e-15 */
    if (sides < 2 || faces.length >= sides)
      throw new RulesError("a d" + sides + " that explodes on " + braced(faces) + " would roll forever: it needs a face that does not explode");
    var depth = 0, s = BigInt(sides), e = BigInt(faces.length);
    while (s ** BigInt(depth + 1) <= e ** BigInt(depth + 1) * EXPLODE_CUT_DENOMINATOR) depth++;
    return depth;
  }
  function refuseKind(key) {  /* a kind that cannot be rolled; an exploding one without working out its roll */
    var found = typeof key === "string" ? SPECIAL.exec(key) : null;
    if (!found || found[2][0] !== "!") { dieOf(key); return; }
    var parts = kindParts(key);
    if (parts[0] < 2) throw new RulesError("a d" + parts[0] + " cannot explode: it would roll its highest face forever");
    explodeDepth(parts[0], parts[2]);
  }
  function exploding(sides, faces) {  /* each level: a face it explodes on followed by the roll so far, another ends it */
    if (sides < 2) throw new RulesError("a d" + sides + " cannot explode: it would roll its highest face forever");
    var weights = new Array(sides).fill(1n), total = BigInt(sides), depth = explodeDepth(sides, faces);
    var top = Math.max.apply(null, faces), face, i;
    for (var d = 0; d < depth; d++) {
      var following = new Array(top + weights.length).fill(0n);
      for (face = 1; face <= sides; face++) if (faces.indexOf(face) < 0) following[face - 1] += total;
      for (var f = 0; f < faces.length; f++) for (i = 0; i < weights.length; i++) following[faces[f] + i] += weights[i];
      weights = following; total *= BigInt(sides);
    }
    return make(1, weights, total);
  }
  function rerolled(sides, faces) {  /* listed faces rolled again once; the second roll stands */
    keepsAndRerolls(sides, "r", faces);
    var w = [];
    for (var face = 1; face <= sides; face++) w.push(BigInt((faces.indexOf(face) >= 0 ? 0 : sides) + faces.length));
    return make(1, w, BigInt(sides * sides));
  }
  function rerolledWhile(sides, faces) {  /* rolled again while it shows a listed face */
    keepsAndRerolls(sides, "rr", faces);
    var w = [];
    for (var face = 1; face <= sides; face++) w.push(faces.indexOf(face) >= 0 ? 0n : 1n);
    return make(1, w, BigInt(sides - faces.length));
  }
  function keepsAndRerolls(sides, mark, faces) {
    if (faces.length && faces.length < sides) return;
    if (faces.every(function (f, i) { return f === i + 1; }))
      throw new RulesError("d" + sides + mark + faces.length + " would reroll faces 1 to " + faces.length + ": it needs a face kept, and one rerolled");
    throw new RulesError("d" + sides + mark + braced(faces) + " would reroll every face: it needs a face kept");
  }
  var poolCache = new Map();
  function asDist(x) {
    if (x instanceof Dist) return x;
    if (typeof x === "number") return constDist(x);
    var key = x.counts.join(";"), dice = poolCache.get(key);
    if (!dice) {
      dice = constDist(0);
      x.counts.forEach(function (pair) { dice = add(dice, repeat(dieOf(pair[0]), pair[1])); });
      if (poolCache.size > 512) poolCache.clear();
      poolCache.set(key, dice);
    }
    return x.c ? new Dist(whole(dice.offset + x.c), dice.weights, dice.total) : dice;
  }
  function largest(w) { var m = 0n; for (var i = 0; i < w.length; i++) if (w[i] > m) m = w[i]; return m; }
  function convolve(a, b) {
    if (a.length === 1 || b.length === 1) {  /* one term: a scaling */
      var one = a.length === 1 ? a[0] : b[0];
      return (a.length === 1 ? b : a).map(function (w) { return one * w; });
    }
    var size = a.length + b.length - 1, i, j, x, big = largest(a) * largest(b) * BigInt(Math.min(a.length, b.length));
    if (big <= BIG_MAX_INT) {
      /* every partial sum fits a float exactly: multiply as Numbers, far faster than BigInt */
      var fa = a.map(Number), fb = b.map(Number), fast = new Float64Array(size);
      for (i = 0; i < fa.length; i++) { x = fa[i]; if (x) for (j = 0; j < fb.length; j++) fast[i + j] += x * fb[j]; }
      return Array.from(fast, BigInt);
    }
    if (a.length * b.length > KRONECKER_TERMS) return kronecker(a, b, big.toString(16).length + 1);
    var out = new Array(size); out.fill(0n);
    for (i = 0; i < a.length; i++) { x = a[i]; if (x) for (j = 0; j < b.length; j++) out[i + j] += x * b[j]; }
    return out;
  }
  /* products of more terms are one multiplication of packed numbers: in Node 20, 21 x 21 terms of 21 bits took
     23 us term by term and 18 us packed, 31 x 31 of 31 bits 77 and 34 us, 61 x 61 of 61 bits 330 and 116 us;
     16 x 16 of 43 bits 12.5 and 16 us */
  var KRONECKER_TERMS = 400;
  function kronecker(a, b, digits) {
    /* polynomial product by Kronecker substitution: each list packed into one
       BigInt, a slot of `digits` hex digits per coefficient, the two multiplied, the product cut back into slots */
    function pack(values) {
      var parts = new Array(values.length);
      for (var i = 0; i < values.length; i++) parts[values.length - 1 - i] = values[i].toString(16).padStart(digits, "0");
      return BigInt("0x" + parts.join(""));
    }
    var packed = pack(a), count = a.length + b.length - 1;
    var text = (packed * (a === b ? packed : pack(b))).toString(16).padStart(digits * count, "0"), out = new Array(count);
    for (var k = 0, end = text.length; k < count; k++, end -= digits) out[k] = BigInt("0x" + text.slice(end - digits, end));
    return out;
  }
  function polyPower(poly, times) {
    /* a polynomial (its last coefficient not 0) to a power: equal coefficients by
       uniformPower, few terms for the result's size by millerPower, else by repeated squaring */
    var lead = 0;
    while (poly[lead] === 0n) lead++;
    if (lead) return new Array(lead * times).fill(0n).concat(polyPower(poly.slice(lead), times));
    if (times === 0 || poly.length === 1) return [poly[0] ** BigInt(times)];
    if (poly.every(function (w) { return w === poly[0]; })) {
      var scale = poly[0] ** BigInt(times), plain = uniformPower(poly.length, times);
      return scale === 1n ? plain : plain.map(function (w) { return scale * w; });
    }
    if (!squares(poly, times)) return millerPower(poly, times);
    refuseProduct.apply(null, lastProduct(poly, times));
    var result = null, p = poly;
    while (times) {
      if (times & 1) result = result === null ? p : convolve(result, p);
      times >>= 1;
      if (times) p = convolve(p, p);
    }
    return result;
  }
  var MILLER_WORK = 20000;
  function squares(poly, times) {  /* whether polyPower squares (unequal coefficients, the first not 0) */
    return poly.filter(function (w) { return w !== 0n; }).length * (poly.length - 1) * times > MILLER_WORK;
  }
  function lastProduct(poly, times) {  /* the product budget's count of a power by squaring: its last product's */
    return [Math.floor((poly.length - 1) * times / 2) + 1, bitLength(polySum(poly) ** BigInt(times))];
  }
  function productOf(weights, total, other, otherTotal) {  /* two kinds' sums multiplied out: their total */
    refuseProduct(Math.min(weights.length, other.length), bitLength(total * otherTotal));
    return total * otherTotal;
  }
  function polySum(poly) { var sum = 0n; poly.forEach(function (w) { sum += w; }); return sum; }
  function millerPower(poly, times) {  /* J. C. P. Miller's recurrence */
    var size = (poly.length - 1) * times + 1, out = new Array(size).fill(0n), terms = [], n = BigInt(times + 1);
    out[0] = poly[0] ** BigInt(times);
    for (var j = 1; j < poly.length; j++) if (poly[j]) terms.push([j, poly[j]]);
    for (var k = 1; k < size; k++) {
      var found = 0n;
      for (var t = 0; t < terms.length && terms[t][0] <= k; t++)
        found += (n * BigInt(terms[t][0]) - BigInt(k)) * terms[t][1] * out[k - terms[t][0]];
      out[k] = found / (BigInt(k) * poly[0]);
    }
    return out;
  }
  function uniformPower(sides, times) {  /* (1 + x + ... + x^(sides-1)) ** times */
    var size = (sides - 1) * times + 1, out = new Array(size).fill(0n), n = BigInt(times), s = BigInt(sides);
    out[0] = 1n;
    for (var m = 0; m < Math.floor((size - 1) / 2); m++) {
      var big = BigInt(m), found = (big + n) * out[m];
      if (m + 1 >= sides) found += (big + 1n - s - n * s) * out[m + 1 - sides];
      if (m >= sides) found += (n * s - n + s - big) * out[m - sides];
      out[m + 1] = found / (big + 1n);
    }
    for (var k = Math.floor((size + 1) / 2); k < size; k++) out[k] = out[size - 1 - k];
    return out;
  }
  function add(a, b) {
    refuseWidth(a.weights.length + b.weights.length - 1);
    var bits = bitLength(a.total) + bitLength(b.total);
    refuseWork(a.weights.length + b.weights.length - 1, bits);
    refuseProduct(Math.min(a.weights.length, b.weights.length), bits);
    return make(a.offset + b.offset, convolve(a.weights, b.weights), a.total * b.total);
  }
  function dadd(a, b) { return add(asDist(a), asDist(b)); }
  function negate(a) { return new Dist(-(a.offset + a.weights.length - 1), a.weights.slice().reverse(), a.total); }
  function dneg(a) { return negate(asDist(a)); }
  function dsub(a, b) { return add(asDist(a), negate(asDist(b))); }
  function repeat(a, times) {  /* the sum of `times` copies of a roll: its weights raised to that power */
    if (times < 0) throw new RulesError("cannot roll " + times + " dice");
    if (times > MAX_DICE) throw new RulesError("a roll of more than " + MAX_DICE + " dice is refused (" + times + " asked)");
    refuseWidth((a.weights.length - 1) * times + 1);
    var total = a.total ** BigInt(times);
    refuseWork((a.weights.length - 1) * times + 1, bitLength(total));
    if (times === 1) return a;  /* one copy: the roll itself (one die of a kind in a pool, as in Python) */
    return make(whole(a.offset * times), polyPower(a.weights, times), total);
  }
  function dmap(a, f) {  /* each outcome x becomes f(x); the weights of outcomes that meet are added */
    a = asDist(a);
    var mapped = new Map(), lo = Infinity, hi = -Infinity;
    for (var i = 0; i < a.weights.length; i++) {
      if (a.weights[i] === 0n) continue;
      var key = whole(f(a.offset + i));
      mapped.set(key, (mapped.get(key) || 0n) + a.weights[i]);
      if (key < lo) lo = key;
      if (key > hi) hi = key;
    }
    refuseWidth(hi - lo + 1);
    var out = new Array(hi - lo + 1); out.fill(0n);
    mapped.forEach(function (w, key) { out[key - lo] = w; });
    return make(lo, out, a.total);
  }
  function lcm(a, b) { return a / gcd(a, b) * b; }
  function mix(a, f) {  /* for each outcome r of a, roll f(r): the mixture of all */
    a = asDist(a);
    var parts = [];
    for (var i = 0; i < a.weights.length; i++) if (a.weights[i] !== 0n) parts.push([a.weights[i], asDist(f(a.offset + i))]);
    return mixture(parts, a.total);
  }
  function mixture(parts, total) {  /* rolls mixed by weight: each part's roll happens with chance weight / total */
    var common = 1n, lo = Infinity, hi = -Infinity, j;
    parts.forEach(function (part) {
      var d = part[1];
      common = lcm(common, d.total);
      lo = Math.min(lo, d.offset); hi = Math.max(hi, d.offset + d.weights.length - 1);
    });
    refuseWidth(hi - lo + 1);
    var out = new Array(hi - lo + 1); out.fill(0n);
    parts.forEach(function (part) {
      var d = part[1], scale = part[0] * (common / d.total);
      for (j = 0; j < d.weights.length; j++) if (d.weights[j]) out[d.offset - lo + j] += scale * d.weights[j];
    });
    return make(lo, out, total * common);
  }
  /* ---- one roll of a pool, asked several questions ---- */
  function poolBind(pool, asked, f, needed) {  /* needed: ask only the questions f can read (at least the first) */
    var found = boundResults(pool, asked, f, needed);
    return blend(found.parts, found.total);
  }
  function poolBindMean(pool, asked, f, needed) {  /* the mean of poolBind(): its parts' means, no mixture made */
    var found = boundResults(pool, asked, f, needed);
    return weighedMean(found.parts, found.total);
  }
  function boundResults(pool, asked, f, needed) {
    /* [ways, f(answers)] of each joint set of answers; plain loops, as this runs for every roll of an outer roll */
    var places = [], i, j;
    for (i = 0; i < asked.length; i++) if (!needed || needed[i]) places.push(i);
    if (!places.length) places.push(0);
    var all = places.length === asked.length;
    var found = sortedAnswers(pool, all ? asked : places.map(function (place) { return asked[place]; }));
    var rolls = found.rolls, parts = new Array(rolls.length);
    for (i = 0; i < rolls.length; i++) {
      var answers = rolls[i][0];
      if (!all) {
        answers = new Array(asked.length).fill(null);
        for (j = 0; j < places.length; j++) answers[places[j]] = rolls[i][0][j];
      }
      parts[i] = [rolls[i][1], f(answers)];
    }
    return {parts: parts, total: found.total};
  }
  function weighedMean(parts, total) {
    /* the mean of results mixed by their ways: each part (one object or number) by its own mean, over a common
       denominator; refused where the mixture would be (a part as asDist refuses it, then the mixture's width) */
    var joined = new Map(), lo = Infinity, hi = -Infinity, common = 1n, top = 0n;
    parts.forEach(function (part) {
      var seen = joined.get(part[1]);
      if (seen) seen[0] += part[0]; else joined.set(part[1], [part[0], part[1]]);
    });
    var means = Array.from(joined.values()).map(function (part) { return [part[0], partMean(part[1])]; });
    means.forEach(function (m) { lo = Math.min(lo, m[1][2]); hi = Math.max(hi, m[1][3]); common = lcm(common, m[1][1]); });
    refuseWidth(hi - lo + 1);
    means.forEach(function (m) { top += m[0] * m[1][0] * (common / m[1][1]); });
    return ratio(top, total * common);
  }
  function partMean(x) {  /* [numerator, denominator] of a part's mean, and its lowest and highest outcomes */
    if (typeof x === "number") return [BigInt(whole(x)), 1n, x, x];
    if (!(x instanceof Dice)) return [firstMoment(x), x.total, x.offset, x.offset + x.weights.length - 1];
    rollable(x);
    var top = BigInt(x.c), bottom = 1n, lo = x.c, hi = x.c;
    x.counts.forEach(function (p) {
      var kind = dieOf(p[0]);
      top = top * kind.total + bottom * BigInt(p[1]) * firstMoment(kind);
      bottom *= kind.total;
      lo += p[1] * kind.offset;
      hi += p[1] * (kind.offset + kind.weights.length - 1);
    });
    return [top, bottom, whole(lo), hi];
  }
  function sortedAnswers(pool, asked) {
    /* [answers, ways] in Python's order, each key read once; found first by the pool itself (a pool written out
       is made once), so that no key is written out for each roll asked again */
    var byAsked = byPool.get(pool), askedKey = asked.join(";"), found = byAsked && byAsked.get(askedKey);
    if (found) return found;
    found = sortedByText(pool, asked);
    if (!byAsked) byPool.set(pool, byAsked = new Map());
    byAsked.set(askedKey, found);
    return found;
  }
  var byPool = new WeakMap();
  function sortedByText(pool, asked) {
    var cacheKey = String(pool) + "|" + JSON.stringify(asked), found = sortedCache.get(cacheKey);
    if (!found) {
      var answers = poolAnswers(pool, asked), rolls = [];
      answers.joint.forEach(function (ways, key) { rolls.push([key.split(",").map(Number), ways]); });
      rolls.sort(function (a, b) { return compareAnswers(a[0], b[0]); });
      found = {rolls: rolls, total: answers.total};
      if (sortedCache.size > 256) { sortedCache.clear(); byPool = new WeakMap(); }
      sortedCache.set(cacheKey, found);
    }
    return found;
  }
  var sortedCache = new Map();
  function compareAnswers(x, y) {
    for (var i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  }
  var answersCache = new Map();
  function poolAnswers(pool, asked) {  /* worked out once per pool and questions */
    var cacheKey = String(pool) + "|" + JSON.stringify(asked), found = answersCache.get(cacheKey);
    if (!found) {
      var ordered = asked.some(function (q) { return q[0] === "highest" || q[0] === "lowest"; });
      var alone = !ordered || pool.counts.some(function (p) { return separate(p[0]); });  /* each die answers alone */
      found = alone ? chainAnswers(pool, asked) : sweep(pool, asked);
      if (answersCache.size > 256) answersCache.clear();
      answersCache.set(cacheKey, found);
    }
    return {joint: new Map(found.joint), total: found.total};
  }
  function sweep(pool, asked) {  /* the faces from high to low */
    var kinds = pool.counts.map(function (p) { return dieOf(p[0]); }), diceCount = 0, total = 1n;
    pool.counts.forEach(function (p, g) { diceCount += p[1]; total *= kinds[g].total ** BigInt(p[1]); });
    refuseDice(diceCount);
    if (diceCount && asked.every(function (q) { return (q[0] === "highest" || q[0] === "lowest") && q[1] === 1; }))
      return {joint: extremes(kinds, pool.counts.map(function (p) { return p[1]; }), asked), total: total};
    if (diceCount && asked.every(function (q) { return (q[0] !== "highest" && q[0] !== "lowest") || q[1] === 1; })) {
      var joint = extremeSums(kinds, pool.counts.map(function (p) { return p[1]; }), asked);
      return {joint: shifted(joint, asked, pool.c), total: total};
    }
    var counts = pool.counts.map(function (p) { return p[1]; });
    if (asked.every(function (q) { return q[0] === "lowest"; })) return {joint: mirroredLowest(kinds, counts, asked), total: total};
    return {joint: shifted(keptAnswers(kinds, counts, asked), asked, pool.c), total: total};
  }
  function mirroredLowest(kinds, counts, asked) {
    /* every question a lowest(): the highest() of the dice with each face x shown as -x, the answers negated back,
       so that a roll settles as soon as its lowest dice are placed (as in Python) */
    var mirrored = kinds.map(function (kind) {
      return new Dist(-(kind.offset + kind.weights.length - 1), kind.weights.slice().reverse(), kind.total);
    });
    var joint = keptAnswers(mirrored, counts, asked.map(function (q) { return ["highest"].concat(q.slice(1)); }));
    var back = new Map();
    joint.forEach(function (ways, k) {
      back.set(k.split(",").map(function (a) { return String(-Number(a)); }).join(","), ways);
    });
    return back;
  }
  function keptAnswers(kinds, counts, asked) {  /* highest() or lowest() asked (some k above 1), no constant added */
    var diceCount = counts.reduce(function (n, c) { return n + c; }, 0);
    if (diceCount >= 2 && asked.length === 1 && asked[0][0] === "highest" && asked[0][1] === 2)
      return bestTwo(kinds, counts);
    if (kinds.length === 1 && fewRolls(kinds[0], diceCount)) return enumerated(kinds[0], diceCount, asked);
    var combs = [];
    for (var m = 0; m <= diceCount; m++) combs.push(pascal(m));
    var states = new Map(), lefts = counts.slice();
    var zeros = asked.map(function () { return 0; }), done = new Map(), settled = settledAt(asked, diceCount);
    if (settled !== null) refuseSweep(kinds, counts, settled);
    states.set(key(lefts, 0, zeros), {left: lefts, placed: 0, answers: zeros, ways: 1n});
    var faces = new Set();
    kinds.forEach(function (kind) { kind.weights.forEach(function (w, i) { if (w) faces.add(kind.offset + i); }); });
    Array.from(faces).sort(function (a, b) { return b - a; }).forEach(function (face) {
      var weights = kinds.map(function (kind) {
        var i = face - kind.offset;
        return i >= 0 && i < kind.weights.length ? kind.weights[i] : 0n;
      });
      states = settled === null ? showFace(states, face, weights, asked, diceCount, combs, done)
        : settleFace(states, face, [weights, kinds.map(function (kind) { return below(kind, face); })], asked, combs,
                     [settled, done]);
    });
    states.forEach(function (state) {
      if (state.left.some(function (l) { return l; })) return;  /* a die was never given a face: not a roll */
      var k = state.answers.join(",");
      done.set(k, (done.get(k) || 0n) + state.ways);
    });
    return done;
  }
  function refuseSweep(kinds, counts, k) {
    /* the keep budget of the k highest of a pool that is not of equal plain dice, as Python's _within_sweep() */
    if (!kinds.length) return;
    var low = Infinity, high = -Infinity, faces = new Set(), bits = 0, dice = 0, ways = [1n], s, c;
    kinds.forEach(function (kind, g) {
      low = Math.min(low, kind.offset); high = Math.max(high, kind.offset + kind.weights.length - 1);
      kind.weights.forEach(function (w, i) { if (w) faces.add(kind.offset + i); });
      bits += bitLength(kind.total) * counts[g]; dice += counts[g];
    });
    for (s = 1; s < k; s++) ways.push(0n);
    counts.forEach(function (n) {  /* ways[s]: the placings of s dice so far */
      var next = [];
      for (s = 0; s < k; s++) { next.push(0n); for (c = Math.max(0, s - n); c <= s; c++) next[s] += ways[c]; }
      ways = next;
    });
    var placed = ways.reduce(function (a, b) { return a + b; }, 0n);
    var work = BigInt(faces.size) * placed * placed * BigInt(k * (high - low) + 1) * BigInt(bits + 1024);
    if (work > MAX_KEEP_WORK)
      throw new RulesError("a roll too large to work out exactly in time is refused: keeping " + k + " of " + dice +
                           " dice of " + counts.length + " kind(s) would pass the keep budget of " + MAX_KEEP_WORK +
                           " bits added (" + work + ")");
  }
  function extremes(kinds, counts, asked) {  /* only highest(p, 1) and lowest(p, 1) asked */
    var low = Infinity, high = -Infinity, a, b;
    kinds.forEach(function (kind) { low = Math.min(low, kind.offset); high = Math.max(high, kind.offset + kind.weights.length - 1); });
    var upto = upTo(kinds, low, high);
    function within(b, a) {
      if (b > a) return 0n;
      var ways = 1n;
      upto.forEach(function (c, g) { ways *= (c[a - low + 1] - c[b - low]) ** BigInt(counts[g]); });
      return ways;
    }
    var tops = asked.some(function (q) { return q[0] === "highest"; }), bottoms = asked.some(function (q) { return q[0] === "lowest"; });
    if (tops !== bottoms) {
      var total = 1n;
      kinds.forEach(function (kind, g) { total *= kind.total ** BigInt(counts[g]); });
      refuseExtremes(high - low + 1, bitLength(total));
    }
    var joint = new Map();
    for (a = tops ? low : high; a <= high; a++) {
      for (b = low; b <= (bottoms ? a : low); b++) {
        var ways = within(b, a) - (bottoms ? within(b + 1, a) : 0n);
        if (tops) ways -= within(b, a - 1) - (bottoms ? within(b + 1, a - 1) : 0n);
        if (ways) joint.set(asked.map(function (q) { return q[0] === "highest" ? a : b; }).join(","), ways);
      }
    }
    return joint;
  }
  function extremeSums(kinds, counts, asked) {
    /* highest(p, 1), lowest(p, 1) and sums over the dice: the rolls within faces b..a
       answer the sums as summedChains adds them; those whose highest is a and lowest b by inclusion and exclusion */
    var sums = asked.filter(function (q) { return q[0] !== "highest" && q[0] !== "lowest"; }), seen = new Set();
    kinds.forEach(function (kind) { kind.weights.forEach(function (w, i) { if (w) seen.add(kind.offset + i); }); });
    var faces = Array.from(seen).sort(function (x, y) { return x - y; });
    var highs = asked.some(function (q) { return q[0] === "highest"; }), lows = asked.some(function (q) { return q[0] === "lowest"; });
    var within = withinSums(kinds, counts, sums, faces), joint = new Map();
    for (var a = highs ? 0 : faces.length - 1; a < faces.length; a++) {
      for (var b = 0; b <= (lows ? a : 0); b++) {
        var found = new Map(within(b, a));
        [[-1n, b, a - 1], [-1n, b + 1, a], [1n, b + 1, a - 1]].forEach(function (term) {
          if ((term[2] === a || highs) && (term[1] === b || lows))
            within(term[1], term[2]).forEach(function (ways, k) { found.set(k, found.get(k) + term[0] * ways); });
        });
        found.forEach(function (ways, k) {
          if (!ways) return;
          var read = k === "" ? [] : k.split(","), next = 0;
          joint.set(asked.map(function (q) {
            return q[0] === "highest" ? faces[a] : q[0] === "lowest" ? faces[b] : read[next++];
          }).join(","), ways);
        });
      }
    }
    return joint;
  }
  function withinSums(kinds, counts, sums, faces) {  /* each range worked out once */
    var shown = kinds.map(function (kind) {
      var out = [];
      kind.weights.forEach(function (w, i) {
        if (w) out.push([kind.offset + i, sums.map(function (q) { return answer(q, 0, kind.offset + i, 1, 0, 1); }), w]);
      });
      return out;
    });
    var found = new Map();
    return function (low, high) {
      if (low > high) return new Map();
      var k = low + ":" + high, had = found.get(k);
      if (had) return had;
      var cut = shown.map(function (kind) {
        return kind.filter(function (f) { return faces[low] <= f[0] && f[0] <= faces[high]; })
          .map(function (f) { return [f[1], f[2]]; });
      });
      var empty = cut.some(function (c, g) { return !c.length && counts[g]; });
      had = empty ? new Map() : summedChains(cut.map(function (c, g) { return [c, counts[g]]; })
        .filter(function (c) { return c[1]; }), sums.length);
      found.set(k, had);
      return had;
    };
  }
  function upTo(kinds, low, high) {  /* [g][i]: the ways one die of kind g shows low - 1 + i or less */
    return kinds.map(function (kind) {
      var c = [0n];
      for (var x = low; x <= high; x++) c.push(c[c.length - 1] + (x >= kind.offset && x - kind.offset < kind.weights.length ? kind.weights[x - kind.offset] : 0n));
      return c;
    });
  }
  function bestTwo(kinds, counts) {  /* only highest(p, 2) of two or more dice asked */
    var used = [], n = [], low = Infinity, high = -Infinity, a, b, g;
    kinds.forEach(function (kind, g) {
      if (!counts[g]) return;
      used.push(kind); n.push(counts[g]);
      low = Math.min(low, kind.offset); high = Math.max(high, kind.offset + kind.weights.length - 1);
    });
    var upto = upTo(used, low, high), joint = new Map();
    function atMost(i, but) {  /* the ways every die (but one of kind `but`) shows low - 1 + i or less */
      return upto.reduce(function (ways, c, h) { return ways * c[i] ** BigInt(n[h] - (h === but)); }, 1n);
    }
    for (a = 1; a <= high - low + 1; a++) {
      for (b = a; b >= 1; b--) {
        var ways = b === a ? atMost(a, -1) - atMost(a - 1, -1) : 0n;
        for (g = 0; g < used.length; g++) {
          var lone = BigInt(n[g]) * (upto[g][a] - upto[g][a - 1]);
          ways += b === a ? -lone * atMost(a - 1, g) : lone * (atMost(b, g) - atMost(b - 1, g));
        }
        if (ways) addTo(joint, String(a + b + 2 * (low - 1)), ways);
      }
    }
    return joint;
  }
  function fewRolls(kind, n) {  /* at most 256 distinct rolls (multisets of faces) */
    var faces = kind.weights.filter(function (w) { return w; }).length, rolls = 1;
    for (var i = 1; i <= n; i++) if ((rolls = rolls * (faces - 1 + i) / i) > 256) return false;
    return true;
  }
  function enumerated(kind, n, asked) {  /* each sorted roll with its ways, answered directly */
    var faces = [], joint = new Map(), orders = 1n, most = 0n, shown = new Array(n);
    kind.weights.forEach(function (w, i) { if (w) { faces.push([kind.offset + i, w]); if (w > most) most = w; } });
    for (var m = 2; m <= n; m++) orders *= BigInt(m);
    /* the ways as Numbers when no roll's can pass 2 ** 53 (orders times the likeliest face's ways to the n) */
    var small = orders * most ** BigInt(n) <= BigInt(Number.MAX_SAFE_INTEGER);
    var weight = faces.map(function (f) { return small ? Number(f[1]) : f[1]; });
    /* every roll's ways added up as Numbers, made BigInts once at the end, when their sum cannot pass 2 ** 53 */
    var sums = small && kind.total ** BigInt(n) <= BigInt(Number.MAX_SAFE_INTEGER);
    (function place(placed, from, ways, run) {
      if (placed === n) {
        var key = String(answerOf(asked[0], shown));
        for (var q = 1; q < asked.length; q++) key += "," + answerOf(asked[q], shown);
        if (sums) return joint.set(key, (joint.get(key) || 0) + ways);
        return addTo(joint, key, small ? BigInt(ways) : ways);
      }
      for (var i = from; i < faces.length; i++) {
        var r = i === from && placed && shown[placed - 1] === faces[i][0] ? run + 1 : 1;
        shown[placed] = faces[i][0];
        place(placed + 1, i, small ? ways * weight[i] / r : ways * weight[i] / BigInt(r), r);
      }
    })(0, 0, small ? Number(orders) : orders, 0);
    if (sums) joint.forEach(function (ways, key) { joint.set(key, BigInt(ways)); });
    return joint;
  }
  function answerOf(q, shown) {  /* a question's answer from a roll's faces, low to high */
    var n = shown.length, first = q.length > 1 ? q[1] : 0, last = q[q.length - 1], k = Math.max(0, Math.min(first, n));
    var from = q[0] === "highest" ? n - k : 0, to = q[0] === "lowest" ? k : n, found = 0, i;
    if (q[0] === "successes") { for (i = 0; i < n; i++) if (shown[i] >= first) found++; return found; }
    if (q[0] === "count") { for (i = 0; i < n; i++) if (first <= shown[i] && shown[i] <= last) found++; return found; }
    for (i = from; i < to; i++) found += shown[i];
    return found;
  }
  function shifted(joint, asked, c) {  /* the pool's constant added to each total asked */
    if (!c || asked.every(function (q) { return q[0] !== "total"; })) return joint;
    var final = new Map();
    joint.forEach(function (ways, k) {
      var text = (k === "" ? [] : k.split(",")).map(function (a, i) {
        return asked[i][0] === "total" ? whole(Number(a) + c) : Number(a);
      }).join(",");
      final.set(text, (final.get(text) || 0n) + ways);
    });
    return final;
  }
  function settledAt(asked, diceCount) {  /* with highest() questions only: how many dice settle every answer */
    if (asked.some(function (q) { return q[0] !== "highest"; })) return null;
    return asked.reduce(function (most, q) { return Math.max(most, Math.max(0, Math.min(q[1], diceCount))); }, 0);
  }
  function addTo(map, k, ways) { map.set(k, (map.get(k) || 0n) + ways); }
  function settleFace(states, face, waysOf, asked, combs, until) {
    /* showFace with highest() questions only: a state placing its last needed dice here is settled, its other dice
       here or lower, all counted together (every way less those placing too few here) */
    var weights = waysOf[0], belowWays = waysOf[1], settled = until[0], done = until[1];
    var following = new Map(), found = new Map();
    states.forEach(function (state) {
      var need = settled - state.placed, leftKey = state.left.join(",") + "|" + need, f = found.get(leftKey);
      if (!f) { f = fewerOptions(state.left, weights, belowWays, need, combs); found.set(leftKey, f); }
      f[0].forEach(function (option) {
        var answers = state.answers.map(function (a, i) { return answer(asked[i], a, face, option[1], state.placed, 0); });
        var placed = state.placed + option[1], k = key(option[0], placed, answers), had = following.get(k);
        if (had) had.ways += state.ways * option[2];
        else following.set(k, {left: option[0], placed: placed, answers: answers, ways: state.ways * option[2]});
      });
      if (f[1]) addTo(done, state.answers.map(function (a, i) {
        return answer(asked[i], a, face, need, state.placed, 0); }).join(","), state.ways * f[1]);
    });
    return following;
  }
  function fewerOptions(left, weights, belowWays, need, combs) {
    var lump = 1n, options = [];
    left.forEach(function (n, g) { lump *= (weights[g] + belowWays[g]) ** BigInt(n); });
    showing(left, weights, combs, need).forEach(function (option) {
      var count = 0, rest = left.map(function (l, g) { count += option[0][g]; return l - option[0][g]; }), ways = option[1];
      rest.forEach(function (n, g) { ways *= belowWays[g] ** BigInt(n); });
      lump -= ways;
      options.push([rest, count, option[1]]);
    });
    return [options, lump];
  }
  function below(kind, face) {  /* how many of a die's ways show a face below `face` */
    var ways = 0n;
    for (var i = 0; i < Math.min(kind.weights.length, face - kind.offset); i++) ways += kind.weights[i];
    return ways;
  }
  function key(left, placed, answers) { return left.join(",") + "|" + placed + "|" + answers.join(","); }
  function showFace(states, face, weights, asked, diceCount, combs, done) {
    var following = new Map(), options = new Map();  /* each left's ways to show the face, worked out once */
    states.forEach(function (state, stateKey) {
      if (!state.left.some(function (l) { return l; })) { addTo(done, state.answers.join(","), state.ways); return; }
      var leftKey = state.left.join(","), found = options.get(leftKey);
      if (!found) { found = showing(state.left, weights, combs, Infinity); options.set(leftKey, found); }
      found.forEach(function (option) {
        var shown = option[0], count = 0, left = state.left.map(function (l, i) { count += shown[i]; return l - shown[i]; });
        if (!count) { addState(following, stateKey, state, state.ways * option[1]); return; }
        var answers = state.answers.map(function (a, i) { return answer(asked[i], a, face, count, state.placed, diceCount); });
        var k = key(left, state.placed + count, answers), found = following.get(k);
        if (found) found.ways += state.ways * option[1];
        else following.set(k, {left: left, placed: state.placed + count, answers: answers, ways: state.ways * option[1]});
      });
    });
    return following;
  }
  function addState(map, k, state, ways) {
    var had = map.get(k);
    if (had) had.ways += ways;
    else map.set(k, {left: state.left, placed: state.placed, answers: state.answers, ways: ways});
  }
  function showing(left, weights, combs, fewer) {
    /* each way the remaining dice can show one face, fewer than `fewer` of them: how many of each kind, and in how
       many ways */
    var options = fewer > 0 ? [[[], 1n, 0]] : [];
    left.forEach(function (remaining, g) {
      var weight = weights[g], top = weight ? remaining : 0, next = [];
      options.forEach(function (option) {
        for (var c = 0; c <= Math.min(top, fewer - 1 - option[2]); c++)
          next.push([option[0].concat([c]), option[1] * combs[remaining][c] * weight ** BigInt(c), option[2] + c]);
      });
      options = next;
    });
    return options;
  }
  function answer(question, a, face, shown, placed, diceCount) {
    var kind = question[0], first = question.length > 1 ? question[1] : 0, last = question[question.length - 1];
    if (kind === "total") return a + face * shown;
    if (kind === "highest") return a + face * Math.max(0, Math.min(shown, first - placed));
    if (kind === "lowest") {
      var start = diceCount - Math.max(0, Math.min(first, diceCount));
      return a + face * Math.max(0, Math.min(placed + shown, diceCount) - Math.max(placed, start));
    }
    if (kind === "successes") return a + (face >= first ? shown : 0);
    return a + (first <= face && face <= last ? shown : 0);
  }
  /* a pool with dice that explode into extra dice: each die and the dice it
     adds answer every question as a sum over their dice; the pool's answers are those sums, convolved die by die */
  function chainAnswers(pool, asked) {
    var refused = asked.filter(function (q) { return q[0] === "highest" || q[0] === "lowest"; });
    if (refused.length)
      throw new RulesError(refused[0][0] + "() cannot be asked of dice that explode into extra dice (" + pool + "): how many " +
                           "dice there are depends on the roll; write !! for dice that each show their exploded sum");
    var diceCount = 0;
    pool.counts.forEach(function (p) { diceCount += p[1]; });
    refuseDice(diceCount);
    var chains = pool.counts.map(function (p) { return [chain(p[0], asked), p[1]]; }), total = 1n;
    chains.forEach(function (c) { total *= c[0].total ** BigInt(c[1]); });
    var joint = summedChains(chains.map(function (c) { return [c[0].pairs, c[1]]; }), asked.length);
    return {joint: shifted(joint, asked, pool.c), total: total};
  }
  var SUMMED_SIZE = 1 << 20;
  function summedChains(chains, questions) {
    /* the joint answers of `count` chains of each kind, added answer by answer: each
       set of answers one number in mixed radix, a kind's chain a polynomial raised to its count */
    if (questions === 1) return summedOne(chains);
    var lows = chains.map(function (c) {
      return c[0][0][0].map(function (_, i) { return Math.min.apply(null, c[0].map(function (p) { return p[0][i]; })); });
    });
    var sizes = [], i;
    for (i = 0; i < questions; i++) sizes.push(1);
    chains.forEach(function (c, g) {
      for (i = 0; i < questions; i++)
        sizes[i] += c[1] * (Math.max.apply(null, c[0].map(function (p) { return p[0][i]; })) - lows[g][i]);
    });
    if (sizes.reduce(function (x, y) { return x * y; }, 1) > SUMMED_SIZE) return addedChains(chains, questions);
    var strides = [1];
    for (i = 1; i < questions; i++) strides.push(strides[i - 1] * sizes[i - 1]);
    var weights = [1n], length = 1, made = 1n;
    for (i = 0; i < questions; i++) length += (sizes[i] - 1) * strides[i];
    chains.forEach(function (c, g) {
      var poly = new Array(length).fill(0n);
      c[0].forEach(function (p) {
        var place = 0;
        for (var q = 0; q < questions; q++) place += (p[0][q] - lows[g][q]) * strides[q];
        poly[place] += p[1];
      });
      while (poly[poly.length - 1] === 0n) poly.pop();
      var powered = polyPower(poly, c[1]);
      made = productOf(weights, made, powered, polySum(poly) ** BigInt(c[1]));
      weights = convolve(weights, powered);
    });
    var least = [];
    for (i = 0; i < questions; i++) least.push(chains.reduce(function (sum, c, g) { return sum + c[1] * lows[g][i]; }, 0));
    var joint = new Map();
    weights.forEach(function (w, place) {
      if (w) joint.set(least.map(function (low, q) { return low + Math.floor(place / strides[q]) % sizes[q]; }).join(","), w);
    });
    return joint;
  }
  function summedOne(chains) {  /* summedChains of one question: each kind's answers a polynomial, to its count */
    var weights = [1n], least = 0, joint = new Map(), made = 1n;
    chains.forEach(function (c) {
      var answers = c[0].map(function (p) { return p[0][0]; }), low = Math.min.apply(null, answers);
      var poly = new Array(Math.max.apply(null, answers) - low + 1).fill(0n);
      c[0].forEach(function (p) { poly[p[0][0] - low] += p[1]; });
      var powered = polyPower(poly, c[1]);
      made = productOf(weights, made, powered, polySum(poly) ** BigInt(c[1]));
      weights = weights.length === 1 && weights[0] === 1n ? powered : convolve(weights, powered);
      least += c[1] * low;
    });
    weights.forEach(function (w, i) { if (w) joint.set(String(least + i), w); });
    return joint;
  }
  function addedChains(chains, questions) {  /* summedChains die by die */
    var zeros = [];
    for (var i = 0; i < questions; i++) zeros.push(0);
    var joint = new Map([[zeros.join(","), 1n]]);
    chains.forEach(function (c) { for (var k = 0; k < c[1]; k++) joint = vectorAdd(joint, c[0]); });
    return joint;
  }
  var chainCache = new Map();
  function emptyCaches() {  /* forget every roll worked out before (for benchmarks: each run computes it all again) */
    [diceCache, kindCache, poolCache, answersCache, sortedCache, chainCache].forEach(function (cache) { cache.clear(); });
    byPool = new WeakMap();
  }
  function chain(key, asked) {  /* one die's joint answers, with the dice it explodes into: [[answers, ways]], total */
    var cacheKey = key + "|" + JSON.stringify(asked), found = chainCache.get(cacheKey);
    if (found) return found;
    function answers(face) { return asked.map(function (q) { return answer(q, 0, face, 1, 0, 1); }); }
    var level, total, face;
    if (!separate(key)) {
      var kind = dieOf(key), pairs = [];
      kind.weights.forEach(function (w, i) { if (w) pairs.push([answers(kind.offset + i), w]); });
      found = {pairs: summed(pairs), total: kind.total};
    } else {
      var parts = kindParts(key), sides = parts[0], faces = parts[2], depth = explodeDepth(sides, faces), start = [];
      for (face = 1; face <= sides; face++) start.push([answers(face), 1n]);
      level = summed(start); total = BigInt(sides);
      for (var d = 0; d < depth; d++) {
        var next = [];
        for (face = 1; face <= sides; face++) {
          var shown = answers(face);
          if (faces.indexOf(face) >= 0) level.forEach(function (rest) { next.push([plus(shown, rest[0]), rest[1]]); });
          else next.push([shown, total]);
        }
        level = summed(next); total *= BigInt(sides);
      }
      found = {pairs: level, total: total};
    }
    if (chainCache.size > 128) chainCache.clear();
    chainCache.set(cacheKey, found);
    return found;
  }
  function plus(a, b) { return a.map(function (x, i) { return x + b[i]; }); }
  function summed(pairs) {  /* the ways of equal answers added, in first-seen order */
    var found = new Map();
    pairs.forEach(function (pair) {
      var k = pair[0].join(","), seen = found.get(k);
      if (seen) seen[1] += pair[1]; else found.set(k, [pair[0], pair[1]]);
    });
    return Array.from(found.values());
  }
  function vectorAdd(joint, pairs) {  /* the joint answers so far and one more chain: every pair, answers added */
    var following = new Map();
    joint.forEach(function (ways, k) {
      var answers = k === "" ? [] : k.split(",").map(Number);
      pairs.forEach(function (pair) {
        var text = plus(answers, pair[0]).join(",");
        following.set(text, (following.get(text) || 0n) + ways * pair[1]);
      });
    });
    return following;
  }
  function separateCount(pool, low, high) {  /* each kind's chain count, rolled count times (_separate_count) */
    var diceCount = 0, result = constDist(0);
    pool.counts.forEach(function (p) { diceCount += p[1]; });
    refuseDice(diceCount);
    pool.counts.forEach(function (p) {
      var found = chain(p[0], [["count", low, high]]), top = 0, w = [];
      found.pairs.forEach(function (pair) { top = Math.max(top, pair[0][0]); });
      for (var x = 0; x <= top; x++) w.push(0n);
      found.pairs.forEach(function (pair) { w[pair[0][0]] += pair[1]; });
      result = add(result, repeat(make(0, w, found.total), p[1]));
    });
    return result;
  }
  function countFaces(pool, low, high) {  /* how many dice of a pool show a face from low to high (or just low) */
    var top = high === undefined ? low : high, result = constDist(0);
    if (pool.counts.some(function (p) { return separate(p[0]); })) return separateCount(pool, low, top);
    pool.counts.forEach(function (pair) {
      var kind = dieOf(pair[0]), hits = 0n;
      kind.weights.forEach(function (w, i) { var face = kind.offset + i; if (low <= face && face <= top) hits += w; });
      result = add(result, binomial(pair[1], hits, kind.total));
    });
    return result;
  }

  function bind(a, f) {
    /* roll a, then whatever f(result) says: a roll of numbers, or of names or yes/no when f gives those */
    if (a instanceof Outcomes) return blend(a.labels.map(function (label, i) { return [a.weights[i], f(label)]; }), a.total);
    a = asDist(a);
    var parts = [];
    for (var i = 0; i < a.weights.length; i++) if (a.weights[i] !== 0n) parts.push([a.weights[i], f(a.offset + i)]);
    return blend(parts, a.total);
  }
  function oneDie(roll) {  /* one plain die: its faces, no roll worked out */
    var p = roll instanceof Dice && roll.counts.length === 1 ? roll.counts[0] : [];
    if (p[1] !== 1 || typeof p[0] !== "number" || p[0] < 1 || p[0] > MAX_OUTCOMES) return null;
    var w = new Array(p[0]); w.fill(1n);
    return {offset: whole(roll.c + 1), weights: w, total: BigInt(p[0])};
  }
  function bindEach(rolls, f) {  /* bind nested, one roll a level, no roll depending on another: all mixed at once */
    var alike = bindAlike(rolls, f);
    if (alike) return alike;
    var combos = [[1n, []]], total = 1n;
    rolls.forEach(function (roll) {
      var next = [], labels = roll instanceof Outcomes, a = labels ? roll : oneDie(roll) || asDist(roll);
      combos.forEach(function (c) {
        a.weights.forEach(function (w, i) {
          if (w !== 0n) next.push([c[0] * w, c[1].concat([labels ? a.labels[i] : a.offset + i])]);
        });
      });
      combos = next; total *= a.total;
    });
    return blend(combos.map(function (c) { return [c[0], f.apply(null, c[1])]; }), total);
  }
  function bindAlike(rolls, f) {
    /* bindEach when each roll's results are equally likely: so are the combinations, and equal answers are counted
       rather than weighed; null when some roll's are not */
    var found = rolls.map(function (roll) {
      var labels = roll instanceof Outcomes, a = labels ? roll : oneDie(roll) || asDist(roll), results = [], ways = [];
      a.weights.forEach(function (w, i) { if (w !== 0n) { results.push(labels ? a.labels[i] : a.offset + i); ways.push(w); } });
      return {results: results, ways: ways, total: a.total};
    });
    if (!found.every(function (r) { return r.ways.every(function (w) { return w === r.ways[0]; }); })) return null;
    var counted = new Map(), args = new Array(found.length), weight = 1n, total = 1n;
    (function walk(level) {  /* every combination in the nested order, the last roll's result changing first */
      if (level === found.length) {
        var answer = f.apply(null, args);
        counted.set(answer, (counted.get(answer) || 0) + 1);
        return;
      }
      for (var i = 0; i < found[level].results.length; i++) { args[level] = found[level].results[i]; walk(level + 1); }
    })(0);
    found.forEach(function (r) { weight *= r.ways[0]; total *= r.total; });
    var parts = [];
    counted.forEach(function (times, answer) { parts.push([BigInt(times) * weight, answer]); });
    return blend(parts, total);
  }
  function bindThrough(a, value, f) {
    /* let x = a in let y = value(x) in f(y), f not reading x: f once per y, first seen first; when value gives a
       roll, each of its results is a y, its ways those of x times its own over the rolls' common denominator */
    var ways = new Map(), results = new Map(), labels = a instanceof Outcomes, parts = [], rolled = [], common = 1n;
    a = labels ? a : oneDie(a) || asDist(a);
    a.weights.forEach(function (w, i) {
      if (w === 0n) return;
      var y = value(labels ? a.labels[i] : a.offset + i);
      if (y instanceof Dist || y instanceof Dice || y instanceof Outcomes) {
        rolled.push([w, throughRoll(y instanceof Dice ? asDist(y) : y, results, f)]);
      } else if (ways.has(y)) ways.set(y, ways.get(y) + w); else { ways.set(y, w); results.set(y, f(y)); }
    });
    if (rolled.length) {
      rolled.forEach(function (r) { common = lcm(common, r[1].total); });
      ways.forEach(function (w, y) { ways.set(y, w * common); });
      rolled.forEach(function (r) {
        var roll = r[1], scale = r[0] * (common / roll.total);
        roll.weights.forEach(function (rw, i) {
          if (rw === 0n) return;
          var y = roll instanceof Outcomes ? roll.labels[i] : roll.offset + i;
          var had = ways.get(y);
          ways.set(y, had === undefined ? scale * rw : had + scale * rw);
        });
      });
    }
    results.forEach(function (r, y) { parts.push([ways.get(y), r]); });
    return blend(parts, a.total * common);
  }
  function throughRoll(roll, results, f) {  /* f on each result of a roll not seen before, in the roll's order */
    roll.weights.forEach(function (w, i) {
      var y = roll instanceof Outcomes ? roll.labels[i] : roll.offset + i;
      if (w !== 0n && !results.has(y)) results.set(y, f(y));
    });
    return roll;
  }
  function decide(condition, then, other) {  /* if on a condition on a roll: each branch as often as it goes its way */
    var event = asOutcomes(condition);
    return blend(event.labels.map(function (yes, i) { return [event.weights[i], yes ? then() : other()]; }), event.total);
  }
  function named(x) { return typeof x === "string" || typeof x === "boolean" || x instanceof Outcomes; }
  function plainBlend(parts, total) {  /* every result a whole number, or every one a name or yes/no: added up as they come */
    var numbers = 0, i, part, lo = Infinity, hi = -Infinity;
    for (i = 0; i < parts.length; i++) {
      part = parts[i][1];
      var t = typeof part;
      if (t !== "number" && t !== "string" && t !== "boolean") return null;
      if (t === "number") { numbers++; lo = Math.min(lo, part); hi = Math.max(hi, part); }
    }
    if (!parts.length || (numbers && numbers < parts.length)) return null;
    if (!numbers) return outcomes(addedUp(parts), total);
    refuseWidth(hi - lo + 1);
    var out = new Array(hi - lo + 1).fill(0n);  /* numbers added straight into the roll: no Map made */
    for (i = 0; i < parts.length; i++) {
      var at = parts[i][1] - lo;
      out[at] = out[at] === 0n ? parts[i][0] : out[at] + parts[i][0];
    }
    return make(lo, out, total);
  }
  function addedUp(parts) {  /* Map result -> its ways added up; a first-seen result keeps its ways (no BigInt made) */
    var found = new Map();
    for (var i = 0; i < parts.length; i++) {
      var had = found.get(parts[i][1]);
      found.set(parts[i][1], had === undefined ? parts[i][0] : had + parts[i][0]);
    }
    return found;
  }
  function blend(parts, total) {
    var plain = plainBlend(parts, total);
    if (plain) return plain;
    if (parts.some(function (part) { return named(part[1]); }))
      return mixOutcomes(parts.map(function (part) { return [part[0], asOutcomes(part[1])]; }), total);
    return mixture(parts.map(function (part) { return [part[0], asDist(part[1])]; }), total);
  }
  /* ---- named outcomes, and yes/no: labels[i] has probability weights[i] / total; labels in one order in both
     runtimes: no before yes, names by code point ---- */
  function Outcomes(labels, weights, total) { this.labels = labels; this.weights = weights; this.total = total; }
  Outcomes.prototype.toString = function () {
    var self = this;
    return this.labels.map(function (label, i) { return labelText(label) + " " + ratio(self.weights[i], self.total); }).join(", ");
  };
  var SURROGATE = /[\uD800-\uDFFF]/;
  function labelText(label) { return typeof label === "boolean" ? (label ? "yes" : "no") : label; }
  function compareLabels(a, b) {
    if (typeof a === "boolean" || typeof b === "boolean") {
      if (typeof a !== typeof b) return typeof a === "boolean" ? -1 : 1;
      return Number(a) - Number(b);
    }
    var x = Array.from(a), y = Array.from(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) return d;
    }
    return x.length - y.length;
  }
  function outcomes(weights, total) {  /* weights: a Map label -> BigInt; labels of no weight are left out */
    var kept = Array.from(weights.entries()).filter(function (e) { return e[1] !== 0n; });
    kept.sort(kept.every(function (e) { return typeof e[0] === "string" && !SURROGATE.test(e[0]); })
      ? function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }  /* no surrogates: code units order as code points */
      : function (a, b) { return compareLabels(a[0], b[0]); });
    var g = total;
    kept.forEach(function (e) { g = gcd(g, e[1]); });
    return new Outcomes(kept.map(function (e) { return e[0]; }), kept.map(function (e) { return e[1] / g; }), total / g);
  }
  function asOutcomes(x) { return x instanceof Outcomes ? x : new Outcomes([x], [1n], 1n); }
  function mixOutcomes(parts, total) {
    var common = 1n, weights = new Map();
    parts.forEach(function (part) { common = lcm(common, part[1].total); });
    parts.forEach(function (part) {
      var o = part[1], scale = part[0] * (common / o.total);
      o.labels.forEach(function (label, i) { weights.set(label, (weights.get(label) || 0n) + scale * o.weights[i]); });
    });
    return outcomes(weights, total * common);
  }
  var HOLDS = {
    "<": function (x) { return x < 0; }, "<=": function (x) { return x <= 0; }, ">": function (x) { return x > 0; },
    ">=": function (x) { return x >= 0; }, "==": function (x) { return x === 0; }, "!=": function (x) { return x !== 0; }
  };
  function chance(a, op, b) {  /* roll op value (or roll op roll): yes or no, each with its exact chance */
    var margin = dsub(a, b), holds = HOLDS[op], yes = 0n;
    margin.weights.forEach(function (w, i) { if (holds(margin.offset + i)) yes += w; });
    return outcomes(new Map([[true, yes], [false, margin.total - yes]]), margin.total);
  }
  function namedChance(a, op, b) {
    return asOutcomes(bind(asOutcomes(a), function (x) {
      return bind(asOutcomes(b), function (y) { return (x === y) === (op === "=="); });
    }));
  }
  function p(event) {
    var e = asOutcomes(event), i = e.labels.indexOf(true);
    return ratio(i < 0 ? 0n : e.weights[i], e.total);
  }
  function both(a, b) {
    return asOutcomes(bind(asOutcomes(a), function (x) { return bind(asOutcomes(b), function (y) { return x && y; }); }));
  }
  function either(a, b) {
    return asOutcomes(bind(asOutcomes(a), function (x) { return bind(asOutcomes(b), function (y) { return x || y; }); }));
  }
  function negated(a) { return asOutcomes(bind(asOutcomes(a), function (x) { return !x; })); }
  function refuseDice(n) {
    if (n > MAX_DICE) throw new RulesError("a roll of more than " + MAX_DICE + " dice is refused (" + n + " asked)");
  }
  function pascal(n) {  /* the binomial coefficients C(n, 0..n) */
    var row = [1n];
    for (var k = 1; k <= n; k++) row.push(row[k - 1] * BigInt(n - k + 1) / BigInt(k));
    return row;
  }
  function binomial(n, hits, sides) {  /* how many of n dice succeed, when `hits` of each die's `sides` ways succeed */
    refuseDice(n);
    var s = BigInt(sides), h = BigInt(hits);
    if (h < 0n) h = 0n;
    if (h > s) h = s;
    var m = s - h, comb = pascal(n), w = [];
    for (var k = 0; k <= n; k++) w.push(comb[k] * h ** BigInt(k) * m ** BigInt(n - k));
    return make(0, w, s ** BigInt(n));
  }
  function successes(pool, t) { return countFaces(pool, t, MAX_INT); }
  function keep(n, sides, k, highest) {  /* the sum of the k highest (or lowest) of n dice */
    refuseDice(n);
    k = Math.max(0, Math.min(k, n));
    if (k === 0) return constDist(0);
    var all = BigInt(sides) ** BigInt(n), w = [], x, every, before = 0n, power = BigInt(n);
    if (k === 1) {  /* every die at most x, less every die at most x - 1; the lowest read from the top */
      refuseExtremes(sides, bitLength(all));
      for (x = 1; x <= sides; x++) { every = BigInt(x) ** power; w.push(every - before); before = every; }
      return make(1, highest ? w : w.reverse(), all);
    }
    if (k === n) return repeat(die(sides), n);  /* every die kept: their sum */
    refuseKeep(n, sides, k);
    var dist = make(0, keepTable(n, sides, k), all);
    return highest ? dist : dmap(dist, function (s) { return (sides + 1) * k - s; });
  }
  function keepWork(n, sides, k) {  /* what keepTable adds up, as Python's _keep_work() counts it */
    var steps = BigInt(Math.floor((k - 1) * k / 2)) * BigInt(sides - 1) * BigInt(sides) / 2n;
    return steps * BigInt(n * sides.toString(2).length + 1024);
  }
  function refuseKeep(n, sides, k) {
    var work = keepWork(n, sides, k);
    if (work > MAX_KEEP_WORK)
      throw new RulesError("a roll too large to work out exactly in time is refused: keeping " + k + " of " + n + "d" +
                           sides + " would pass the keep budget of " + MAX_KEEP_WORK + " bits added (" + work + ")");
  }
  function keepTable(n, sides, k) {
    /* ways for the k highest of n dice (1 < k <= n) to sum to each total from 0, split by the face t of the k-th
       highest die: a < k dice above t, a polynomial in a die of sides - t faces by Horner's rule (as in Python) */
    var weights = [], face, i;
    for (i = 0; i <= k * sides; i++) weights.push(0n);
    for (face = 1; face <= sides; face++) {
      var ways = settled(n, face, k), above = sides - face, poly = [above ? ways[k - 1] : ways[0]];
      for (var count = k - 2; above && count >= 0; count--) {
        poly = timesDie(poly, above);
        poly[0] += ways[count];
      }
      for (i = 0; i < poly.length; i++) weights[k * face + i] += poly[i];
    }
    return weights;
  }
  function settled(n, face, k) {
    /* for a = 0..k-1, the ways a of n dice show more than face and the others face or less, at least k - a of
       them face (Python's _settled) */
    var ways = [], f = BigInt(face), low = BigInt(face - 1) ** BigInt(n - k + 1), power = f ** BigInt(n - k + 1);
    var fewer = 0n, choose = 1n, a, picks = 1n;
    for (a = 0; a < k; a++) ways.push(0n);
    for (a = k - 1; a >= 0; a--) {
      if (a < k - 1) {
        choose = choose * BigInt(n - a - 1) / BigInt(k - a - 1);
        power *= f;
      }
      fewer = f * fewer + choose * low;
      ways[a] = power - fewer;
    }
    for (a = 0; a < k; a++) {
      ways[a] *= picks;
      picks = picks * BigInt(n - a) / BigInt(a + 1);
    }
    return ways;
  }
  function timesDie(poly, sides) {  /* poly times x + ... + x**sides, by differences of running sums */
    var run = [0n], out = [], e, last;
    for (e = 0; e < poly.length; e++) run.push(run[e] + poly[e]);
    last = run[poly.length];
    for (e = 0; e < poly.length + sides; e++)
      out.push((e <= poly.length ? run[e] : last) - (e >= sides ? run[e - sides] : 0n));
    return out;
  }
  function keepPool(pool, k, highest) {
    if (pool.counts.length !== 1 || typeof pool.counts[0][0] !== "number") {  /* mixed or special dice: one roll asked */
      var dice = pool.counts.reduce(function (n, p) { return n + p[1]; }, 0);
      if (k >= dice && dice <= MAX_DICE && !pool.counts.some(function (p) { return separate(p[0]); })) return asDist(pool);
      return poolBind(pool, [[highest ? "highest" : "lowest", k]], function (answers) { return answers[0] + pool.c; });
    }
    var kept = keep(pool.counts[0][1], pool.counts[0][0], k, highest);
    return pool.c ? add(kept, constDist(pool.c)) : kept;
  }
  function sumOf(w, from, to) { var s = 0n; for (var i = from; i < to; i++) s += w[i]; return s; }
  function atLeast(a, k) { a = asDist(a); return ratio(sumOf(a.weights, Math.max(0, k - a.offset), a.weights.length), a.total); }
  function atMost(a, k) {
    a = asDist(a);
    return ratio(sumOf(a.weights, 0, Math.max(0, Math.min(a.weights.length, k - a.offset + 1))), a.total);
  }
  function probEq(a, k) { a = asDist(a); var i = k - a.offset; return ratio(i >= 0 && i < a.weights.length ? a.weights[i] : 0n, a.total); }
  function moments(a) {
    var s1 = 0n, s2 = 0n;
    for (var i = 0; i < a.weights.length; i++) { var x = BigInt(a.offset + i), w = a.weights[i]; s1 += w * x; s2 += w * x * x; }
    return [s1, s2];
  }
  function firstMoment(a) {  /* moments(a)[0] alone: a mean needs no squares */
    var s1 = 0n;
    for (var i = 0; i < a.weights.length; i++) if (a.weights[i]) s1 += a.weights[i] * BigInt(a.offset + i);
    return s1;
  }
  function mean(a) {  /* of a pool, the sum of its dice's means: no distribution of the sum is made */
    if (!(a instanceof Dice)) { a = asDist(a); return ratio(firstMoment(a), a.total); }
    rollable(a);
    var top = BigInt(a.c), bottom = 1n;
    a.counts.forEach(function (p) {
      var kind = dieOf(p[0]);
      top = top * kind.total + bottom * BigInt(p[1]) * firstMoment(kind);
      bottom *= kind.total;
    });
    return ratio(top, bottom);
  }
  function variance(a) {  /* [numerator, denominator]; of a pool, the sum of its dice's variances */
    if (!(a instanceof Dice)) {
      a = asDist(a);
      var m = moments(a);
      return [a.total * m[1] - m[0] * m[0], a.total * a.total];
    }
    rollable(a);
    var top = 0n, bottom = 1n;
    a.counts.forEach(function (p) {
      var v = variance(dieOf(p[0]));
      top = top * v[1] + bottom * BigInt(p[1]) * v[0];
      bottom *= v[1];
    });
    return [top, bottom];
  }
  function rollable(pool) {  /* the pool, if asDist can work out its roll: refused at once as asDist would refuse it */
    var span = 1, running = 0n;
    pool.counts.forEach(function (p) {
      if (p[1] > MAX_DICE) throw new RulesError("a roll of more than " + MAX_DICE + " dice is refused (" + p[1] + " asked)");
      var kind = dieOf(p[0]), width = (kind.weights.length - 1) * p[1], total = kind.total ** BigInt(p[1]);
      refuseWidth(width + 1);
      refuseWork(width + 1, bitLength(total));
      if (p[1] && kind.weights.some(function (w) { return w !== kind.weights[0]; }) && squares(kind.weights, p[1]))
        refuseProduct.apply(null, lastProduct(kind.weights, p[1]));  /* as polyPower would square it */
      if (running) {  /* the sum so far and this kind's, added */
        var bits = bitLength(running) + bitLength(total);
        refuseWork(span + width, bits);
        refuseProduct(Math.min(span, width + 1), bits);
      }
      span += width;
      running = (running || 1n) * total;
      refuseWidth(span);
    });
    return pool;
  }
  function sd(a) {  /* the square root of the exact variance made a float: Python's math.sqrt(Fraction) */
    var v = variance(a);
    return new Real(Math.sqrt(toFloat(ratio(v[0], v[1]))));
  }
  function win(a, b, tiesToFirst) { return atLeast(dsub(a, b), tiesToFirst ? 0 : 1); }
  function greater(a, b) { return atLeast(dsub(a, b), 1); }
  function tie(a, b) { return probEq(dsub(a, b), 0); }
  function clampDist(a, low, high) {  /* outcomes below low become low, above high become high */
    var w = a.weights.slice(), offset = a.offset, cut;
    if (low !== null && offset < low) {
      cut = low - offset;
      w = cut < w.length ? [sumOf(w, 0, cut + 1)].concat(w.slice(cut + 1)) : [a.total];
      offset = low;
    }
    if (high !== null && offset + w.length - 1 > high) {
      cut = high - offset;
      w = cut >= 0 ? w.slice(0, cut).concat([sumOf(w, cut, w.length)]) : [a.total];
      offset = Math.min(offset, high);
    }
    return make(offset, w, a.total);
  }
  function dmax(a, b) { return typeof b === "number" ? clampDist(asDist(a), b, null) : extreme(asDist(a), asDist(b), true); }
  function dmin(a, b) { return typeof b === "number" ? clampDist(asDist(a), null, b) : extreme(asDist(a), asDist(b), false); }
  function extreme(a, b, highest) {  /* the higher (lower) of two rolls: ways both are at most (least) x, differenced */
    var low = Math.min(a.offset, b.offset), high = Math.max(a.offset + a.weights.length, b.offset + b.weights.length) - 1;
    refuseWidth(high - low + 1);
    var w = [], upA = 0n, upB = 0n, before = 0n;
    for (var i = 0; i <= high - low; i++) {
      var x = highest ? low + i : high - i;
      upA += weightAt(a, x); upB += weightAt(b, x);
      w.push(upA * upB - before); before = upA * upB;
    }
    return make(low, highest ? w : w.reverse(), a.total * b.total);
  }
  function weightAt(a, x) { var i = x - a.offset; return i >= 0 && i < a.weights.length ? a.weights[i] : 0n; }
  function dscale(a, k) { return dmap(a, function (x) { return x * k; }); }
  function dfloorDiv(a, k) {
    if (k === 0) throw new RulesError("division by zero");
    return dmap(a, function (x) { return floorDiv(x, k); });
  }
  function exact(value) {  /* a value as Python's exact() gives it: what tests and scripts compare */
    if (value instanceof Dist) {
      var out = {};
      value.weights.forEach(function (w, i) { if (w) out[value.offset + i] = String(ratio(w, value.total)); });
      return out;
    }
    if (value instanceof Outcomes) {
      var named = {};
      value.labels.forEach(function (label, i) { named[String(label)] = String(ratio(value.weights[i], value.total)); });
      return named;
    }
    if (value instanceof Dice || value instanceof Q) return String(value);
    if (value instanceof Real) return value.v;
    if (Array.isArray(value)) return value.map(exact);
    return value;
  }
  /* ---- rolls drawn from exact distributions, as the Python runtime draws them: a generator gives random bits
     (rng.getrandbits(k), a BigInt below 2**k), randbelow() turns them into a whole number below the sum of the
     exact weights as Python's randrange() does, and the roll is the first outcome whose running sum passes it ---- */
  var MT_N = 624, MT_M = 397, MT_UPPER = 0x80000000, MT_LOWER = 0x7fffffff, MT_MATRIX = 0x9908b0df;
  function Twister(seed) {  /* MT19937 seeded as Python's random.seed(int): init_by_array over the seed's 32-bit words */
    var n = BigInt(seed), key = [];
    if (n < 0n) n = -n;
    do { key.push(Number(n & 0xffffffffn)); n >>= 32n; } while (n > 0n);
    this.mt = new Uint32Array(MT_N);
    this.index = MT_N;
    twisterSeed(this.mt, key);
  }
  function twisterInit(mt, s) {
    mt[0] = s;
    for (var i = 1; i < MT_N; i++) mt[i] = Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i;
  }
  function twisterSeed(mt, key) {  /* init_by_array of the reference MT19937 */
    twisterInit(mt, 19650218);
    var i = 1, j = 0, k;
    for (k = Math.max(MT_N, key.length); k; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j;
      i++; j++;
      if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (k = MT_N - 1; k; k--) {
      mt[i] = (mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i;
      i++;
      if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
    }
    mt[0] = MT_UPPER;
  }
  function twist(mt) {
    for (var k = 0; k < MT_N; k++) {
      var y = (mt[k] & MT_UPPER) | (mt[(k + 1) % MT_N] & MT_LOWER);
      mt[k] = mt[(k + MT_M) % MT_N] ^ (y >>> 1) ^ (y & 1 ? MT_MATRIX : 0);
    }
  }
  Twister.prototype.next32 = function () {  /* genrand_uint32 */
    if (this.index >= MT_N) { twist(this.mt); this.index = 0; }
    var y = this.mt[this.index++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    return (y ^ (y >>> 18)) >>> 0;
  };
  Twister.prototype.getrandbits = function (k) {  /* Python's: 32-bit words, least significant first, the last cut */
    if (k <= 32) return BigInt(this.next32() >>> (32 - k));
    var r = 0n;
    for (var shift = 0n; k > 0; k -= 32, shift += 32n) {
      var word = this.next32();
      r |= BigInt(k < 32 ? word >>> (32 - k) : word) << shift;
    }
    return r;
  };
  function seeded(seed) {  /* a generator whose draws Python's seeded(seed) repeats */
    if (typeof seed !== "bigint" && !Number.isInteger(seed))
      throw new RulesError("a seed is a whole number, not " + (typeof seed === "string" ? quoted(seed) : String(seed)));
    return new Twister(seed);
  }
  function drawBelow(rng, m, bits) {
    var r = rng.getrandbits(bits);
    while (r >= m) r = rng.getrandbits(bits);
    return r;
  }
  function randbelow(rng, n) {  /* 0 .. n-1, each as likely: n's bit length of random bits, drawn again while they reach n */
    var m = BigInt(n);
    if (m < 1n) throw new RulesError("a draw needs a range of at least 1, not " + n);
    var r = drawBelow(rng, m, bitLength(m));
    return typeof n === "bigint" ? r : Number(r);
  }
  function drawnFrom(value) {  /* [outcomes, running sums of their weights], the weights lowest in terms */
    var d = value instanceof Outcomes ? value : asDist(value), g = 0n, sum = 0n;
    d.weights.forEach(function (w) { g = gcd(g, w); });
    var choices = value instanceof Outcomes ? d.labels : d.weights.map(function (_, i) { return d.offset + i; });
    return [choices, d.weights.map(function (w) { sum += w / g; return sum; })];
  }
  function firstAbove(running, r) {  /* the first index whose running sum passes r (Python's bisect_right) */
    var lo = 0, hi = running.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (running[mid] > r) hi = mid; else lo = mid + 1; }
    return lo;
  }
  function samples(value, rng, times) {  /* `times` rolls of a value; a number, flag or word is itself and draws nothing */
    var out = [];
    if (!(value instanceof Dist || value instanceof Dice || value instanceof Outcomes)) {
      for (var n = 0; n < times; n++) out.push(value);
      return out;
    }
    var drawn = drawnFrom(value), running = drawn[1], total = running[running.length - 1], bits = bitLength(total);
    for (var i = 0; i < times; i++) out.push(drawn[0][firstAbove(running, drawBelow(rng, total, bits))]);
    return out;
  }
  function sample(value, rng) { return samples(value, rng, 1)[0]; }
  /* ---- roll tables: a roll on a table and the rolls its rows lead to, drawn as the Python runtime draws them ---- */
  var MAX_CHAIN_ROLLS = 500;
  function RollTable(spec, book) {  /* [name, roll, keys, weights, texts, chains, outcomes]; a chain [table, times,
                                        keep, reroll], an outcome [value, weight, row] */
    var g = 0n, sum = 0n;
    spec[6].forEach(function (o) { g = gcd(g, BigInt(o[1])); });
    this.name = spec[0]; this.roll = spec[1]; this.keys = spec[2]; this.weights = spec[3]; this.texts = spec[4];
    this.outcomes = spec[6];
    this.running = spec[6].map(function (o) { sum += BigInt(o[1]) / g; return sum; });
    this.chains = spec[5].map(function (c) { return c && {table: c[0], times: c[1], keep: c[2], reroll: c[3]}; });
    this.book = book;
  }
  function rollTables(specs) {  /* a system's roll tables by name */
    var book = {};
    specs.forEach(function (spec) { book[spec[0]] = new RollTable(spec, book); });
    return book;
  }
  function cryptoBits() {  /* random bits from crypto.getRandomValues, for rolls no seed repeats */
    return {getrandbits: function (k) {
      var words = new Uint32Array(Math.ceil(k / 32)), r = 0n;
      globalThis.crypto.getRandomValues(words);
      words.forEach(function (word, i) { r |= BigInt(word) << BigInt(32 * i); });
      return r & ((1n << BigInt(k)) - 1n);
    }};
  }
  function roll(value, rng) {  /* one roll of a value, or of a roll table (its steps); without rng, crypto draws */
    var source = rng || cryptoBits();
    return value instanceof RollTable ? rollOn(value, source) : sample(value, source);
  }
  function rollOn(table, rng) {  /* one roll on a table, every roll its rows lead to depth first: [table, row, key, text, depth, kept, value] */
    var steps = [];
    rollGroup(table, 1, false, [], rng, steps);
    return steps;
  }
  function rollGroup(table, times, reroll, path, rng, steps) {
    var drawn = [];
    for (var n = 0; n < times; n++) {
      var barred = reroll ? drawn.concat(path.filter(function (p) { return p[0] === table.name; })
                                            .map(function (p) { return p[1]; })) : [];
      var outcome = drawRow(table, barred, rng), row = outcome[2], chain = table.chains[row];
      drawn.push(row);
      steps.push([table.name, row, table.keys[row], table.texts[row], path.length, !chain || chain.keep, outcome[0]]);
      if (steps.length > MAX_CHAIN_ROLLS)
        throw new RulesError("a roll on '" + steps[0][0] + "' led to more than " + MAX_CHAIN_ROLLS + " rolls");
      if (chain) rollGroup(table.book[chain.table], chain.times, chain.reroll, path.concat([[table.name, row]]), rng, steps);
    }
  }
  function drawRow(table, barred, rng) {  /* an outcome [value, weight, row] by its weight, drawn again while its row is barred */
    if (table.weights.every(function (w, row) { return !w || barred.indexOf(row) >= 0; }))
      throw new RulesError("no row of '" + table.name + "' is left to roll: each was rolled already");
    var total = table.running[table.running.length - 1], bits = bitLength(total);
    for (;;) {
      var outcome = table.outcomes[firstAbove(table.running, drawBelow(rng, total, bits))];
      if (barred.indexOf(outcome[2]) < 0) return outcome;
    }
  }
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
    var groups = [], seen = {};
    order.forEach(function (id) {
      ((upgrades[id] && upgrades[id].requires_any) || []).forEach(function (group) {
        var key = JSON.stringify(group);
        if (!(key in seen)) { seen[key] = true; groups.push(group); }
      });
    });
    groups.forEach(function (group) {
      if (group.some(function (u) { return u in counts; })) return;
      var names = group.map(name);
      problems.push("the set needs " + (names.length === 1 ? names[0] :
        names.slice(0, -1).join(", ") + " or " + names[names.length - 1]));
    });
    return problems;
  }
  /* the exports: the contract of rulesc/runtime/contract.py, every one covered by rulesc/runtime/spec/ */
  root.RulesRuntime = {
    Dice: Dice, Dist: Dist, MAX_INT: MAX_INT, Outcomes: Outcomes, Q: Q, Real: Real, RulesError: RulesError,
    asDist: asDist, asOutcomes: asOutcomes, atLeast: atLeast, atMost: atMost, bind: bind, bindEach: bindEach,
    bindThrough: bindThrough, both: both, category: category, categoryIndex: categoryIndex, ceilDiv: ceilDiv,
    chance: chance, clamp: clamp, cmp: cmp, countFaces: countFaces, dadd: dadd, decide: decide, dfloorDiv: dfloorDiv,
    dice: dice, diceAdd: diceAdd, dicePart: dicePart, diceScale: diceScale, divide: divide, dmap: dmap, dmax: dmax,
    dmin: dmin, dneg: dneg, dscale: dscale, dsub: dsub, either: either, emptyCaches: emptyCaches, exact: exact,
    fixed: fixed, floorDiv: floorDiv, greater: greater, keep: keepPool, lookup: lookup, mean: mean, mix: mix,
    modifier: modifier, nadd: nadd, namedChance: namedChance, negated: negated, nmax: nmax, nmin: nmin, nmul: nmul,
    nneg: nneg, nsub: nsub, outcomes: outcomes, p: p, parseDice: parseDice, poolAnswers: poolAnswers,
    poolBind: poolBind, poolBindMean: poolBindMean, power: power, probEq: probEq, randbelow: randbelow, ratio: ratio, repeat: repeat,
    roll: roll, rollable: rollable, rollOn: rollOn, rollTables: rollTables, sample: sample, samples: samples, sd: sd,
    seeded: seeded, step: step,
    successes: successes, table: table, tie: tie, toFloat: toFloat, upgradeProblems: upgradeProblems, whole: whole,
    win: win
  };
})(typeof globalThis !== "undefined" ? globalThis : this);
