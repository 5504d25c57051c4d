import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress } from "../../scripts/precompress.mjs";
import { HASHED_ASSET_CACHE, LANDING_PAGE, serveBuiltApps, type BuiltApps } from "../src/main/built-apps.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// How the built apps reach a browser: a hashed asset compressed (brotli, else gzip) and cached
// for a year as immutable; the page that names the assets revalidated on every load, so a
// deploy is seen at the next visit.

const ASSET = "assets/index-Ab12Cd34.js";
/** The build's prerendered landing page (web/prerender-landing.ts) says this. */
const LANDING_HEADING = "We make it easy for creators to reach the right experts";
const SCRIPT = `export const screens = [${Array.from({ length: 400 }, (_, i) => `"screen-${i}"`).join(", ")}];\n`;
let root = "";
let api: TestApi;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "web-delivery-"));
  const dist: BuiltApps = { web: join(root, "web"), admin: join(root, "admin") };
  await mkdir(join(dist.web, "assets"), { recursive: true });
  await mkdir(join(dist.admin, "assets"), { recursive: true });
  await writeFile(
    join(dist.web, "index.html"),
    `<!doctype html><title>web</title><div id="root"></div><script type="module" src="/${ASSET}"></script>${" ".repeat(2000)}`,
  );
  await writeFile(
    join(dist.web, LANDING_PAGE),
    `<!doctype html><title>web</title><div id="root"><h1>${LANDING_HEADING}</h1></div><script type="module" src="/${ASSET}"></script>${" ".repeat(2000)}`,
  );
  await writeFile(join(dist.web, ASSET), SCRIPT);
  await writeFile(join(dist.admin, "index.html"), "<!doctype html><title>admin</title>");
  await writeFile(join(dist.admin, "assets/console-Zz98Yy76.js"), SCRIPT);
  const written = [...precompress(dist.web), ...precompress(dist.admin)];
  expect(written.map((w) => w.file.slice(root.length))).toEqual(
    expect.arrayContaining([`/web/${ASSET}`, "/web/index.html", "/admin/assets/console-Zz98Yy76.js"]),
  );
  api = await startTestApi({ beforeReady: (app) => serveBuiltApps(app, dist) });
});

afterAll(async () => {
  await api?.close();
  await rm(root, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  api.app.inject({ method: "GET", url, headers: encoding ? { "accept-encoding": encoding } : {} });

describe("built apps", () => {
  it("send a hashed asset as brotli to a browser that accepts it, immutable for a year", async () => {
    const r = await get(`/${ASSET}`, "gzip, deflate, br");
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-encoding"]).toBe("br");
    expect(r.headers["cache-control"]).toBe(HASHED_ASSET_CACHE);
    expect(String(r.headers["vary"])).toMatch(/accept-encoding/i);
    expect(r.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(SCRIPT);
  });

  it("send gzip where brotli is not accepted, and the plain file where nothing is", async () => {
    const gz = await get(`/${ASSET}`, "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get(`/${ASSET}`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers["cache-control"]).toBe(HASHED_ASSET_CACHE);
  });

  it("revalidate index.html on every load, at / and at any client-side route", async () => {
    for (const url of ["/", "/index.html", "/experts", "/expert-profile/some-one"]) {
      const r = await get(url, "br");
      expect(r.statusCode, url).toBe(200);
      expect(r.headers["cache-control"], url).toBe("no-cache");
      expect(r.headers["content-encoding"], url).toBe("br");
      expect(brotliDecompressSync(r.rawPayload).toString(), url).toContain(ASSET);
    }
  });

  it("send the prerendered landing page at / only: every other address starts from the empty page", async () => {
    const landing = await get("/", "br");
    expect(brotliDecompressSync(landing.rawPayload).toString()).toContain(LANDING_HEADING);
    for (const url of ["/index.html", "/login", "/experts"]) {
      const r = await get(url, "br");
      expect(r.statusCode, url).toBe(200);
      expect(brotliDecompressSync(r.rawPayload).toString(), url).not.toContain(LANDING_HEADING);
    }
  });

  it("treat the admin console the same", async () => {
    const asset = await get("/admin/assets/console-Zz98Yy76.js", "br");
    expect(asset.headers["content-encoding"]).toBe("br");
    expect(asset.headers["cache-control"]).toBe(HASHED_ASSET_CACHE);
    const page = await get("/admin/", "br");
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-cache");
  });
});
