import { createHmac, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { generate } from "otplib";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLEARING_PERIOD_DAYS,
  CURRENT_TERMS_VERSION,
  EXPERT_STANDARDS_VERSION,
  formatPosition,
  transferKeyOf,
  CONSISTENCY_POSITION_HEADER,
  ClientPositions,
  type CalendarCommand,
} from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { PasskeyAuthenticator } from "@booking/testkit";
import { buildApp } from "../src/main/app.ts";
import { ensureAdminAccount } from "../src/auth/admin-account.ts";
import { signLink } from "../src/auth/signed-links.ts";
import type { BookingFeed } from "../src/live-updates/booking-feed.ts";
import type { Queryable } from "../src/payments/payments-table.ts";
import { TEST_CARD_SUCCEEDS, TestPaymentProvider } from "../src/payments/test-provider.ts";
import { sendPayoutCommand } from "../src/payouts/record-payouts.ts";
import { mailedToken, refreshHeaders, sessionOf, signUpVerified, type PostJson } from "./auth-client.ts";
import { TEST_JWT_SECRET, startTestApi, type TestApi } from "./harness.ts";
import { ROUTE_CATALOGUE, normalisedCatalogue, registeredRoutes, splitRoute, urlOf, type CatalogueRoute } from "./route-catalogue.ts";

// Who may call what. Every route of the API is called by six callers — anonymous, creators A and
// B, experts X and Y, and an admin — against resources owned by A and X (A's booking with X, X's
// sessions, schedule, profile and image). The expected outcome of every cell is written down
// below; the observed table is compared with it in one assertion, so a failure lists every
// mismatch. A refused call must change nothing: each cell snapshots the event store's head (and
// the resource) before and after, and a non-2xx cell that changed something reads "… CHANGED".
// The fixture is built through the API, as the product builds it.

const V1 = "/api/v1";
const WEBHOOK_SECRET = "whsec_authorization_matrix";
const PASSWORD = "matrix-Passw0rd";

const CALLERS = ["anon", "A", "B", "X", "Y", "admin"] as const;
type Caller = (typeof CALLERS)[number];
type SignedIn = Exclude<Caller, "anon">;
type Account = {
  id: string;
  email: string;
  password: string;
  token: string;
  role: "creator" | "expert" | "admin";
  /** With two-factor sign-in on: the recovery codes left, each signing in once (a TOTP code would work once per 30 s). */
  recoveryCodes?: string[];
};

let api: TestApi;
let streamBase: string;
/** Serves the stream over a socket with a feed that records who listens (the stream's area is handed its feed when the app is built). */
let streaming: FastifyInstance | undefined;
let listeners: string[] = [];
const recordingFeed = { listen: (userId: string) => (listeners.push(userId), () => undefined) } as unknown as BookingFeed;
const users = {} as Record<SignedIn, Account>;
let loginOnly: Account; // an account used only to log in and refresh
let twoFactorOnly: Account; // an account with two-factor sign-in on, used only to sign in with a recovery code
let passkeyOnly: Account; // an account with a passkey (on `passkeyDevice`), used only to sign in with it
/** The product's address in the harness: the passkeys' site. */
const PASSKEY_ORIGIN = "http://localhost:3000";
const passkeyDevice = new PasskeyAuthenticator(PASSKEY_ORIGIN);
const ids = {
  publishedSession: "",
  draftSession: "",
  booking: "",
  notesBooking: "",
  reviewedBooking: "",
  refundedBooking: "",
  xSlug: "",
  ySlug: "",
};
const adminIds: Record<string, string> = {};

// ---------------------------------------------------------------------------------------------
// Calling the API

// Credential routes are rate limited per client address; every call comes from its own address
// (the app trusts X-Forwarded-For), so the matrix never trips a limit by accident.
let clients = 0;
const nextAddress = () => {
  clients++;
  return `198.51.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`;
};

type Send = { method: InjectOptions["method"]; url: string; body?: unknown; headers?: Record<string, string>; token?: string | null };

/** The newest log position a reply named: every call sends it, as the apps do (issue 34.1), so a fixture's steps see each other. */
const positions = new ClientPositions();

async function send(caller: Caller, req: Send): Promise<LightMyRequestResponse> {
  const token = req.token !== undefined ? req.token : caller === "anon" ? null : users[caller].token;
  const r = await api.app.inject({
    method: req.method,
    url: req.url,
    headers: {
      "x-forwarded-for": nextAddress(),
      ...positions.headers(),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...req.headers,
    },
    ...(req.body === undefined ? {} : { payload: req.body as InjectOptions["payload"] }),
  });
  positions.heard(r.headers[CONSISTENCY_POSITION_HEADER] as string | undefined);
  return r;
}

async function must(caller: Caller, req: Send): Promise<LightMyRequestResponse> {
  const r = await send(caller, req);
  if (r.statusCode >= 300) throw new Error(`fixture: ${req.method} ${req.url} as ${caller} → ${r.statusCode} ${r.body}`);
  return r;
}

/** A cell: "ok" for any 2xx, else "<status> <code>". */
function classify(r: { statusCode: number; body: string }): string {
  if (r.statusCode >= 200 && r.statusCode < 300) return "ok";
  let code = "(no code)";
  try {
    code = (JSON.parse(r.body) as { code?: string }).code ?? "(no code)";
  } catch {
    code = "(not JSON)";
  }
  return `${r.statusCode} ${code}`;
}

// ---------------------------------------------------------------------------------------------
// Fixture

const everyDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((weekday) => ({
  weekday,
  start_local: "00:00",
  end_local: "23:30",
}));
const schedule = { timezone: "UTC", slots: everyDay };
const profileOf = (first: string, published: boolean) => ({
  first_name: first,
  last_name: "Matrix",
  title: `${first}'s advisory`,
  bio: "Ten years of brand deals.",
  tags: ["brand"],
  published,
});
const sessionBody = (status: "draft" | "published") => ({
  expert_id: "",
  title: "Deck review",
  description: "Bring your deck",
  price: 150,
  length_minutes: 60,
  prep_question_1: "Goal?",
  prep_question_2: "Audience?",
  prep_question_3: "Blockers?",
  session_details: "Slide by slide",
  ideal_for: "podcasters",
  status,
});
/** A real 2 x 2 PNG: uploads are decoded and re-encoded, so a signature alone is refused. */
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWMwTjtjnHaGAUIBACS2BZUFBQd/AAAAAElFTkSuQmCC",
  "base64",
);
function multipartImage(): { body: Buffer; headers: Record<string, string> } {
  const boundary = "----matrix-boundary";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="avatar.png"\r\nContent-Type: image/png\r\n\r\n`),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** Free start times, two hours apart, so fresh bookings never compete. */
let times: string[] = [];
const isWorkingHour = (t: string) => [10, 12, 14].includes(new Date(t).getUTCHours());
function takeTime(working: boolean): string {
  const i = times.findIndex((t) => isWorkingHour(t) === working);
  if (i < 0) throw new Error("fixture: out of free times");
  return times.splice(i, 1)[0]!;
}

const anonPost: PostJson = async (path, body) => {
  const r = await send("anon", { method: "POST", url: `${V1}${path}`, body });
  return { status: r.statusCode, body: r.json() };
};

/** A new account, verified through its mail's link, signed in. */
async function signUp(role: "creator" | "expert", name: string): Promise<Account> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const s = await signUpVerified(api.ctx.db, anonPost, { email, password: PASSWORD, role, first_name: name, last_name: "Matrix" });
  return { id: s.user.id, email, password: PASSWORD, token: s.access_token, role };
}

/** A new account that has not followed its verification link: its address. */
async function unverifiedAccount(): Promise<string> {
  const email = `unverified-${randomUUID().slice(0, 8)}@example.com`;
  await must("anon", { method: "POST", url: `${V1}/auth/signup`, body: { email, password: PASSWORD, role: "creator" } });
  return email;
}

type Session = { access_token: string; refresh_token: string };

/** The account's sign-in: the password, then (two-factor sign-in on) one of its recovery codes. */
async function logIn(account: Pick<Account, "email" | "password" | "recoveryCodes">): Promise<Session> {
  const password = await must("anon", {
    method: "POST",
    url: `${V1}/auth/login`,
    body: { email: account.email, password: account.password },
  });
  const reply = password.json<Session | { challenge: string }>();
  if (!("challenge" in reply)) return sessionOf(password);
  const recovery_code = account.recoveryCodes?.shift();
  if (!recovery_code) throw new Error(`fixture: ${account.email} has no recovery code left`);
  return sessionOf(
    await must("anon", { method: "POST", url: `${V1}/auth/login/two-factor`, body: { challenge: reply.challenge, recovery_code } }),
  );
}

/** Two-factor sign-in turned on through the API for a signed-in account: its recovery codes are kept for its next sign-ins. */
async function turnOnTwoFactor(caller: SignedIn | Account): Promise<void> {
  const account = typeof caller === "string" ? users[caller] : caller;
  const enrol = {
    method: "POST",
    url: `${V1}/auth/two-factor/enrol`,
    body: { current_password: account.password },
    token: account.token,
  } as const;
  const { secret } = (await must("anon", enrol)).json<{ secret: string }>();
  const confirm = {
    method: "POST",
    url: `${V1}/auth/two-factor/confirm`,
    body: { code: await generate({ secret }) },
    token: account.token,
  } as const;
  account.recoveryCodes = (await must("anon", confirm)).json<{ recovery_codes: string[] }>().recovery_codes;
}

/**
 * Fresh bookings made for one cell each. A creator may keep only MAX_UNPAID_HOLDS_PER_CREATOR
 * unpaid holds, so the next fresh booking first releases those whose cell is over.
 */
const spentBookings: string[] = [];

/** A pending, unpaid booking of A (or B) with X, at a fresh time (or `at`); `keep` for one the whole matrix uses. */
async function book(creator: "A" | "B" = "A", options: { keep?: boolean; at?: string } = {}): Promise<string> {
  for (const id of spentBookings.splice(0))
    await send("admin", {
      method: "PATCH",
      url: `${V1}/bookings/${id}/status`,
      body: { status: "cancelled", reason: "matrix fixture released" },
    });
  const r = await must(creator, {
    method: "POST",
    url: `${V1}/bookings`,
    body: { session_id: ids.publishedSession, scheduled_time: options.at ?? takeTime(false) },
  });
  const id = r.json<{ booking: { id: string } }>().booking.id;
  // Read back with the reply's position (issue 34.1): the read models show the booking before a cell compares them.
  await must(creator, { method: "GET", url: `${V1}/bookings/${id}` });
  if (!options.keep) spentBookings.push(id);
  return id;
}

async function intentFor(bookingId: string): Promise<string> {
  return (await must("A", { method: "POST", url: `${V1}/stripe/test-intent`, body: { bookingId } })).json<{ clientSecret: string }>()
    .clientSecret;
}

/** A booking of A with X, paid with the test card and confirmed by X (at a fresh time, or `at`). */
async function confirmedBooking(at?: string): Promise<string> {
  const id = await book("A", { keep: true, ...(at && { at }) }); // paid at once: no longer a hold
  await must("A", {
    method: "POST",
    url: `${V1}/payments/test/confirm`,
    body: { client_secret: await intentFor(id), card_number: TEST_CARD_SUCCEEDS },
  });
  await must("X", { method: "PATCH", url: `${V1}/bookings/${id}/status`, body: { status: "confirmed" } });
  return id;
}

/** A booking of A with X, confirmed and then completed (decided as if its end had passed), so that it can be reviewed. */
async function completedBooking(): Promise<string> {
  const id = await confirmedBooking();
  const afterTheWindow = new Date(Date.now() + 60 * 86_400_000).toISOString();
  const actor = { userId: users.X.id, role: "expert" } as const;
  const done = await api.ctx.calendar.handle(
    calendarStream(users.X.id),
    { type: "CompleteBooking", expertId: users.X.id, bookingId: id, actor },
    { actor, now: afterTheWindow },
  );
  if (!done.ok) throw new Error(`fixture: complete ${id}: ${done.refusal.code}`);
  await api.ctx.projected(done.value);
  return id;
}

/**
 * A confirmed booking of A with X whose session started about an hour ago (a no-show can be reported): requested, paid and
 * accepted on X's calendar as the routes would, with the decision's clock set back eight days (routes only book the future).
 */
let startedBookings = 0;
async function startedBooking(): Promise<string> {
  const HALF_HOUR = 1_800_000;
  // Two hours apart, going back from an hour and a half ago, skipping starts whose hour would run past X's 23:30.
  let start = 0;
  do start = Math.floor((Date.now() - 3 * HALF_HOUR) / HALF_HOUR) * HALF_HOUR - startedBookings++ * 4 * HALF_HOUR;
  while (new Date(start).getUTCHours() * 60 + new Date(start).getUTCMinutes() > 22 * 60 + 30);
  const bookingId = `nsb-${randomUUID()}`;
  const now = new Date(start - 8 * 86_400_000).toISOString();
  const on = { expertId: users.X.id, bookingId };
  const system = { userId: "payments", role: "system" } as const;
  const steps: CalendarCommand[] = [
    {
      type: "RequestBooking",
      ...on,
      actor: { userId: users.A.id, role: "creator" },
      scheduledTime: new Date(start).toISOString(),
      session: {
        sessionId: ids.publishedSession,
        expertId: users.X.id,
        title: "Deck review",
        lengthMinutes: 60,
        priceCents: 15_000,
        published: true,
        prepQuestions: ["Goal?"],
      },
      expertUserId: users.X.id,
      expertVetting: "approved",
      creatorAcceptedTerms: true,
      creatorBookings: [],
      holdMinutes: 15,
    },
    { type: "RecordPayment", ...on, actor: system, paymentId: `pi-${bookingId}`, amountCents: 15_000, provider: "test" },
    { type: "ConfirmBooking", ...on, actor: { userId: users.X.id, role: "expert" } },
  ];
  for (const command of steps) {
    const done = await api.ctx.calendar.handle(calendarStream(users.X.id), command, { actor: command.actor, now });
    if (!done.ok) throw new Error(`fixture: ${command.type} ${bookingId}: ${done.refusal.code}`);
    await api.ctx.projected(done.value);
  }
  return bookingId;
}

/** A started booking A reported X absent on. */
async function reportedBooking(): Promise<string> {
  const id = await startedBooking();
  await must("A", { method: "POST", url: `${V1}/bookings/${id}/no-show`, body: { note: "Matrix" } });
  return id;
}

/** A completed booking A has reviewed. */
async function reviewedBooking(): Promise<string> {
  const id = await completedBooking();
  await must("A", { method: "POST", url: `${V1}/bookings/${id}/review`, body: { rating: 5, text: "Matrix review" } });
  return id;
}
const reviewRow = (id: string) => rows("SELECT * FROM reviews WHERE booking_id = $1", [id]);
/** The first event of a booking's history in X's calendar (its request). */
const firstEventOf = async (bookingId: string) =>
  (await api.ctx.store.readStream(calendarStream(users.X.id))).events.find(
    (e) => (e.data as { bookingId?: string }).bookingId === bookingId,
  )!;

/** The latest free time: weeks ahead, so a booking there may still be moved (until 24 hours before its start). */
const lateTime = () => times.pop()!;
/** A confirmed booking of A with X weeks ahead, and a free time to move it to; `asked`: A has asked for that time already. */
async function movableBooking(asked = false): Promise<{ id: string; to: string }> {
  const id = await confirmedBooking(lateTime());
  const to = lateTime();
  if (asked) await must("A", { method: "POST", url: `${V1}/bookings/${id}/reschedule`, body: { scheduled_time: to } });
  return { id, to };
}

async function draftSession(): Promise<string> {
  const r = await must("X", { method: "POST", url: `${V1}/sessions`, body: { ...sessionBody("draft"), expert_id: users.X.id } });
  return r.json<{ session: { id: string } }>().session.id;
}

const uploadXImage = () => must("X", { method: "POST", url: `${V1}/experts/me/image`, ...multipartImage() });

// Snapshots of what a refused call must not change.
const head = async () => {
  const p = await api.ctx.store.headPosition();
  return p ? formatPosition(p) : "empty";
};
const rows = async (sql: string, values: unknown[]) => JSON.stringify((await api.ctx.db.query(sql, values)).rows);
const bookingRow = (id: string) => rows("SELECT * FROM bookings WHERE booking_id = $1", [id]);
const sessionRow = (id: string) => rows("SELECT * FROM sessions WHERE session_id = $1", [id]);
const expertRows = (...userIds: string[]) => rows("SELECT * FROM experts WHERE user_id = ANY($1) ORDER BY user_id", [userIds]);
const paymentRows = (bookingId: string) =>
  rows("SELECT payment_id, status FROM payments WHERE booking_id = $1 ORDER BY payment_id", [bookingId]);
const imageOf = (userId: string) => existsSync(join(api.ctx.mediaDir, "experts", userId, "profile"));
const idOf = (c: Caller) => (c === "anon" ? "" : users[c].id);

beforeAll(async () => {
  const lazyDb: Queryable = { query: (text, values) => api.ctx.db.query(text, values) };
  // The expert's own calendars (issue 32) are read from here: an empty iCal file.
  icsServer = createServer((_request, response) => response.writeHead(200, { "content-type": "text/calendar" }).end(EMPTY_CALENDAR));
  await new Promise<void>((resolve) => icsServer.listen(0, "127.0.0.1", resolve));
  icsHost = `127.0.0.1:${(icsServer.address() as AddressInfo).port}`;
  api = await startTestApi({
    payments: new TestPaymentProvider(lazyDb),
    stripeWebhookSecret: WEBHOOK_SECRET,
    calendarPlainHosts: [icsHost],
  });

  users.A = await signUp("creator", "Alice");
  users.B = await signUp("creator", "Bob");
  users.X = await signUp("expert", "Xena");
  users.Y = await signUp("expert", "Yuri");
  loginOnly = await signUp("creator", "Lena");
  const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
  await ensureAdminAccount(api.ctx, adminEmail, PASSWORD);
  const adminSession = await logIn({ email: adminEmail, password: PASSWORD });
  const adminId = (await must("anon", { method: "GET", url: `${V1}/auth/me`, token: adminSession.access_token })).json<{ id: string }>().id;
  users.admin = { id: adminId, email: adminEmail, password: PASSWORD, token: adminSession.access_token, role: "admin" };
  // Admins reach the console's routes with two-factor sign-in on (issue 33.4), set up as the console does it.
  await turnOnTwoFactor("admin");
  twoFactorOnly = await signUp("creator", "Tess");
  await turnOnTwoFactor(twoFactorOnly);
  passkeyOnly = await signUp("creator", "Pam");
  await addedPasskey(passkeyOnly, passkeyDevice);

  for (const c of ["A", "B", "X", "Y"] as const)
    await must(c, { method: "POST", url: `${V1}/terms/accept`, body: { version_id: CURRENT_TERMS_VERSION } });
  ids.xSlug = (await must("X", { method: "PATCH", url: `${V1}/experts/me`, body: profileOf("Xena", true) })).json<{ slug: string }>().slug;
  ids.ySlug = (await must("Y", { method: "PATCH", url: `${V1}/experts/me`, body: profileOf("Yuri", false) })).json<{ slug: string }>().slug;
  await api.approve(users.X.id);
  await must("X", { method: "POST", url: `${V1}/experts/${users.X.id}/schedule`, body: schedule });
  ids.publishedSession = (
    await must("X", { method: "POST", url: `${V1}/sessions`, body: { ...sessionBody("published"), expert_id: users.X.id } })
  ).json<{ session: { id: string } }>().session.id;
  ids.draftSession = await draftSession();
  await uploadXImage();

  const all = (await must("anon", { method: "GET", url: `${V1}/sessions/${ids.publishedSession}/availability` })).json<{
    times: string[];
  }>().times;
  times = all.filter((t) => new Date(t).getUTCMinutes() === 0 && new Date(t).getUTCHours() % 2 === 0);
  ids.booking = await book("A", { keep: true });
  ids.notesBooking = await confirmedBooking();
  await must("X", {
    method: "POST",
    url: `${V1}/bookings/${ids.notesBooking}/notes`,
    body: { summary: "Great call", takeaways: ["Lead with numbers"] },
  });
  ids.reviewedBooking = await reviewedBooking();
  ids.refundedBooking = await confirmedBooking();

  const firstId = async (resource: string, filter: Record<string, unknown> = {}) => {
    const q = new URLSearchParams({ range: "[0,0]", filter: JSON.stringify(filter) });
    const list = (await must("admin", { method: "GET", url: `${V1}/admin/${resource}?${q}` })).json<{ id: string }[]>();
    if (!list[0]) throw new Error(`fixture: no ${resource}`);
    return list[0].id;
  };
  adminIds.bookings = ids.booking;
  adminIds["booking-events"] = await firstId("booking-events", { booking_id: ids.booking });
  adminIds["terms-acceptances"] = await firstId("terms-acceptances", { user_id: users.A.id });
  adminIds.users = users.A.id;
  adminIds.experts = users.X.id;
  adminIds.events = await firstId("events");
  adminIds.sessions = ids.publishedSession;
  adminIds.projections = "terms_acceptances";
  adminIds.reviews = ids.reviewedBooking;
  adminIds.mailbox = await firstId("mailbox");
  adminIds.refunds = (
    await must("admin", {
      method: "POST",
      url: `${V1}/admin/refunds`,
      body: { booking_id: ids.refundedBooking, amount_cents: 100, reason: "Matrix refund" },
    })
  ).json<{ id: string }>().id;

  streaming = await buildApp({ ...api.ctx, feed: recordingFeed });
  await streaming.listen({ port: 0, host: "127.0.0.1" });
  streamBase = `http://127.0.0.1:${(streaming.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await streaming?.close();
  await api?.close();
  icsServer?.close();
});

// ---------------------------------------------------------------------------------------------
// The matrix

/** One call of a row by one caller: its parameters and body, and what it must leave alone when refused. */
type Call = {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Use this token instead of the caller's usual one (still the caller's own). */
  token?: string | null;
  /** What a refused call must not change (the event store's head is always checked). */
  state?: () => Promise<unknown> | unknown;
  /** Appended to an "ok" cell: what the reply showed (e.g. which bookings a list held). */
  note?: (r: LightMyRequestResponse) => string;
  after?: (r: LightMyRequestResponse) => Promise<void>;
};
type Row = {
  route: CatalogueRoute;
  label?: string;
  expect: Record<Caller, string>;
  make?: (c: Caller) => Promise<Call> | Call;
  /** Rows that cannot go through inject (a never-ending event stream). */
  custom?: (c: Caller) => Promise<string>;
};

const OK = "ok";
const NO_TOKEN = "401 no_access_token";
const FORBIDDEN = "403 forbidden";
const NO_BOOKING = "404 booking_not_found";
const NOT_PARTY = "403 not_booking_party";
const NOT_OWNER = "403 not_session_owner";
const NO_SESSION = "404 session_not_found";
const NO_PROFILE = "404 profile_not_found";
const NO_PAYMENT = "404 payment_not_found";
const ONLY_CREATORS = "403 only_creators_book";
const NOT_REVIEWER = "403 review_not_your_booking";
const NOT_REPLIER = "403 review_reply_not_expert";
const NO_SIGN_IN = "404 sign_in_not_found";
const WRONG_PASSWORD = "403 erasure_password_wrong";
const NO_PASSKEY = "404 passkey_not_found";

/** Expected cells in caller order: anonymous, A, B, X, Y, admin. */
const cells = (anon: string, A: string, B: string, X: string, Y: string, admin: string): Record<Caller, string> => ({
  anon,
  A,
  B,
  X,
  Y,
  admin,
});
const everyone = cells(OK, OK, OK, OK, OK, OK);
const signedIn = cells(NO_TOKEN, OK, OK, OK, OK, OK);
/** The caller's own expert account: admins act on experts' things but are not experts. */
const ownExpertAccount = cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, OK, "403 admin_not_expert");
const adminOnly = cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK);

const listed = (r: LightMyRequestResponse, id: string, mark: string) =>
  r.json<{ id: string }[]>().some((x) => x.id === id) ? ` +${mark}` : "";

/** Callers who hold their own login session for this call (logout and password change end sessions). */
async function ownSession(c: Caller): Promise<string | null> {
  if (c === "anon") return null;
  return (await logIn(users[c])).access_token;
}

/** A new sign-in of the caller's (as from another device): its id. */
async function ownSignIn(c: SignedIn): Promise<string> {
  const session = await logIn(users[c]);
  const list = (await must("anon", { method: "GET", url: `${V1}/auth/sign-ins`, token: session.access_token })).json<{
    sign_ins: { id: string; current: boolean }[];
  }>();
  return list.sign_ins.find((s) => s.current)!.id;
}

let passwordChanges = 0;

/** The body adding a passkey to the caller's account: a fresh authenticator's answer to the caller's options (to made-up ones, for anon). */
async function passkeyRegistration(c: Caller, authenticator = new PasskeyAuthenticator(PASSKEY_ORIGIN)) {
  const options =
    c === "anon"
      ? { challenge: "bm8tb3B0aW9ucw", rp: { id: "localhost" }, user: { id: "YW5vbg" } }
      : (await must(c, { method: "POST", url: `${V1}/auth/passkeys/options` })).json<{
          challenge: string;
          rp: { id?: string };
          user: { id: string };
        }>();
  return { response: authenticator.register(options) };
}

/** A passkey added to `account` through the API: its id. */
async function addedPasskey(account: Account, authenticator = new PasskeyAuthenticator(PASSKEY_ORIGIN)): Promise<string> {
  const options = (await must("anon", { method: "POST", url: `${V1}/auth/passkeys/options`, token: account.token })).json<{
    challenge: string;
    user: { id: string };
    rp: { id?: string };
  }>();
  const body = { response: authenticator.register(options) };
  return (await must("anon", { method: "POST", url: `${V1}/auth/passkeys`, body, token: account.token })).json<{ id: string }>().id;
}

/** The account's passkeys removed again: its password alone signs it in, as the fixture's logIn expects. */
const removePasskeysOf = async (account: Account) => {
  await api.ctx.db.query("UPDATE passkeys SET removed_at = now() WHERE user_id = $1 AND removed_at IS NULL", [account.id]);
};

/** The password step of passkeyOnly's sign-in: the challenge its passkey answers. */
async function passkeyOnlyChallenge(): Promise<string> {
  const body = { email: passkeyOnly.email, password: passkeyOnly.password };
  return (await must("anon", { method: "POST", url: `${V1}/auth/login`, body })).json<{ challenge: string }>().challenge;
}

/** X's own calendar routes (issue 17): X and admins only. */
const xOwn = cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, FORBIDDEN, OK);
const xSchedule = () => rows("SELECT * FROM schedules WHERE expert_id = $1", [users.X.id]);
/** Time off or extra hours X adds for a removal to remove, a day of its own each (extra hours on one date may not overlap): its id. */
let removals = 0;
async function addedByX(path: "time-off" | "date-overrides"): Promise<string> {
  const id = `m-${randomUUID()}`;
  const day = new Date(Date.UTC(2031, 1, 1 + removals++)).toISOString().slice(0, 10);
  const body = path === "time-off" ? { start_date: day, end_date: day } : { date: day, start_local: "10:00", end_local: "11:00" };
  await must("X", { method: "POST", url: `${V1}/experts/${users.X.id}/${path}`, body: { id, ...body } });
  return id;
}

const EMPTY_CALENDAR = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Matrix//EN\r\nEND:VCALENDAR\r\n";
let icsServer: Server;
let icsHost = "";
let connections = 0;
let xConnection: string | null = null;
let xSpare: string | null = null;
/** The calendar X connected for the changes to act on (one: an expert may connect ten). */
const connectionOfX = async () => (xConnection ??= await connectedByX());
/** A calendar X connects for a removal to act on: its connection id. */
async function connectedByX(): Promise<string> {
  const url = `http://${icsHost}/x-${connections++}.ics`;
  return (await must("X", { method: "POST", url: `${V1}/experts/${users.X.id}/calendars`, body: { kind: "ics", url } })).json<{
    id: string;
  }>().id;
}
const xCalendars = () =>
  rows("SELECT connection_id, all_day_blocks, last_synced_at FROM calendar_connections WHERE expert_id = $1 ORDER BY 1", [users.X.id]);

const ROWS: Row[] = [
  { route: "GET /healthz", expect: everyone },
  { route: "GET /readyz", expect: everyone },
  { route: "GET /docs", expect: everyone },

  { route: "GET /terms/latest", expect: everyone },
  { route: "GET /terms/status", expect: signedIn },
  { route: "POST /terms/accept", expect: signedIn, make: () => ({ body: { version_id: CURRENT_TERMS_VERSION } }) },

  { route: "GET /experts", expect: everyone, make: () => ({ note: (r) => listed(r, users.Y.id, "unpublished-Y") }) },
  {
    route: "GET /experts/search",
    expect: everyone,
    make: () => ({ query: "?search=matrix", note: (r) => listed(r, users.Y.id, "unpublished-Y") }),
  },
  { route: "GET /experts/me", expect: ownExpertAccount },
  {
    route: "PATCH /experts/me",
    expect: ownExpertAccount,
    make: (c) => ({
      body: c === "Y" ? profileOf("Yuri", false) : c === "admin" ? profileOf("Admin", false) : profileOf("Xena", true),
      state: () => expertRows(users.X.id, idOf(c)),
    }),
  },
  {
    route: "POST /experts/me/image",
    expect: ownExpertAccount,
    make: (c) => ({ ...multipartImage(), state: () => [imageOf(idOf(c)), imageOf(users.X.id)] }),
  },
  {
    route: "DELETE /experts/me/image",
    expect: ownExpertAccount,
    make: (c) => ({ state: () => [imageOf(idOf(c)), imageOf(users.X.id)], after: async () => void (c === "X" && (await uploadXImage())) }),
  },
  { route: "GET /experts/:slug", label: "X, published", expect: everyone, make: () => ({ params: { slug: ids.xSlug } }) },
  {
    route: "GET /experts/:slug",
    label: "Y, unpublished",
    expect: cells(NO_PROFILE, NO_PROFILE, NO_PROFILE, NO_PROFILE, OK, OK),
    make: () => ({ params: { slug: ids.ySlug } }),
  },
  {
    route: "GET /experts/:expertId/sessions",
    label: "X's, with a draft",
    expect: cells(OK, OK, OK, "ok +draft", OK, "ok +draft"),
    make: () => ({ params: { expertId: users.X.id }, note: (r) => listed(r, ids.draftSession, "draft") }),
  },
  { route: "GET /experts/:expertId/schedule", label: "X's", expect: signedIn, make: () => ({ params: { expertId: users.X.id } }) },
  // An expert's reviews a page at a time (issue 34.5): whoever may see the profile.
  { route: "GET /experts/:expertId/reviews", label: "X, published", expect: everyone, make: () => ({ params: { expertId: users.X.id } }) },
  {
    route: "GET /experts/:expertId/reviews",
    label: "Y, unpublished",
    expect: cells(NO_PROFILE, NO_PROFILE, NO_PROFILE, NO_PROFILE, OK, OK),
    make: () => ({ params: { expertId: users.Y.id } }),
  },
  // Earnings: the expert's own (their expert id is their user id), or any expert's for an admin.
  { route: "GET /experts/me/earnings", expect: ownExpertAccount },
  { route: "GET /experts/me/earnings/:month", expect: ownExpertAccount, make: () => ({ params: { month: "2030-01" } }) },
  {
    route: "GET /experts/:expertId/earnings",
    label: "X's",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, FORBIDDEN, OK),
    make: () => ({ params: { expertId: users.X.id } }),
  },
  {
    route: "GET /experts/:expertId/earnings/:month",
    label: "X's",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, FORBIDDEN, OK),
    make: () => ({ params: { expertId: users.X.id, month: "2030-01" } }),
  },
  {
    route: "POST /experts/:expertId/schedule",
    label: "X's",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, FORBIDDEN, OK),
    make: () => ({
      params: { expertId: users.X.id },
      body: schedule,
      state: () => rows("SELECT * FROM schedules WHERE expert_id = $1", [users.X.id]),
    }),
  },
  // Issue 17: the expert's time off, extra hours and booking rules, beside the schedule (theirs, or an admin's for them).
  {
    route: "PUT /experts/:expertId/booking-rules",
    label: "X's",
    expect: xOwn,
    make: () => ({
      params: { expertId: users.X.id },
      body: { buffer_before_minutes: 0, buffer_after_minutes: 0, min_notice_hours: 0 },
      state: xSchedule,
    }),
  },
  {
    route: "POST /experts/:expertId/time-off",
    label: "X's",
    expect: xOwn,
    make: () => ({
      params: { expertId: users.X.id },
      body: { id: "matrix-off", start_date: "2031-01-07", end_date: "2031-01-07" },
      state: xSchedule,
    }),
  },
  {
    route: "DELETE /experts/:expertId/time-off/:timeOffId",
    label: "X's",
    expect: xOwn,
    make: async () => ({ params: { expertId: users.X.id, timeOffId: await addedByX("time-off") }, state: xSchedule }),
  },
  {
    route: "GET /experts/:expertId/time-off/affected-bookings",
    label: "X's",
    expect: xOwn,
    make: () => ({ params: { expertId: users.X.id } }),
  },
  {
    route: "POST /experts/:expertId/date-overrides",
    label: "X's",
    expect: xOwn,
    make: () => ({
      params: { expertId: users.X.id },
      body: { id: "matrix-extra", date: "2031-01-09", start_local: "10:00", end_local: "11:00" },
      state: xSchedule,
    }),
  },
  {
    route: "DELETE /experts/:expertId/date-overrides/:overrideId",
    label: "X's",
    expect: xOwn,
    make: async () => ({ params: { expertId: users.X.id, overrideId: await addedByX("date-overrides") }, state: xSchedule }),
  },
  // Issue 33.3: your data, downloaded; an admin's for a user on request.
  { route: "GET /me/export", expect: signedIn },
  // Issue 33.2: deleting your own account, with your password again; a wrong one erases nobody (a right one is tested apart).
  {
    route: "POST /me/erasure",
    label: "a wrong password",
    expect: cells(NO_TOKEN, WRONG_PASSWORD, WRONG_PASSWORD, WRONG_PASSWORD, WRONG_PASSWORD, WRONG_PASSWORD),
    make: () => ({ body: { current_password: "not-the-password" } }),
  },
  // Issue 33.4: a passkey confirms it in place of the password; options for the caller's own passkeys (one added for the call).
  {
    route: "POST /me/erasure/passkey/options",
    label: "the caller's own passkeys",
    expect: signedIn,
    make: async (c) => {
      if (c === "anon") return {};
      await addedPasskey(users[c]);
      return { after: () => removePasskeysOf(users[c]) };
    },
  },
  { route: "GET /admin/users/:id/export", label: "A's", expect: adminOnly, make: () => ({ params: { id: users.A.id } }) },
  // Issue 32: the expert's own calendars (theirs, or an admin's for them).
  { route: "GET /experts/:expertId/calendars", label: "X's", expect: xOwn, make: () => ({ params: { expertId: users.X.id } }) },
  {
    route: "POST /experts/:expertId/calendars",
    label: "X's",
    expect: xOwn,
    make: (c) => ({ params: { expertId: users.X.id }, body: { kind: "ics", url: `http://${icsHost}/by-${c}.ics` }, state: xCalendars }),
  },
  {
    route: "PATCH /experts/:expertId/calendars/:connectionId",
    label: "X's",
    expect: xOwn,
    make: async () => ({
      params: { expertId: users.X.id, connectionId: await connectedByX() },
      body: { all_day_blocks: true },
      state: xCalendars,
    }),
  },
  {
    route: "POST /experts/:expertId/calendars/:connectionId/sync",
    label: "X's",
    expect: xOwn,
    make: async () => ({ params: { expertId: users.X.id, connectionId: await connectionOfX() }, state: xCalendars }),
  },
  {
    route: "DELETE /experts/:expertId/calendars/:connectionId",
    label: "X's",
    expect: xOwn,
    // A refused removal leaves the calendar for the next caller; a done one needs another.
    make: async () => ({
      params: { expertId: users.X.id, connectionId: (xSpare ??= await connectedByX()) },
      state: xCalendars,
      after: async (r) => void (r.statusCode === 204 && (xSpare = null)),
    }),
  },
  {
    route: "GET /media/experts/:expertId/profile",
    label: "X's image",
    expect: everyone,
    make: async () => (await uploadXImage(), { params: { expertId: users.X.id } }),
  },

  {
    route: "POST /sessions",
    label: "for X",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, NOT_OWNER, OK),
    make: () => ({
      body: { ...sessionBody("draft"), expert_id: users.X.id },
      state: () => rows("SELECT count(*) FROM sessions WHERE expert_id = $1", [users.X.id]),
    }),
  },
  { route: "GET /sessions/:id", label: "X's, published", expect: everyone, make: () => ({ params: { id: ids.publishedSession } }) },
  {
    route: "GET /sessions/:id",
    label: "X's, draft",
    expect: cells(NO_SESSION, NO_SESSION, NO_SESSION, OK, NO_SESSION, OK),
    make: () => ({ params: { id: ids.draftSession } }),
  },
  {
    route: "PUT /sessions/:id",
    label: "publish X's fresh draft",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, NOT_OWNER, OK),
    make: async () => {
      const id = await draftSession();
      return { params: { id }, body: { status: "published" }, state: () => sessionRow(id) };
    },
  },
  {
    route: "DELETE /sessions/:id",
    label: "X's fresh draft",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, OK, NOT_OWNER, OK),
    make: async () => {
      const id = await draftSession();
      return { params: { id }, state: () => sessionRow(id) };
    },
  },
  {
    route: "GET /sessions/:id/availability",
    label: "X's, published",
    expect: everyone,
    make: () => ({ params: { id: ids.publishedSession } }),
  },

  { route: "GET /stream", label: "token in header", expect: signedIn, custom: (c) => streamCell(c, "header") },
  { route: "GET /stream", label: "token in query", expect: signedIn, custom: (c) => streamCell(c, "query") },

  {
    route: "POST /bookings",
    label: "X's session",
    expect: cells(NO_TOKEN, OK, OK, ONLY_CREATORS, ONLY_CREATORS, "403 admin_cannot_book"),
    make: () => ({ body: { session_id: ids.publishedSession, scheduled_time: takeTime(false) } }),
  },
  {
    route: "GET /bookings/creator/me",
    expect: cells(NO_TOKEN, "ok +A's", OK, FORBIDDEN, FORBIDDEN, OK),
    make: () => ({ note: (r) => listed(r, ids.booking, "A's") }),
  },
  // An expert's list holds paid bookings only (issue 27.9): A's paid and confirmed one with X.
  {
    route: "GET /bookings/expert/me",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, "ok +A's", OK, OK),
    make: () => ({ note: (r) => listed(r, ids.notesBooking, "A's") }),
  },
  // By id: the user themselves, or an admin opening their dashboard (sees A's bookings, not their own).
  {
    route: "GET /bookings/creator/:userId",
    label: "A's",
    expect: cells(NO_TOKEN, "ok +A's", FORBIDDEN, FORBIDDEN, FORBIDDEN, "ok +A's"),
    make: () => ({ params: { userId: users.A.id }, note: (r) => listed(r, ids.booking, "A's") }),
  },
  {
    route: "GET /bookings/expert/:userId",
    label: "X's",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, "ok +A's", FORBIDDEN, "ok +A's"),
    make: () => ({ params: { userId: users.X.id }, note: (r) => listed(r, ids.notesBooking, "A's") }),
  },
  {
    route: "GET /bookings/:id",
    label: "A's with X",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, OK),
    make: () => ({ params: { id: ids.booking } }),
  },
  {
    route: "PATCH /bookings/:bookingId/status",
    label: "cancel a fresh booking",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, OK),
    make: async () => {
      const id = await book();
      return { params: { bookingId: id }, body: { status: "cancelled", reason: "matrix" }, state: () => bookingRow(id) };
    },
  },
  {
    route: "PATCH /bookings/:bookingId/status",
    label: "ask a fresh booking for info",
    expect: cells(NO_TOKEN, NOT_PARTY, NO_BOOKING, OK, NO_BOOKING, OK),
    make: async () => {
      const id = await book();
      return {
        params: { bookingId: id },
        body: { status: "more_info_requested", info_request_note: "Which brands?" },
        state: () => bookingRow(id),
      };
    },
  },
  {
    route: "PATCH /bookings/:bookingId/schedule",
    label: "propose a time",
    expect: cells(NO_TOKEN, NOT_PARTY, NO_BOOKING, OK, NO_BOOKING, OK),
    make: async () => {
      const id = await book();
      return { params: { bookingId: id }, body: { scheduled_time: takeTime(true) }, state: () => bookingRow(id) };
    },
  },
  {
    route: "PATCH /bookings/:bookingId/prep",
    label: "answer a fresh booking",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, NOT_PARTY, NO_BOOKING, OK),
    make: async () => {
      const id = await book();
      return {
        params: { bookingId: id },
        body: { prep_response_1: "Nike", prep_response_2: "Adidas", prep_response_3: "Puma" },
        state: () => bookingRow(id),
      };
    },
  },
  {
    route: "POST /bookings/:bookingId/notes",
    label: "a fresh confirmed booking",
    expect: cells(NO_TOKEN, NOT_PARTY, NO_BOOKING, OK, NO_BOOKING, OK),
    make: async () => {
      const id = await confirmedBooking();
      return { params: { bookingId: id }, body: { summary: "Went well" }, state: () => bookingRow(id) };
    },
  },
  {
    route: "GET /bookings/:bookingId/proposable-times",
    label: "A's with X",
    expect: cells(NO_TOKEN, NOT_PARTY, NO_BOOKING, OK, NO_BOOKING, OK),
    make: () => ({ params: { bookingId: ids.booking }, query: `?date=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}` }),
  },
  {
    route: "GET /bookings/:bookingId/cancellation",
    label: "A's with X",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, OK),
    make: () => ({ params: { bookingId: ids.booking } }),
  },
  // Moving a booking and its meeting link (issue 17): the creator asks or withdraws, the expert answers or sets the link; admins act for either.
  {
    route: "POST /bookings/:bookingId/reschedule",
    label: "a fresh confirmed booking, to a free time",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, "403 reschedule_creator_only", NO_BOOKING, OK),
    make: async () => {
      const { id, to } = await movableBooking();
      return { params: { bookingId: id }, body: { scheduled_time: to }, state: () => bookingRow(id) };
    },
  },
  ...(["accept", "decline"] as const).map((answer): Row => ({
    route: `POST /bookings/:bookingId/reschedule/${answer}`,
    label: "A asked to move a fresh booking",
    expect: cells(NO_TOKEN, "403 reschedule_expert_only", NO_BOOKING, OK, NO_BOOKING, OK),
    make: async () => {
      const { id } = await movableBooking(true);
      return { params: { bookingId: id }, state: () => bookingRow(id) };
    },
  })),
  {
    route: "POST /bookings/:bookingId/reschedule/withdraw",
    label: "A asked to move a fresh booking",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, "403 reschedule_creator_only", NO_BOOKING, OK),
    make: async () => {
      const { id } = await movableBooking(true);
      return { params: { bookingId: id }, state: () => bookingRow(id) };
    },
  },
  {
    route: "PUT /bookings/:bookingId/join-link",
    label: "a fresh confirmed booking",
    expect: cells(NO_TOKEN, "403 join_link_expert_only", NO_BOOKING, OK, NO_BOOKING, OK),
    make: async () => {
      const id = await confirmedBooking();
      return { params: { bookingId: id }, body: { url: "https://meet.example.com/matrix" }, state: () => bookingRow(id) };
    },
  },
  // No-shows (issue 31.1): the parties reach the rules (a future session is too early to report, none is reported to contest);
  // admins decide, never report.
  {
    route: "POST /bookings/:bookingId/no-show",
    label: "a fresh booking that started an hour ago",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, NOT_PARTY),
    make: async () => {
      const id = await startedBooking();
      return { params: { bookingId: id }, body: { note: "matrix" }, state: () => bookingRow(id) };
    },
  },
  {
    route: "POST /bookings/:bookingId/no-show/contest",
    label: "A reported X absent on a fresh booking",
    expect: cells(NO_TOKEN, "403 no_show_not_yours", NO_BOOKING, OK, NO_BOOKING, NOT_PARTY),
    make: async () => {
      const id = await reportedBooking();
      return { params: { bookingId: id }, body: {}, state: () => bookingRow(id) };
    },
  },
  { route: "GET /admin/no-shows", expect: adminOnly },
  {
    route: "GET /admin/no-shows/:id",
    label: "A's with X, none reported",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, "404 not_found"),
    make: () => ({ params: { id: ids.booking } }),
  },
  {
    route: "POST /admin/bookings/:bookingId/no-show/decision",
    label: "A reported X absent on a fresh booking",
    expect: adminOnly,
    make: async () => {
      const id = await reportedBooking();
      return { params: { bookingId: id }, body: { upheld: true, refund_cents: 0, reason: "matrix" }, state: () => bookingRow(id) };
    },
  },
  // A booking's conversation (issue 31.3): its parties write, read and mute; an admin reads it (and writes nothing); others learn nothing.
  {
    route: "GET /bookings/:bookingId/messages",
    label: "A's with X",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, OK),
    make: () => ({ params: { bookingId: ids.booking } }),
  },
  {
    route: "POST /bookings/:bookingId/messages",
    label: "A's with X",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, NOT_PARTY),
    make: () => ({ params: { bookingId: ids.booking }, body: { text: "Matrix message" } }),
  },
  {
    route: "POST /bookings/:bookingId/messages/read",
    label: "A's with X",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, NOT_PARTY),
    make: () => ({ params: { bookingId: ids.booking } }),
  },
  {
    route: "PUT /bookings/:bookingId/messages/mute",
    label: "A's with X",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, NOT_PARTY),
    make: () => ({ params: { bookingId: ids.booking }, body: { muted: true } }),
  },
  { route: "GET /me/unread-messages", expect: signedIn },
  // Disputes (issue 31.2): the console's alone; a test dispute needs a test payment (refused for a booking refunded in full).
  { route: "GET /admin/disputes", expect: adminOnly },
  {
    route: "GET /admin/disputes/:id",
    label: "none by that id",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, "404 not_found"),
    make: () => ({ params: { id: "dp_none" } }),
  },
  {
    route: "GET /admin/disputes/:id/evidence.pdf",
    label: "none by that id",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, "404 not_found"),
    make: () => ({ params: { id: "dp_none" } }),
  },
  {
    route: "POST /admin/payments/:paymentId/test-dispute",
    label: "an unknown payment",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, NO_PAYMENT),
    make: () => ({ params: { paymentId: "pi_none" }, body: {} }),
  },
  {
    route: "GET /bookings/:bookingId/notes",
    label: "A's with X",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, OK),
    make: () => ({ params: { bookingId: ids.notesBooking } }),
  },
  // Reviews: among a booking's parties the creator reviews and the expert replies; others learn nothing of it.
  {
    route: "GET /bookings/:bookingId/review",
    label: "A's with X, reviewed",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, OK),
    make: () => ({ params: { bookingId: ids.reviewedBooking } }),
  },
  {
    route: "POST /bookings/:bookingId/review",
    label: "a fresh completed booking",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, NOT_REVIEWER, NO_BOOKING, NOT_REVIEWER),
    make: async () => {
      const id = await completedBooking();
      return { params: { bookingId: id }, body: { rating: 4, text: "Useful" }, state: () => reviewRow(id) };
    },
  },
  {
    route: "PATCH /bookings/:bookingId/review",
    label: "A's review",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, NOT_REVIEWER, NO_BOOKING, NOT_REVIEWER),
    make: () => ({
      params: { bookingId: ids.reviewedBooking },
      body: { rating: 5, text: "Matrix review" },
      state: () => reviewRow(ids.reviewedBooking),
    }),
  },
  {
    route: "POST /bookings/:bookingId/review/reply",
    label: "a fresh review",
    expect: cells(NO_TOKEN, NOT_REPLIER, NO_BOOKING, OK, NO_BOOKING, NOT_REPLIER),
    make: async () => {
      const id = await reviewedBooking();
      return { params: { bookingId: id }, body: { text: "Thank you" }, state: () => reviewRow(id) };
    },
  },

  {
    route: "POST /stripe/test-intent",
    label: "A's fresh booking",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, NO_BOOKING, NO_BOOKING, NO_BOOKING),
    make: async () => {
      const id = await book();
      return { body: { bookingId: id }, state: async () => [await paymentRows(id), await bookingRow(id)] };
    },
  },
  {
    route: "POST /payments/test/confirm",
    label: "A's payment",
    expect: cells(NO_TOKEN, OK, NO_PAYMENT, NO_PAYMENT, NO_PAYMENT, NO_PAYMENT),
    make: async () => {
      const id = await book();
      const secret = await intentFor(id);
      return {
        body: { client_secret: secret, card_number: TEST_CARD_SUCCEEDS },
        state: async () => [await paymentRows(id), await bookingRow(id)],
      };
    },
  },
  {
    route: "POST /stripe/webhook",
    label: "Stripe-signed",
    expect: everyone,
    make: () => {
      const payload = JSON.stringify({ id: `evt_${randomUUID()}`, object: "event", type: "customer.created", data: { object: {} } });
      return {
        body: payload,
        headers: {
          "content-type": "application/json",
          "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
      };
    },
  },

  {
    route: "POST /auth/signup",
    expect: everyone,
    make: () => ({ body: { email: `new-${randomUUID().slice(0, 8)}@example.com`, password: PASSWORD, role: "creator" } }),
  },
  { route: "POST /auth/login", expect: everyone, make: () => ({ body: { email: loginOnly.email, password: loginOnly.password } }) },
  {
    route: "POST /auth/refresh",
    expect: everyone,
    make: async () => ({ headers: refreshHeaders((await logIn(loginOnly)).refresh_token) }),
  },
  {
    route: "POST /auth/logout",
    label: "own session",
    expect: signedIn,
    make: async (c) => ({ token: await ownSession(c), body: { scope: "local" } }),
  },
  {
    route: "POST /auth/password",
    label: "own session",
    expect: signedIn,
    make: async (c) => {
      const password = `changed-${++passwordChanges}-Passw0rd`;
      return {
        token: await ownSession(c),
        body: c === "anon" ? { current_password: PASSWORD, password } : { current_password: users[c].password, password },
        state: () => (c === "anon" ? null : rows("SELECT password_hash FROM accounts WHERE user_id = $1", [users[c].id])),
        after: async (r) => {
          if (c !== "anon" && r.statusCode === 204) {
            users[c].password = password;
            // A password change ends the caller's other sign-ins, and their access tokens with them.
            users[c].token = (await logIn(users[c])).access_token;
          }
        },
      };
    },
  },
  {
    route: "GET /auth/me",
    expect: signedIn,
    make: (c) => ({ note: (r) => (r.json<{ id: string }>().id === idOf(c) ? "" : ` as ${r.json<{ id: string }>().id}`) }),
  },
  {
    route: "PATCH /auth/me",
    expect: signedIn,
    // Each caller renames only themselves (to the names they signed up with, so later rows see no change).
    make: (c) => ({
      body: { first_name: { A: "Alice", B: "Bob", X: "Xena", Y: "Yuri", admin: "Admin", anon: "Anon" }[c], last_name: "Matrix" },
      note: (r) => (r.json<{ id: string }>().id === idOf(c) ? "" : ` as ${r.json<{ id: string }>().id}`),
    }),
  },

  // Mail links (issue 16): whoever holds a link may use it, signed in or not, as whoever.
  {
    route: "POST /auth/verify",
    label: "fresh link",
    expect: everyone,
    make: async () => ({ body: { token: await mailedToken(api.ctx.db, "verify_email", await unverifiedAccount()) } }),
  },
  { route: "POST /auth/verify/resend", expect: everyone, make: async () => ({ body: { email: await unverifiedAccount() } }) },
  { route: "POST /auth/recover", expect: everyone, make: () => ({ body: { email: loginOnly.email } }) },
  {
    route: "POST /auth/reset",
    label: "fresh link",
    expect: everyone,
    make: async () => {
      const email = await unverifiedAccount();
      await must("anon", { method: "POST", url: `${V1}/auth/recover`, body: { email } });
      return { body: { token: await mailedToken(api.ctx.db, "password_reset", email), password: "reset-Passw0rd-1" } };
    },
  },
  {
    route: "PUT /auth/me/preferences",
    expect: signedIn,
    make: (c) => ({
      body: { timezone: "UTC", reminder_mails: true },
      note: (r) => (r.json<{ id: string }>().id === idOf(c) ? "" : ` as ${r.json<{ id: string }>().id}`),
    }),
  },

  // Where each caller is signed in (issue 33.5): their own sign-ins only; another's is not found, for an admin too.
  { route: "GET /auth/sign-ins", expect: signedIn },
  {
    route: "DELETE /auth/sign-ins/:id",
    label: "the caller's other sign-in",
    expect: signedIn,
    make: async (c) => ({ params: { id: c === "anon" ? randomUUID() : await ownSignIn(c) } }),
  },
  {
    route: "DELETE /auth/sign-ins/:id",
    label: "A's",
    expect: cells(NO_TOKEN, OK, NO_SIGN_IN, NO_SIGN_IN, NO_SIGN_IN, NO_SIGN_IN),
    make: async () => {
      const id = await ownSignIn("A");
      return { params: { id }, state: () => rows("SELECT ended_at FROM sign_ins WHERE family_id = $1", [id]) };
    },
  },

  // Two-factor sign-in (issue 33.4), each caller's own: A, B, X and Y turn it on and off again; the admin, who must
  // keep it, moves it to a new secret and cannot turn it off.
  { route: "GET /auth/two-factor", expect: signedIn },
  {
    route: "POST /auth/two-factor/enrol",
    expect: signedIn,
    make: (c) => ({ body: { current_password: c === "anon" ? PASSWORD : users[c].password } }),
  },
  {
    route: "POST /auth/two-factor/confirm",
    label: "a fresh enrolment's code",
    expect: signedIn,
    make: async (c) => {
      if (c === "anon") return { body: { code: "123456" } };
      const enrol = { method: "POST", url: `${V1}/auth/two-factor/enrol`, body: { current_password: users[c].password } } as const;
      const { secret } = (await must(c, enrol)).json<{ secret: string }>();
      return {
        body: { code: await generate({ secret }) },
        after: async (r) => {
          if (r.statusCode === 200) users[c].recoveryCodes = r.json<{ recovery_codes: string[] }>().recovery_codes;
        },
      };
    },
  },
  {
    route: "DELETE /auth/two-factor",
    label: "with a recovery code",
    expect: cells(NO_TOKEN, OK, OK, OK, OK, "403 two_factor_required_for_admins"),
    make: (c) => ({
      body: {
        current_password: c === "anon" ? PASSWORD : users[c].password,
        recovery_code: c === "anon" ? "aaaa-bbbb-cccc" : users[c].recoveryCodes![0],
      },
      state: () => (c === "anon" ? null : rows("SELECT secret FROM two_factor WHERE user_id = $1", [users[c].id])),
      after: async (r) => {
        if (c !== "anon" && r.statusCode === 204) delete users[c].recoveryCodes;
      },
    }),
  },
  {
    route: "POST /auth/login/two-factor",
    label: "a recovery code",
    expect: everyone,
    make: async () => {
      const login = {
        method: "POST",
        url: `${V1}/auth/login`,
        body: { email: twoFactorOnly.email, password: twoFactorOnly.password },
      } as const;
      const { challenge } = (await must("anon", login)).json<{ challenge: string }>();
      return { body: { challenge, recovery_code: twoFactorOnly.recoveryCodes!.shift() } };
    },
  },
  // Passkeys (issue 33.4), each caller's own; another's is not found, for an admin too. Signing in with one is anyone's.
  { route: "GET /auth/passkeys", expect: signedIn },
  { route: "POST /auth/passkeys/options", expect: signedIn },
  {
    route: "POST /auth/passkeys",
    label: "an answer to the caller's options",
    expect: signedIn,
    make: async (c) => ({
      body: await passkeyRegistration(c),
      state: () => (c === "anon" ? null : rows("SELECT id FROM passkeys WHERE user_id = $1 AND removed_at IS NULL", [users[c].id])),
      after: async () => {
        if (c !== "anon") await removePasskeysOf(users[c]);
      },
    }),
  },
  {
    route: "DELETE /auth/passkeys/:id",
    label: "the caller's own",
    expect: signedIn,
    make: async (c) => ({ params: { id: c === "anon" ? randomUUID() : await addedPasskey(users[c]) } }),
  },
  {
    route: "DELETE /auth/passkeys/:id",
    label: "A's",
    expect: cells(NO_TOKEN, OK, NO_PASSKEY, NO_PASSKEY, NO_PASSKEY, NO_PASSKEY),
    make: async () => {
      const id = await addedPasskey(users.A);
      return {
        params: { id },
        state: () => rows("SELECT removed_at FROM passkeys WHERE id = $1", [id]),
        after: () => removePasskeysOf(users.A),
      };
    },
  },
  { route: "POST /auth/passkeys/sign-in/options", expect: everyone },
  {
    route: "POST /auth/passkeys/sign-in",
    label: "passkeyOnly's passkey",
    expect: everyone,
    make: async () => {
      const options = (await must("anon", { method: "POST", url: `${V1}/auth/passkeys/sign-in/options` })).json<{ challenge: string }>();
      return { body: { response: passkeyDevice.signIn(options) } };
    },
  },
  {
    route: "POST /auth/login/two-factor/passkey/options",
    label: "passkeyOnly's challenge",
    expect: everyone,
    make: async () => {
      const challenge = await passkeyOnlyChallenge();
      return {
        body: { challenge },
        // The sign-in completed with the passkey: password steps left open count in the login back-off.
        after: async (r) => {
          const body = { challenge, response: passkeyDevice.signIn(r.json()) };
          await must("anon", { method: "POST", url: `${V1}/auth/login/two-factor/passkey`, body });
        },
      };
    },
  },
  {
    route: "POST /auth/login/two-factor/passkey",
    label: "passkeyOnly's passkey",
    expect: everyone,
    make: async () => {
      const challenge = await passkeyOnlyChallenge();
      const url = `${V1}/auth/login/two-factor/passkey/options`;
      const options = (await must("anon", { method: "POST", url, body: { challenge } })).json<{ challenge: string }>();
      return { body: { challenge, response: passkeyDevice.signIn(options) } };
    },
  },
  {
    route: "POST /mail/unsubscribe",
    label: "loginOnly's link",
    expect: everyone,
    make: () => ({ body: { token: signLink(TEST_JWT_SECRET, "unsubscribe", loginOnly.id, new Date().toISOString()) } }),
  },

  // Calendar invites (issue 17): a party's own booking, and each caller's own feed; the feed's address is its own key.
  {
    route: "GET /bookings/:bookingId/calendar.ics",
    label: "A's with X, confirmed",
    expect: cells(NO_TOKEN, OK, NO_BOOKING, OK, NO_BOOKING, OK),
    make: () => ({ params: { bookingId: ids.notesBooking } }),
  },
  { route: "GET /calendar/feed", expect: signedIn },
  { route: "POST /calendar/feed/regenerate", expect: signedIn },
  {
    route: "GET /calendar/:file",
    label: "A's feed address",
    expect: everyone,
    make: async () => ({
      params: {
        file: new URL((await must("A", { method: "GET", url: `${V1}/calendar/feed` })).json<{ https_url: string }>().https_url).pathname
          .split("/")
          .pop()!,
      },
    }),
  },

  {
    route: "POST /early-access",
    expect: everyone,
    make: (c) => ({
      body: {
        name: "Matrix Visitor",
        email: `early-${c}-${randomUUID().slice(0, 8)}@example.com`,
        role: "creator",
        need: "Brand deal pricing",
      },
    }),
  },
  {
    route: "POST /support/messages",
    expect: everyone,
    make: (c) => ({ body: { name: "Matrix Visitor", email: `help-${c}@example.com`, topic: "booking", message: "Where is my booking?" } }),
  },

  ...(
    [
      "bookings",
      "booking-events",
      "terms-acceptances",
      "users",
      "experts",
      "events",
      "sessions",
      "projections",
      "reviews",
      "refunds",
      "mailbox",
    ] as const
  ).flatMap((resource): Row[] => [
    { route: `GET /admin/${resource}`, expect: adminOnly },
    { route: `GET /admin/${resource}/:id`, expect: adminOnly, make: () => ({ params: { id: adminIds[resource]! } }) },
  ]),
  // Time travel (issue 18): a booking as of its request, a calendar as of now.
  {
    route: "GET /admin/bookings/:id/as-of",
    label: "A's booking as of its request",
    expect: adminOnly,
    make: async () => ({ params: { id: ids.booking }, query: `?event_id=${(await firstEventOf(ids.booking)).eventId}` }),
  },
  {
    route: "GET /admin/experts/:id/calendar/as-of",
    label: "X's calendar now",
    expect: adminOnly,
    make: () => ({ params: { id: users.X.id }, query: `?at=${encodeURIComponent(new Date().toISOString())}` }),
  },
  { route: "GET /admin/terms-acceptances/export.csv", expect: adminOnly },
  { route: "GET /admin/early-access", expect: adminOnly },
  { route: "GET /admin/early-access/export.csv", expect: adminOnly },
  {
    route: "PUT /admin/experts/:id",
    label: "verify X",
    expect: adminOnly,
    make: () => ({ params: { id: users.X.id }, body: { verified: true, reason: "Vetted" }, state: () => expertRows(users.X.id) }),
  },
  {
    route: "PUT /admin/reviews/:id",
    label: "hide a fresh review",
    expect: adminOnly,
    make: async () => {
      const id = await reviewedBooking();
      return { params: { id }, body: { reason: "Matrix moderation" }, state: () => reviewRow(id) };
    },
  },
  { route: "GET /admin/unmatched-refunds", expect: adminOnly },
  { route: "GET /admin/metrics-summary", expect: adminOnly },
  {
    route: "POST /admin/refunds",
    label: "refund $1 of a paid booking",
    expect: adminOnly,
    make: () => ({
      body: { booking_id: ids.refundedBooking, amount_cents: 100, reason: "Matrix refund" },
      state: () => rows("SELECT refund_key FROM refunds WHERE booking_id = $1 ORDER BY refund_key", [ids.refundedBooking]),
    }),
  },
  {
    route: "POST /admin/projections/:id/rebuild",
    expect: adminOnly,
    make: () => ({
      params: { id: adminIds.projections! },
      state: () => rows("SELECT name, status FROM projection_checkpoints ORDER BY name", []).catch(() => null),
      after: async (r) => {
        if (r.statusCode === 202) await rebuildFinished(adminIds.projections!);
      },
    }),
  },
];

// Experts get paid (issue 29). X and Y each connect and finish their own payout account (rows in
// this order), and then ask for a payout of money the fixture made theirs; an admin holds and
// resumes X's payouts, and reads and reconciles the money in the console.
const payoutAccountRow = (c: Caller) => rows("SELECT * FROM payout_experts WHERE expert_id = $1", [idOf(c)]);
/** A session's share of X's or Y's, released after its clearing period and transferred, recorded as the release sweeper and the payout reactor record them. */
async function fundedExpert(c: "X" | "Y"): Promise<void> {
  const expertId = users[c].id;
  const bookingId = `bk-matrix-${randomUUID()}`;
  const system = { userId: "payouts", role: "system" } as const;
  const completedAt = new Date(Date.now() - (CLEARING_PERIOD_DAYS + 1) * 86_400_000).toISOString();
  const earning = { bookingId, currency: "USD", paidCents: 15_000, refundedCents: 0, feeBasisPoints: 1500, completedAt } as const;
  const released = await sendPayoutCommand(api.ctx, { type: "ReleaseEarning", expertId, actor: system, earning }, undefined, system);
  if (!released.ok) throw new Error(`fixture: release for ${c}: ${released.refusal.code}`);
  const transfer = {
    transferKey: transferKeyOf(bookingId),
    bookingId,
    transferId: `tr_matrix_${c}`,
    amountCents: 12_750,
    currency: "USD",
  } as const;
  const sent = await sendPayoutCommand(api.ctx, { type: "RecordTransfer", expertId, actor: system, ...transfer }, undefined, system);
  if (!sent.ok) throw new Error(`fixture: transfer for ${c}: ${sent.refusal.code}`);
}
const thisMonth = () => new Date().toISOString().slice(0, 7);
/** The key of the payment receipt of A's paid booking with X. */
async function receiptKey(): Promise<string> {
  const r = await must("admin", { method: "GET", url: `${V1}/bookings/${ids.notesBooking}/receipts` });
  return r.json<{ receipts: { key: string }[] }>().receipts[0]!.key;
}
/** Only the booking's creator (who paid) and an admin; anyone else is told there is no such booking. */
const creatorOfBooking = cells(NO_TOKEN, OK, NO_BOOKING, NO_BOOKING, NO_BOOKING, OK);

ROWS.push(
  { route: "GET /experts/me/payout-account", expect: ownExpertAccount },
  {
    route: "POST /experts/me/payout-account",
    expect: ownExpertAccount,
    make: (c) => ({ state: () => payoutAccountRow(c) }),
  },
  {
    route: "POST /experts/me/payout-account/test-onboarding",
    label: "finished",
    expect: ownExpertAccount,
    make: (c) => ({ body: { complete: true }, state: () => payoutAccountRow(c) }),
  },
  { route: "GET /experts/me/balance", expect: ownExpertAccount },
  { route: "GET /experts/me/statements", expect: ownExpertAccount },
  {
    route: "POST /experts/me/payouts",
    label: "all that is available",
    expect: ownExpertAccount,
    make: async (c) => {
      if (c === "X" || c === "Y") await fundedExpert(c);
      return { body: { currency: "USD" }, state: () => rows("SELECT * FROM payout_payouts WHERE expert_id = $1", [idOf(c)]) };
    },
  },
  {
    route: "GET /experts/me/payouts",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, "ok +own", "ok +own", "403 admin_not_expert"),
    make: () => ({
      note: (r) => {
        const owners = r.json<{ payouts: { payout_key: string }[] }>().payouts.length;
        return owners === 1 ? " +own" : ` (${owners} payouts)`;
      },
    }),
  },
  {
    route: "GET /experts/me/statements/:file",
    label: "this month's PDF",
    expect: ownExpertAccount,
    make: () => ({ params: { file: `${thisMonth()}.pdf` } }),
  },
  {
    route: "GET /experts/me/statements/:file",
    label: "this month's CSV",
    expect: ownExpertAccount,
    make: () => ({ params: { file: `${thisMonth()}.csv` } }),
  },
  {
    route: "GET /bookings/:bookingId/receipts",
    label: "A's paid booking with X",
    expect: cells(NO_TOKEN, "ok +payment", NO_BOOKING, NO_BOOKING, NO_BOOKING, "ok +payment"),
    make: () => ({
      params: { bookingId: ids.notesBooking },
      note: (r) => (r.json<{ receipts: { kind: string }[] }>().receipts.some((x) => x.kind === "payment") ? " +payment" : ""),
    }),
  },
  {
    route: "GET /bookings/:bookingId/receipts/:file",
    label: "its payment receipt",
    expect: creatorOfBooking,
    make: async () => ({ params: { bookingId: ids.notesBooking, file: `${await receiptKey()}.pdf` } }),
  },
  { route: "GET /admin/payout-accounts", expect: adminOnly },
  { route: "GET /admin/payout-accounts/:id", label: "X's", expect: adminOnly, make: () => ({ params: { id: users.X.id } }) },
  {
    route: "POST /admin/payout-accounts/:expertId/hold",
    label: "X's",
    expect: adminOnly,
    make: () => ({ params: { expertId: users.X.id }, body: { reason: "Matrix dispute" }, state: () => payoutAccountRow("X") }),
  },
  {
    route: "POST /admin/payout-accounts/:expertId/hold",
    label: "A creator's: no payouts to hold",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, "404 not_found"),
    make: () => ({ params: { expertId: users.A.id }, body: { reason: "Matrix dispute" }, state: () => payoutAccountRow("A") }),
  },
  {
    route: "POST /admin/payout-accounts/:expertId/hold",
    label: "nobody's",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, "404 not_found"),
    make: () => ({
      params: { expertId: "no-such-expert" },
      body: { reason: "Matrix dispute" },
      state: () => rows("SELECT * FROM payout_experts WHERE expert_id = 'no-such-expert'", []),
    }),
  },
  {
    route: "POST /admin/payout-accounts/:expertId/resume",
    label: "X's",
    expect: adminOnly,
    make: () => ({ params: { expertId: users.X.id }, state: () => payoutAccountRow("X") }),
  },
  {
    route: "GET /admin/payout-accounts/:expertId/statement",
    label: "X's this month",
    expect: adminOnly,
    make: () => ({ params: { expertId: users.X.id }, query: `?month=${thisMonth()}` }),
  },
  {
    route: "GET /admin/payout-accounts/:expertId/statements/:file",
    label: "X's this month, PDF",
    expect: adminOnly,
    make: () => ({ params: { expertId: users.X.id, file: `${thisMonth()}.pdf` } }),
  },
  { route: "GET /admin/transfers", expect: adminOnly },
  { route: "GET /admin/payouts", expect: adminOnly },
  { route: "GET /admin/ledger/trial-balance", expect: adminOnly },
  {
    route: "GET /admin/bookings/:id/money-trail",
    label: "A's paid booking with X",
    expect: adminOnly,
    make: () => ({ params: { id: ids.notesBooking } }),
  },
  { route: "GET /admin/reconciliation", expect: adminOnly },
  {
    route: "POST /admin/reconciliation/run",
    expect: adminOnly,
    make: () => ({ state: () => rows("SELECT run_id FROM reconciliation_runs ORDER BY run_id", []) }),
  },
);

// Vetting (issue 30). X is approved; Y, a draft, applies here, and the admin then reviews Y's application. X
// applies too, after an admin's Unverify, and is approved again after; X is suspended and reinstated in turn.
const revisionOf = async (c: "Y") =>
  (await api.ctx.db.query("SELECT vetting_revision FROM experts WHERE user_id = $1", [users[c].id])).rows[0]?.vetting_revision as number;
const application = {
  expertise: "Podcast growth",
  title: "Producer",
  bio: "Ten years producing interview podcasts for independent creators, from the first episode to a weekly show.",
  links: ["https://example.com/portfolio"],
  years_of_experience: 10,
  creators_can_expect: "A plan for the next ten episodes.",
  standards_version: EXPERT_STANDARDS_VERSION,
};
const onY = (body: () => Promise<Record<string, unknown>>) => async () => ({
  params: { id: users.Y.id },
  body: await body(),
  state: () => expertRows(users.Y.id),
});
const vettingAdmin = { userId: "matrix-admin", role: "admin" as const };
async function vetX(type: "UnverifyExpert" | "SuspendExpert" | "ReinstateExpert"): Promise<void> {
  const expertId = users.X.id;
  const command =
    type === "UnverifyExpert" ? { type, expertId, actor: vettingAdmin } : { type, expertId, actor: vettingAdmin, reason: "Matrix" };
  const r = await api.ctx.experts.handle(`expert-${expertId}`, command, { actor: vettingAdmin });
  if (!r.ok) throw new Error(`${type}: ${r.refusal.code}`);
  if (type !== "UnverifyExpert") {
    const pause = type === "SuspendExpert" ? { type: "PauseBookings" as const, reason: "Matrix" } : { type: "ResumeBookings" as const };
    const c = await api.ctx.calendar.handle(calendarStream(expertId), { ...pause, expertId, actor: vettingAdmin }, { actor: vettingAdmin });
    if (!c.ok) throw new Error(`${pause.type}: ${c.refusal.code}`);
  }
  await api.ctx.projected(r.value);
}
ROWS.push(
  { route: "GET /experts/me/application", expect: ownExpertAccount },
  {
    route: "POST /experts/me/application",
    label: "X (unverified first) and Y apply",
    expect: ownExpertAccount,
    make: async (c) => {
      if (c === "X") await vetX("UnverifyExpert");
      return { body: application, state: () => expertRows(idOf(c)), after: async () => (c === "X" ? api.approve(users.X.id) : undefined) };
    },
  },
  { route: "GET /experts/me/standing", expect: ownExpertAccount },
  {
    route: "GET /admin/applications",
    expect: cells(NO_TOKEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, FORBIDDEN, "ok +Y"),
    make: () => ({ note: (r) => listed(r, users.Y.id, "Y") }),
  },
  { route: "GET /admin/applications/:id", label: "Y's", expect: adminOnly, make: () => ({ params: { id: users.Y.id } }) },
  {
    route: "GET /admin/applications/:id/as-of",
    label: "Y's",
    expect: adminOnly,
    make: () => ({ params: { id: users.Y.id }, query: `?at=${new Date().toISOString()}` }),
  },
  {
    route: "POST /admin/applications/:id/review",
    label: "Y's",
    expect: adminOnly,
    make: onY(async () => ({ seen_revision: await revisionOf("Y") })),
  },
  {
    route: "POST /admin/applications/:id/notes",
    label: "Y's",
    expect: adminOnly,
    make: onY(async () => ({ seen_revision: await revisionOf("Y"), note: "Links load" })),
  },
  {
    route: "POST /admin/applications/:id/decision",
    label: "changes for Y",
    expect: adminOnly,
    make: onY(async () => ({ seen_revision: await revisionOf("Y"), decision: "request_changes", reason: "Add your show", checklist: {} })),
  },
  {
    route: "POST /admin/experts/:id/suspension",
    label: "X, reinstated after",
    expect: adminOnly,
    make: (c) => ({
      params: { id: users.X.id },
      body: { reason: "Matrix" },
      state: () => expertRows(users.X.id),
      after: async () => (c === "admin" ? vetX("ReinstateExpert") : undefined),
    }),
  },
  {
    route: "POST /admin/experts/:id/reinstatement",
    label: "X, suspended first",
    expect: adminOnly,
    make: async (c) => {
      if (c === "admin") await vetX("SuspendExpert");
      return { params: { id: users.X.id }, body: { reason: "Matrix" }, state: () => expertRows(users.X.id) };
    },
  },
  { route: "GET /admin/experts/:id/standing", label: "X's", expect: adminOnly, make: () => ({ params: { id: users.X.id } }) },
);

async function rebuildFinished(name: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const r = await send("admin", { method: "GET", url: `${V1}/admin/projections/${name}` });
    if (r.json<{ rebuild: { state: string } | null }>().rebuild?.state !== "running") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`rebuild of ${name} did not finish`);
}

/** The event stream never ends, so it is read over a socket: status, then the first chunk, then hang up. */
async function streamCell(c: Caller, tokenIn: "header" | "query"): Promise<string> {
  listeners = [];
  const controller = new AbortController();
  try {
    const token = c === "anon" ? null : users[c].token;
    const query = tokenIn === "query" && token ? `?access_token=${encodeURIComponent(token)}` : "";
    const headers: Record<string, string> = tokenIn === "header" && token ? { authorization: `Bearer ${token}` } : {};
    const res = await fetch(`${streamBase}${V1}/stream${query}`, { headers, signal: controller.signal });
    if (!res.ok) return classify({ statusCode: res.status, body: await res.text() });
    const reader = res.body!.getReader();
    await reader.read();
    let cell = res.headers.get("content-type")?.startsWith("text/event-stream") ? "ok" : `ok but ${res.headers.get("content-type")}`;
    if (listeners.join() !== idOf(c)) cell += ` listening as ${listeners.join() || "nobody"}`;
    return cell;
  } finally {
    controller.abort();
  }
}

async function runCell(row: Row, c: Caller): Promise<string> {
  if (row.custom) return row.custom(c);
  const call = (await row.make?.(c)) ?? {};
  const snapshot = async () => JSON.stringify([await head(), await call.state?.()]);
  const before = await snapshot();
  const r = await send(c, {
    method: splitRoute(row.route).method,
    url: urlOf(row.route, call.params, call.query ?? ""),
    body: call.body,
    headers: call.headers,
    token: call.token,
  });
  const after = await snapshot();
  let cell = classify(r);
  if (cell === OK && call.note) cell += call.note(r);
  if (cell !== OK && !cell.startsWith(`${OK} `) && before !== after) cell += " CHANGED";
  await call.after?.(r);
  return cell;
}

const rowName = (row: Row) => (row.label ? `${row.route} [${row.label}]` : row.route);

function grid(table: Record<string, Record<Caller, string>>, expected: Record<string, Record<Caller, string>>): string {
  const width = Math.max(...Object.keys(table).map((k) => k.length));
  const col = 24;
  const lines = [`${"".padEnd(width)}  ${CALLERS.map((c) => c.padEnd(col)).join("")}`];
  for (const [name, row] of Object.entries(table)) {
    const mark = CALLERS.some((c) => row[c] !== expected[name]?.[c]) ? "✗" : " ";
    lines.push(
      `${name.padEnd(width)} ${mark}${CALLERS.map((c) => `${row[c] !== expected[name]?.[c] ? "!" : ""}${row[c]}`.padEnd(col)).join("")}`,
    );
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------

describe("authorization matrix", () => {
  it("the catalogue lists exactly the routes Fastify serves, and every route has a matrix row", () => {
    expect(registeredRoutes(api.app)).toEqual(normalisedCatalogue());
    const unknownToFastify = ROUTE_CATALOGUE.filter((key) => {
      const { method, path } = splitRoute(key);
      return !api.app.hasRoute({ method, url: `${V1}${path}` });
    });
    expect(unknownToFastify).toEqual([]);
    const covered = new Set(ROWS.map((r) => r.route));
    expect(ROUTE_CATALOGUE.filter((key) => !covered.has(key))).toEqual([]);
  });

  it("expected cells follow the rule: 2xx, else 401 (or a hiding 404) for anonymous and 403/404 signed in", () => {
    const broken = ROWS.flatMap((row) =>
      CALLERS.filter((c) => {
        const cell = row.expect[c];
        if (cell === OK || cell.startsWith(`${OK} `)) return false;
        return c === "anon" ? !/^40[14] /.test(cell) : !/^40[34] /.test(cell);
      }).map((c) => `${rowName(row)} ${c}: ${row.expect[c]}`),
    );
    expect(broken).toEqual([]);
  });

  it("every caller gets exactly the expected outcome on every route, and refused calls change nothing", async () => {
    const started = Date.now();
    const observed: Record<string, Record<Caller, string>> = {};
    const expected: Record<string, Record<Caller, string>> = {};
    for (const row of ROWS) {
      const name = rowName(row);
      expected[name] = row.expect;
      const cellsOfRow = {} as Record<Caller, string>;
      for (const c of CALLERS) cellsOfRow[c] = await runCell(row, c).catch((e: Error) => `threw: ${e.message}`);
      observed[name] = cellsOfRow;
    }
    console.log(
      `authorization matrix: ${ROWS.length} rows × ${CALLERS.length} callers in ${Date.now() - started} ms\n${grid(observed, expected)}`,
    );
    expect(observed).toEqual(expected);
  });

  it("another user's booking is answered byte for byte like a booking that does not exist", async () => {
    const missing = `bk-${randomUUID()}`;
    const probes: [string, (id: string) => Send][] = [
      ["GET /bookings/:id", (id) => ({ method: "GET", url: `${V1}/bookings/${id}` })],
      ["PATCH status", (id) => ({ method: "PATCH", url: `${V1}/bookings/${id}/status`, body: { status: "cancelled" } })],
      [
        "PATCH schedule",
        (id) => ({ method: "PATCH", url: `${V1}/bookings/${id}/schedule`, body: { scheduled_time: "2030-01-01T10:00:00.000Z" } }),
      ],
      [
        "PATCH prep",
        (id) => ({
          method: "PATCH",
          url: `${V1}/bookings/${id}/prep`,
          body: { prep_response_1: "a", prep_response_2: "b", prep_response_3: "c" },
        }),
      ],
      ["POST notes", (id) => ({ method: "POST", url: `${V1}/bookings/${id}/notes`, body: { summary: "x" } })],
      ["GET notes", (id) => ({ method: "GET", url: `${V1}/bookings/${id}/notes` })],
      ["GET review", (id) => ({ method: "GET", url: `${V1}/bookings/${id}/review` })],
      ["POST review", (id) => ({ method: "POST", url: `${V1}/bookings/${id}/review`, body: { rating: 5, text: "x" } })],
      ["PATCH review", (id) => ({ method: "PATCH", url: `${V1}/bookings/${id}/review`, body: { rating: 5, text: "x" } })],
      ["POST review reply", (id) => ({ method: "POST", url: `${V1}/bookings/${id}/review/reply`, body: { text: "x" } })],
      ["POST /stripe/test-intent", (id) => ({ method: "POST", url: `${V1}/stripe/test-intent`, body: { bookingId: id } })],
      ["GET receipts", (id) => ({ method: "GET", url: `${V1}/bookings/${id}/receipts` })],
      ["GET a receipt", (id) => ({ method: "GET", url: `${V1}/bookings/${id}/receipts/ev-1.pdf` })],
    ];
    const comparable = (r: LightMyRequestResponse) => {
      const { "x-request-id": _id, date: _date, ...headers } = r.headers;
      return { status: r.statusCode, headers, body: r.body };
    };
    const before = await head();
    const differences: unknown[] = [];
    const replies: Record<string, string> = {};
    for (const c of ["B", "Y"] as const) {
      for (const bookingId of [ids.booking, ids.notesBooking, ids.reviewedBooking]) {
        for (const [name, probe] of probes) {
          const theirs = comparable(await send(c, probe(bookingId)));
          const none = comparable(await send(c, probe(missing)));
          replies[`${c} ${name}`] = `${theirs.status} ${theirs.body}`;
          if (JSON.stringify(theirs) !== JSON.stringify(none)) differences.push({ caller: c, probe: name, theirs, none });
        }
      }
    }
    expect(differences).toEqual([]);
    expect(new Set(Object.values(replies))).toEqual(new Set([`404 {"code":"booking_not_found","message":"No booking found"}`]));
    expect(await head()).toBe(before);
  });

  it("a draft session and an unpublished profile are answered like ones that do not exist", async () => {
    const pairs: [Caller, string, string][] = [
      ["anon", `${V1}/sessions/${ids.draftSession}`, `${V1}/sessions/no-such-session`],
      ["B", `${V1}/sessions/${ids.draftSession}`, `${V1}/sessions/no-such-session`],
      ["Y", `${V1}/sessions/${ids.draftSession}`, `${V1}/sessions/no-such-session`],
      ["Y", `${V1}/sessions/${ids.draftSession}/availability`, `${V1}/sessions/no-such-session/availability`],
      ["anon", `${V1}/experts/${ids.ySlug}`, `${V1}/experts/no-such-slug`],
      ["A", `${V1}/experts/${ids.ySlug}`, `${V1}/experts/no-such-slug`],
      ["X", `${V1}/experts/${ids.ySlug}`, `${V1}/experts/no-such-slug`],
    ];
    const differences = [];
    for (const [c, hidden, missing] of pairs) {
      const a = await send(c, { method: "GET", url: hidden });
      const b = await send(c, { method: "GET", url: missing });
      if (a.statusCode !== b.statusCode || a.body !== b.body)
        differences.push({ caller: c, hidden, status: [a.statusCode, b.statusCode], body: [a.body, b.body] });
    }
    expect(differences).toEqual([]);
  });
});

describe("tokens that must not sign anyone in", () => {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const signed = (payload: object, secret: string, header: object = { alg: "HS256", typ: "JWT" }, hash = "sha256") => {
    const unsigned = `${b64(header)}.${b64(payload)}`;
    return `${unsigned}.${createHmac(hash, secret).update(unsigned).digest("base64url")}`;
  };

  it("forged, expired, alg:none, other-algorithm and tampered tokens are 401 on signed-in routes", async () => {
    const now = Math.floor(Date.now() / 1000);
    const a = users.A;
    const claims = { sub: a.id, role: a.role, email: a.email, sid: randomUUID(), iat: now, exp: now + 600 };
    const asAdmin = { ...claims, role: "admin" };
    const valid = signed(claims, TEST_JWT_SECRET);
    const [h, , s] = valid.split(".");
    const tokens: Record<string, string> = {
      "control: well signed": valid,
      "forged: another secret": signed(claims, "another-secret-that-is-long-enough-for-hs256!"),
      "forged: another secret, role admin": signed(asAdmin, "another-secret-that-is-long-enough-for-hs256!"),
      "expired: jwt.sign expiresIn -10": api.app.jwt.sign(
        { sub: a.id, role: "creator", email: a.email, sid: randomUUID() },
        { expiresIn: -10 },
      ),
      "expired: iat and exp an hour ago": signed({ ...claims, iat: now - 7200, exp: now - 3600 }, TEST_JWT_SECRET),
      "alg none, no signature": `${b64({ alg: "none", typ: "JWT" })}.${b64(asAdmin)}.`,
      "alg none, signature kept": `${b64({ alg: "none", typ: "JWT" })}.${b64(asAdmin)}.${s}`,
      "alg HS512 with the right secret": signed(claims, TEST_JWT_SECRET, { alg: "HS512", typ: "JWT" }, "sha512"),
      "tampered: role admin, old signature": `${h}.${b64(asAdmin)}.${s}`,
      "not before: nbf in an hour": signed({ ...claims, nbf: now + 3600 }, TEST_JWT_SECRET),
      garbage: "not-a-token",
    };
    const routes: Send[] = [
      { method: "GET", url: `${V1}/auth/me` },
      { method: "GET", url: `${V1}/terms/status` },
      { method: "GET", url: `${V1}/bookings/${ids.booking}` },
      { method: "GET", url: `${V1}/bookings/creator/me` },
      { method: "GET", url: `${V1}/admin/users` },
    ];
    const observed: Record<string, string[]> = {};
    const expected: Record<string, string[]> = {};
    for (const [name, token] of Object.entries(tokens)) {
      observed[name] = [];
      expected[name] = [];
      for (const route of routes) {
        const r = await send("anon", { ...route, token });
        observed[name].push(`${route.url.replace(V1, "")}: ${classify(r)}`);
        const control = name.startsWith("control") ? (route.url.includes("/admin/") ? FORBIDDEN : OK) : "401 session_expired";
        expected[name].push(`${route.url.replace(V1, "")}: ${control}`);
      }
      // The event stream also takes the token as ?access_token=.
      const stream = name.startsWith("control")
        ? null
        : await send("anon", { method: "GET", url: `${V1}/stream?access_token=${encodeURIComponent(token)}`, token: null });
      if (stream) {
        observed[name].push(`/stream?access_token: ${classify(stream)}`);
        expected[name].push("/stream?access_token: 401 session_expired");
      }
    }
    expect(observed).toEqual(expected);
  });
});
