// @ts-check
/* Roll buttons: under each output whose answer is a roll (a distribution, a pool of dice) or an outcome (named
   results, yes or no), a button that rolls it once on the device from the exact distribution the calculator has
   just worked out (the runtime's R.roll: its sampler, with random bits from crypto.getRandomValues, never
   Math.random), says what came up (announced) and adds it to the roll log. */
import {logRoll, showLog} from "../shared/roll_log.js";
import {R} from "./runtime.js";

/** Whether an output's answer can be rolled. @param {CalculatorOutput} out */
function rollable(out) {
  return out.type === "dist" || out.type === "outcome" || out.type === "event" || out.type === "dice";
}

/** One roll of a value, as text; null when the value is not a roll (a pool with no dice). @param {unknown} value */
export function rollOnce(value) {
  if (!(value instanceof R.Outcomes || value instanceof R.Dist || value instanceof R.Dice)) return null;
  if (value instanceof R.Dice && !value.counts.length) return null;
  const rolled = R.roll(value);
  return typeof rolled === "boolean" ? (rolled ? "yes" : "no") : String(rolled);
}

/** The button and its result, in a <dd> after the output (and its chart).
    @param {string} label the output's label @returns {[HTMLElement, HTMLButtonElement, HTMLElement]} */
function rollRow(label) {
  const row = document.createElement("dd"), button = document.createElement("button"), shown = document.createElement("span");
  row.className = "rulesc-roll";
  button.type = "button";
  button.className = "md-button rulesc-roll__button";
  button.textContent = "Roll";
  button.setAttribute("aria-label", "Roll " + label);
  shown.className = "rulesc-roll__result";
  shown.setAttribute("role", "status");
  shown.setAttribute("aria-live", "polite");
  row.append(button, shown);
  return [row, button, shown];
}

/** Where a roll's log entry links: the calculator on this page. @param {Element} element */
function hereOf(element) {
  const url = new URL(window.location.href);
  url.hash = element.id;
  return url.toString();
}

/** A Roll button under each rollable output; `current` gives the results on show (null when out of date).
    @param {Element} element @param {HTMLFormElement} form @param {Calculator} calc
    @param {() => Record<string, unknown> | null} current */
export function rollButtons(element, form, calc, current) {
  let any = false;
  calc.outputs.filter(rollable).forEach((out) => {
    const node = form.querySelector(`output[name="${out.name}"]`), after = node && node.closest("dd");
    if (!after) return;
    const chart = after.nextElementSibling && after.nextElementSibling.matches("[data-chart]") ? after.nextElementSibling : after;
    const [row, button, shown] = rollRow(out.label);
    chart.after(row);
    any = true;
    button.addEventListener("click", () => {
      const results = current(), rolled = results ? rollOnce(results[out.name]) : null;
      shown.textContent = rolled === null ? (results ? "Nothing to roll." : "No roll: the results above are out of date.")
        : out.label + ": " + rolled;
      if (rolled !== null) logRoll({title: calc.title + " \u00b7 " + out.label, href: hereOf(element), result: rolled});
    });
  });
  if (any) showLog();
}
