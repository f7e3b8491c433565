// @ts-check
/* A later task for work that need not hold up the current one: on a phone 4x slower, Lighthouse counts the part
   over 50 ms of each task as blocking, and a busy core can double a task's time; a few short tasks block nothing
   where one long one did. */

/** A promise that settles in a later task: scheduler.yield() where the browser has it (the rest then runs ahead of
    other tasks queued meanwhile), else a MessageChannel message (a hidden tab does not throttle it as it throttles
    timers). */
export function nextTask() {
  const scheduler = /** @type {{yield?: () => Promise<void>}} */ (/** @type {any} */ (globalThis).scheduler || {});
  if (scheduler.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { channel.port1.close(); resolve(undefined); };
    channel.port2.postMessage(null);
  });
}
