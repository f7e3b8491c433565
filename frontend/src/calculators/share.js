// @ts-check
/* A calculator's inputs in the page's address (?<calculator>.<input>=value, only those that differ from their
   defaults), so a link restores them; and Share, which copies such a link landing on the calculator. */
import {chapterAddress, landingOfPage} from "../shared/chapter.js";
import {pickedUpgrades, setUpgrades} from "./fields.js";

/** @param {string} calcId @param {string} name */
function stateKey(calcId, name) { return calcId + "." + name; }

/** An input's value as the address holds it. @param {FormControl} control @param {CalculatorInput} spec */
function addressValue(control, spec) {
  if (spec.type === "bool") return /** @type {HTMLInputElement} */ (control).checked ? "1" : "0";
  if (spec.type === "upgrades") return (/** @type {string[] | undefined} */ (pickedUpgrades(control).value) || []).join(",");
  return /** @type {HTMLInputElement} */ (control).value;
}

/** An input's default as the address would hold it. @param {CalculatorInput} spec */
function addressDefault(spec) {
  return spec.type === "bool" ? (spec.default ? "1" : "0") : spec.type === "upgrades" ? "" : String(spec.default);
}

/** `href` with the calculator's inputs that differ from their defaults, and without those that do not.
    @param {string} href @param {string} calcId @param {CalculatorInput[]} specs
    @param {Record<string, string>} values each input's value as the address holds it */
export function shareUrl(href, calcId, specs, values) {
  const url = new URL(href);
  specs.forEach((spec) => {
    const key = stateKey(calcId, spec.name), value = values[spec.name];
    if (value === addressDefault(spec)) url.searchParams.delete(key); else url.searchParams.set(key, value);
  });
  return url;
}

/** The inputs an address sets, as written there. @param {string} search @param {string} calcId
    @param {CalculatorInput[]} specs @returns {Map<string, string>} */
export function addressInputs(search, calcId, specs) {
  const params = new URLSearchParams(search), found = new Map();
  specs.forEach((spec) => {
    const raw = params.get(stateKey(calcId, spec.name));
    if (raw !== null) found.set(spec.name, raw);
  });
  return found;
}

/** Sets the form from the address; whether it set any input. @param {HTMLFormElement} form @param {string} calcId
    @param {Calculator} calc */
export function restoreFromUrl(form, calcId, calc) {
  let restored = false;
  addressInputs(window.location.search, calcId, calc.inputs).forEach((raw, name) => {
    const control = /** @type {FormControl | null} */ (form.elements.namedItem(name));
    const spec = /** @type {CalculatorInput} */ (calc.inputs.find((s) => s.name === name));
    if (!control) return;
    restored = true;
    if (spec.type === "bool") /** @type {HTMLInputElement} */ (control).checked = raw === "1";
    else if (spec.type === "upgrades") setUpgrades(control, raw ? raw.split(",") : []);
    else /** @type {HTMLInputElement} */ (control).value = raw;
  });
  return restored;
}

/** The page's address with the form's inputs. @param {HTMLFormElement} form @param {string} calcId
    @param {Calculator} calc */
export function stateUrl(form, calcId, calc) {
  /** @type {Record<string, string>} */
  const values = Object.create(null);
  calc.inputs.forEach((spec) => {
    values[spec.name] = addressValue(/** @type {FormControl} */ (form.elements.namedItem(spec.name)), spec);
  });
  return shareUrl(window.location.href, calcId, calc.inputs, values);
}

/** @param {HTMLFormElement} form @param {string} calcId @param {Calculator} calc */
export function saveToUrl(form, calcId, calc) {
  window.history.replaceState(window.history.state, "", stateUrl(form, calcId, calc).toString());
}

/** The Share button after Reset: copies a link that restores this calculator's inputs and lands on it.
    @param {Element} element @param {HTMLFormElement} form @param {string} calcId @param {Calculator} calc */
export function shareButton(element, form, calcId, calc) {
  const reset = /** @type {HTMLElement} */ (form.querySelector(".rulesc-calc__reset"));
  const button = document.createElement("button"), status = document.createElement("span");
  button.type = "button";
  button.className = "md-button rulesc-calc__share";
  button.textContent = "Share";
  button.setAttribute("aria-label", "Share a link to " + calc.title + " with these inputs");
  status.className = "rulesc-calc__shared";
  status.setAttribute("role", "status");
  reset.after(button);
  button.after(status);
  button.addEventListener("click", () => {
    const url = new URL(chapterAddress(window.location.href, landingOfPage()) + stateUrl(form, calcId, calc).search);
    url.hash = element.getAttribute("data-anchor") || element.id;
    copyText(url.toString(), status);
  });
}

/** @param {string} text @param {HTMLElement} status */
function copyText(text, status) {
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(() => { status.textContent = "Link copied."; },
      () => { showForCopy(text, status); });
  } else showForCopy(text, status);
}

/** No clipboard: the link in a field, selected, for the reader to copy. @param {string} text @param {HTMLElement} status */
function showForCopy(text, status) {
  const field = document.createElement("input");
  field.type = "text";
  field.readOnly = true;
  field.value = text;
  field.className = "rulesc-calc__link";
  field.setAttribute("aria-label", "Link to copy");
  status.replaceChildren(document.createTextNode("Copy this link: "), field);
  field.focus();
  field.select();
}
