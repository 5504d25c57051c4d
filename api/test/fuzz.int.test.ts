import { createHmac, randomUUID } from "node:crypto";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import fc from "fast-check";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_TERMS_VERSION } from "@booking/contracts";
import { allProjections } from "@booking/projections";
import { signLink } from "../src/auth/signed-links.ts";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TEST_CARD_SUCCEEDS, TestPaymentProvider } from "../src/payments/test-provider.ts";
import { injectPost, signUpVerified } from "./auth-client.ts";
import { TEST_JWT_SECRET, startTestApi, type TestApi, type TestUser } from "./harness.ts";
import { ROUTE_CATALOGUE, normalisedCatalogue, registeredRoutes, splitRoute, type CatalogueRoute } from "./route-catalogue.ts";

// Robustness: thousands of generated requests over every route — odd methods, path parameters
// (unicode, very long, `..`, `%00`), query strings, JSON bodies of random shapes (deeply nested,
// huge, special numbers, arrays for objects, prototype keys), missing or wrong content types and
// text that is not JSON — sent anonymously, with broken tokens and as a creator, an expert and an
// admin. No reply may be a 5xx, and every error must be `{ code, message }` JSON with no stack
// trace or file path. Requests are generated up front from a fixed seed (printed; FUZZ_SEED
// overrides it, FUZZ_RUNS the count) and replayed with app.inject, so a failure can be reproduced.

const V1 = "/api/v1";
const WEBHOOK_SECRET = "whsec_fuzz_secret";
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_517);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
const PASSWORD = "fuzz-Passw0rd-1";

let api: TestApi;
let creator: TestUser;
let otherCreator: TestUser;
let expert: TestUser;
let admin: TestUser;
let account: { email: string };
const real = { session: "", draft: "", booking: "", paidBooking: "", slug: "", clientSecret: "", eventId: "", receipt: "" };

async function must(
  user: TestUser | undefined,
  method: InjectOptions["method"],
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  const r = await api.call(method, url, { user, body, headers: { "x-forwarded-for": "203.0.113.1" } });
  if (r.statusCode >= 300) throw new Error(`fixture: ${method} ${url} → ${r.statusCode} ${r.body}`);
  return r;
}

beforeAll(async () => {
  const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
  api = await startTestApi({ payments: new TestPaymentProvider(lazyDb), stripeWebhookSecret: WEBHOOK_SECRET });
  creator = await api.user("creator");
  otherCreator = await api.user("creator");
  expert = await api.user("expert");
  admin = await api.user("admin");
  const signup = await signUpVerified(
    api.ctx.db,
    injectPost(
      () => api,
      () => ({ "x-forwarded-for": "203.0.113.1" }),
    ),
    { email: `fuzz-${randomUUID().slice(0, 8)}@example.com`, password: PASSWORD, role: "creator" },
  );
  account = { email: signup.user.email };

  real.slug = (
    await must(expert, "PATCH", `${V1}/experts/me`, { first_name: "Fuzz", last_name: "Expert", title: "Tester", published: true })
  ).json().slug;
  await api.approve(expert);
  const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
    weekday,
    start_local: "00:00",
    end_local: "23:30",
  }));
  await must(expert, "POST", `${V1}/experts/${expert.id}/schedule`, { timezone: "UTC", slots: everyDay });
  const session = { title: "Fuzzing", price: 100, length_minutes: 60, prep_question_1: "Why?", status: "published" };
  real.session = (await must(expert, "POST", `${V1}/sessions`, session)).json().session.id;
  real.draft = (await must(expert, "POST", `${V1}/sessions`, { ...session, status: "draft" })).json().session.id;
  const times: string[] = (await must(undefined, "GET", `${V1}/sessions/${real.session}/availability`)).json().times;
  real.booking = (await must(creator, "POST", `${V1}/bookings`, { session_id: real.session, scheduled_time: times[10] })).json().booking.id;
  real.paidBooking = (
    await must(creator, "POST", `${V1}/bookings`, { session_id: real.session, scheduled_time: times[20] })
  ).json().booking.id;
  real.clientSecret = (await must(creator, "POST", `${V1}/stripe/test-intent`, { bookingId: real.paidBooking })).json().clientSecret;
  await must(creator, "POST", `${V1}/payments/test/confirm`, { client_secret: real.clientSecret, card_number: TEST_CARD_SUCCEEDS });
  real.eventId = (await must(admin, "GET", `${V1}/admin/events?range=[0,0]`)).json()[0].id;
  real.receipt = (await must(creator, "GET", `${V1}/bookings/${real.paidBooking}/receipts`)).json().receipts[0].key;
});

afterAll(async () => {
  if (!api) return;
  // A generated rebuild may still run in the background: let it finish before the database goes.
  for (let i = 0; i < 600; i++) {
    const r = await api.call("GET", `${V1}/admin/projections`, { user: admin });
    if (!r.json<{ rebuild: { state: string } | null }[]>().some((p) => p.rebuild?.state === "running")) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await api.close();
});

// ---------------------------------------------------------------------------------------------
// Generators

const LONG = "x".repeat(5000);
const nastyStrings = [
  "",
  " ",
  "..",
  "../..",
  "../../../../etc/passwd",
  "..%2f..%2f",
  "%2e%2e",
  "%00",
  "\u0000",
  "a\u0000b",
  "%",
  "%zz",
  "%ff%fe",
  "null",
  "undefined",
  "NaN",
  "-0",
  "1e309",
  "-1e309",
  "Infinity",
  "0x1f",
  "true",
  "[]",
  "{}",
  "[object Object]",
  "__proto__",
  "constructor",
  "prototype",
  "'; DROP TABLE bookings; --",
  '" OR 1=1 --',
  "<script>alert(1)</script>",
  "${7*7}",
  "{{7*7}}",
  "😀",
  "é",
  "e\u0301",
  "\uFEFF",
  "\u202Eevil",
  "\uD800",
  "ǅ",
  "Ⅻ",
  "٣",
  "\r\nX-Injected: 1",
  "a\rb",
  "a\u2028b\u2029c",
  "a\u0085b\u000bc\u000cd",
  "a/b",
  "a\\b",
  "a?b=c",
  "a#b",
  "2026-02-30",
  "2026-13-01T25:61:00Z",
  "9999-12-31T23:59:59.999Z",
  "+275760-09-13T00:00:00.000Z",
  "1970-01-01T00:00:00Z",
  LONG,
  "é".repeat(3000),
];

function fuzzArbitraries() {
  const realIds = [
    real.session,
    real.draft,
    real.booking,
    real.paidBooking,
    expert.id,
    creator.id,
    admin.id,
    real.slug,
    real.eventId,
    "no-such-id",
    ...allProjections.map((p) => p.name),
    `${creator.id}:${CURRENT_TERMS_VERSION}`,
  ];
  const weirdString = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...nastyStrings) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) },
  );
  const paramValue = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...realIds) }, { weight: 2, arbitrary: weirdString });
  const numberish = fc.constantFrom(-0, 0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 2, 2 ** 31, 1e-320, 150, 60, 30, 90, 45);
  const weirdJson: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 3, arbitrary: weirdString },
    { weight: 2, arbitrary: numberish },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [[]], { a: { b: { c: {} } } }, ["x"], [1, 2, 3]) },
    { weight: 1, arbitrary: fc.constantFrom(...realIds) },
  );
  return { weirdString, paramValue, weirdJson };
}

/** A valid call of each route (parameters, query, body), the seed every mutation starts from. */
function template(route: CatalogueRoute): { params: Record<string, string>; query?: Record<string, string>; body?: unknown } {
  const bookingId = real.booking;
  const soon = new Date(Date.now() + 3 * 24 * 3600_000);
  soon.setUTCHours(10, 0, 0, 0);
  const params = { id: real.session, expertId: expert.id, slug: real.slug, bookingId, userId: creator.id };
  const list = { sort: '["id","ASC"]', range: "[0,9]", filter: "{}" };
  switch (route) {
    case "POST /terms/accept":
      return { params, body: { version_id: CURRENT_TERMS_VERSION } };
    case "GET /experts/search":
      return { params, query: { search: "fuzz" } };
    case "PATCH /experts/me":
      return {
        params,
        body: { first_name: "Fuzz", last_name: "Expert", title: "Tester", bio: "Bio", tags: ["a"], profile_image: null, published: true },
      };
    case "POST /experts/:expertId/schedule":
      return { params, body: { timezone: "UTC", slots: [{ weekday: "monday", start_local: "09:00", end_local: "17:00" }] } };
    case "PUT /experts/:expertId/booking-rules":
      return { params, body: { buffer_before_minutes: 10, buffer_after_minutes: 15, min_notice_hours: 12 } };
    case "POST /experts/:expertId/time-off":
      return { params, body: { start: "2030-01-07T09:00", end: "2030-01-07T12:30", reason: "Dentist" } };
    case "DELETE /experts/:expertId/time-off/:timeOffId":
      return { params: { ...params, timeOffId: "fuzz-off" } };
    case "POST /experts/:expertId/date-overrides":
      return { params, body: { date: "2030-01-08", start_local: "18:00", end_local: "20:00" } };
    case "DELETE /experts/:expertId/date-overrides/:overrideId":
      return { params: { ...params, overrideId: "fuzz-extra" } };
    case "GET /media/experts/:expertId/profile":
      return { params, query: { v: "1" } };
    case "POST /sessions":
      return {
        params,
        body: { title: "T", description: "D", price: 10, length_minutes: 30, prep_question_1: "Q", ideal_for: ["x"], status: "draft" },
      };
    case "PUT /sessions/:id":
      return { params: { ...params, id: real.draft }, body: { status: "published" } };
    case "DELETE /sessions/:id":
      return { params: { ...params, id: real.draft } };
    case "GET /sessions/:id/availability":
      return { params, query: { from: "2026-01-01", to: "2026-01-31" } };
    case "POST /bookings":
      return { params, body: { session_id: real.session, scheduled_time: soon.toISOString() } };
    case "GET /bookings/:id":
      return { params: { ...params, id: bookingId } };
    case "PATCH /bookings/:bookingId/status":
      return { params, body: { status: "more_info_requested", info_request_note: "More?", reason: "r" } };
    case "PATCH /bookings/:bookingId/schedule":
      return { params, body: { scheduled_time: soon.toISOString() } };
    case "PATCH /bookings/:bookingId/prep":
      return { params, body: { prep_response_1: "a" } };
    case "POST /bookings/:bookingId/notes":
      return { params: { bookingId: real.paidBooking }, body: { summary: "S", recap: "R", takeaways: ["t"], suggested_actions: ["s"] } };
    case "GET /bookings/:bookingId/notes":
      return { params: { bookingId: real.paidBooking } };
    case "POST /bookings/:bookingId/review":
    case "PATCH /bookings/:bookingId/review":
      return { params: { bookingId: real.paidBooking }, body: { rating: 4, text: "Clear next steps" } };
    case "POST /bookings/:bookingId/review/reply":
      return { params: { bookingId: real.paidBooking }, body: { text: "Thank you" } };
    case "PUT /admin/reviews/:id":
      return { params: { id: real.paidBooking }, body: { reason: "Off topic" } };
    case "POST /bookings/:bookingId/reschedule":
      return { params: { bookingId: real.paidBooking }, body: { scheduled_time: soon.toISOString() } };
    case "POST /bookings/:bookingId/reschedule/decline":
      return { params: { bookingId: real.paidBooking }, body: { reason: "Away that week" } };
    case "POST /bookings/:bookingId/reschedule/accept":
    case "POST /bookings/:bookingId/reschedule/withdraw":
      return { params: { bookingId: real.paidBooking } };
    case "PUT /bookings/:bookingId/join-link":
      return { params: { bookingId: real.paidBooking }, body: { url: "https://meet.example.com/fuzz" } };
    case "GET /bookings/:bookingId/proposable-times":
      return { params, query: { date: soon.toISOString().slice(0, 10) } };
    case "GET /stream":
      return { params, query: { access_token: "x.y.z" } };
    case "POST /stripe/test-intent":
      return { params, body: { bookingId, amount: 10_000 } };
    case "POST /stripe/webhook":
      return {
        params,
        body: {
          id: "evt_1",
          object: "event",
          type: "payment_intent.succeeded",
          data: { object: { id: "pi_1", amount: 10_000, amount_received: 10_000, metadata: { bookingId, expertId: expert.id } } },
        },
      };
    case "POST /payments/test/confirm":
      return { params, body: { client_secret: real.clientSecret, card_number: TEST_CARD_SUCCEEDS } };
    case "POST /auth/signup":
      return { params, body: { email: "someone@example.com", password: PASSWORD, role: "creator", first_name: "F", last_name: "L" } };
    case "POST /auth/login":
      return { params, body: { email: account.email, password: PASSWORD } };
    case "POST /auth/refresh":
      // The refresh token is a cookie (issue 33.6): without it and the app's header the route refuses, never with a 5xx.
      return { params, body: {} };
    case "POST /auth/logout":
      return { params, body: { scope: "local" } };
    case "POST /auth/password":
      return { params, body: { password: "another-Passw0rd-2" } };
    case "POST /auth/verify":
      return { params, body: { token: signLink(TEST_JWT_SECRET, "verify_email", creator.id, new Date().toISOString()) } };
    case "POST /auth/verify/resend":
    case "POST /auth/recover":
      return { params, body: { email: account.email } };
    case "POST /auth/reset":
      return {
        params,
        body: { token: signLink(TEST_JWT_SECRET, "password_reset", creator.id, new Date().toISOString()), password: "another-Passw0rd-3" },
      };
    case "POST /me/erasure":
      // A wrong password: whatever the fuzzer makes of it, nobody is erased (the matrix and account-erasure suites erase).
      return { params, body: { current_password: "not-the-password", code: "123456" } };
    case "PUT /auth/me/preferences":
      return { params, body: { timezone: "Europe/Berlin", reminder_mails: false } };
    case "POST /mail/unsubscribe":
      return {
        params,
        query: { token: signLink(TEST_JWT_SECRET, "unsubscribe", creator.id, new Date().toISOString()) },
        body: { token: signLink(TEST_JWT_SECRET, "unsubscribe", creator.id, new Date().toISOString()) },
      };
    case "POST /early-access":
      return { params, body: { name: "Fuzz Visitor", email: "visitor@example.com", role: "expert", need: "Help with a brand deal" } };
    case "PUT /admin/experts/:id":
      return { params: { id: expert.id }, body: { verified: true, reason: "Vetted" } };
    case "POST /admin/projections/:id/rebuild":
    case "GET /admin/projections/:id":
      return { params: { id: "terms_acceptances" } };
    case "GET /admin/bookings/:id":
      return { params: { id: bookingId } };
    case "GET /admin/bookings/:id/as-of":
      return { params: { id: bookingId }, query: { at: new Date().toISOString() } };
    case "GET /admin/experts/:id/calendar/as-of":
      return {
        params: { id: expert.id },
        query: { at: new Date().toISOString(), date: soon.toISOString().slice(0, 10), length_minutes: "60" },
      };
    case "GET /admin/users/:id":
      return { params: { id: creator.id } };
    case "GET /admin/experts/:id":
      return { params: { id: expert.id } };
    case "GET /admin/events/:id":
      return { params: { id: real.eventId } };
    case "GET /admin/sessions/:id":
      return { params: { id: real.session } };
    case "GET /admin/terms-acceptances/:id":
      return { params: { id: `${creator.id}:${CURRENT_TERMS_VERSION}` } };
    case "GET /admin/booking-events/:id":
      return { params: { id: "1" } };
    // Experts get paid (issue 29).
    case "POST /experts/me/payout-account/test-onboarding":
      return { params, body: { complete: true } };
    case "POST /experts/me/payouts":
      return { params, body: { currency: "USD", amount_cents: 5000 } };
    case "GET /experts/me/statements/:file":
      return { params: { ...params, file: "2026-11.pdf" } };
    case "GET /bookings/:bookingId/receipts":
      return { params: { bookingId: real.paidBooking } };
    case "GET /bookings/:bookingId/receipts/:file":
      return { params: { bookingId: real.paidBooking, file: `${real.receipt}.pdf` }, query: { tz: "Europe/Berlin" } };
    case "GET /admin/payout-accounts/:id":
      return { params: { id: expert.id } };
    case "POST /admin/payout-accounts/:expertId/hold":
      return { params, body: { reason: "Checking a dispute" } };
    case "GET /admin/payout-accounts/:expertId/statement":
      return { params, query: { month: "2026-11" } };
    case "GET /admin/payout-accounts/:expertId/statements/:file":
      return { params: { ...params, file: "2026-11.csv" } };
    case "GET /admin/bookings/:id/money-trail":
      return { params: { id: real.paidBooking }, query: list };
    default:
      return route.startsWith("GET /admin/") ? { params, query: list } : { params };
  }
}

type Caller = "anonymous" | "creator" | "other creator" | "expert" | "admin" | "broken token" | "server-signed odd claims";
/** Callers any client can be: the main run. */
const CLIENT_CALLERS: Caller[] = ["anonymous", "creator", "other creator", "expert", "admin", "broken token"];

/** One generated request, as plain data (printable, replayable). */
type FuzzRequest = {
  route: string;
  caller: Caller;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Payload built at send time (too big to keep in the sample, or signed). */
  special?:
    | { kind: "deep"; depth: number; open: string; close: string }
    | { kind: "huge"; length: number }
    | { kind: "multipart"; bytes: "png" | "svg" | "garbage"; boundary: string; declared: string }
    | { kind: "signed"; json: string };
};

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const hs256 = (payload: object) => {
  const unsigned = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(payload)}`;
  return `${unsigned}.${createHmac("sha256", TEST_JWT_SECRET).update(unsigned).digest("base64url")}`;
};

function authorization(caller: Caller, pick: number): string | undefined {
  const now = Math.floor(Date.now() / 1000);
  switch (caller) {
    case "anonymous":
      return undefined;
    case "creator":
      return `Bearer ${creator.token}`;
    case "other creator":
      return `Bearer ${otherCreator.token}`;
    case "expert":
      return `Bearer ${expert.token}`;
    case "admin":
      return `Bearer ${admin.token}`;
    case "broken token":
      return [
        "Bearer",
        "Bearer ",
        "Bearer a.b.c",
        `bearer ${creator.token}`,
        `Bearer  ${creator.token}`,
        `Bearer ${creator.token}x`,
        "Basic dXNlcjpwYXNz",
        `Bearer ${hs256({ sub: creator.id, role: "creator", email: "c@example.com", iat: now - 7200, exp: now - 3600 })}`,
        `Bearer ${b64({ alg: "none" })}.${b64({ sub: admin.id, role: "admin", email: "a@example.com" })}.`,
        `Bearer ${"a".repeat(5000)}.${"b".repeat(5000)}.c`,
      ][pick % 10];
    case "server-signed odd claims":
      // Only the server can mint these; they probe how far claims are trusted, not an attack.
      return `Bearer ${hs256([{ sub: 42, role: "creator", email: null }, { sub: "../../etc", role: "expert", email: "e@x" }, { role: "admin" }, { sub: creator.id, role: "root", email: "r@x" }, { sub: "", role: "admin", email: "" }][pick % 5]!)}`;
  }
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "application/JSON",
  "application/vnd.api+json",
  "text/plain",
  "text/html",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=zzz",
  "application/octet-stream",
  "application/xml",
  "*/*",
  "",
  "application/json, text/plain",
  ";;;",
];

const RAW_NUMBERS = ["1e309", "-1e309", "-0", "NaN", "Infinity", "0x10", "01", "1.0e+2", "nul", "9".repeat(400), "1e-400", "true"];
const INVALID_JSON = [
  "{",
  "}",
  "[",
  '{"a":}',
  '{"a" 1}',
  "{'a':1}",
  '{"a":1,}',
  "[1,]",
  "\u0000",
  "\uFEFF{}",
  "undefined",
  '"unterminated',
  "{}{}",
  '{"a":"\\u00"}',
  "tru",
  "-",
  "",
];
const PROTO_BODIES = [
  '{"__proto__":{"role":"admin"}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  '{"status":"confirmed","status":"cancelled"}',
];

/** encodeURIComponent, with lone surrogates (which it cannot encode) replaced. */
function safeEncode(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, "?"));
  }
}

function requestArbitrary(callers: Caller[]): fc.Arbitrary<FuzzRequest> {
  const { weirdString, paramValue, weirdJson } = fuzzArbitraries();
  const routes = [...ROUTE_CATALOGUE];

  const bodyFor = (tpl: unknown): fc.Arbitrary<{ payload?: string; special?: FuzzRequest["special"] }> => {
    const keys = tpl && typeof tpl === "object" && !Array.isArray(tpl) ? Object.keys(tpl) : [];
    const withKey = (k: string, v: unknown) => ({ ...(tpl as object), [k]: v });
    const json = (v: unknown) => ({ payload: JSON.stringify(v) });
    const options: fc.Arbitrary<{ payload?: string; special?: FuzzRequest["special"] }>[] = [
      fc.constant(tpl === undefined ? {} : json(tpl)),
      fc.jsonValue({ maxDepth: 4 }).map(json),
      fc.constant({}),
      fc.constantFrom(...INVALID_JSON).map((payload) => ({ payload })),
      fc.constantFrom(...PROTO_BODIES).map((payload) => ({ payload })),
      fc
        .record({ depth: fc.constantFrom(50, 500, 5000, 50_000, 150_000), kind: fc.constantFrom("array", "object") })
        .map(({ depth, kind }) => ({
          special:
            kind === "array"
              ? { kind: "deep" as const, depth, open: "[", close: "]" }
              : { kind: "deep" as const, depth, open: '{"a":', close: "}" },
        })),
      fc.constantFrom(200_000, 1_100_000).map((length) => ({ special: { kind: "huge" as const, length } })),
      fc.constant(json([tpl ?? {}])),
    ];
    if (keys.length) {
      options.push(
        fc.tuple(fc.constantFrom(...keys), weirdJson).map(([k, v]) => json(withKey(k, v))),
        fc.tuple(fc.constantFrom(...keys), weirdJson).map(([k, v]) => json(withKey(k, [v]))),
        fc.constantFrom(...keys).map((k) => json(Object.fromEntries(Object.entries(tpl as object).filter(([key]) => key !== k)))),
        fc.tuple(fc.string({ maxLength: 12 }), weirdJson).map(([k, v]) => json(withKey(k, v))),
        fc
          .tuple(fc.constantFrom(...keys), fc.constantFrom(...RAW_NUMBERS))
          .map(([k, raw]) => ({ payload: JSON.stringify(withKey(k, "__RAW__")).replace('"__RAW__"', raw) })),
        fc.tuple(fc.constantFrom(...keys), fc.constantFrom(50, 2000)).map(([k, depth]) => ({
          payload: JSON.stringify(withKey(k, "__RAW__")).replace('"__RAW__"', "[".repeat(depth) + "]".repeat(depth)),
        })),
        fc.constantFrom(...keys).map((k) => json(withKey(k, "x".repeat(300_000)))),
        fc.constantFrom(...keys).map((k) => json(withKey(k, { nested: tpl }))),
      );
    }
    return fc.oneof(...options);
  };

  return fc
    .record({
      routeIndex: fc.nat({ max: routes.length - 1 }),
      caller: fc.constantFrom(...callers),
      tokenPick: fc.nat({ max: 99 }),
      methodMode: fc.constantFrom("route", "route", "route", "route", "route", "route", "other"),
      otherMethod: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"),
      params: fc.dictionary(fc.constantFrom("id", "expertId", "slug", "bookingId", "userId"), paramValue, { maxKeys: 5 }),
      paramMode: fc.constantFrom("template", "fuzzed", "fuzzed", "fuzzed-raw"),
      pathTweak: fc.constantFrom("none", "none", "none", "none", "trailing-slash", "double-slash", "upper", "dot-segment", "unknown-tail"),
      queryMode: fc.constantFrom("template", "none", "fuzzed", "mutated", "raw"),
      query: fc.dictionary(
        fc.oneof(
          fc.constantFrom("search", "from", "to", "v", "sort", "range", "filter", "access_token", "__proto__", "a[b]"),
          fc.string({ maxLength: 8 }),
        ),
        fc.oneof(
          weirdString,
          fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
        ),
        { maxKeys: 4 },
      ),
      rawQuery: fc.constantFrom(
        "?",
        "?&&",
        "?a",
        "?search=a&search=b",
        "?search[]=x",
        "?range=[0,1e309]",
        "?range=[5,1]",
        "?range=[-1,2]",
        '?sort=["__proto__","ASC"]',
        '?sort=["id","DROP"]',
        "?filter=%7B",
        '?filter={"id":[]}',
        '?filter={"q":"%25"}',
        "?from=2026-02-30",
        "?to=0000-00-00",
        "?v=%00",
        "?%ff=1",
        `?search=${"a".repeat(5000)}`,
      ),
      mutateQueryKey: fc.constantFrom("search", "from", "to", "v", "sort", "range", "filter", "access_token"),
      mutateQueryValue: fc.oneof(
        weirdString,
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      ),
      bodySeed: fc.nat(),
      contentTypeMode: fc.constantFrom("json", "json", "json", "json", "none", "other"),
      contentType: fc.constantFrom(...CONTENT_TYPES),
      multipart: fc.record({
        bytes: fc.constantFrom("png" as const, "svg" as const, "garbage" as const),
        boundary: fc.constantFrom("b0undary", "", "a".repeat(100), "--"),
        declaredMismatch: fc.boolean(),
      }),
      signWebhook: fc.boolean(),
      webhookType: fc.constantFrom("payment_intent.succeeded", "payment_intent.payment_failed", "customer.created"),
      webhookData: fc.oneof(weirdJson, fc.constant(undefined)),
      extraHeaders: fc.dictionary(
        fc.constantFrom("x-request-id", "idempotency-key", "stripe-signature", "accept", "x-forwarded-for", "cookie", "accept-encoding"),
        weirdString.map((s) => s.replace(/[^\t\x20-\x7e]/g, "?")),
        { maxKeys: 3 },
      ),
    })
    .chain((g) => {
      const route = routes[g.routeIndex]!;
      const tpl = template(route);
      return bodyFor(tpl.body).map((body) => ({ g, route, tpl, body }));
    })
    .map(({ g, route, tpl, body }): FuzzRequest => {
      const { method: routeMethod, path } = splitRoute(route);
      const method = g.methodMode === "route" ? routeMethod : g.otherMethod;
      const values = g.paramMode === "template" ? tpl.params : { ...tpl.params, ...g.params };
      const encode = (v: string) => (g.paramMode === "fuzzed-raw" ? v.replace(/[?#\s]/g, (c) => encodeURIComponent(c)) : safeEncode(v));
      let urlPath = `${V1}${path.replace(/:([A-Za-z]+)/g, (_m, name: string) => encode(values[name as keyof typeof values] ?? "x"))}`;
      if (g.pathTweak === "trailing-slash") urlPath += "/";
      if (g.pathTweak === "double-slash") urlPath = urlPath.replace(`${V1}/`, `${V1}//`);
      if (g.pathTweak === "upper") urlPath = urlPath.toUpperCase();
      if (g.pathTweak === "dot-segment") urlPath = urlPath.replace(`${V1}/`, `${V1}/./x/../`);
      if (g.pathTweak === "unknown-tail") urlPath += "/unknown";
      let query = "";
      if (g.queryMode === "template" && tpl.query) query = `?${new URLSearchParams(tpl.query)}`;
      if (g.queryMode === "fuzzed" && Object.keys(g.query).length) query = `?${new URLSearchParams(g.query)}`;
      if (g.queryMode === "mutated") query = `?${new URLSearchParams({ ...tpl.query, [g.mutateQueryKey]: g.mutateQueryValue })}`;
      if (g.queryMode === "raw") query = g.rawQuery;

      const headers: Record<string, string> = { ...g.extraHeaders };
      const auth = authorization(g.caller, g.tokenPick);
      if (auth !== undefined) headers.authorization = auth;
      const request: FuzzRequest = { route, caller: g.caller, method, url: urlPath + query, headers, ...body };

      if (route === "POST /experts/me/image" && g.bodySeed % 2 === 0) {
        const declared = g.multipart.declaredMismatch ? "zzz" : g.multipart.boundary;
        request.special = { kind: "multipart", bytes: g.multipart.bytes, boundary: g.multipart.boundary, declared };
        request.payload = undefined;
        headers["content-type"] = `multipart/form-data; boundary=${declared}`;
        return request;
      }
      if (route === "POST /stripe/webhook" && g.signWebhook) {
        const event = {
          id: `evt_${g.bodySeed}`,
          object: "event",
          type: g.webhookType,
          ...(g.webhookData === undefined ? {} : { data: g.bodySeed % 3 === 0 ? g.webhookData : { object: g.webhookData } }),
        };
        const json = g.bodySeed % 4 === 0 ? JSON.stringify(tpl.body) : JSON.stringify(event);
        request.special = { kind: "signed", json };
        request.payload = undefined;
        headers["content-type"] = "application/json";
        return request;
      }
      if (request.payload !== undefined || request.special) {
        if (g.contentTypeMode === "json") headers["content-type"] = "application/json";
        if (g.contentTypeMode === "other") headers["content-type"] = g.contentType;
      } else if (g.contentTypeMode === "other") headers["content-type"] = g.contentType;
      return request;
    });
}

/** The bytes of a request, built at send time (too big to keep in the sample, or signed). */
function payloadOf(r: FuzzRequest): { payload?: string | Buffer; headers: Record<string, string> } {
  const headers = { ...r.headers };
  const s = r.special;
  if (!s) return { payload: r.payload, headers };
  switch (s.kind) {
    case "deep":
      return { payload: s.open.repeat(s.depth) + (s.open === "[" ? "" : "1") + s.close.repeat(s.depth), headers };
    case "huge":
      return { payload: JSON.stringify({ title: "y".repeat(s.length), summary: "y", email: "y" }), headers };
    case "multipart": {
      const bytes =
        s.bytes === "png"
          ? Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)])
          : s.bytes === "svg"
            ? Buffer.from("<svg onload=alert(1)>")
            : Buffer.from("\u0000\u0001garbage");
      const payload = Buffer.concat([
        Buffer.from(
          `--${s.boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../evil.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${s.boundary}--\r\n`),
      ]);
      return { payload, headers };
    }
    case "signed":
      headers["stripe-signature"] = Stripe.webhooks.generateTestHeaderString({ payload: s.json, secret: WEBHOOK_SECRET });
      return { payload: s.json, headers };
  }
}

// ---------------------------------------------------------------------------------------------

type Finding = { index: number; problem: string; route: string; caller: Caller; request: string; status: number; body: string };

const STACK_OR_PATH = /\n\s+at |\bat [^\s]+ \(|\/work\/|node_modules|file:\/\/|\.(?:ts|js|mjs):\d+/;

function describeRequest(r: FuzzRequest): string {
  const { authorization, ...headers } = r.headers;
  const payload = r.special
    ? JSON.stringify(r.special).slice(0, 200)
    : r.payload === undefined
      ? "(none)"
      : `${JSON.stringify(r.payload.slice(0, 300))}${r.payload.length > 300 ? ` …(${r.payload.length} chars)` : ""}`;
  const url = r.url.length > 300 ? `${r.url.slice(0, 300)}…(${r.url.length} chars)` : r.url;
  const token =
    r.caller === "broken token" || r.caller === "server-signed odd claims" ? ` (authorization: ${authorization?.slice(0, 200)})` : "";
  return `${r.method} ${url} as ${r.caller}${token} headers=${JSON.stringify(headers)} payload=${payload}`;
}

function check(index: number, r: FuzzRequest, res: LightMyRequestResponse): Finding[] {
  const out: Finding[] = [];
  const finding = (problem: string) =>
    out.push({
      index,
      problem,
      route: r.route,
      caller: r.caller,
      request: describeRequest(r),
      status: res.statusCode,
      body: res.body.slice(0, 400),
    });
  // /readyz answers 503 by design while a read model is broken; the projection watch below finds why.
  const readiness = res.statusCode === 503 && /\/readyz\/?$/i.test(r.url.split("?")[0]!);
  if (res.statusCode >= 500 && !readiness) finding(`status ${res.statusCode}`);
  if (res.statusCode >= 400 && r.method !== "HEAD" && !readiness) {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      finding("error body is not JSON");
    }
    if (body !== undefined) {
      const keys = body && typeof body === "object" ? Object.keys(body).sort().join() : typeof body;
      const shape = body as { code?: unknown; message?: unknown };
      if (keys !== "code,message" || typeof shape.code !== "string" || typeof shape.message !== "string")
        finding(`error body is not {code, message} (keys: ${keys})`);
    }
    if (!String(res.headers["content-type"] ?? "").startsWith("application/json"))
      finding(`error content-type is ${res.headers["content-type"]}`);
    if (STACK_OR_PATH.test(res.body)) finding("error body has a stack trace or file path");
  }
  return out;
}

/** Read models that recorded an error (a write the projections cannot apply). */
async function brokenReadModels(): Promise<string[]> {
  const { rows } = await api.ctx.db.query<{ name: string; last_error: string }>(
    "SELECT name, last_error FROM projection_checkpoints WHERE last_error IS NOT NULL ORDER BY name",
  );
  return rows.map((r) => `${r.name}: ${r.last_error.replace(/\s+/g, " ").slice(0, 160)}`);
}

/** A route called exactly as its template says (valid parameters, query and body). */
function templateRequest(route: CatalogueRoute, caller: Caller, tokenPick: number): FuzzRequest {
  const { method, path } = splitRoute(route);
  const tpl = template(route);
  const url = `${V1}${path.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(tpl.params[name as keyof typeof tpl.params] ?? "x"))}${tpl.query ? `?${new URLSearchParams(tpl.query)}` : ""}`;
  const headers: Record<string, string> = {};
  const auth = authorization(caller, tokenPick);
  if (auth !== undefined) headers.authorization = auth;
  if (route === "POST /experts/me/image") {
    headers["content-type"] = "multipart/form-data; boundary=b0undary";
    return {
      route,
      caller,
      method,
      url,
      headers,
      special: { kind: "multipart", bytes: "png", boundary: "b0undary", declared: "b0undary" },
    };
  }
  if (route === "POST /stripe/webhook") {
    headers["content-type"] = "application/json";
    return { route, caller, method, url, headers, special: { kind: "signed", json: JSON.stringify(tpl.body) } };
  }
  if (tpl.body === undefined) return { route, caller, method, url, headers };
  headers["content-type"] = "application/json";
  return { route, caller, method, url, headers, payload: JSON.stringify(tpl.body) };
}

/** Send requests one by one; every reply is checked, and after each write the read models too. */
async function replay(label: string, requests: FuzzRequest[], preamble: string) {
  const started = Date.now();
  const histogram = new Map<number, number>();
  const perRoute = new Map<string, number>();
  const findings: Finding[] = [];
  const injectErrors: string[] = [];
  let broken = (await brokenReadModels()).join();
  let sent = 0;
  let address = 0;
  for (const [index, r] of requests.entries()) {
    const { payload, headers } = payloadOf(r);
    // Credential routes are rate limited per address: most requests come from their own one.
    if (!("x-forwarded-for" in headers))
      headers["x-forwarded-for"] = `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
    let res: LightMyRequestResponse;
    try {
      res = await api.app.inject({
        method: r.method as InjectOptions["method"],
        url: r.url,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
    } catch (e) {
      injectErrors.push(`#${index} ${describeRequest(r)}: ${(e as Error).message}`);
      continue;
    }
    sent++;
    histogram.set(res.statusCode, (histogram.get(res.statusCode) ?? 0) + 1);
    perRoute.set(r.route, (perRoute.get(r.route) ?? 0) + 1);
    findings.push(...check(index, r, res));
    if (r.method !== "GET" && r.method !== "HEAD") {
      const now = (await brokenReadModels()).join();
      if (now !== broken) {
        findings.push({
          index,
          problem: `read models broken after this request: ${now}`,
          route: r.route,
          caller: r.caller,
          request: describeRequest(r),
          status: res.statusCode,
          body: res.body.slice(0, 400),
        });
        broken = now;
      }
    }
  }
  // One line per kind of finding, with its first reproduction. Router-level errors (malformed or
  // over-long path parameters) do not depend on the route, so they group by their code alone.
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const fastifyCode = /"code":"(FST_[A-Z_]+)"/.exec(f.body)?.[1];
    const key = fastifyCode
      ? `${f.problem} | ${fastifyCode} (any route)`
      : `${f.problem.startsWith("read models") ? "read models broken" : f.problem} | ${f.route} | ${f.caller}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  console.log(
    [
      `fuzz (${label}): ${preamble}, ${sent} sent in ${Date.now() - started} ms${injectErrors.length ? ` (${injectErrors.length} refused by inject itself)` : ""}`,
      `status histogram: ${[...histogram.entries()]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ")}`,
      `routes hit: ${perRoute.size}/${ROUTE_CATALOGUE.length} (fewest requests on one route: ${Math.min(...perRoute.values())})`,
      `findings: ${findings.length} in ${groups.size} groups`,
      ...injectErrors.slice(0, 5).map((e) => `inject refused: ${e}`),
      ...[...groups.entries()].map(
        ([key, fs]) => `FINDING ×${fs.length}  ${key}\n  e.g. #${fs[0]!.index} ${fs[0]!.request}\n  → ${fs[0]!.status} ${fs[0]!.body}`,
      ),
    ].join("\n"),
  );
  return { sent, findings, groups: [...groups.keys()] };
}

// ---------------------------------------------------------------------------------------------
// Text that is not storable or not plain: every string field of every route, from the OpenAPI document.

/**
 * NUL (Postgres refuses it in text), lone surrogates (not text at all), RTL overrides and zero-width
 * characters; and every line break a loose parser honours (bare CR, LS, PS, NEL, VT, FF), which
 * one-line fields refuse and calendars must never read as a line end (issue 26 item 2).
 */
const TEXT_PROBES = [
  "a\u0000b",
  "\u0000",
  "x\uD800y",
  "\uDC00",
  "\u202Eevil\u202C",
  "a\u200Bb\u200D\uFEFF",
  "\u0645\u0631\u062D\u0628\u0627",
  "a\rX-INJECTED:cr",
  "a\u2028END:VEVENT",
  "a\u2029BEGIN:VEVENT",
  "a\u0085X-INJECTED:nel",
  "a\u000bX-INJECTED:vt",
  "a\u000cX-INJECTED:ff",
];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};
type Operation = {
  parameters?: { in: string; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
};
type FieldPath = (string | number)[];

/** The paths of every string a body schema admits (into objects, arrays and each branch of a union). */
function stringFields(schema: JsonSchema, at: FieldPath = []): FieldPath[] {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const found: FieldPath[] = types.includes("string") ? [at] : [];
  for (const [key, child] of Object.entries(schema.properties ?? {})) found.push(...stringFields(child, [...at, key]));
  if (schema.items) found.push(...stringFields(schema.items, [...at, 0]));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) found.push(...stringFields(branch, at));
  const unique = new Map(found.map((f) => [JSON.stringify(f), f]));
  return [...unique.values()];
}

/** `body` with the value at `path` replaced (missing objects and arrays made on the way). */
function withField(body: unknown, path: FieldPath, value: string): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === "number") {
    const list = Array.isArray(body) && body.length ? [...body] : [undefined];
    list[0] = withField(list[0], rest, value);
    return list;
  }
  const object = body && typeof body === "object" && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  object[head!] = withField(object[head!], rest, value);
  return object;
}

/** Admin list filters: the search box, ids and dates, each with a probe. */
const ADMIN_FILTER_KEYS = [
  "q",
  "id",
  "type",
  "stream_id",
  "version_id",
  "user_id",
  "creator_id",
  "expert_id",
  "session_id",
  "email",
  "role",
];

/** One request per string field and probe, for every route in the OpenAPI document, as its natural caller. */
function textProbeRequests(doc: { paths: Record<string, Record<string, Operation>> }): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  for (const [docPath, operations] of Object.entries(doc.paths)) {
    const path = docPath.replace(/\{(\w+)\}/g, ":$1");
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${path}` as CatalogueRoute;
      if (!(ROUTE_CATALOGUE as readonly string[]).includes(route)) continue;
      const tpl = template(route);
      const callers: Caller[] = route.includes("/admin/") ? ["admin"] : ["creator", "expert", "admin"];
      const send = (caller: Caller, params: Record<string, string>, query: Record<string, string> | undefined, body: unknown) => {
        const url = `${V1}${path.replace(/:([A-Za-z]+)/g, (_m, name: string) => safeEncode(params[name] ?? "x"))}${query ? `?${new URLSearchParams(query)}` : ""}`;
        const headers: Record<string, string> = { authorization: authorization(caller, 0)! };
        if (body !== undefined) headers["content-type"] = "application/json";
        requests.push({
          route,
          caller,
          method: method.toUpperCase(),
          url,
          headers,
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
      };
      for (const caller of callers) {
        for (const probe of TEXT_PROBES) {
          for (const parameter of operation.parameters ?? []) {
            if (parameter.in === "path") send(caller, { ...tpl.params, [parameter.name]: probe }, tpl.query, tpl.body);
            if (parameter.in === "query") send(caller, tpl.params, { ...tpl.query, [parameter.name]: probe }, tpl.body);
            if (parameter.in === "query" && parameter.name === "filter")
              for (const key of ADMIN_FILTER_KEYS)
                send(caller, tpl.params, { ...tpl.query, filter: JSON.stringify({ [key]: probe }) }, tpl.body);
          }
          const schema = operation.requestBody?.content?.["application/json"]?.schema;
          for (const field of schema ? stringFields(schema) : [])
            send(caller, tpl.params, tpl.query, withField(tpl.body ?? {}, field, probe));
        }
      }
    }
  }
  return requests;
}

describe("fuzzing every route", () => {
  it("the fuzzed routes are the routes Fastify serves", () => {
    expect(registeredRoutes(api.app)).toEqual(normalisedCatalogue());
  });

  it(`${RUNS} generated requests from clients: no 5xx, every error is {code, message} JSON without a stack, read models stay healthy`, async () => {
    const started = Date.now();
    const requests = fc.sample(requestArbitrary(CLIENT_CALLERS), { seed: SEED, numRuns: RUNS });
    const { sent, groups } = await replay(
      "clients",
      requests,
      `seed ${SEED}, ${requests.length} requests generated in ${Date.now() - started} ms`,
    );
    expect(sent).toBeGreaterThanOrEqual(2000);
    expect(groups).toEqual([]);
  });

  it("NUL, lone surrogates, RTL and zero-width characters, bare CR, LS, PS, NEL, VT and FF in every string field of every route: no 5xx, read models stay healthy", async () => {
    const doc = (await api.call("GET", `${V1}/docs`)).json();
    const requests = textProbeRequests(doc);
    const { groups } = await replay("text probes", requests, `${requests.length} requests over ${Object.keys(doc.paths).length} paths`);
    expect(requests.length).toBeGreaterThan(1000);
    expect(groups).toEqual([]);
  });

  // Last, as it may leave the read models broken: tokens only the server could sign, with claims
  // it never issues (a `sub` that is not an id, no `sub`, an unknown role), on every route called
  // exactly as its template says. No client can make such a token; this shows how far the API
  // trusts its own claims, and whether a write with one can leave an event the read models reject.
  it("every route with server-signed tokens carrying odd claims: no 5xx, read models stay healthy", async () => {
    const requests = [0, 1, 2, 3, 4].flatMap((pick) =>
      ROUTE_CATALOGUE.map((route) => templateRequest(route, "server-signed odd claims", pick)),
    );
    const { groups } = await replay("server-signed odd claims", requests, `${requests.length} template requests`);
    expect(groups).toEqual([]);
  });
});
