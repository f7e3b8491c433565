// @ts-check
/* The device's random bits for the runtime's sampler: R.sample(value, rng) and R.rollOn(table, rng) draw from any
   generator with getrandbits(k) (a seeded one in tests and in `rulesc roll --seed`); on the page it is
   crypto.getRandomValues, never Math.random. */

/** `k` random bits from the device's cryptographic generator, as a whole number from 0 to 2^k - 1.
    @param {number} k */
export function cryptoBits(k) {
  const words = new Uint32Array(Math.ceil(k / 32));
  if (words.length) globalThis.crypto.getRandomValues(words);
  let bits = 0n;
  words.forEach((word) => { bits = (bits << 32n) | BigInt(word); });
  return bits >> BigInt(words.length * 32 - k);
}

/** The generator the site's rolls draw from. @type {RulesRng} */
export const deviceRng = {getrandbits: cryptoBits};
