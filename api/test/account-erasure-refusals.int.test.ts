import { randomUUID } from "node:crypto";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCatalogue, type ErrorCode } from "@booking/contracts";
import { allProjections, readCheckpoints, rebuildProjections } from "@booking/projections";
import { ensureAdminAccount } from "../src/auth/admin-account.ts";
import { hashPassword } from "../src/auth/password.ts";
import { expertCalendar, type ExpertCalendar } from "./calendar-bookings.ts";
import { startTestApi, turnOnTwoFactor, type TestApi, type TestUser } from "./harness.ts";

// Deleting an account (issue 33.2): what is refused, each with its catalogue message and never a 5xx, and changing
// nothing (the log, the account, the read model's user): a wrong password, a missing or wrong code with two-factor
// sign-in on, an open booking (named), money still owed (a refund not paid back), the last admin. And an erasure made
// while every read model is being rebuilt: the rebuilt read models show it.

const V1 = "/api/v1";
const PASSWORD = "Erase-refusals-pass-1";
const NOW = Date.parse("2030-03-01T09:00:00.000Z");

let api: TestApi;
let calendar: ExpertCalendar;

/** The password's hash, made once (scrypt is slow on purpose). */
let passwordHash: Promise<string> | null = null;

/** A user with an account row and a password (the harness's user, whose account the sign-up would have made), terms accepted. */
async function account(role: "creator" | "expert", firstName: string): Promise<TestUser> {
  const user = await api.user(role, { firstName });
  await api.ctx.db.query(
    "INSERT INTO accounts (user_id, email, password_hash, role, first_name, last_name, created_at, email_verified_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
    [user.id, user.email, await (passwordHash ??= hashPassword(PASSWORD)), role, firstName, "Test", new Date(NOW).toISOString()],
  );
  return user;
}

const erase = (user: TestUser, body: Record<string, unknown>) => api.call("POST", `${V1}/me/erasure`, { user, body });

/** What a refusal must leave as it was: the log's head, the account row and the read model's user. */
async function stateOf(user: TestUser) {
  const [account, row] = await Promise.all([
    api.ctx.db.query("SELECT * FROM accounts WHERE user_id = $1", [user.id]),
    api.ctx.db.query("SELECT * FROM users WHERE user_id = $1", [user.id]),
  ]);
  return { head: await api.ctx.store.headPosition(), account: account.rows, user: row.rows };
}

async function refused(user: TestUser, body: Record<string, unknown>, code: ErrorCode, message = errorCatalogue[code].message) {
  const before = await stateOf(user);
  const r = await erase(user, body);
  expect(r.json(), JSON.stringify(body)).toEqual({ code, message });
  expect(r.statusCode).toBe(errorCatalogue[code].status);
  expect(r.statusCode).toBeLessThan(500);
  expect(await stateOf(user)).toEqual(before);
}

beforeAll(async () => {
  api = await startTestApi({ clock: () => new Date(NOW).toISOString() });
  calendar = await expertCalendar(api, await api.user("expert", { firstName: "Eli" }));
});
afterAll(async () => api?.close());

describe("deleting an account is refused", () => {
  it("with a wrong password, or without one", async () => {
    const creator = await account("creator", "Wanda");
    await refused(creator, { current_password: "not-the-password" }, "erasure_password_wrong");
    await refused(creator, {}, "invalid_request");
    expect((await api.call("POST", `${V1}/me/erasure`, { body: { current_password: PASSWORD } })).statusCode).toBe(401);
  });

  it("with two-factor sign-in on: without a code, or with a wrong one; a right one erases", async () => {
    const creator = await account("creator", "Tomas");
    const secret = await turnOnTwoFactor(api.ctx.db, creator.id, new Date(NOW).toISOString());
    await refused(creator, { current_password: PASSWORD }, "two_factor_proof_required");
    await refused(creator, { current_password: PASSWORD, code: "000000" }, "two_factor_code_wrong");
    await refused(creator, { current_password: PASSWORD, recovery_code: "aaaa-bbbb-cccc" }, "recovery_code_wrong");
    const code = await generate({ secret, epoch: Math.floor(NOW / 1000) });
    const r = await erase(creator, { current_password: PASSWORD, code });
    expect(r.statusCode, r.body).toBe(200);
  });

  it("while a booking is open, naming it; then while its refund is not paid back", async () => {
    const creator = await account("creator", "Olive");
    const bookingId = await calendar.confirmedBooking(creator, "2030-03-05T10:00:00.000Z", 12_000, "Brand deal review");
    await refused(
      creator,
      { current_password: PASSWORD },
      "erasure_open_bookings",
      "Your account cannot be deleted while you have 1 open booking: “Brand deal review” on 2030-03-05. Cancel or finish it first.",
    );
    const cancel = await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, { user: creator, body: { status: "cancelled" } });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await refused(
      creator,
      { current_password: PASSWORD },
      "erasure_money_owed",
      "Your account cannot be deleted while money is still owed to or by you: 1 refund not paid back yet. It can be deleted once that is settled.",
    );
  });

  it("for the last admin account", async () => {
    const email = `admin-${randomUUID().slice(0, 8)}@example.com`;
    await ensureAdminAccount(api.ctx, email, PASSWORD);
    const { rows } = await api.ctx.db.query<{ user_id: string }>("SELECT user_id FROM accounts WHERE email = $1", [email]);
    const id = rows[0]!.user_id;
    const admin: TestUser = { id, role: "admin", email, token: api.app.jwt.sign({ sub: id, role: "admin", email, sid: randomUUID() }) };
    await refused(admin, { current_password: PASSWORD }, "erasure_last_admin");
  });
});

describe("an erasure while every read model is rebuilt", () => {
  it("shows in the rebuilt read models", async () => {
    const creator = await account("creator", "Quincy");
    const bookingId = await calendar.unpaidRequest(creator, "2030-03-07T10:00:00.000Z");
    const cancel = { status: "cancelled", reason: "Quincy changed plans" };
    expect((await api.call("PATCH", `${V1}/bookings/${bookingId}/status`, { user: creator, body: cancel })).statusCode).toBe(200);
    const generation = async () => (await readCheckpoints(api.ctx.db, ["users"]))[0]!.generation;
    const before = await generation();
    let erasure: Promise<{ statusCode: number; body: string }> | null = null;
    await rebuildProjections(api.ctx.store, api.ctx.db, allProjections, {
      batchSize: 10,
      // Asked once the rebuild has filled its first batch: it lands in the log while the rebuild reads it.
      onProgress: () => void (erasure ??= erase(creator, { current_password: PASSWORD })),
    });
    const erased = await erasure!;
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await generation()).toBeGreaterThan(before);
    const user = (await api.ctx.db.query("SELECT first_name, last_name, erased_at FROM users WHERE user_id = $1", [creator.id])).rows[0];
    expect(user).toMatchObject({ first_name: "Deleted", last_name: "user" });
    expect(user.erased_at).not.toBeNull();
    const booking = (await api.ctx.db.query("SELECT cancel_reason FROM bookings WHERE booking_id = $1", [bookingId])).rows[0];
    expect(booking).toEqual({ cancel_reason: "[erased]" });
  });
});
