import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Fastify from "fastify";
import { chromium, type Browser } from "playwright-core";
import { BUILT_APPS, serveBuiltApps, type BuiltApps } from "../../api/src/main/built-apps.ts";
import { precompress } from "../../scripts/precompress.mjs";
import { round, say } from "../lib/stats.ts";

// The landing page as a visitor's browser gets it: the built web app (scripts/build-apps.mjs,
// rebuilt only when older than its sources) served by the API's own serveBuiltApps (precompressed
// brotli and gzip), opened cold in Chromium with DevTools' "Slow 4G" network and a 4x CPU slowdown.
// Bytes are the JavaScript and CSS fetched until the load event, each asset's body as sent: brotli,
// which Chromium asks for, and gzip and plain asked for again from Node; what the page fetches
// after the load event until the network is idle (the API client, for the session check) is
// reported beside them as `deferred`. The goals: at most 150 KB (150,000 bytes) of gzip on first
// load, LCP at most 2.0 s. The admin console's sign-in page (/admin/, signed out) is measured the same
// way against the same goals (issue 34).

/** DevTools' "Slow 4G" preset (Lighthouse's mobile profile as DevTools applies it: 150 ms RTT x 3.75, 1.6 Mbps x 0.9 down, 750 kbps x 0.9 up). */
export const SLOW_4G = {
  name: "Slow 4G (DevTools preset)",
  latencyMs: 562.5,
  downloadBytesPerSecond: (1.6 * 1_000_000 * 0.9) / 8,
  uploadBytesPerSecond: (750 * 1000 * 0.9) / 8,
};
/** DevTools' "Fast 4G" preset (165 ms latency, 9 Mbps x 0.9 down, 1.5 Mbps x 0.9 up), for comparison. */
export const FAST_4G = {
  name: "Fast 4G (DevTools preset)",
  latencyMs: 165,
  downloadBytesPerSecond: (9 * 1_000_000 * 0.9) / 8,
  uploadBytesPerSecond: (1.5 * 1_000_000 * 0.9) / 8,
};
export const CPU_SLOWDOWN = 4;
export const FIRST_LOAD_GZIP_GOAL_BYTES = 150_000;
export const LCP_GOAL_MS = 2000;

type Network = typeof SLOW_4G;
type Encoding = "br" | "gzip" | "identity";
export type AssetBytes = { path: string; kind: "js" | "css"; br: number; gzip: number; identity: number };
export type FirstLoadBytes = {
  requests: number;
  js: Record<Encoding, number>;
  css: Record<Encoding, number>;
  total: Record<Encoding, number>;
  transferredByBrowser: number;
  assets: AssetBytes[];
};
export type LoadRun = { lcpMs: number; fcpMs: number; loadMs: number };
export type ThrottledLoads = {
  network: Network;
  cpuSlowdown: number;
  runs: LoadRun[];
  lcp: { medianMs: number; maxMs: number };
  fcpMedianMs: number;
  loadMedianMs: number;
};
/** The admin console's sign-in page, signed out: what it fetches before and after its load event, and its LCP. */
export type AdminSignInFigure = {
  path: string;
  firstLoad: FirstLoadBytes;
  /** The sign-in's calls (the session client, the contracts, zod), fetched after the load event (admin/src/sign-in-calls.ts). */
  deferred: FirstLoadBytes;
  /** The page itself (index.html, the sign-in page prerendered with its styles inline), as sent per encoding. */
  page: Record<Encoding, number>;
  slow4g: ThrottledLoads;
  goals: { firstLoadGzipBytes: number; lcpMs: number };
  pass: { firstLoadGzip: boolean; lcp: boolean };
};
export type LandingFigure = {
  path: string;
  firstLoad: FirstLoadBytes;
  /** Scripts and stylesheets fetched after the load event, until the network was idle. */
  deferred: FirstLoadBytes;
  /** The page itself (`/`: the prerendered landing page, its styles inline), as sent per encoding. */
  page: Record<Encoding, number>;
  slow4g: ThrottledLoads;
  fast4g: ThrottledLoads;
  /** The admin sign-in page's first load (also `admin.firstLoad`), as bench/run.ts's table shows it. */
  adminSignIn: FirstLoadBytes;
  admin: AdminSignInFigure;
  goals: { firstLoadGzipBytes: number; lcpMs: number };
  pass: { firstLoadGzip: boolean; lcp: boolean };
};

/** The latest largest-contentful-paint entry's time, kept from the start of the page's life. */
const LCP_OBSERVER = `window.__lcp = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp = e.startTime; }).observe({ type: "largest-contentful-paint", buffered: true });`;
const TIMINGS = `({
  lcpMs: window.__lcp,
  fcpMs: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
  loadMs: performance.getEntriesByType("navigation")[0].loadEventStart,
})`;

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Pages, scripts and stylesheets of a built app without their .gz: a build by the e2e suites, which do not compress. */
function uncompressed(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter(
    (f) => /\.(js|css|html)$/.test(f) && statSync(join(dir, f)).size >= 1024 && !existsSync(join(dir, `${f}.gz`)),
  );
}

async function buildApps(): Promise<void> {
  // Its output goes to stderr: stdout is the bench's JSON document.
  const code = await new Promise<number | null>((resolve) =>
    spawn("node", ["scripts/build-apps.mjs"], { cwd: new URL("../../", import.meta.url).pathname, stdio: ["ignore", 2, 2] }).on(
      "exit",
      resolve,
    ),
  );
  if (code !== 0) throw new Error(`scripts/build-apps.mjs exited with ${code}`);
  // Up to date but built without compression: compressed here as `npm run build` would.
  for (const dir of [BUILT_APPS.web, BUILT_APPS.admin]) if (uncompressed(dir).length) precompress(dir);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * One cold load of `path` in a fresh context: the JS and CSS requested before the load event,
 * with the bytes the browser received for each (headers included), and LCP, FCP and load times.
 */
type Fetched = { path: string; kind: "js" | "css"; transferred: number; afterLoad: boolean };

async function load(browser: Browser, url: string, network: Network | null): Promise<LoadRun & { assets: Fetched[] }> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  if (network) {
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: network.latencyMs,
      downloadThroughput: network.downloadBytesPerSecond,
      uploadThroughput: network.uploadBytesPerSecond,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  }
  // Page-side code as text: bench/ compiles without the DOM's types.
  await page.addInitScript(LCP_OBSERVER);
  const kinds = new Map<string, { path: string; kind: "js" | "css"; afterLoad: boolean }>();
  const transferred = new Map<string, number>();
  let loaded = false;
  cdp.on("Network.requestWillBeSent", (e) => {
    const kind = e.type === "Script" ? "js" : e.type === "Stylesheet" ? "css" : null;
    if (kind) kinds.set(e.requestId, { path: new URL(e.request.url).pathname, kind, afterLoad: loaded });
  });
  cdp.on("Network.loadingFinished", (e) => transferred.set(e.requestId, e.encodedDataLength));
  page.on("load", () => (loaded = true));
  await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  await page.waitForLoadState("networkidle");
  // React paints after the load event; LCP is the last candidate once painting has stopped growing.
  await page.waitForFunction("window.__lcp > 0", undefined, { timeout: 30_000 });
  await page.waitForTimeout(500);
  const timing = await page.evaluate<LoadRun>(TIMINGS);
  await context.close();
  const assets = [...kinds].map(([id, a]) => ({ ...a, transferred: transferred.get(id) ?? 0 }));
  return { lcpMs: round(timing.lcpMs), fcpMs: round(timing.fcpMs), loadMs: round(timing.loadMs), assets };
}

/** Each asset's body as the server sends it for each encoding. */
async function bytesOf(origin: string, assets: Fetched[]): Promise<FirstLoadBytes> {
  const sized: AssetBytes[] = [];
  for (const a of assets) {
    const sizes = {} as Record<Encoding, number>;
    for (const encoding of ["br", "gzip", "identity"] as const) {
      const reply = await fetch(`${origin}${a.path}`, { headers: { "accept-encoding": encoding } });
      // fetch decodes what it is sent: the body's size on the wire is the header, else the raw length.
      const length = Number(reply.headers.get("content-length"));
      const body = await reply.arrayBuffer();
      // Files under 1 KB are not compressed (scripts/precompress.mjs): they are sent plain.
      const sent = reply.headers.get("content-encoding") ?? "identity";
      if (sent !== encoding && !(sent === "identity" && body.byteLength < 1024))
        throw new Error(`${a.path} asked as ${encoding} came as ${sent}`);
      sizes[encoding] = Number.isFinite(length) && length > 0 ? length : body.byteLength;
    }
    sized.push({ path: a.path, kind: a.kind, ...sizes });
  }
  const sum = (kind: "js" | "css" | null) => {
    const of = sized.filter((s) => kind === null || s.kind === kind);
    return {
      br: of.reduce((t, s) => t + s.br, 0),
      gzip: of.reduce((t, s) => t + s.gzip, 0),
      identity: of.reduce((t, s) => t + s.identity, 0),
    };
  };
  return {
    requests: sized.length,
    js: sum("js"),
    css: sum("css"),
    total: sum(null),
    transferredByBrowser: assets.reduce((t, a) => t + a.transferred, 0),
    assets: sized,
  };
}

async function throttled(browser: Browser, url: string, network: Network, runs: number): Promise<ThrottledLoads> {
  const results: LoadRun[] = [];
  for (let i = 0; i < runs; i++) {
    const { assets: _assets, ...run } = await load(browser, url, network);
    results.push(run);
    say(`  ${network.name}, CPU ${CPU_SLOWDOWN}x, run ${i + 1}: LCP ${run.lcpMs} ms, FCP ${run.fcpMs} ms, load ${run.loadMs} ms`);
  }
  const lcps = results.map((r) => r.lcpMs);
  return {
    network,
    cpuSlowdown: CPU_SLOWDOWN,
    runs: results,
    lcp: { medianMs: round(median(lcps)), maxMs: Math.max(...lcps) },
    fcpMedianMs: round(median(results.map((r) => r.fcpMs))),
    loadMedianMs: round(median(results.map((r) => r.loadMs))),
  };
}

/** `dirs`: apps built elsewhere (an earlier commit's, to compare); else the repository's, rebuilt when stale. */
export async function benchLanding(options: { runs: number; dirs?: BuiltApps }): Promise<LandingFigure> {
  if (!options.dirs) await buildApps();
  const app = Fastify();
  await serveBuiltApps(app, options.dirs ?? BUILT_APPS);
  const origin = await app.listen({ port: 0, host: "127.0.0.1" });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    // Bytes do not depend on throttling: one unthrottled cold load lists what the page fetches.
    const { assets } = await load(browser, `${origin}/`, null);
    const firstLoad = await bytesOf(
      origin,
      assets.filter((a) => !a.afterLoad),
    );
    const deferred = await bytesOf(
      origin,
      assets.filter((a) => a.afterLoad),
    );
    const page = (await bytesOf(origin, [{ path: "/", kind: "css", transferred: 0, afterLoad: false }])).total;
    say(
      `  first load: ${firstLoad.requests} scripts and stylesheets, ${firstLoad.total.gzip} bytes gzip, ${firstLoad.total.br} brotli, ${firstLoad.total.identity} plain; after the load event: ${deferred.requests}, ${deferred.total.gzip} bytes gzip`,
    );
    const slow4g = await throttled(browser, `${origin}/`, SLOW_4G, options.runs);
    const fast4g = await throttled(browser, `${origin}/`, FAST_4G, options.runs);
    const admin = await benchAdminSignIn(browser, origin, options.runs);
    return {
      path: "/",
      firstLoad,
      deferred,
      page,
      slow4g,
      fast4g,
      adminSignIn: admin.firstLoad,
      admin,
      goals: { firstLoadGzipBytes: FIRST_LOAD_GZIP_GOAL_BYTES, lcpMs: LCP_GOAL_MS },
      pass: { firstLoadGzip: firstLoad.total.gzip <= FIRST_LOAD_GZIP_GOAL_BYTES, lcp: slow4g.lcp.medianMs <= LCP_GOAL_MS },
    };
  } finally {
    await browser.close();
    await app.close();
  }
}

/** The admin console's sign-in page, signed out (a fresh context has no signed-in marker), by the landing page's method and goals. */
async function benchAdminSignIn(browser: Browser, origin: string, runs: number): Promise<AdminSignInFigure> {
  const url = `${origin}/admin/`;
  const { assets } = await load(browser, url, null);
  const firstLoad = await bytesOf(
    origin,
    assets.filter((a) => !a.afterLoad),
  );
  const deferred = await bytesOf(
    origin,
    assets.filter((a) => a.afterLoad),
  );
  const page = (await bytesOf(origin, [{ path: "/admin/", kind: "css", transferred: 0, afterLoad: false }])).total;
  say(
    `  admin console's sign-in page: ${firstLoad.requests} scripts and stylesheets, ${firstLoad.total.gzip} bytes gzip, ` +
      `${firstLoad.total.br} brotli; after the load event: ${deferred.requests}, ${deferred.total.gzip} bytes gzip`,
  );
  const slow4g = await throttled(browser, url, SLOW_4G, runs);
  const pass = { firstLoadGzip: firstLoad.total.gzip <= FIRST_LOAD_GZIP_GOAL_BYTES, lcp: slow4g.lcp.medianMs <= LCP_GOAL_MS };
  say(
    `  admin sign-in first load ${firstLoad.total.gzip} bytes gzip (<= ${FIRST_LOAD_GZIP_GOAL_BYTES}): ${pass.firstLoadGzip ? "met" : "MISSED"}; ` +
      `LCP median ${slow4g.lcp.medianMs} ms (<= ${LCP_GOAL_MS}): ${pass.lcp ? "met" : "MISSED"}`,
  );
  return {
    path: "/admin/",
    firstLoad,
    deferred,
    page,
    slow4g,
    goals: { firstLoadGzipBytes: FIRST_LOAD_GZIP_GOAL_BYTES, lcpMs: LCP_GOAL_MS },
    pass,
  };
}

/** The note beside the landing figures: where the first load's bytes go and what LCP waits for. */
export function landingNote(l: LandingFigure): string {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const largest = [...l.firstLoad.assets]
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 5)
    .map((a) => `${a.path.replace(/^.*\//, "")} ${kb(a.gzip)}`);
  return [
    `${l.pass.firstLoadGzip ? "Within" : "Over"} the first-load goal: ${l.firstLoad.requests} scripts and stylesheets, ${kb(l.firstLoad.total.gzip)} gzip (${kb(l.firstLoad.total.br)} as the brotli Chromium asks for; ${kb(l.firstLoad.transferredByBrowser)} on the wire with headers).`,
    `After the load event the page fetches ${l.deferred.requests} more (${kb(l.deferred.total.gzip)} gzip): the API client with the error catalogue, for the session check (web/src/shared/auth.tsx), so the whole landing page is ${kb(l.firstLoad.total.gzip + l.deferred.total.gzip)} of gzip scripts.`,
    `The page itself, prerendered with its styles inline, is ${kb(l.page.gzip)} gzip (${kb(l.page.br)} brotli).`,
    "Before issue 19 the page fetched one 1,067,860-byte script, 326 KB gzip. Each route's page is now a chunk fetched when its route opens (web/src/routes.tsx), the phone header's menu when first pressed, and the libraries the first page needs are vendor chunks of their own (web/vite.config.ts); zod, MUI's Chip and Alert are no longer on the first load.",
    `Largest (gzip): ${largest.join(", ")}. react-dom alone is about 67 KB gzip and MUI with emotion about 39 KB (its CSS-variables theming, unused, is left out: web/vite.config.ts); the rest is react-router, TanStack Query and the app's own landing page, layout and auth.`,
    `${l.pass.lcp ? "Within" : "Over"} the LCP goal: median ${l.slow4g.lcp.medianMs} ms under ${l.slow4g.network.name} (${l.slow4g.network.latencyMs} ms per request, ${round((l.slow4g.network.downloadBytesPerSecond * 8) / 1_000_000)} Mbps) with a ${l.slow4g.cpuSlowdown}x CPU slowdown; ${l.fast4g.lcp.medianMs} ms under ${l.fast4g.network.name}.`,
    `The landing page is rendered at build time (web/prerender-landing.ts) and sent for / only, so the largest paint follows the HTML (one request's latency, ${l.slow4g.network.latencyMs} ms, plus ${kb(l.page.br)} at ${kb(l.slow4g.network.downloadBytesPerSecond)}/s) and does not wait for the scripts, which then take the page over (hydration). Before, LCP waited for the HTML, the scripts and React's first render: 2.3-2.8 s on this machine, loaded.`,
    adminNote(l.admin),
  ].join(" ");
}

/** The admin sign-in page's part of the note: its goals, met or missed, and where its bytes go. */
function adminNote(a: AdminSignInFigure): string {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const largest = [...a.firstLoad.assets]
    .sort((x, y) => y.gzip - x.gzip)
    .slice(0, 4)
    .map((x) => `${x.path.replace(/^.*\//, "")} ${kb(x.gzip)}`);
  return [
    `The admin console's sign-in page (issue 34): ${a.pass.firstLoadGzip ? "met" : "MISSED"} the first-load goal,`,
    `${a.firstLoad.requests} scripts and stylesheets, ${kb(a.firstLoad.total.gzip)} gzip (${kb(a.firstLoad.total.br)} brotli);`,
    `${a.pass.lcp ? "met" : "MISSED"} the LCP goal, median ${a.slow4g.lcp.medianMs} ms (max ${a.slow4g.lcp.maxMs})`,
    `under ${a.slow4g.network.name} with a ${a.slow4g.cpuSlowdown}x CPU slowdown.`,
    `Largest (gzip): ${largest.join(", ")}. It is React, MUI and the form (admin/src/sign-in-entry.tsx);`,
    `the sign-in's calls with the contracts and zod follow the load event (${a.deferred.requests} files, ${kb(a.deferred.total.gzip)} gzip),`,
    "and react-admin and the console load once an admin signs in.",
    `The page is prerendered at build time (admin/src/sign-in-prerender.tsx), ${kb(a.page.gzip)} gzip with its styles inline,`,
    "so the largest paint follows the HTML, not the scripts.",
    "Before issue 34 the page loaded the whole console: 5 scripts, 312,697 bytes gzip, LCP 3.4 s (median of 3, same method).",
  ].join(" ");
}
