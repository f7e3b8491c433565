// @ts-check
/* The calculators' work in slices of a few milliseconds, a task each (shared/tasks.js): making a page's calculators
   live, and computing those that come near the viewport together. */
import {nextTask} from "../shared/tasks.js";

/** How long a slice of work may run before it lets the browser in, as measured (wall time, so a busy core ends
    slices sooner): with the next item's own time and the task around it, a slice stays well under 12.5 ms of a
    trace, which Lighthouse's 4x multiplies past 50. */
export const SLICE_MS = 4;

/** Work on a queue's items in slices of about `budget` ms, each slice after the first in a later task. The returned
    function queues items (one already queued is left where it is) and starts the slices unless they are under way,
    in which case they take the new items too. @template T @param {(item: T) => void} work
    @param {number} [budget] @returns {(items: Iterable<T>) => void} */
export function sliced(work, budget = SLICE_MS) {
  /** @type {T[]} */
  const queue = [];
  let running = false;
  const drain = async () => {
    running = true;
    try {
      let start = performance.now();
      while (queue.length) {
        if (performance.now() - start >= budget) {
          await nextTask();
          start = performance.now();
        }
        work(/** @type {T} */ (queue.shift()));
      }
    } finally {
      running = false;
    }
  };
  return (items) => {
    for (const item of items) if (!queue.includes(item)) queue.push(item);
    if (!running) drain();
  };
}
