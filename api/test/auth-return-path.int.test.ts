import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authClient, PASSWORD, refusals } from "./auth-client.ts";
import { startTestApi, type TestApi } from "./harness.ts";

// Issue 27.4: a creator who signs up on the way to a session gets a verification link that goes
// on to that session. The link carries the destination beside its token, which signs it: a link
// whose destination was changed, added or taken off is not valid, so nobody can turn our mail into
// a redirect elsewhere. Only a path on this site is taken as a destination.

let api: TestApi;
beforeAll(async () => (api = await startTestApi()));
afterAll(async () => api.close());

const { call, freshEmail } = authClient(() => api, "198.27");

const BOOKING = "/book-session/s-1?booking=b-2";
const BACK_TO_BOOKING = "Once it is confirmed, the link takes you straight back to the session you chose to book.";
const offSite = ["//evil.example/book-session/s-1", "/\\evil.example", "https://evil.example/", "javascript:alert(1)", "/\t/evil.example"];

const signUp = (email: string, extra: Record<string, unknown> = {}) =>
  call("POST", "/auth/signup", { body: { email, password: PASSWORD, role: "creator", first_name: "Cora", ...extra } });
const verify = (body: Record<string, unknown>) => call("POST", "/auth/verify", { body });

/** The newest mail of `kind` to `email`: its text and HTML. */
async function lastMail(email: string, kind: string) {
  const { rows } = await api.ctx.db.query<{ text_body: string; html_body: string }>(
    "SELECT text_body, html_body FROM mail_outbox WHERE lower(to_address) = lower($1) AND kind = $2 ORDER BY created_at DESC, message_id DESC LIMIT 1",
    [email, kind],
  );
  expect(rows, `a ${kind} mail to ${email}`).toHaveLength(1);
  return rows[0]!;
}

/** The verification link in the newest mail to `email`, as the browser opens it. */
async function verificationLink(email: string): Promise<URL> {
  const mail = await lastMail(email, "verify_email");
  const link = /(https?:\/\/\S+\/verify-email\?\S+)/.exec(mail.text_body)?.[1];
  expect(link, mail.text_body).toBeDefined();
  // The HTML button opens the same address (its & written as &amp;).
  expect(mail.html_body).toContain(`href="${link!.replaceAll("&", "&amp;")}"`);
  return new URL(link!);
}

describe("the verification link's destination", () => {
  it("is the sign-up's, carried by the link and accepted with its token", async () => {
    const email = freshEmail("booking");
    expect((await signUp(email, { next: BOOKING })).statusCode).toBe(201);
    const link = await verificationLink(email);
    expect(link.searchParams.get("next")).toBe(BOOKING);
    // The mail says where the link goes on to; one sent without a booking to go back to does not.
    expect((await lastMail(email, "verify_email")).text_body).toContain(BACK_TO_BOOKING);
    const r = await verify({ token: link.searchParams.get("token"), next: link.searchParams.get("next") });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ user: { email, role: "creator" } });
  });

  it("makes the link invalid when changed, taken off or sent off this site, and the untouched link still works", async () => {
    const email = freshEmail("tampered");
    await signUp(email, { next: BOOKING });
    const token = (await verificationLink(email)).searchParams.get("token");
    for (const body of [{ token, next: "/book-session/another" }, { token }, ...offSite.map((next) => ({ token, next }))]) {
      const r = await verify(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json()).toEqual(refusals.email_link_invalid);
    }
    expect((await verify({ token, next: BOOKING })).statusCode).toBe(200);
  });

  it("cannot be added to a link sent without one", async () => {
    const email = freshEmail("plain");
    await signUp(email);
    const link = await verificationLink(email);
    expect(link.searchParams.has("next")).toBe(false);
    expect((await lastMail(email, "verify_email")).text_body).not.toContain(BACK_TO_BOOKING);
    const token = link.searchParams.get("token");
    expect((await verify({ token, next: BOOKING })).json()).toEqual(refusals.email_link_invalid);
    expect((await verify({ token })).statusCode).toBe(200);
  });

  it("goes with the link sent again", async () => {
    const email = freshEmail("again");
    await signUp(email, { next: BOOKING });
    expect((await call("POST", "/auth/verify/resend", { body: { email, next: "/book-session/s-3" } })).statusCode).toBe(204);
    const link = await verificationLink(email);
    expect(link.searchParams.get("next")).toBe("/book-session/s-3");
    expect((await verify({ token: link.searchParams.get("token"), next: "/book-session/s-3" })).statusCode).toBe(200);
  });

  it("is refused off this site at sign-up and send-again (400, the catalogue's words), making no account and sending nothing", async () => {
    for (const next of offSite) {
      const email = freshEmail("evil");
      const r = await signUp(email, { next });
      expect(r.statusCode, next).toBe(400);
      expect(r.json()).toEqual(refusals.invalid_request);
      expect((await api.ctx.db.query("SELECT 1 FROM accounts WHERE email = $1", [email])).rows).toEqual([]);
      const again = await call("POST", "/auth/verify/resend", { body: { email, next } });
      expect(again.statusCode, next).toBe(400);
      expect((await api.ctx.db.query("SELECT 1 FROM mail_outbox WHERE to_address = $1", [email])).rows).toEqual([]);
    }
  });

  it("is kept in the sign-in link of the mail to an address that has an account", async () => {
    const email = freshEmail("known");
    await signUp(email);
    expect((await signUp(email, { next: BOOKING })).statusCode).toBe(201);
    const mail = await lastMail(email, "account_exists");
    expect(mail.text_body).toContain(`${api.ctx.mail.publicUrl}/login?next=${encodeURIComponent(BOOKING)}`);
  });
});
