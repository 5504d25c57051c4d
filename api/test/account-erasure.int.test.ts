import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURRENT_TERMS_VERSION } from "@booking/contracts";
import { allProjections, readModelDigest, readModelTables, rebuildProjections } from "@booking/projections";
import { MailReactor } from "../src/mail/reactor.ts";
import { injectPost, signUpVerified } from "./auth-client.ts";
import { expertCalendar } from "./calendar-bookings.ts";
import { TEST_JWT_SECRET, startTestApi, type TestApi, type TestUser } from "./harness.ts";

// Deleting an account (issue 33.2), end to end. A creator with a completed booking (prep answers, messages both ways,
// the expert's notes, their review) and a booking they cancelled with a reason deletes their account. The expert still
// sees both bookings, with "Deleted user" and the amounts; the ledger is as it was; no table of the API's database holds
// their name, address or words, the raw events table and snapshots included (crypto-shredding, issue 33.1); a rebuild
// of every read model stays so; their sign-ins are over and their address is free again.

const V1 = "/api/v1";
const PASSWORD = "Nora-erase-pass-1";
const EMAIL = "nora.quillfeather@example.com";
const TRACES = [
  EMAIL,
  "Quillfeather",
  "My launch is in May",
  "Can we talk about Nightjar Tales?",
  "Found another slot, sorry",
  "A clear plan, thank you",
];
/**
 * None left out: the event store's own tables (events, streams, snapshots, data_keys) are searched too, since the log
 * holds personal fields only sealed under the person's data key, which erasure destroys (issue 33.1).
 */
const THE_LOG: string[] = [];

let now = Date.parse("2030-03-01T09:00:00.000Z");
let api: TestApi;
let creator: TestUser;
let expert: TestUser;
let admin: TestUser;
let completed: string;
let cancelled: string;

async function ok(method: "GET" | "POST" | "PATCH", url: string, user: TestUser, body?: unknown) {
  const r = await api.call(method, `${V1}${url}`, { user, body });
  expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
  return r.json();
}

/** Every table of the API's database but the log's, each row as text. */
async function everyTable(): Promise<Map<string, string>> {
  const { rows: tables } = await api.ctx.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
     AND table_name <> ALL($1) AND table_name NOT LIKE '%migrations' ORDER BY table_name`,
    [THE_LOG],
  );
  const text = new Map<string, string>();
  for (const { table_name } of tables) {
    const { rows } = await api.ctx.db.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM "${table_name}" t`);
    text.set(table_name, rows.map((r) => r.row).join("\n"));
  }
  return text;
}

/** Each trace of the creator with the tables that hold it. */
async function tracesLeft(): Promise<Record<string, string[]>> {
  const tables = await everyTable();
  const left: Record<string, string[]> = {};
  for (const trace of TRACES) {
    const holding = [...tables].filter(([, rows]) => rows.includes(trace)).map(([table]) => table);
    if (holding.length) left[trace] = holding;
  }
  return left;
}

const mailReactor = () =>
  new MailReactor({
    log: api.ctx.store,
    db: api.ctx.db,
    settings: { publicUrl: "https://sessions.example.com" },
    linkSecret: TEST_JWT_SECRET,
    clock: api.ctx.clock,
  });

let ledgerBefore: Awaited<ReturnType<typeof readModelDigest>>;

beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date(now).toISOString() });
  const session = await signUpVerified(
    api.ctx.db,
    injectPost(() => api),
    { email: EMAIL, password: PASSWORD, role: "creator", first_name: "Nora", last_name: "Quillfeather" },
  );
  creator = { id: session.user.id, role: "creator", email: EMAIL, token: session.access_token };
  await ok("POST", "/terms/accept", creator, { version_id: CURRENT_TERMS_VERSION });
  expert = await api.user("expert", { firstName: "Eli" });
  admin = await api.user("admin");
  const calendar = await expertCalendar(api, expert);
  completed = await calendar.confirmedBooking(creator, "2030-03-05T10:00:00.000Z", 15_000, "Launch plan review");
  await ok("PATCH", `/bookings/${completed}/prep`, creator, { prep_response_1: "My launch is in May" });
  await ok("POST", `/bookings/${completed}/messages`, creator, { text: "Can we talk about Nightjar Tales?" });
  await ok("POST", `/bookings/${completed}/messages`, expert, { text: "Sure, bring your numbers." });
  cancelled = await calendar.unpaidRequest(creator, "2030-03-06T10:00:00.000Z");
  await ok("PATCH", `/bookings/${cancelled}/status`, creator, { status: "cancelled", reason: "Found another slot, sorry" });
  now = Date.parse("2030-03-05T11:30:00.000Z");
  await calendar.run({ type: "CompleteBooking", expertId: expert.id, bookingId: completed, actor: { userId: expert.id, role: "expert" } });
  await ok("POST", `/bookings/${completed}/notes`, expert, { summary: "Plan the May launch", takeaways: ["Post twice a week"] });
  await ok("POST", `/bookings/${completed}/review`, creator, { rating: 5, text: "A clear plan, thank you" });
  // The mails the history owes, the other party's included (they name the creator and quote her message).
  await mailReactor().catchUp();
  expect(Object.keys(await tracesLeft())).toEqual(TRACES);
  ledgerBefore = await readModelDigest(api.ctx.db, ["ledger_books", "earnings"]);

  const erased = await api.call("POST", `${V1}/me/erasure`, { user: creator, body: { current_password: PASSWORD } });
  expect(erased.statusCode, erased.body).toBe(200);
  expect(erased.json()).toEqual({ user_id: creator.id, erased_at: "2030-03-05T11:30:00.000Z" });
  await mailReactor().catchUp();
}, 60_000);
afterAll(async () => api?.close());

describe("an erased creator", () => {
  it("is signed out everywhere and cannot sign in again", async () => {
    expect((await api.call("GET", `${V1}/auth/me`, { user: creator })).statusCode).toBe(401);
    const login = await api.call("POST", `${V1}/auth/login`, { body: { email: EMAIL, password: PASSWORD } });
    expect(login.json()).toMatchObject({ code: "invalid_credentials" });
  });

  it("leaves the expert both bookings, with Deleted user, the amounts, the expert's own words and none of hers", async () => {
    const b = await ok("GET", `/bookings/${completed}`, expert);
    expect(b).toMatchObject({ status: "completed", creator_name: "Deleted user", paid_cents: 15_000, prep_response_1: "[erased]" });
    expect(await ok("GET", `/bookings/${cancelled}`, expert)).toMatchObject({ status: "cancelled", cancel_reason: "[erased]" });
    const thread = await ok("GET", `/bookings/${completed}/messages`, expert);
    expect(thread.messages.map((m: { text: string }) => m.text)).toEqual(["[erased]", "Sure, bring your numbers."]);
    expect((await ok("GET", `/bookings/${completed}/notes`, expert)).summary).toBe("Plan the May launch");
    expect((await ok("GET", `/bookings/${completed}/review`, expert)).review).toMatchObject({ rating: 5, text: "[erased]" });
  });

  it("leaves the ledger and the expert's earnings as they were", async () => {
    expect(await readModelDigest(api.ctx.db, ["ledger_books", "earnings"])).toEqual(ledgerBefore);
  });

  it("shows in the console as erased, and when, not who it was", async () => {
    const user = await ok("GET", `/admin/users/${creator.id}`, admin);
    expect(user).toMatchObject({
      email: `deleted-user-${creator.id}@erased.invalid`,
      first_name: "Deleted",
      last_name: "user",
      erased_at: "2030-03-05T11:30:00.000Z",
      bookings_as_creator: 2,
    });
  });

  it("leaves no trace of her name, address or words in any table, and none after a rebuild of every read model", async () => {
    expect(await tracesLeft()).toEqual({});
    const live = await readModelDigest(api.ctx.db);
    await rebuildProjections(api.ctx.store, api.ctx.db, allProjections);
    expect(await tracesLeft()).toEqual({});
    expect(await readModelDigest(api.ctx.db, readModelTables)).toEqual(live);
  });

  it("frees her address for a new account", async () => {
    const again = await api.call("POST", `${V1}/auth/signup`, { body: { email: EMAIL, password: PASSWORD, role: "creator" } });
    expect(again.statusCode, again.body).toBe(201);
    const { rows } = await api.ctx.db.query("SELECT user_id FROM accounts WHERE lower(email) = $1", [EMAIL]);
    expect(rows.map((r) => r.user_id)).not.toContain(creator.id);
  });
});
