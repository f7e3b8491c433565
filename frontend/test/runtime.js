// The runtime the calculators compute with, loaded as the pages load it (a plain script that sets a global).
import {readFileSync} from "node:fs";
import {runInThisContext} from "node:vm";

const RUNTIME = new URL("../../rulesc/runtime/rulesc_runtime.js", import.meta.url);
runInThisContext(readFileSync(RUNTIME, "utf8"), {filename: RUNTIME.pathname});

export const R = globalThis.RulesRuntime;
