// @ts-check
/* Rolling on the device: random bits from crypto.getRandomValues (never Math.random), and one outcome picked by
   its exact weight. A whole number below the total is drawn by rejection on random bits (bits enough for the
   total, drawn again while they reach it: no float and no modulo bias), then the outcomes' cumulative weights
   find its outcome. The bits come from one argument, so a seeded source can stand in for the device's. */

/** A source of random bits: `k` bits as a whole number from 0 to 2^k - 1.
    @typedef {(k: number) => bigint} BitSource */

/** `k` random bits from the device's cryptographic generator. @type {BitSource} */
export function cryptoBits(k) {
  const words = new Uint32Array(Math.ceil(k / 32));
  if (words.length) globalThis.crypto.getRandomValues(words);
  let bits = 0n;
  words.forEach((word) => { bits = (bits << 32n) | BigInt(word); });
  return bits >> BigInt(words.length * 32 - k);
}

/** How many bits `n` takes to write (0 for 0), as Python's int.bit_length(). @param {bigint} n */
export function bitLength(n) {
  return n > 0n ? n.toString(2).length : 0;
}

/** A whole number from 0 to `n` - 1, each equally likely: bits as many as `n` takes, drawn again while they reach
    `n` (Python's Random.randbelow does the same). @param {bigint} n @param {BitSource} bits */
export function below(n, bits) {
  if (n <= 0n) throw new RangeError("nothing to pick from");
  const k = bitLength(n);
  let r = bits(k);
  while (r >= n) r = bits(k);
  return r;
}

/** The index of the outcome a roll lands on: each outcome's chance is its weight out of `total` (the weights'
    sum). @param {bigint[]} weights @param {bigint} total @param {BitSource} [bits] */
export function pick(weights, total, bits = cryptoBits) {
  let r = below(total, bits);
  for (let i = 0; i < weights.length; i++) {
    if (r < weights[i]) return i;
    r -= weights[i];
  }
  throw new RangeError("the weights add up to less than their total");
}
