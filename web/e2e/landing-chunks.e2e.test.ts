import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { build, type Rolldown } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveBuiltApps } from "../../api/src/built-apps.ts";
import { launchChromium } from "./chromium.ts";

// Issue 19: a visitor's first page does not wait for the dashboards, the booking wizard or Stripe.
// The app is built here (its chunks and the source modules in each), served by the API's own
// serveBuiltApps, and / is opened in Chromium: the scripts it fetches, mapped back to modules,
// must hold the landing page and none of the signed-in screens. A static import of one of them in
// routes.tsx (or anywhere the landing page reaches) puts it in the first chunk and fails this.

const root = fileURLToPath(new URL("..", import.meta.url));

/** Source modules that only signed-in screens or the wizard need, with Stripe's packages. */
const NOT_ON_FIRST_LOAD = /[\\/]web[\\/]src[\\/](expert-dashboard|creator-dashboard|booking|manage-booking|session-notes|sessions|account)[\\/]|[\\/]node_modules[\\/]@stripe[\\/]/;

let outDir = "";
let chunks = new Map<string, Rolldown.OutputChunk>();
let server: FastifyInstance;
let origin = "";
let browser: Browser;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "landing-chunks-"));
  // Vitest runs with NODE_ENV=test, which would give React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    const output = await build({ root, configFile: join(root, "vite.config.ts"), logLevel: "warn", mode: "production", build: { outDir, emptyOutDir: true } });
    const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
    chunks = new Map(outputs.flatMap((o) => o.output).flatMap((o) => (o.type === "chunk" ? [[o.fileName, o] as const] : [])));
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  server = Fastify();
  await serveBuiltApps(server, { web: outDir, admin: join(outDir, "no-admin") });
  origin = await server.listen({ port: 0, host: "127.0.0.1" });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** The chunks the entry imports statically, transitively: what index.html preloads. */
function firstLoadChunks(): Set<string> {
  const entry = [...chunks.values()].find((c) => c.isEntry);
  if (!entry) throw new Error("the build has no entry chunk");
  const found = new Set<string>();
  const visit = (file: string) => {
    if (found.has(file)) return;
    found.add(file);
    for (const next of chunks.get(file)?.imports ?? []) visit(next);
  };
  visit(entry.fileName);
  return found;
}

describe("the landing page's first load", () => {
  it("fetches the landing page's chunks only: no dashboard, wizard, account or Stripe module", async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname.slice(1));
    });
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    // Anything fetched right after load counts too: a prefetch of a dashboard is still its bytes.
    await page.waitForLoadState("networkidle");
    await page.close();

    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((file) => !chunks.has(file)), "every script fetched is a chunk of this build").toEqual([]);
    const modules = scripts.flatMap((file) => Object.keys(chunks.get(file)!.modules));
    expect(modules.some((m) => m.endsWith("/web/src/landing/landing-page.tsx"))).toBe(true);
    expect(modules.filter((m) => NOT_ON_FIRST_LOAD.test(m)).map((m) => m.replace(/.*[\\/](web[\\/]src|node_modules)[\\/]/, ""))).toEqual([]);
    expect(scripts.filter((file) => !firstLoadChunks().has(file)), "no lazy chunk is fetched on the landing page").toEqual([]);
  });

  it("keeps the signed-in screens in chunks of their own, fetched when their route opens", () => {
    const lazy = [...chunks.values()].filter((c) => c.isDynamicEntry).map((c) => c.facadeModuleId ?? "");
    for (const screen of ["expert-dashboard/expert-dashboard-page.tsx", "creator-dashboard/creator-dashboard-page.tsx", "booking/book-session-page.tsx", "booking/stripe-card-form.tsx"]) {
      expect(lazy.some((id) => id.endsWith(`/web/src/${screen}`)), screen).toBe(true);
    }
  });
});
