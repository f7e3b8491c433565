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

/** A Roll button and, after it, where what came up is said (announced): under an output, a <dd> holding a <span>;
    over a roll table, a <div class="rulesc-roll--table"> holding a <div> for the list of steps.
    @param {"dd" | "div"} tag @param {string} name the button's accessible name
    @returns {[HTMLElement, HTMLButtonElement, HTMLElement]} */
export function rollControl(tag, name) {
  const box = document.createElement(tag), button = document.createElement("button");
  const shown = document.createElement(tag === "dd" ? "span" : "div");
  box.className = tag === "dd" ? "rulesc-roll" : "rulesc-roll rulesc-roll--table";
  button.type = "button";
  button.className = "md-button rulesc-roll__button";
  button.textContent = "Roll";
  button.setAttribute("aria-label", name);
  shown.className = "rulesc-roll__result";
  shown.setAttribute("role", "status");
  shown.setAttribute("aria-live", "polite");
  box.append(button, shown);
  return [box, button, shown];
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
    const [row, button, shown] = rollControl("dd", "Roll " + out.label);
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
