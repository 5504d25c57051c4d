import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@booking/event-store";
import { createTestDatabase, testPool } from "@booking/testkit";
import { authMigrations } from "../src/auth/schema.ts";
import { signLink } from "../src/auth/signed-links.ts";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../src/main/seed.ts";
import { authClient, mailedToken, PASSWORD, refusals, seenByCaller, type AuthSession } from "./auth-client.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";
import { testPostgresUrl } from "@booking/testkit/worker-postgres";

// Issue 16, e-mail verification: a sign-up gets a mail with a signed, expiring, single-use link
// and no session; login waits for the link; "send again" answers alike for every address and is
// limited per address (silently) and per client address (429).

let api: TestApi;
/** The API's clock, moved by tests (links expire by it, and the per-address cap counts by it). */
let offsetMs = 0;
beforeAll(async () => (api = await startTestApi({ clock: () => new Date(Date.now() + offsetMs).toISOString() })));
afterAll(async () => api.close());

const HOUR = 3_600_000;

const { call, freshEmail, signup, login } = authClient(() => api, "198.20");

/** Sign up without verifying: the account and its mail, no session. */
async function signUpOnly(email = freshEmail("unverified"), extra: Record<string, unknown> = {}): Promise<{ email: string; id: string }> {
  const r = await call("POST", "/auth/signup", { body: { email, password: PASSWORD, role: "creator", first_name: "Vera", ...extra } });
  expect(r.statusCode, r.body).toBe(201);
  return { email, id: r.json<{ user: { id: string } }>().user.id };
}

const verificationMails = (email: string) =>
  api.ctx.db.query<{ message_id: string; kind: string; essential: boolean; text_body: string; html_body: string; created_at: Date }>(
    "SELECT message_id, kind, essential, text_body, html_body, created_at FROM mail_outbox WHERE lower(to_address) = lower($1) AND kind = 'verify_email' ORDER BY created_at, message_id",
    [email],
  );
const verify = (token: string) => call("POST", "/auth/verify", { body: { token } });
const resend = (email: string, from?: string) => call("POST", "/auth/verify/resend", { body: { email }, ...(from && { from }) });
const tokenIn = (text: string) => /\/verify-email\?token=([\w.-]+)/.exec(text)?.[1];

describe("sign-up", () => {
  it("queues exactly one verification mail to the address, whose link signs in", async () => {
    const { email, id } = await signUpOnly();
    const mails = await verificationMails(email);
    expect(mails.rows).toHaveLength(1);
    const [mail] = mails.rows;
    expect(mail).toMatchObject({ kind: "verify_email", essential: true });
    const link = /(\S+\/verify-email\?token=[\w.-]+)/.exec(mail!.text_body)?.[1];
    expect(link).toMatch(new RegExp(`^${api.ctx.mail.publicUrl}/verify-email\\?token=`));
    expect(mail!.html_body).toContain(tokenIn(mail!.text_body));

    const r = await verify(tokenIn(mail!.text_body)!);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json<AuthSession>().user).toEqual({ id, email, role: "creator", first_name: "Vera" });
  });

  it("refuses a zone that is not an IANA zone with 400 schedule_timezone_invalid, and makes no account", async () => {
    const email = freshEmail();
    const r = await call("POST", "/auth/signup", { body: { email, password: PASSWORD, role: "creator", timezone: "Mars/Olympus" } });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: "schedule_timezone_invalid" });
    expect((await api.ctx.db.query("SELECT 1 FROM accounts WHERE email = $1", [email])).rows).toEqual([]);
  });
});

describe("login before verifying", () => {
  it("is 403 email_not_confirmed with the right password, and 401 invalid_credentials with a wrong one", async () => {
    const { email } = await signUpOnly();
    const r = await call("POST", "/auth/login", { body: { email, password: PASSWORD } });
    expect(r.statusCode).toBe(403);
    expect(r.json()).toEqual(refusals.email_not_confirmed);
    // Someone without the password learns nothing about the account's state.
    const wrong = await call("POST", "/auth/login", { body: { email, password: "wrong-password-1" } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(refusals.invalid_credentials);
    expect(
      (await api.ctx.db.query("SELECT 1 FROM refresh_tokens rt JOIN accounts a USING (user_id) WHERE a.email = $1", [email])).rows,
    ).toEqual([]);
  });
});

describe("verify", () => {
  it("signs in, verifies the account (EmailVerified, the users read model, /auth/me) and works once", async () => {
    const { email, id } = await signUpOnly();
    const token = await mailedToken(api.ctx.db, "verify_email", email);
    const r = await verify(token);
    expect(r.statusCode).toBe(200);
    const session = r.json<AuthSession>();
    const me = await call("GET", "/auth/me", { token: session.access_token });
    expect(me.json()).toMatchObject({ id, email_verified: true });

    const stream = await api.ctx.store.readStream(`user-${id}`);
    expect(stream.events.map((e) => [e.type, e.data])).toEqual([
      ["UserRegistered", expect.anything()],
      ["EmailVerified", { userId: id, email }],
    ]);
    const user = await api.ctx.db.query<{ email_verified_at: Date | null }>("SELECT email_verified_at FROM users WHERE user_id = $1", [id]);
    expect(user.rows[0]?.email_verified_at).toBeInstanceOf(Date);

    // The same link again, and an older one of the same account: spent.
    for (const again of [token, signLink(TEST_JWT_SECRET, "verify_email", id, new Date(Date.now() - HOUR).toISOString())]) {
      const second = await verify(again);
      expect(second.statusCode).toBe(400);
      expect(second.json()).toEqual(refusals.email_link_invalid);
    }
    expect((await api.ctx.store.readStream(`user-${id}`)).events).toHaveLength(2);
    await login(email);
  });

  it("lets exactly one of two clicks at once through", async () => {
    const { email, id } = await signUpOnly();
    const token = await mailedToken(api.ctx.db, "verify_email", email);
    const replies = await Promise.all([verify(token), verify(token), verify(token)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    expect((await api.ctx.store.readStream(`user-${id}`)).events.map((e) => e.type)).toEqual(["UserRegistered", "EmailVerified"]);
  });

  it("answers 410 email_link_expired once the link is 24 hours old (23 hours still works)", async () => {
    const late = await signUpOnly();
    const lateToken = await mailedToken(api.ctx.db, "verify_email", late.email);
    const inTime = await signUpOnly();
    const inTimeToken = await mailedToken(api.ctx.db, "verify_email", inTime.email);
    try {
      offsetMs = 23 * HOUR;
      expect((await verify(inTimeToken)).statusCode).toBe(200);
      offsetMs = 25 * HOUR;
      const r = await verify(lateToken);
      expect(r.statusCode).toBe(410);
      expect(r.json()).toEqual(refusals.email_link_expired);
      expect((await call("POST", "/auth/login", { body: { email: late.email, password: PASSWORD } })).statusCode).toBe(403);
    } finally {
      offsetMs = 0;
    }
  });

  it("answers 400 email_link_invalid to a tampered, foreign, wrong-purpose or malformed token", async () => {
    const { email, id } = await signUpOnly();
    const token = await mailedToken(api.ctx.db, "verify_email", email);
    const [body, signature] = token.split(".") as [string, string];
    const other = await signUpOnly();
    const otherBody = (await mailedToken(api.ctx.db, "verify_email", other.email)).split(".")[0]!;
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === "A" ? "B" : "A"}${signature.at(-1)}`;
    const now = new Date().toISOString();
    const tampered = [
      `${body}.${flipped}`,
      `${otherBody}.${signature}`, // another account's claims under this signature
      signLink("another-secret-that-is-long-enough-for-hs256!", "verify_email", id, now),
      signLink(TEST_JWT_SECRET, "password_reset", id, now), // a reset link is no verification link
      signLink(TEST_JWT_SECRET, "verify_email", "no-such-user", now),
      "not-a-token",
      `${body}.${signature}.extra`,
    ];
    for (const t of tampered) {
      const r = await verify(t);
      expect(r.statusCode, t).toBe(400);
      expect(r.json()).toEqual(refusals.email_link_invalid);
    }
    for (const body of [{ token: "" }, { token: 42 }, {}]) {
      const r = await call("POST", "/auth/verify", { body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call("POST", "/auth/login", { body: { email, password: PASSWORD } })).statusCode).toBe(403);
    expect((await verify(token)).statusCode).toBe(200); // the untouched link still works
  });
});

describe("send again", () => {
  it("sends a new link that works, and answers every address the same: unknown, verified, waiting", async () => {
    const waiting = await signUpOnly();
    const verified = (await signup()).user.email;
    const unknown = freshEmail("nobody");
    const first = await mailedToken(api.ctx.db, "verify_email", waiting.email);

    const replies = [await resend(waiting.email), await resend(verified), await resend(unknown)];
    for (const r of replies) expect(r.statusCode).toBe(204);
    expect(seenByCaller(replies[1]!)).toEqual(seenByCaller(replies[0]!));
    expect(seenByCaller(replies[2]!)).toEqual(seenByCaller(replies[0]!));

    expect((await verificationMails(waiting.email)).rows).toHaveLength(2);
    expect((await verificationMails(verified)).rows).toHaveLength(1); // the sign-up's only
    expect((await verificationMails(unknown)).rows).toHaveLength(0);
    const second = await mailedToken(api.ctx.db, "verify_email", waiting.email);
    expect(second).not.toBe(first);
    expect((await verify(second)).statusCode).toBe(200);
    expect((await verify(first)).statusCode).toBe(400); // the address is verified: every link of it is spent
  });

  it("sends at most 3 verification mails an hour to one address, answering 204 past that", async () => {
    const { email } = await signUpOnly();
    try {
      for (let i = 0; i < 4; i++) expect((await resend(email.toUpperCase())).statusCode).toBe(204);
      expect((await verificationMails(email)).rows).toHaveLength(3); // the sign-up's and two more
      offsetMs = HOUR + 60_000;
      expect((await resend(email)).statusCode).toBe(204);
      expect((await verificationMails(email)).rows).toHaveLength(4);
    } finally {
      offsetMs = 0;
    }
  });

  it("answers 429 over_email_send_rate_limit past 5 requests in 15 minutes from one client address", async () => {
    const from = "203.0.113.77";
    const { email } = await signUpOnly();
    for (let i = 0; i < 5; i++) expect((await resend(i % 2 ? email : freshEmail(), from)).statusCode).toBe(204);
    const over = await resend(email, from);
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual(refusals.over_email_send_rate_limit);
    expect(over.headers["retry-after"]).toBeDefined();
    expect((await resend(email)).statusCode).toBe(204); // another client address keeps its own count
  });

  it("refuses a body without a valid address with 400", async () => {
    for (const body of [{ email: "not-an-email" }, {}, { email: freshEmail(), extra: 1 }])
      expect((await call("POST", "/auth/verify/resend", { body })).statusCode).toBe(400);
  });
});

describe("accounts from before verification existed", () => {
  it("count as verified from their creation (now, for a row without a creation time)", async () => {
    const database = await createTestDatabase(testPostgresUrl(), "authmig");
    const db = testPool(database.url);
    try {
      await migrate(db, "auth_migrations", authMigrations.slice(0, 1));
      await db.query(
        `INSERT INTO accounts (user_id, email, password_hash, role, created_at) VALUES
           ('old', 'old@example.com', 'x', 'creator', '2024-03-01T10:00:00Z'), ('older', 'older@example.com', 'x', 'expert', NULL)`,
      );
      await migrate(db, "auth_migrations", authMigrations);
      const { rows } = await db.query<{ user_id: string; email_verified_at: Date | null }>(
        "SELECT user_id, email_verified_at FROM accounts ORDER BY user_id",
      );
      expect(rows[0]).toEqual({ user_id: "old", email_verified_at: new Date("2024-03-01T10:00:00Z") });
      expect(rows[1]?.email_verified_at).toBeInstanceOf(Date);
    } finally {
      await db.end();
      await database.drop();
    }
  });
});

describe("the demo accounts of npm start", () => {
  it("are verified through their mails' links; the mails, to addresses that reach nobody, are kept unsent", async () => {
    const demo = await startTestApi();
    try {
      expect(await seedDemoData(demo.app, demo.ctx)).toBe(true);
      const { rows } = await demo.ctx.db.query<{ email: string; verified: boolean; status: string; skipped_reason: string }>(
        `SELECT a.email, a.email_verified_at IS NOT NULL AS verified, m.status, m.skipped_reason
           FROM accounts a JOIN mail_outbox m ON m.user_id = a.user_id AND m.kind = 'verify_email' ORDER BY a.email`,
      );
      expect(rows.map((r) => r.email)).toEqual([
        "ava@example.com",
        DEMO_CREATOR.email,
        "marcus@example.com",
        "quinn.applicant@demo.example",
        "rafa.applicant@demo.example",
        "sofia@example.com",
      ]);
      for (const r of rows) expect(r).toMatchObject({ verified: true, status: "skipped", skipped_reason: expect.stringMatching(/demo/) });
      const login = await demo.app.inject({
        method: "POST",
        url: "/api/v1/auth/login",
        payload: { email: DEMO_CREATOR.email, password: DEMO_PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
    } finally {
      await demo.close();
    }
  });
});
