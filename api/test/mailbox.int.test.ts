import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailboxListItem, MailboxMessageReply } from "@booking/contracts";
import { buildApp } from "../src/main/app.ts";
import { createContext } from "../src/main/context.ts";
import { enqueueMail, type OutgoingMail } from "../src/mail/outbox.ts";
import { mailSettings } from "../src/mail/settings.ts";
import { startTestApi, type TestApi, type TestUser } from "./harness.ts";

// The dev mailbox: while no SMTP server is configured, admins read the outbox in the console
// (newest first, one message whole) and /dev/mailbox leads there; with SMTP the routes do not exist.

let api: TestApi;
let admin: TestUser;
const run = Date.now().toString(36);
const to = `mailbox-${run}@example.com`;

function mail(change: Partial<OutgoingMail>): OutgoingMail {
  return {
    messageId: `m-${run}-${change.kind ?? "verify_email"}`,
    kind: "verify_email",
    essential: true,
    userId: null,
    to,
    subject: "Confirm your email",
    text: "Open http://localhost/verify-email?token=t",
    html: '<p><a href="http://localhost/verify-email?token=t">Confirm</a></p>',
    sendAfter: "2026-03-01T10:00:00.000Z",
    createdAt: "2026-03-01T10:00:00.000Z",
    ...change,
  };
}

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.user("admin");
  await enqueueMail(api.ctx.db, mail({}));
  await enqueueMail(
    api.ctx.db,
    mail({
      kind: "reminder_24h",
      essential: false,
      to: to.toUpperCase(),
      subject: "Tomorrow: your session",
      headers: { "List-Unsubscribe": "<http://localhost/api/v1/mail/unsubscribe?token=u>" },
      attachments: [{ filename: "session.ics", contentType: "text/calendar", content: "BEGIN:VCALENDAR" }],
      bookingId: "booking-1",
      createdAt: "2026-03-01T11:00:00.000Z",
      sendAfter: "2026-03-02T09:00:00.000Z",
    }),
  );
  await api.ctx.db.query("UPDATE mail_outbox SET status = 'skipped', skipped_reason = 'reminders are off' WHERE message_id = $1", [
    `m-${run}-reminder_24h`,
  ]);
});
afterAll(async () => api?.close());

const list = (filter: object) =>
  api.call("GET", `/api/v1/admin/mailbox?filter=${encodeURIComponent(JSON.stringify(filter))}`, { user: admin });

describe("the dev mailbox (no SMTP_URL)", () => {
  it("lists an address's messages newest first, without their bodies, with the list's Content-Range", async () => {
    const r = await list({ to });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers["content-range"]).toBe("mailbox 0-1/2");
    const rows = MailboxListItem.array().parse(r.json());
    // Why a message was skipped is in the list itself (issue 27.20), not only on its page.
    expect(rows.map((m) => [m.kind, m.status, m.subject, m.note])).toEqual([
      ["reminder_24h", "skipped", "Tomorrow: your session", "reminders are off"],
      ["verify_email", "pending", "Confirm your email", null],
    ]);
    expect((await list({ to, kind: "verify_email" })).json()).toHaveLength(1);
    expect((await list({ to, status: ["skipped"] })).json()).toHaveLength(1);
    expect((await list({ q: "tomorrow" })).json()).toHaveLength(1);
  });

  it("shows one message whole: From, headers, both bodies, attachments' names and why it was skipped", async () => {
    const r = await api.call("GET", `/api/v1/admin/mailbox/${encodeURIComponent(`m-${run}-reminder_24h`)}`, { user: admin });
    expect(r.statusCode, r.body).toBe(200);
    const message = MailboxMessageReply.parse(r.json());
    expect(message).toMatchObject({
      from: "Expert Sessions <no-reply@localhost>",
      to: to.toUpperCase(),
      headers: { "List-Unsubscribe": "<http://localhost/api/v1/mail/unsubscribe?token=u>" },
      attachments: [{ filename: "session.ics", content_type: "text/calendar" }],
      booking_id: "booking-1",
      send_after: "2026-03-02T09:00:00.000Z",
      note: "reminders are off",
    });
    expect((await api.call("GET", `/api/v1/admin/mailbox/m-${run}-verify_email`, { user: admin })).json()).toMatchObject({
      text: "Open http://localhost/verify-email?token=t",
      html: expect.stringContaining("<a href"),
    });
    expect((await api.call("GET", "/api/v1/admin/mailbox/nothing-here", { user: admin })).statusCode).toBe(404);
  });

  it("is for admins only", async () => {
    const creator = await api.user("creator");
    expect((await api.call("GET", "/api/v1/admin/mailbox", { user: creator })).statusCode).toBe(403);
    expect((await api.call("GET", "/api/v1/admin/mailbox")).statusCode).toBe(401);
  });

  it("/dev/mailbox redirects to the console's mailbox page", async () => {
    const r = await api.call("GET", "/dev/mailbox");
    expect(r.statusCode).toBe(302);
    expect(r.headers.location).toBe("/admin/#/mailbox");
  });
});

describe("with SMTP_URL set", () => {
  it("has no mailbox: the list, a message and /dev/mailbox answer 404", async () => {
    const { store, dataKeys, db, clock, holdMinutes, mediaDir, jwtSecret, payments, stripeWebhookSecrets, feed } = api.ctx;
    const smtp = createContext({
      store,
      dataKeys,
      db,
      clock,
      holdMinutes,
      mediaDir,
      jwtSecret,
      payments,
      stripeWebhookSecrets,
      feed,
      mail: mailSettings({ smtpUrl: "smtp://mail.example:587" }),
    });
    const app = await buildApp(smtp);
    try {
      const headers = { authorization: `Bearer ${admin.token}` };
      const listed = await app.inject({ method: "GET", url: "/api/v1/admin/mailbox", headers });
      expect(listed.statusCode).toBe(404);
      expect(listed.json()).toMatchObject({ code: "not_found" });
      expect((await app.inject({ method: "GET", url: `/api/v1/admin/mailbox/m-${run}-verify_email`, headers })).statusCode).toBe(404);
      expect((await app.inject({ method: "GET", url: "/dev/mailbox" })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
