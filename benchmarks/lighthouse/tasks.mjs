// The main-thread tasks of a Lighthouse trace that its simulated 4x slower CPU makes long, as run.mjs --tasks prints
// them: when each started after the navigation, how long it took as observed, its kinds of work and largest trace
// events; then Lighthouse's own list of long tasks as it simulates them. The simulation multiplies a task's observed
// time by 4, or by 2 where the task lays out (its layout multiplier), and the total blocking time sums the part over
// 50 ms of each simulated task after the simulated first contentful paint, which is worked out from the parse, first
// layout and first paint alone: the other tasks before them (the navigation's commit, the parse's later chunks) push
// the first frame past that paint in the simulation, where its layout then counts as blocking too.
import {MainThreadTasks} from "lighthouse/core/lib/tracehouse/main-thread-tasks.js";
import {TraceProcessor} from "lighthouse/core/lib/tracehouse/trace-processor.js";

/** Observed duration from which a task passes 50 ms at Lighthouse's 4x CPU slowdown, in ms. */
const LONG = 50 / 4;

/** A task's time by kind of work (Lighthouse's task groups), summed over it and everything it ran. */
function byGroup(task, sums = new Map()) {
  sums.set(task.group.label, (sums.get(task.group.label) || 0) + task.selfTime);
  for (const child of task.children) byGroup(child, sums);
  return sums;
}

/** A task's time by trace event (its name, the script's file and the function's name where the event has them),
    summed over it and everything it ran. */
function byEvent(task, sums = new Map()) {
  const data = task.event.args?.data || {};
  const name = [task.event.name, data.url && data.url.replace(/.*\//, ""), data.functionName].filter(Boolean).join(" ");
  sums.set(name, (sums.get(name) || 0) + task.selfTime);
  for (const child of task.children) byEvent(child, sums);
  return sums;
}

/** The entries of a map of times of at least 1 ms, largest first, as "name 1.2". */
function largest(sums, count) {
  return [...sums].filter(([, ms]) => ms >= 1).sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(", ");
}

/** The main thread's own CPU time in a task, in ms, where the trace has it: well under the task's duration, the
    thread waited for a core (a busy machine), which Lighthouse's simulation multiplies all the same. */
function threadMs(task) {
  return typeof task.event.tdur === "number" ? `, thread ${(task.event.tdur / 1000).toFixed(1)} ms` : "";
}

/** Two lines for a task: start, duration and thread time in ms with its kinds of work, then its largest trace
    events. */
function describe(task) {
  return [`task at ${task.startTime.toFixed(0)} ms: ${task.duration.toFixed(1)} ms${threadMs(task)} `
    + `(${largest(byGroup(task), 4)})`, `    ${largest(byEvent(task), 6)}`];
}

/** Whether a task laid the page out (Lighthouse's simulation then multiplies it by 2, not 4). */
function laysOut(task) {
  return task.event.name === "Layout" || task.children.some(laysOut);
}

/** The blocking time of the tasks from the first frame on, worked out from their thread time as Lighthouse's
    simulation multiplies a task (by 4, by 2 where it lays out; the part over 50 ms): what the page's own work
    would block on a machine with a core to spare, where the wall time of a busy machine's run cannot tell.
    @param {any[]} tasks the top-level tasks, in order */
function threadBlocking(tasks) {
  const first = tasks.findIndex(laysOut);
  if (first < 0 || tasks.some((task) => typeof task.event.tdur !== "number")) return "";
  const blocking = tasks.slice(first).reduce((sum, task) =>
    sum + Math.max(0, (laysOut(task) ? 2 : 4) * task.event.tdur / 1000 - 50), 0);
  return `blocking from thread time, first frame on: ${blocking.toFixed(0)} ms`;
}

/** Lighthouse's own list of long tasks, as its simulation times them (start, duration, script). */
function simulated(lhr, base) {
  const fcp = lhr.audits["first-contentful-paint"].numericValue;
  return [`simulated first contentful paint at ${fcp.toFixed(0)} ms`, ...lhr.audits["long-tasks"].details.items.map(
    (task) => `simulated task at ${task.startTime.toFixed(0)} ms: ${task.duration.toFixed(0)} ms ${task.url.replace(base, "/")}`)];
}

/** The top-level tasks of the page's main thread of 12.5 ms and more, in order, and its first contentful paint,
    then Lighthouse's simulated long tasks. @param {{traceEvents: object[]}} trace a navigation's trace
    @param {object} lhr its audit @param {string} base the site's address */
export function longTasks(trace, lhr, base) {
  const processed = TraceProcessor.processTrace(trace);
  const navigation = TraceProcessor.processNavigation(processed);
  const tasks = MainThreadTasks.getMainThreadTasks(processed.mainThreadEvents, processed.frames,
    processed.timestamps.traceEnd, processed.timeOriginEvt.ts);
  const fcp = navigation.timings.firstContentfulPaint, top = tasks.filter((task) => !task.parent);
  return [`observed first contentful paint at ${fcp.toFixed(0)} ms`,
    ...top.filter((task) => task.duration >= LONG).flatMap(describe), threadBlocking(top),
    ...simulated(lhr, base)].filter(Boolean);
}
