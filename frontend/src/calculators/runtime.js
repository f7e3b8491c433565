// @ts-check
/* The runtime (assets/rulesc/runtime.js) and the compiled systems (formulas/<system>.js), loaded before this
   script: what the calculators compute with. */

/** The runtime, as runtime.js leaves it on the global object. */
export const R = /** @type {RulesRuntime} */ (globalThis.RulesRuntime);

/** A system's compiled calculators, by the system's id: formulas/<system>.js adds each. */
export function systemOf(/** @type {string} */ id) {
  return globalThis.RulesSystems ? globalThis.RulesSystems[id] : undefined;
}
