// Lighthouse (mobile, its default: a 412 px phone, slow 4G and a 4x slower CPU, simulated) on one page of each
// type of the built site, in Debian's Chromium (CHROME_PATH, /usr/bin/chromium by default). Not a test: a bench
// whose scores go into a change's notes. Usage, after `rulesc build`:
//   npm ci --prefix benchmarks/lighthouse && npm run --prefix benchmarks/lighthouse bench [-- [--runs N] SITE [PAGE ...]]
// With --runs N every page is audited N times and a last table gives each page's worst (the machine's load moves
// the simulated times, the blocking time most). With --tasks every audit's row is followed by the main-thread tasks
// of its trace that Lighthouse's 4x simulation makes long (12.5 ms and more as observed), each with its kinds of
// work and the scripts it ran: what the total blocking time is made of.
import {createReadStream, existsSync, statSync} from "node:fs";
import {createServer} from "node:http";
import {createGzip} from "node:zlib";
import {extname, join, resolve} from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import {longTasks} from "./tasks.mjs";

const PAGES = ["", "dbu/", "dbu/core-rules/", "dbu/core-rules/tier-of-power-section/", "dbu/maneuvers/counter-maneuvers/",
  "dbu/gm-screen/", "dbu/gm-screen/keywords-clashes/", "dbu/glossary/", "dbu/tables/", "dbu/tables/maneuver/", "search/"];
const TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".json": "application/json",
  ".svg": "image/svg+xml", ".png": "image/png", ".webmanifest": "application/manifest+json"};
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

const COMPRESSED = new Set([".html", ".css", ".js", ".json", ".svg", ".webmanifest"]);

/** The built site served on a free loopback port, as a static host serves it: text gzipped where the browser
    accepts it (GitHub Pages, Netlify and the like do; Lighthouse's simulated slow 4G counts the bytes sent). */
function serve(root) {
  const server = createServer((request, response) => {
    let path = join(root, decodeURIComponent(new URL(request.url, "http://x").pathname));
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, "index.html");
    if (!existsSync(path)) { response.writeHead(404); response.end("not found"); return; }
    const headers = {"content-type": TYPES[extname(path)] || "application/octet-stream"};
    const gzip = COMPRESSED.has(extname(path)) && /\bgzip\b/.test(request.headers["accept-encoding"] || "");
    response.writeHead(200, gzip ? {...headers, "content-encoding": "gzip", vary: "accept-encoding"} : headers);
    (gzip ? createReadStream(path).pipe(createGzip()) : createReadStream(path)).pipe(response);
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

const COLUMNS = ["page", ...CATEGORIES, "FCP ms", "LCP ms", "TBT ms", "CLS", "SI ms"];

/** One audit's row: the page, its four scores, then its paints, blocking time, layout shift and speed index. */
function row(page, lhr) {
  const audit = (id) => Math.round(lhr.audits[id].numericValue);
  return ["/" + page, ...CATEGORIES.map((c) => Math.round(lhr.categories[c].score * 100)),
    audit("first-contentful-paint"), audit("largest-contentful-paint"), audit("total-blocking-time"),
    Number(lhr.audits["cumulative-layout-shift"].numericValue.toFixed(3)), audit("speed-index")];
}

/** A page's worst over its runs: the lowest of each score, the highest of each time and of the layout shift. */
function worst(rows) {
  return rows[0].map((first, i) => i === 0 ? first
    : (i <= CATEGORIES.length ? Math.min : Math.max)(...rows.map((r) => r[i])));
}

/** `--runs N` (1 by default) and `--tasks` taken out of the arguments: every page audited N times, pass after
    pass, and with `--tasks` each audit's long tasks printed under its row. */
function optionsOf(args) {
  const tasks = args.includes("--tasks");
  const rest = args.filter((arg) => arg !== "--tasks");
  const at = rest.indexOf("--runs");
  if (at < 0) return [1, tasks, rest];
  return [Math.max(1, Number(rest[at + 1]) || 1), tasks, [...rest.slice(0, at), ...rest.slice(at + 2)]];
}

async function main() {
  const [runs, tasks, [siteArg, ...named]] = optionsOf(process.argv.slice(2));
  const pages = named.map((page) => page.replace(/^\/+/, ""));  // "/dbu/" as the table writes it, or "dbu/"
  /* npm runs the script in this folder: a relative SITE is read from where npm was started (INIT_CWD) */
  const server = await serve(resolve(process.env.INIT_CWD || ".", siteArg || "site"));
  const base = `http://127.0.0.1:${server.address().port}/`;
  const chrome = await chromeLauncher.launch({chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"]});
  const audited = new Map();
  console.log(COLUMNS.join("\t"));
  try {
    for (let run = 0; run < runs; run++) {
      for (const page of pages.length ? pages : PAGES) {
        const {lhr, artifacts} = await lighthouse(base + page, {port: chrome.port, output: "json", logLevel: "error",
          onlyCategories: CATEGORIES});
        if (lhr.runtimeError) throw new Error(`${base + page}: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        audited.set(page, [...(audited.get(page) || []), row(page, lhr)]);
        console.log(audited.get(page).at(-1).join("\t"));
        if (tasks) for (const line of longTasks(artifacts.Trace, lhr, base)) console.log("  " + line);
      }
    }
    if (runs > 1) {
      console.log(`\nworst of ${runs} runs\n` + COLUMNS.join("\t"));
      for (const rows of audited.values()) console.log(worst(rows).join("\t"));
    }
  } finally {
    await chrome.kill();
    server.close();
  }
}

await main();
