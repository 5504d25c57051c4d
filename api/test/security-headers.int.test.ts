import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, refusal } from "@booking/contracts";
import { serveBuiltApps, type BuiltApps } from "../src/main/built-apps.ts";
import { installSecurityHeaders } from "../src/http/security-headers.ts";
import { startTestApi, stubPayments, type TestApi } from "./harness.ts";

// Every reply a browser can get (the web app's page, a JSON reply, the admin console) carries
// headers it enforces; Stripe's origins are allowed only when Stripe is configured. Unknown API
// paths answer the JSON 404, never the web app's page. (The e2e suites prove the web app and
// the console work under this policy in Chromium.)

let dist: BuiltApps;
let root = "";
const WEB_PAGE = '<!doctype html><title>web</title><div id="root"></div><script type="module" src="/assets/app.js"></script>';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "built-apps-"));
  dist = { web: join(root, "web"), admin: join(root, "admin") };
  await mkdir(join(dist.web, "assets"), { recursive: true });
  await mkdir(dist.admin, { recursive: true });
  await writeFile(join(dist.web, "index.html"), WEB_PAGE);
  await writeFile(join(dist.web, "assets/app.js"), "console.log('web')");
  await writeFile(join(dist.admin, "index.html"), '<!doctype html><title>admin</title><div id="admin-root"></div>');
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** The policy as directive name → sources. */
function csp(reply: LightMyRequestResponse): Map<string, string[]> {
  const header = reply.headers["content-security-policy"];
  expect(header, `no Content-Security-Policy on ${reply.raw.req.url}`).toBeTypeOf("string");
  return new Map(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectHardened(reply: LightMyRequestResponse) {
  const policy = csp(reply);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("default-src")).toEqual(["'self'"]);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
  // Emotion (MUI) writes <style> tags; scripts stay same-origin files with no inline script or eval.
  expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  expect(policy.get("script-src")?.[0]).toBe("'self'");
  expect(policy.get("script-src")).not.toContain("'unsafe-inline'");
  expect(policy.get("script-src")).not.toContain("'unsafe-eval'");
  expect(reply.headers["x-frame-options"]).toBe("DENY");
  expect(reply.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(reply.headers["x-content-type-options"]).toBe("nosniff");
  return policy;
}

describe.each([
  { stripe: false, payments: stubPayments },
  { stripe: true, payments: { ...stubPayments, name: "stripe" as const, publishableKey: "pk_test_headers" } },
])("security headers, Stripe configured: $stripe", ({ stripe, payments }) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ payments, beforeReady: (app) => serveBuiltApps(app, dist) });
  });
  afterAll(() => api.close());

  it("on the web app's page, a client-side route, a JSON reply, a JSON 404, the admin console and a static file", async () => {
    const replies = {
      page: await api.app.inject({ method: "GET", url: "/" }),
      clientRoute: await api.app.inject({ method: "GET", url: "/bookings/creator" }),
      json: await api.app.inject({ method: "GET", url: "/api/v1/healthz" }),
      notFound: await api.app.inject({ method: "GET", url: "/api/v1/no-such-thing" }),
      admin: await api.app.inject({ method: "GET", url: "/admin/" }),
      asset: await api.app.inject({ method: "GET", url: "/assets/app.js" }),
    };
    expect(replies.page.body).toBe(WEB_PAGE);
    expect(replies.clientRoute.body).toBe(WEB_PAGE);
    expect(replies.json.json()).toEqual({ status: "ok" });
    expect(replies.admin.body).toContain("admin-root");
    for (const [name, reply] of Object.entries(replies)) {
      expect(reply.statusCode, name).toBe(name === "notFound" ? 404 : 200);
      const policy = expectHardened(reply);
      const stripeSources = [...policy.values()].flat().filter((s) => s.includes("stripe.com"));
      if (!stripe) {
        expect(stripeSources, name).toEqual([]);
        expect(policy.get("frame-src"), name).toEqual(["'none'"]);
        expect(policy.get("connect-src"), name).toEqual(["'self'"]);
      } else {
        expect(policy.get("script-src"), name).toContain("https://js.stripe.com");
        expect(policy.get("frame-src"), name).toEqual(expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]));
        expect(policy.get("connect-src"), name).toEqual(["'self'", "https://api.stripe.com"]);
      }
    }
  });
});

describe("unknown /api paths with the web app built", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ beforeReady: (app) => serveBuiltApps(app, dist) });
  });
  afterAll(() => api.close());

  it.each([
    ["GET", "/api/v1/no-such-thing"],
    ["GET", "/api/v1/experts/me/extra/deep"],
    ["GET", "/api/v1/docs/x?y=1"],
    ["GET", "/api"],
    ["GET", "/api/v2/experts"],
    ["POST", "/api/v1/no-such-thing"],
    ["PUT", "/api/v1/no-such-thing"],
    ["PATCH", "/api/v1/bookings"],
    ["DELETE", "/api/v1/no-such-thing"],
    ["HEAD", "/api/v1/no-such-thing"],
  ] as const)("%s %s answers the catalogue's JSON 404, not the web app's page", async (method, url) => {
    const reply = await api.app.inject({ method, url });
    expect(reply.statusCode).toBe(404);
    expect(reply.headers["content-type"]).toMatch(/^application\/json/);
    if (method !== "HEAD") expect(reply.json()).toEqual(errorBody(refusal("not_found")));
  });

  it("while any other path still gets the web app's page (client-side routes)", async () => {
    const reply = await api.app.inject({ method: "GET", url: "/apiary/settings" });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toBe(WEB_PAGE);
  });
});

// Issue 26 item 14: Strict-Transport-Security over plain HTTP is a promise the server cannot keep
// (a dev or intranet host would be pinned to HTTPS it does not serve); it goes with replies to
// requests that came over TLS (directly, or through a trusted proxy's X-Forwarded-Proto), or on
// every reply when the product's public address is https.
describe("Strict-Transport-Security", () => {
  const HSTS = "max-age=31536000; includeSubDomains";
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ beforeReady: (app) => serveBuiltApps(app, dist) });
  });
  afterAll(() => api.close());

  /** A bare app with only the headers, as a process behind no proxy (or a trusted one) serves them. */
  async function headersApp(options: { trustProxy: boolean; publicUrl: string }) {
    const app = Fastify({ trustProxy: options.trustProxy });
    await installSecurityHeaders(app, { stripe: false, publicUrl: options.publicUrl });
    app.get("/", async () => ({ ok: true }));
    await app.ready();
    return app;
  }

  it("is not sent over plain HTTP when the public address is http", async () => {
    for (const url of ["/", "/api/v1/healthz", "/api/v1/no-such-thing", "/admin/"]) {
      const reply = await api.app.inject({ method: "GET", url });
      expect(reply.headers["strict-transport-security"], url).toBeUndefined();
      expectHardened(reply);
    }
  });

  it("is sent when a trusted proxy says the request came over https", async () => {
    for (const url of ["/", "/api/v1/healthz", "/api/v1/no-such-thing"]) {
      const reply = await api.app.inject({ method: "GET", url, headers: { "x-forwarded-proto": "https" } });
      expect(reply.headers["strict-transport-security"], url).toBe(HSTS);
    }
  });

  it("is not sent on a client's own X-Forwarded-Proto when no proxy is trusted", async () => {
    const app = await headersApp({ trustProxy: false, publicUrl: "http://localhost:3000" });
    const reply = await app.inject({ method: "GET", url: "/", headers: { "x-forwarded-proto": "https" } });
    expect(reply.headers["strict-transport-security"]).toBeUndefined();
    await app.close();
  });

  it("is sent on every reply when PUBLIC_URL is https", async () => {
    const app = await headersApp({ trustProxy: false, publicUrl: "https://sessions.example.com" });
    const reply = await app.inject({ method: "GET", url: "/" });
    expect(reply.headers["strict-transport-security"]).toBe(HSTS);
    await app.close();
  });
});
