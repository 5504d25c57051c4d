import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Fastify, { type FastifyInstance } from "fastify";
import type { Browser } from "playwright-core";
import { build, type Rolldown } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveBuiltApps } from "../../api/src/main/built-apps.ts";
import { launchChromium, takeCspViolations } from "./chromium.ts";

// Issue 19: a visitor's first page does not wait for the dashboards, the booking wizard or Stripe.
// The app is built here (its chunks and the source modules in each), served by the API's own
// serveBuiltApps, and / is opened in Chromium: the scripts it fetches, mapped back to modules,
// must hold the landing page and none of the signed-in screens. A static import of one of them in
// routes.tsx (or anywhere the landing page reaches) puts it in the first chunk and fails this.

const root = fileURLToPath(new URL("..", import.meta.url));

/** Source modules that only signed-in screens or the wizard need, with Stripe's packages. */
const NOT_ON_FIRST_LOAD =
  /[\\/]web[\\/]src[\\/](expert-dashboard|creator-dashboard|book-session|manage-booking|session-notes|sessions|account)[\\/]|[\\/]node_modules[\\/]@stripe[\\/]/;

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
    const output = await build({
      root,
      configFile: join(root, "vite.config.ts"),
      logLevel: "warn",
      mode: "production",
      build: { outDir, emptyOutDir: true },
    });
    const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
    chunks = new Map(outputs.flatMap((o) => o.output).flatMap((o) => (o.type === "chunk" ? [[o.fileName, o] as const] : [])));
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  server = Fastify();
  // The one call the landing page makes after its load (the hero's experts, issue 27.2): an empty marketplace's answer.
  server.get("/api/v1/experts", async () => []);
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
  it("fetches the landing page's chunks only: no dashboard, wizard, account or Stripe module; the API client after the load", async () => {
    const page = await browser.newPage();
    const scripts: { file: string; afterLoad: boolean }[] = [];
    let loaded = false;
    page.on("load", () => (loaded = true));
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push({ file: new URL(request.url()).pathname.slice(1), afterLoad: loaded });
    });
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    // Anything fetched right after load counts too: a prefetch of a dashboard is still its bytes.
    await page.waitForLoadState("networkidle");
    await page.close();

    const files = scripts.map((s) => s.file);
    expect(files.length).toBeGreaterThan(0);
    expect(
      files.filter((file) => !chunks.has(file)),
      "every script fetched is a chunk of this build",
    ).toEqual([]);
    const modules = files.flatMap((file) => Object.keys(chunks.get(file)!.modules));
    expect(modules.some((m) => m.endsWith("/web/src/landing/landing-page.tsx"))).toBe(true);
    expect(modules.filter((m) => NOT_ON_FIRST_LOAD.test(m)).map((m) => m.replace(/.*[\\/](web[\\/]src|node_modules)[\\/]/, ""))).toEqual(
      [],
    );
    const first = firstLoadChunks();
    const lazy = scripts.filter((s) => !first.has(s.file));
    // The API client (the session check, web/src/shared/auth.tsx) is the one chunk fetched later,
    // once the page has loaded: nothing else, and not before.
    expect(
      lazy
        .filter((s) => !Object.keys(chunks.get(s.file)!.modules).some((m) => m.endsWith("/web/src/shared/api-client.ts")))
        .map((s) => s.file),
      "no other lazy chunk is fetched on the landing page",
    ).toEqual([]);
    expect(
      lazy.map((s) => s.afterLoad),
      "the API client is fetched once, after the load event",
    ).toEqual([true]);
  });

  it("keeps the signed-in screens in chunks of their own, fetched when their route opens", () => {
    const lazy = [...chunks.values()].filter((c) => c.isDynamicEntry).map((c) => c.facadeModuleId ?? "");
    for (const screen of [
      "expert-dashboard/expert-dashboard-page.tsx",
      "creator-dashboard/creator-dashboard-page.tsx",
      "book-session/book-session-page.tsx",
      "book-session/stripe-card-form.tsx",
    ]) {
      expect(
        lazy.some((id) => id.endsWith(`/web/src/${screen}`)),
        screen,
      ).toBe(true);
    }
  });
});

/**
 * The root's markup, written the same way whoever made it: without emotion's <style> tags (inline
 * in the prerendered page, moved to <head> by the browser's emotion), comments (React's markers
 * in server markup) and split text nodes, with each style attribute as the browser reads it.
 */
const ROOT_MARKUP = `(() => {
  const root = document.getElementById("root").cloneNode(true);
  root.querySelectorAll("style").forEach((s) => s.remove());
  const comments = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const found = [];
  while (comments.nextNode()) found.push(comments.currentNode);
  found.forEach((c) => c.remove());
  root.normalize();
  root.querySelectorAll("[style]").forEach((e) => e.setAttribute("style", e.style.cssText));
  return root.innerHTML;
})()`;

describe("the prerendered landing page", () => {
  it("paints its heading, styled, from the HTML alone: no script needed", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    const heading = page.getByRole("heading", { level: 1 });
    expect(await heading.textContent()).toMatch(/We make it easy for creators/);
    // Styled: the hero's size from emotion's inline styles, not the browser's default h1.
    expect(await heading.evaluate((h) => getComputedStyle(h).fontWeight)).toBe("800");
    await context.close();
  });

  it("has the phone's header on a phone before any script: the Menu button, not the wide links", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    expect(await page.getByRole("button", { name: "Menu" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Login" }).count()).toBe(0);
    await context.close();
  });

  it("is taken over by React without a mismatch: the same markup as a page React draws itself, no error, and it responds", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", (m) => void (m.type() === "error" || m.type() === "warning" ? problems.push(m.text()) : undefined));
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(`${origin}/`, { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    // Hydrated: the first answer's button closes it only when React's handlers are attached.
    const first = page.getByRole("button", { name: /Who are the experts/ });
    await expect.poll(async () => (await first.click(), await first.getAttribute("aria-expanded")), { timeout: 10_000 }).toBe("false");
    await first.click();
    // Compared once the hero's experts have answered (issue 27.2), as the page drawn below has them.
    const heroSettled = () => page.locator('ul[aria-label="Featured experts"][aria-busy="false"]').waitFor();
    await heroSettled();
    const hydrated = await page.evaluate<string>(ROOT_MARKUP);

    // The same page drawn by React alone: open another address, come back through the logo's link.
    await page.goto(`${origin}/terms`, { waitUntil: "load" });
    await page
      .getByRole("link", { name: /Expert Sessions/ })
      .first()
      .click();
    await page.getByRole("heading", { level: 1, name: /We make it easy for creators/ }).waitFor();
    await heroSettled();
    const drawn = await page.evaluate<string>(ROOT_MARKUP);
    await context.close();

    expect(problems).toEqual([]);
    expect(takeCspViolations(browser)).toEqual([]);
    expect(hydrated).toBe(drawn);
  });
});
