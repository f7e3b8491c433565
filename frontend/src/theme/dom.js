// @ts-check
/* What every part of the theme script reads: the features mkdocs.yml turns on, and Material's toggles. */

/** The features of mkdocs.yml's theme, as Material writes them into the page (#__config). */
export function themeFeatures() {
  try {
    const config = document.getElementById("__config");
    return /** @type {string[]} */ (JSON.parse(config ? config.textContent || "" : "").features || []);
  } catch (e) {
    return [];  /* none */
  }
}

/** @param {string} name @returns {HTMLInputElement | null} */
export function toggle(name) {
  return document.querySelector(`[data-md-toggle=${name}]`);
}

/** Sets one of Material's toggles (drawer, search) by clicking it, as the reader would. */
export function setToggle(/** @type {string} */ name, /** @type {boolean} */ value) {
  const input = toggle(name);
  if (input && input.checked !== value) input.click();
}

/** A link's target id from its hash, decoded where it can be. */
export function hashId(/** @type {string} */ hash) {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch (e) {
    return hash.slice(1);
  }
}
