import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verificationMail } from "../src/mail/account-mails.ts";
import { enqueueMail } from "../src/mail/outbox.ts";
import { startTestApi, type TestApi } from "./harness.ts";
import { PUBLIC_URL, testMail } from "./mail-bookings.ts";
import { startTestSmtp, type TestSmtp } from "./mail-smtp.ts";

// The sender's answers to a server that says no: a temporary refusal (4xx) is retried after a
// doubling wait and sent once the server takes it; a permanent one (5xx) fails at once; a message
// refused every time is given up as failed after the last attempt, with the server's answer. The
// dev mailbox (no SMTP_URL) keeps mail in the outbox and marks it sent.

let now = Date.parse("2027-02-01T09:00:00.000Z");
const clock = () => new Date(now).toISOString();
const tries = new Map<string, number>();

let api: TestApi;
let smtp: TestSmtp;

beforeAll(async () => {
  api = await startTestApi({ clock });
  smtp = await startTestSmtp({
    refuse: (to) => {
      tries.set(to, (tries.get(to) ?? 0) + 1);
      if (to.startsWith("busy-twice") && tries.get(to)! <= 2) return 451;
      if (to.startsWith("always-busy")) return 451;
      if (to.startsWith("gone")) return 550;
      return null;
    },
  });
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

const queue = (to: string) =>
  enqueueMail(
    api.ctx.db,
    verificationMail({
      messageId: `verify:${to}`,
      userId: `u-${to}`,
      to,
      firstName: "Ida",
      link: `${PUBLIC_URL}/verify-email?token=t`,
      now: clock(),
    }),
  );
const row = async (to: string) =>
  (
    await api.ctx.db.query<{
      status: string;
      attempts: number;
      last_error: string | null;
      leased_until: Date | null;
      sent_at: Date | null;
    }>("SELECT status, attempts, last_error, leased_until, sent_at FROM mail_outbox WHERE to_address = $1", [to])
  ).rows[0]!;

describe("the sender when the server refuses", () => {
  it("retries a temporary refusal after a doubling wait, fails a permanent one at once, gives up after the last attempt", async () => {
    const mail = testMail(api, { smtpUrl: smtp.url, clock, sender: { firstRetryMs: 1000, maxAttempts: 3 } });
    await queue("busy-twice@example.com");
    await queue("gone@example.com");
    await queue("always-busy@example.com");

    await mail.sender.sendDue();
    expect(await row("gone@example.com")).toMatchObject({ status: "failed", attempts: 1, leased_until: null });
    expect((await row("gone@example.com")).last_error).toContain("550");
    const busy = await row("busy-twice@example.com");
    expect(busy).toMatchObject({ status: "pending", attempts: 1 });
    expect(busy.last_error).toContain("451");
    expect(busy.leased_until!.toISOString()).toBe(new Date(now + 1000).toISOString());

    // Not due again before its wait is over.
    now += 999;
    expect((await mail.sender.sendDue()).attempted).toBe(0);
    now += 1;
    expect((await mail.sender.sendDue()).attempted).toBe(2);
    expect((await row("busy-twice@example.com")).leased_until!.toISOString()).toBe(new Date(now + 2000).toISOString());
    now += 2000;
    await mail.sender.sendDue();
    expect(await row("busy-twice@example.com")).toMatchObject({ status: "sent", attempts: 3, last_error: null });
    const given = await row("always-busy@example.com");
    expect(given).toMatchObject({ status: "failed", attempts: 3 });
    expect(given.last_error).toContain("451");

    // What failed stays failed; only the one the server took arrived.
    now += 60 * 60_000;
    expect((await mail.sender.sendDue()).attempted).toBe(0);
    expect(smtp.arrived.map((m) => m.to)).toEqual(["busy-twice@example.com"]);
    mail.close();
  });

  it("the dev mailbox keeps mail in the outbox and marks it sent, with nothing leaving", async () => {
    const mail = testMail(api, { smtpUrl: null, clock });
    await queue("dev@example.com");
    const before = smtp.arrived.length;
    await mail.sender.sendDue();
    const kept = await row("dev@example.com");
    expect(kept).toMatchObject({ status: "sent", attempts: 1 });
    expect(kept.sent_at!.toISOString()).toBe(clock());
    expect(smtp.arrived.length).toBe(before);
    mail.close();
  });
});
