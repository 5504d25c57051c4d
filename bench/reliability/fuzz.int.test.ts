import { randomUUID } from "node:crypto";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import fc from "fast-check";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_TERMS_VERSION } from "@booking/contracts";
import type { Queryable } from "../../api/src/payments/payments-table.ts";
import { TEST_CARD_SUCCEEDS, TestPaymentProvider } from "../../api/src/payments/test-provider.ts";
import { startTestApi, type TestApi, type TestUser } from "../../api/test/harness.ts";
import { elapsed, printFigure } from "./figure.ts";

// 10,000 generated API requests, eight in flight at a time: every route the app documents (from
// its OpenAPI document) plus the hidden ones, with real and hostile path parameters, query
// strings, bodies (valid, mutated, random JSON, broken JSON, huge, deeply nested, wrong content
// types) and callers (anonymous, creator, expert, admin, broken tokens). No answer may be a 5xx,
// and every error must be `{ code, message }` JSON. Fixed seed (printed; FUZZ_SEED overrides).

const V1 = "/api/v1";
const SEED = Number(process.env.FUZZ_SEED ?? 8_080_808);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const IN_FLIGHT = 8;
const SECRET = "whsec_reliability_fuzz";

let api: TestApi;
const users: Record<"creator" | "other" | "expert" | "admin", TestUser> = {} as never;
const real = { session: "", draft: "", booking: "", paidBooking: "", slug: "", clientSecret: "" };

async function must(
  user: TestUser | undefined,
  method: InjectOptions["method"],
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  const r = await api.call(method, url, { user, body, headers: { "x-forwarded-for": "198.51.100.1" } });
  if (r.statusCode >= 300) throw new Error(`fixture ${method} ${url}: ${r.statusCode} ${r.body}`);
  return r;
}

beforeAll(async () => {
  const lazy: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
  api = await startTestApi({ payments: new TestPaymentProvider(lazy), stripeWebhookSecret: SECRET });
  users.creator = await api.user("creator");
  users.other = await api.user("creator");
  users.expert = await api.user("expert");
  users.admin = await api.user("admin");
  real.slug = (
    await must(users.expert, "PATCH", `${V1}/experts/me`, { first_name: "Fuzz", last_name: "Target", title: "Tester", published: true })
  ).json().slug;
  await api.approve(users.expert);
  const week = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await must(users.expert, "POST", `${V1}/experts/${users.expert.id}/schedule`, { timezone: "UTC", slots: week });
  const session = { title: "Fuzzing", price: 100, length_minutes: 60, prep_question_1: "Why?", status: "published" };
  real.session = (await must(users.expert, "POST", `${V1}/sessions`, session)).json().session.id;
  real.draft = (await must(users.expert, "POST", `${V1}/sessions`, { ...session, status: "draft" })).json().session.id;
  const times: string[] = (await must(undefined, "GET", `${V1}/sessions/${real.session}/availability`)).json().times;
  real.booking = (
    await must(users.creator, "POST", `${V1}/bookings`, { session_id: real.session, scheduled_time: times[5] })
  ).json().booking.id;
  real.paidBooking = (
    await must(users.creator, "POST", `${V1}/bookings`, { session_id: real.session, scheduled_time: times[15] })
  ).json().booking.id;
  real.clientSecret = (await must(users.creator, "POST", `${V1}/stripe/test-intent`, { bookingId: real.paidBooking })).json().clientSecret;
  await must(users.creator, "POST", `${V1}/payments/test/confirm`, { client_secret: real.clientSecret, card_number: TEST_CARD_SUCCEEDS });
});

afterAll(async () => {
  if (!api) return;
  // A generated rebuild may still run: let it finish before the database goes.
  for (let i = 0; i < 600; i++) {
    const r = await api.call("GET", `${V1}/admin/projections`, { user: users.admin });
    const list = r.statusCode === 200 ? r.json<{ rebuild?: { state?: string } | null }[]>() : [];
    if (!list.some((p) => p.rebuild?.state === "running")) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  await api.close();
});

type Route = { method: string; path: string };

/** The routes the app serves under /api/v1: its OpenAPI document, plus the routes it hides there. */
function routesOf(app: TestApi["app"]): Route[] {
  const doc = app.swagger() as { paths?: Record<string, Record<string, unknown>> };
  const routes: Route[] = [];
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const method of Object.keys(methods)) {
      if (["get", "post", "put", "patch", "delete"].includes(method))
        routes.push({ method: method.toUpperCase(), path: path.startsWith(V1) ? path.slice(V1.length) : path });
    }
  }
  for (const hidden of ["/healthz", "/readyz", "/docs"])
    if (!routes.some((r) => r.path === hidden)) routes.push({ method: "GET", path: hidden });
  return routes.sort((a, b) => `${a.method} ${a.path}`.localeCompare(`${b.method} ${b.path}`));
}

const soon = () => {
  const d = new Date(Date.now() + 3 * 86_400_000);
  d.setUTCHours(11, 0, 0, 0);
  return d.toISOString();
};

/** A valid body for the routes that take one (mutations start from it). */
function template(route: Route): unknown {
  const key = `${route.method} ${route.path}`;
  const templates: Record<string, unknown> = {
    "POST /terms/accept": { version_id: CURRENT_TERMS_VERSION },
    "PATCH /experts/me": {
      first_name: "Fuzz",
      last_name: "Target",
      title: "Tester",
      bio: "Bio",
      tags: ["a"],
      profile_image: null,
      published: true,
    },
    "POST /experts/{expertId}/schedule": { timezone: "UTC", slots: [{ weekday: "monday", start_local: "09:00", end_local: "17:00" }] },
    "POST /sessions": {
      title: "T",
      description: "D",
      price: 10,
      length_minutes: 30,
      prep_question_1: "Q",
      ideal_for: ["x"],
      status: "draft",
    },
    "PUT /sessions/{id}": { status: "published" },
    "POST /bookings": { session_id: real.session, scheduled_time: soon() },
    "PATCH /bookings/{bookingId}/status": { status: "more_info_requested", info_request_note: "More?" },
    "PATCH /bookings/{bookingId}/schedule": { scheduled_time: soon() },
    "PATCH /bookings/{bookingId}/prep": { prep_response_1: "a" },
    "POST /bookings/{bookingId}/notes": { summary: "S", recap: "R", takeaways: ["t"], suggested_actions: ["s"] },
    "POST /stripe/test-intent": { bookingId: real.booking },
    "POST /payments/test/confirm": { client_secret: real.clientSecret, card_number: TEST_CARD_SUCCEEDS },
    "POST /stripe/webhook": {
      id: "evt_1",
      object: "event",
      type: "payment_intent.succeeded",
      data: {
        object: { id: "pi_1", amount: 10_000, amount_received: 10_000, metadata: { bookingId: real.booking, expertId: users.expert.id } },
      },
    },
    "POST /auth/signup": { email: `f-${randomUUID().slice(0, 6)}@example.com`, password: "fuzz-Passw0rd-1", role: "creator" },
    "POST /auth/login": { email: "nobody@example.com", password: "fuzz-Passw0rd-1" },
    "POST /auth/refresh": {},
    "POST /auth/logout": { scope: "local" },
    "POST /auth/password": { password: "another-Passw0rd-2" },
    "POST /auth/verify": { token: "x.y" },
    "POST /auth/verify/resend": { email: "nobody@example.com" },
    "POST /auth/recover": { email: "nobody@example.com" },
    "POST /auth/reset": { token: "x.y", password: "another-Passw0rd-3" },
    "PUT /auth/me/preferences": { timezone: "UTC", reminder_mails: true },
    "POST /mail/unsubscribe": { token: "x.y" },
    "PUT /admin/experts/{id}": { verified: true, reason: "Vetted" },
  };
  return templates[key] ?? (route.method === "GET" || route.method === "DELETE" ? undefined : {});
}

const NASTY = [
  "",
  " ",
  "..",
  "../../etc/passwd",
  "%00",
  "\u0000",
  "%",
  "%zz",
  "null",
  "NaN",
  "-1",
  "1e309",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "'; DROP TABLE bookings; --",
  "<script>",
  "😀",
  "\uFEFF",
  "\u202E",
  "é".repeat(200),
  "x".repeat(5000),
  "2026-02-30",
  "9999-12-31T23:59:59Z",
  "a/b",
  "a?b",
  "a#b",
];
const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=zzz",
  "application/octet-stream",
  "",
  "application/xml",
];
const CALLERS = ["anonymous", "creator", "other", "expert", "admin", "expired", "garbage", "alg-none"] as const;
type Caller = (typeof CALLERS)[number];

function authorization(caller: Caller): string | undefined {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  switch (caller) {
    case "anonymous":
      return undefined;
    case "expired":
      return `Bearer ${api.app.jwt.sign({ sub: users.creator.id, role: "creator", email: users.creator.email, sid: randomUUID() }, { expiresIn: -10 } as never)}`;
    case "garbage":
      return "Bearer a.b.c";
    case "alg-none":
      return `Bearer ${b64({ alg: "none" })}.${b64({ sub: users.admin.id, role: "admin", email: "a@x" })}.`;
    default:
      return `Bearer ${users[caller].token}`;
  }
}

type Fuzzed = { route: string; method: string; url: string; headers: Record<string, string>; payload?: string };

function generator(routes: Route[]): fc.Arbitrary<Fuzzed> {
  const ids = () => [
    real.session,
    real.draft,
    real.booking,
    real.paidBooking,
    real.slug,
    users.expert.id,
    users.creator.id,
    users.admin.id,
    "bookings",
    "users",
    "no-such-id",
  ];
  const weird = fc.oneof(fc.constantFrom(...NASTY), fc.string({ maxLength: 30 }), fc.string({ unit: "grapheme", maxLength: 20 }));
  const json = fc.jsonValue({ maxDepth: 3 });
  return fc
    .record({
      route: fc.constantFrom(...routes),
      otherMethod: fc.option(fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"), { freq: 6 }),
      param: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ids()) }, { weight: 2, arbitrary: weird }),
      query: fc.oneof(
        fc.constant(""),
        fc
          .dictionary(
            fc.constantFrom("from", "to", "search", "sort", "range", "filter", "v", "access_token", "__proto__"),
            fc.oneof(
              weird,
              json.map((v) => JSON.stringify(v)),
            ),
            { maxKeys: 3 },
          )
          .map((q) => `?${new URLSearchParams(q as Record<string, string>)}`),
        fc.constantFrom(
          "?",
          "?&&",
          "?from=2026-02-30",
          "?range=[0,1e309]",
          '?sort=["id","DROP"]',
          "?filter=%7B",
          `?search=${"a".repeat(3000)}`,
        ),
      ),
      body: fc.oneof(
        { weight: 3, arbitrary: fc.constant("template") },
        { weight: 3, arbitrary: fc.tuple(fc.string({ maxLength: 20 }), fc.oneof(weird, json)).map(([k, v]) => ({ mutate: k, value: v })) },
        { weight: 2, arbitrary: json.map((v) => ({ raw: JSON.stringify(v) })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(
              "{",
              "[1,]",
              '{"a":}',
              "\u0000",
              "undefined",
              '{"__proto__":{"role":"admin"}}',
              "[".repeat(3000) + "]".repeat(3000),
              JSON.stringify({ title: "y".repeat(1_100_000) }),
            )
            .map((raw) => ({ raw })),
        },
        { weight: 1, arbitrary: fc.constant("none") },
      ),
      contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 4 }),
      caller: fc.constantFrom(...CALLERS),
      signWebhook: fc.boolean(),
      ip: fc.nat({ max: 250 }),
    })
    .map((g): Fuzzed => {
      const method = g.otherMethod ?? g.route.method;
      const path = g.route.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        name === "expertId" && g.param === "no-such-id" ? users.expert.id : encodeURIComponent(g.param),
      );
      const headers: Record<string, string> = { "x-forwarded-for": `10.9.${g.ip}.${g.ip % 200}` };
      const auth = authorization(g.caller);
      if (auth) headers.authorization = auth;
      const tpl = template(g.route);
      let payload: string | undefined;
      if (g.body === "template") payload = tpl === undefined ? undefined : JSON.stringify(tpl);
      else if (g.body === "none") payload = undefined;
      else if ("raw" in g.body) payload = g.body.raw;
      else {
        const base = tpl && typeof tpl === "object" && !Array.isArray(tpl) ? (tpl as Record<string, unknown>) : {};
        const keys = Object.keys(base);
        const key = keys.length && g.body.mutate.length % 2 === 0 ? keys[g.body.mutate.length % keys.length]! : g.body.mutate;
        payload = JSON.stringify({ ...base, [key]: g.body.value });
      }
      if (payload !== undefined) headers["content-type"] = g.contentType ?? "application/json";
      if (g.route.path === "/stripe/webhook" && g.signWebhook && payload !== undefined) {
        headers["content-type"] = "application/json";
        headers["stripe-signature"] = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
      }
      return {
        route: `${g.route.method} ${g.route.path}`,
        method,
        url: `${V1}${path}${g.query}`,
        headers,
        ...(payload === undefined ? {} : { payload }),
      };
    });
}

const STACK = /\n\s+at |\bat [^\s]+ \(|\/work\/|node_modules|file:\/\/|\.(?:ts|js|mjs):\d+/;

function problems(r: Fuzzed, res: LightMyRequestResponse): string[] {
  const out: string[] = [];
  const readiness = res.statusCode === 503 && /\/readyz\/?$/.test(r.url.split("?")[0]!);
  if (res.statusCode >= 500 && !readiness) out.push(`status ${res.statusCode}`);
  if (res.statusCode >= 400 && r.method !== "HEAD" && !readiness) {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      out.push("error body is not JSON");
    }
    if (body !== undefined) {
      const keys = body && typeof body === "object" ? Object.keys(body).sort().join() : typeof body;
      if (keys !== "code,message") out.push(`error body is not {code, message} (${keys})`);
    }
    if (STACK.test(res.body)) out.push("error body shows a stack or a file path");
  }
  return out;
}

describe("fuzzing the API", () => {
  it(`${RUNS} generated requests, ${IN_FLIGHT} in flight: no 5xx, every error is {code, message}`, async () => {
    const t0 = performance.now();
    const routes = routesOf(api.app);
    const requests = fc.sample(generator(routes), { seed: SEED, numRuns: RUNS });
    const statuses = new Map<number, number>();
    const hit = new Set<string>();
    const findings = new Map<string, { count: number; example: string }>();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < requests.length) {
          const r = requests[next++]!;
          let res: LightMyRequestResponse;
          try {
            res = await api.app.inject({
              method: r.method as InjectOptions["method"],
              url: r.url,
              headers: r.headers,
              ...(r.payload === undefined ? {} : { payload: r.payload }),
            });
          } catch (e) {
            const key = `inject threw | ${r.route}`;
            findings.set(key, {
              count: (findings.get(key)?.count ?? 0) + 1,
              example: `${r.method} ${r.url.slice(0, 200)}: ${(e as Error).message}`,
            });
            continue;
          }
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          hit.add(r.route);
          for (const p of problems(r, res)) {
            const key = `${p} | ${r.route}`;
            findings.set(key, {
              count: (findings.get(key)?.count ?? 0) + 1,
              example: `${r.method} ${r.url.slice(0, 200)} body=${(r.payload ?? "").slice(0, 120)} -> ${res.statusCode} ${res.body.slice(0, 200)}`,
            });
          }
        }
      }),
    );
    const { rows: broken } = await api.ctx.db.query<{ name: string; last_error: string }>(
      "SELECT name, last_error FROM projection_checkpoints WHERE last_error IS NOT NULL",
    );
    printFigure("10,000 fuzzed API requests", {
      seed: SEED,
      requests: requests.length,
      "routes documented + hidden": routes.length,
      "routes hit": hit.size,
      "status histogram": Object.fromEntries([...statuses.entries()].sort(([a], [b]) => a - b)),
      "5xx": [...statuses.entries()].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0),
      "read models with an error after the run": broken.map((b) => `${b.name}: ${b.last_error.slice(0, 120)}`),
      findings: findings.size ? Object.fromEntries([...findings.entries()].map(([k, v]) => [k, `x${v.count}, e.g. ${v.example}`])) : "none",
      time: elapsed(t0),
    });
    expect(requests.length).toBe(RUNS);
    expect(hit.size).toBe(routes.length);
    expect([...findings.keys()]).toEqual([]);
    expect(broken).toEqual([]);
  });
});
