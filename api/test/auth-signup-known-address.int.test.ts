import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_MAILS_PER_HOUR } from "../src/auth/address-mails.ts";
import { authClient, PASSWORD, type AuthSession } from "./auth-client.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// Issue 26 item 6: sign-up must not tell who has an account. An address that has one is answered
// like a new one ("check your inbox": 201, the same body), nothing about the account changes, and
// its owner gets a mail saying someone tried to sign up with it (sign in, or reset the password).

let api: TestApi;
beforeAll(async () => (api = await startTestApi()));
afterAll(async () => api?.close());

const { call, freshEmail, signup, login } = authClient(() => api, "198.22");

const signUp = (email: string, extra: Record<string, unknown> = {}) =>
  call("POST", "/auth/signup", { body: { email, password: "another-pass-77", role: "expert", first_name: "Mallory", ...extra } });

/** What the caller can read from a sign-up reply, without the values that differ on every reply. */
function shapeOf(r: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }) {
  const body = r.json() as { user: Record<string, unknown>; confirmation_sent_at: unknown };
  return {
    status: r.statusCode,
    contentType: r.headers["content-type"],
    headerNames: Object.keys(r.headers).sort(),
    userKeys: Object.keys(body.user).sort(),
    bodyKeys: Object.keys(body).sort(),
    idIsUuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(String(body.user.id)),
    sentAtIsTime: typeof body.confirmation_sent_at === "string" && !Number.isNaN(Date.parse(body.confirmation_sent_at)),
  };
}

const mailsTo = (email: string) =>
  api.ctx.db.query<{ kind: string; essential: boolean; user_id: string | null; subject: string; text_body: string; html_body: string }>(
    "SELECT kind, essential, user_id, subject, text_body, html_body FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY created_at, message_id",
    [email],
  );

describe("sign-up with an address that has an account", () => {
  let owner: AuthSession;
  beforeAll(async () => {
    owner = await signup({ email: freshEmail("owner"), first_name: "Olive", role: "creator" });
  });

  it("answers exactly like a new sign-up: 201, the same headers and body shape, an id that is not the account's", async () => {
    const known = await signUp(owner.user.email.toUpperCase());
    const fresh = await signUp(freshEmail("fresh"));
    expect(shapeOf(known)).toEqual(shapeOf(fresh));
    expect(shapeOf(known)).toMatchObject({ status: 201, idIsUuid: true, sentAtIsTime: true });
    const reply = known.json<{ user: { id: string; email: string; role: string; first_name: string | null } }>();
    // What the caller sent, as a new sign-up would echo it: nothing read from the account.
    expect(reply.user).toEqual({ id: expect.any(String), email: owner.user.email, role: "expert", first_name: "Mallory" });
    expect(reply.user.id).not.toBe(owner.user.id);
  });

  it("changes nothing about the account: one account, no new event, the old password still signs in", async () => {
    const before = await api.ctx.store.readStream(`user-${owner.user.id}`);
    expect((await signUp(owner.user.email)).statusCode).toBe(201);
    const accounts = await api.ctx.db.query("SELECT user_id, role, first_name FROM accounts WHERE lower(email) = lower($1)", [
      owner.user.email,
    ]);
    expect(accounts.rows).toEqual([{ user_id: owner.user.id, role: "creator", first_name: "Olive" }]);
    expect((await api.ctx.store.readStream(`user-${owner.user.id}`)).events).toHaveLength(before.events.length);
    expect((await login(owner.user.email, PASSWORD)).user.id).toBe(owner.user.id);
    expect((await call("POST", "/auth/login", { body: { email: owner.user.email, password: "another-pass-77" } })).statusCode).toBe(401);
  });

  it("mails the owner instead: someone tried to sign up; sign in or choose a new password", async () => {
    const email = freshEmail("mailed");
    const s = await signup({ email, first_name: "Nia" });
    expect((await signUp(email)).statusCode).toBe(201);
    const mails = (await mailsTo(email)).rows;
    expect(mails.map((m) => m.kind)).toEqual(["verify_email", "account_exists"]);
    const mail = mails[1]!;
    expect(mail).toMatchObject({ essential: true, user_id: s.user.id, subject: "Someone tried to sign up with your address" });
    expect(mail.text_body).toContain("Hi Nia,");
    expect(mail.text_body).toContain(`${api.ctx.mail.publicUrl}/login`);
    expect(mail.text_body).toContain(`${api.ctx.mail.publicUrl}/forgot-password`);
    expect(mail.html_body).toContain(`href="${api.ctx.mail.publicUrl}/login"`);
    // No key in it: a mail anyone can make us send must not carry a sign-in or reset token.
    expect(mail.text_body).not.toMatch(/token=/);
  });

  it("mails the owner of an account still waiting for its address to be confirmed too, and answers alike", async () => {
    const email = freshEmail("waiting");
    const first = await signUp(email);
    const again = await signUp(email);
    expect(shapeOf(again)).toEqual(shapeOf(first));
    expect((await mailsTo(email)).rows.map((m) => m.kind)).toEqual(["verify_email", "account_exists"]);
  });

  it(`sends the owner at most ${ADDRESS_MAILS_PER_HOUR} such mails an hour, answering every attempt alike`, async () => {
    const email = freshEmail("many");
    await signup({ email });
    for (let i = 0; i < ADDRESS_MAILS_PER_HOUR + 2; i++) expect((await signUp(email)).statusCode).toBe(201);
    expect((await mailsTo(email)).rows.filter((m) => m.kind === "account_exists")).toHaveLength(ADDRESS_MAILS_PER_HOUR);
  });

  it("two racing sign-ups with one address both get the new-account answer, and make one account", async () => {
    const email = freshEmail("race");
    const replies = await Promise.all([email, email.toUpperCase(), email].map((e) => signUp(e)));
    expect(replies.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(replies.map((r) => JSON.stringify(shapeOf(r)))).size).toBe(1);
    const accounts = await api.ctx.db.query("SELECT user_id FROM accounts WHERE lower(email) = $1", [email]);
    expect(accounts.rows).toHaveLength(1);
    const users = await api.ctx.db.query("SELECT user_id FROM users WHERE lower(email) = $1", [email]);
    expect(users.rows).toEqual(accounts.rows); // the losers left no UserRegistered behind
  });
});
