// @ts-check
/* The reader's choice to save the whole site for use offline, in the footer of every page: "Save for offline use"
   with the site's size, then "Available offline" and a way to remove it. The worker does the work and answers each
   message with {saved, size, error?}; a worker that does not answer (a preview's) leaves the choice hidden. */

/** @typedef {{saved: boolean, size: number, error?: string}} Status */

const ASK_MS = 5000;

/**
 * Asks the active worker to do `type` ("status", "save" or "forget") and resolves with its answer.
 * @param {ServiceWorker} worker @param {string} type @param {number} wait
 * @returns {Promise<Status>}
 */
export function ask(worker, type, wait) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = wait ? setTimeout(() => reject(new Error("no answer")), wait) : 0;
    channel.port1.onmessage = (event) => { clearTimeout(timer); resolve(event.data); };
    worker.postMessage({type}, [channel.port2]);
  });
}

/** `bytes` as a reader reads a download's size: "7.9 MB", "640 kB" (a no-break space before the unit). @param {number} bytes */
export function megabytes(bytes) {
  return bytes >= 1e6 ? (bytes / 1e6).toFixed(1) + "\u00a0MB" : Math.max(1, Math.round(bytes / 1e3)) + "\u00a0kB";
}

/**
 * Shows `status` in the footer's box: its state line and its one button.
 * @param {HTMLElement} box @param {Status | null} status (null while saving)
 */
function show(box, status) {
  const button = /** @type {HTMLButtonElement} */ (box.querySelector(".rulesc-offline__button"));
  const state = /** @type {HTMLElement} */ (box.querySelector(".rulesc-offline__state"));
  const size = megabytes(Number(box.dataset.size || 0));
  box.hidden = false;
  box.dataset.saved = status && status.saved ? "yes" : "no";
  button.disabled = status === null;
  box.setAttribute("aria-busy", String(status === null));
  button.textContent = status && status.saved ? "Remove offline copy" : "Save for offline use";
  state.textContent = status === null ? `Saving ${size}…`
    : status.error ? `Could not save (${status.error}); try again with a connection.`
      : status.saved ? `Available offline: every page, search and calculator (${size}).`
        : `Keeps every page, search and calculator on this device (${size}).`;
}

/** Binds the footer's box to the worker of `registration`, once it is active. @param {ServiceWorkerRegistration} registration */
export function offerChoice(registration) {
  const box = /** @type {HTMLElement | null} */ (document.querySelector(".rulesc-offline"));
  if (!box) return;
  navigator.serviceWorker.ready.then((ready) => {
    const worker = ready.active || registration.active;
    if (!worker) return;
    ask(worker, "status", ASK_MS).then((status) => {
      box.dataset.size = String(status.size);
      show(box, status);
      const button = /** @type {HTMLButtonElement} */ (box.querySelector(".rulesc-offline__button"));
      button.addEventListener("click", () => {
        const saving = box.dataset.saved !== "yes";
        if (saving) show(box, null);
        ask(worker, saving ? "save" : "forget", 0).then((now) => show(box, now));
      });
    }, () => { /* a worker that does not answer: a preview's, which saves nothing */ });
  });
}
