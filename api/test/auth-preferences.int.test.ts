import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signLink } from "../src/auth/signed-links.ts";
import { authClient, refusals, type AuthSession } from "./auth-client.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";

// Issue 16, mail preferences: each user's zone for mail times and whether reminders come, set
// from the account page or turned off by a mail's unsubscribe link (the web page's POST, or a
// mail client's RFC 8058 one-click POST), recorded as PreferencesSet on the user's stream.

let api: TestApi;
beforeAll(async () => (api = await startTestApi()));
afterAll(async () => api.close());

const { call, signup } = authClient(() => api, "198.22");

const me = async (s: AuthSession) => (await call("GET", "/auth/me", { token: s.access_token })).json<Record<string, unknown>>();
const setPreferences = (s: AuthSession, body: unknown) => call("PUT", "/auth/me/preferences", { token: s.access_token, body });
const unsubscribeLink = (userId: string) => signLink(TEST_JWT_SECRET, "unsubscribe", userId, new Date().toISOString());
const eventsOf = async (userId: string) => (await api.ctx.store.readStream(`user-${userId}`)).events.map((e) => [e.type, e.data]);
const usersRow = async (userId: string) =>
  (await api.ctx.db.query("SELECT timezone, reminder_mails FROM users WHERE user_id = $1", [userId])).rows[0] as {
    timezone: string | null;
    reminder_mails: boolean;
  };

describe("preferences", () => {
  it("start as the sign-up's zone (UTC when none was given) with reminders on", async () => {
    expect(await me(await signup({ timezone: "America/Chicago" }))).toMatchObject({ timezone: "America/Chicago", reminder_mails: true });
    expect(await me(await signup())).toMatchObject({ timezone: "UTC", reminder_mails: true });
  });

  it("round-trip through PUT /auth/me/preferences: the reply, /auth/me, a PreferencesSet and the users read model agree", async () => {
    const s = await signup({ timezone: "Europe/Paris" });
    const r = await setPreferences(s, { timezone: "Asia/Kolkata", reminder_mails: false });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ id: s.user.id, timezone: "Asia/Kolkata", reminder_mails: false, email_verified: true });
    expect(await me(s)).toEqual(r.json());
    expect((await eventsOf(s.user.id)).at(-1)).toEqual([
      "PreferencesSet",
      { userId: s.user.id, timezone: "Asia/Kolkata", reminderMails: false },
    ]);
    expect(await usersRow(s.user.id)).toEqual({ timezone: "Asia/Kolkata", reminder_mails: false });

    expect((await setPreferences(s, { timezone: "Asia/Kolkata", reminder_mails: true })).json()).toMatchObject({ reminder_mails: true });
    expect(await usersRow(s.user.id)).toEqual({ timezone: "Asia/Kolkata", reminder_mails: true });
  });

  it("refuse a zone that is not an IANA zone (400 schedule_timezone_invalid), a missing field (400) and no token (401)", async () => {
    const s = await signup();
    const zone = await setPreferences(s, { timezone: "Moon/Base", reminder_mails: true });
    expect(zone.statusCode).toBe(400);
    expect(zone.json()).toMatchObject({ code: "schedule_timezone_invalid" });
    expect((await setPreferences(s, { timezone: "UTC" })).statusCode).toBe(400);
    expect((await call("PUT", "/auth/me/preferences", { body: { timezone: "UTC", reminder_mails: true } })).statusCode).toBe(401);
    expect((await eventsOf(s.user.id)).map(([type]) => type)).not.toContain("PreferencesSet");
  });
});

describe("unsubscribe", () => {
  it("turns reminders off from the link alone, keeps the zone, and records PreferencesSet once however often it is clicked", async () => {
    const s = await signup({ timezone: "Australia/Sydney" });
    const token = unsubscribeLink(s.user.id);
    for (let click = 0; click < 2; click++) {
      const r = await call("POST", "/mail/unsubscribe", { body: { token } });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toEqual({ email: s.user.email, reminder_mails: false });
    }
    expect((await eventsOf(s.user.id)).filter(([type]) => type === "PreferencesSet")).toEqual([
      ["PreferencesSet", { userId: s.user.id, timezone: "Australia/Sydney", reminderMails: false }],
    ]);
    expect(await usersRow(s.user.id)).toEqual({ timezone: "Australia/Sydney", reminder_mails: false });
    expect(await me(s)).toMatchObject({ timezone: "Australia/Sydney", reminder_mails: false });
  });

  it("takes a mail client's one-click POST: the token in the query, the form List-Unsubscribe=One-Click as the body (urlencoded or multipart)", async () => {
    const oneClick = (userId: string, form: { type: string; payload: string }) =>
      api.app.inject({
        method: "POST",
        url: `/api/v1/mail/unsubscribe?token=${encodeURIComponent(unsubscribeLink(userId))}`,
        headers: { "content-type": form.type },
        payload: form.payload,
      });
    const s = await signup();
    const r = await oneClick(s.user.id, { type: "application/x-www-form-urlencoded", payload: "List-Unsubscribe=One-Click" });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ email: s.user.email, reminder_mails: false });
    const other = await signup();
    const boundary = "----one-click";
    const multipart = await oneClick(other.user.id, {
      type: `multipart/form-data; boundary=${boundary}`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.statusCode, multipart.body).toBe(200);
    expect(await usersRow(other.user.id)).toMatchObject({ reminder_mails: false });
    // A zone never chosen is recorded as the one mails used: UTC.
    expect((await eventsOf(s.user.id)).at(-1)).toEqual(["PreferencesSet", { userId: s.user.id, timezone: "UTC", reminderMails: false }]);
    // Only this route takes a form body.
    const elsewhere = await api.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "email=a%40b.c&password=x",
    });
    expect(elsewhere.statusCode).toBe(415);
  });

  it("answers 400 email_link_invalid to a bad, foreign-purpose or missing token, and changes nothing", async () => {
    const s = await signup();
    const now = new Date().toISOString();
    const bad = [
      { body: { token: `${unsubscribeLink(s.user.id).slice(0, -2)}zz` } },
      { body: { token: signLink(TEST_JWT_SECRET, "verify_email", s.user.id, now) } },
      { body: { token: signLink(TEST_JWT_SECRET, "unsubscribe", "no-such-user", now) } },
      { body: { token: "" } },
      { body: {} },
    ];
    for (const { body } of bad) {
      const r = await call("POST", "/mail/unsubscribe", { body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      if ("token" in body) expect(r.json()).toEqual(refusals.email_link_invalid);
    }
    expect(await usersRow(s.user.id)).toEqual({ timezone: null, reminder_mails: true });
  });
});
