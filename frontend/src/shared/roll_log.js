// @ts-check
/* The roll log: the last rolls made on this device, newest first, kept in localStorage (where storage is refused,
   as in some private modes or over quota, for as long as the page is open) and shown in one panel per page with a
   Clear button. Each entry names what was rolled, links back to it and says what came up. Nothing leaves the
   device. Both calculators.js and site.js roll: each renders the one panel from the stored log. */

const LOG_KEY = "rulesc.rolls";
export const LOG_SIZE = 20;
const PANEL_ID = "rulesc-roll-log";

/** One roll: what was rolled (title), where it is (href, absolute) and what came up (result).
    @typedef {{title: string, href: string, result: string}} RollEntry */

/** The log while storage refuses it, and whether it has refused a write (it may still read, over quota): then
    this is the log. @type {RollEntry[]} */
let unstored = [];
let refused = false;

/** @param {unknown} entry @returns {entry is RollEntry} */
function isEntry(entry) {
  if (!entry || typeof entry !== "object") return false;
  const e = /** @type {Record<string, unknown>} */ (entry);
  return typeof e.title === "string" && typeof e.href === "string" && typeof e.result === "string";
}

/** The log as stored text reads: anything that is not a list of entries is no log. @param {string | null} text
    @returns {RollEntry[]} */
export function parseLog(text) {
  let found;
  try { found = JSON.parse(text || "[]"); } catch (e) { return []; }
  return Array.isArray(found) ? found.filter(isEntry).slice(0, LOG_SIZE) : [];
}

/** The log with `entry` first, keeping the last LOG_SIZE. @param {RollEntry[]} log @param {RollEntry} entry */
export function withEntry(log, entry) {
  return [entry, ...log].slice(0, LOG_SIZE);
}

/** @returns {RollEntry[]} */
export function readLog() {
  if (refused) return unstored;
  try { return parseLog(window.localStorage.getItem(LOG_KEY)); } catch (e) { return unstored; }
}

/** @param {RollEntry[]} log */
function writeLog(log) {
  unstored = log;
  try { window.localStorage.setItem(LOG_KEY, JSON.stringify(log)); } catch (e) { refused = true; /* private mode, quota */ }
}

/** Adds a roll to the log and shows it. @param {RollEntry} entry */
export function logRoll(entry) {
  writeLog(withEntry(readLog(), entry));
  showLog();
}

/** @param {RollEntry} entry */
function logItem(entry) {
  const item = document.createElement("li"), link = document.createElement("a");
  link.href = entry.href;
  link.textContent = entry.title;
  item.append(link, document.createTextNode(": " + entry.result));
  return item;
}

/** The page's panel, made at the end of the page's text the first time it is asked for. */
function panel() {
  const found = document.getElementById(PANEL_ID);
  if (found) return found;
  const section = document.createElement("section"), heading = document.createElement("h2");
  section.id = PANEL_ID;
  section.className = "rulesc-roll-log";
  section.setAttribute("aria-labelledby", PANEL_ID + "-title");
  heading.id = PANEL_ID + "-title";
  heading.textContent = "Roll log";
  const note = document.createElement("p"), list = document.createElement("ol"), clear = document.createElement("button");
  note.className = "rulesc-muted";
  note.textContent = "The last " + LOG_SIZE + " rolls on this device, newest first. They never leave it.";
  clear.type = "button";
  clear.className = "md-button rulesc-roll-log__clear";
  clear.textContent = "Clear the log";
  clear.addEventListener("click", () => { writeLog([]); showLog(); });
  section.append(heading, note, list, clear);
  (document.querySelector("article") || document.body).appendChild(section);
  return section;
}

/** Shows the stored log in the page's panel (made if need be). */
export function showLog() {
  const section = panel(), log = readLog();
  /** @type {HTMLOListElement} */ (section.querySelector("ol")).replaceChildren(...log.map(logItem));
  /** @type {HTMLButtonElement} */ (section.querySelector("button")).disabled = !log.length;
}
