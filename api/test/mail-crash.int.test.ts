import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smtpMessageId } from "../src/mail/sender.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";
import { expertCalendarIn, PUBLIC_URL, registered, type MailCalendar, type MailUser } from "./mail-bookings.ts";
import { startTestSmtp, type ArrivedMail, type TestSmtp } from "./mail-smtp.ts";
import { sleep, startProcess, waitFor, type Running } from "./processes.ts";

// Crash safety of mail: the mail process (reactor and sender) killed with SIGKILL at random
// points while bookings are confirmed, then started again, delivers every mail owed. At least
// once: a mail the server accepted just before the kill, and not yet marked sent, goes again
// after the lease, with the same Message-ID and the same content, so it is recognisably one
// message; counted by Message-ID, none is lost and none doubled.

const BOOKINGS = 24;
const KILLS = 8;
/** Per booking: the request to the expert, "Request sent" to the creator (issue 27.7), the confirmation to both (its reminders wait). */
const MAILS = BOOKINGS * 4;
const READY = "mail: running";

let api: TestApi;
let smtp: TestSmtp;

beforeAll(async () => {
  api = await startTestApi();
  // A slow server (25 ms a message), so a kill often lands with a batch half sent.
  smtp = await startTestSmtp({ delayMs: 25 });
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

const count = async (where: string) =>
  Number((await api.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM mail_outbox WHERE ${where}`)).rows[0]!.n);
/** The n-th booking's start: eight a day from 02:00 UTC (07:30 in Kolkata), from the day after tomorrow. */
function startOf(n: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + 2 + Math.floor(n / 8));
  d.setUTCHours(2 + (n % 8), 0, 0, 0);
  return d.toISOString();
}

describe("the mail process killed with SIGKILL while mail is owed", () => {
  it(`${KILLS} kills at random points: every mail arrives, each Message-ID once (a resend of an unmarked mail is the same message)`, async () => {
    const creator: MailUser = await registered(api, "creator", "Crash", "Creator", "America/Chicago");
    const calendar: MailCalendar = await expertCalendarIn(
      api,
      await registered(api, "expert", "Crash", "Expert", "Asia/Kolkata"),
      "Asia/Kolkata",
    );
    // A short lease: mail taken by a killed process is due again soon, as after a real crash.
    const env = {
      DATABASE_URL: api.databaseUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      PUBLIC_URL,
      SMTP_URL: smtp.url,
      MAIL_FROM: "Expert Sessions <hello@sessions.example.com>",
      MAIL_LEASE_MS: "400",
      MAIL_IDLE_MS: "50",
      MAIL_FIRST_RETRY_MS: "50",
    };
    const start = () => startProcess("mail", env);

    const perKill = BOOKINGS / KILLS;
    let running: Running = start();
    let killedInFlight = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const arrived = smtp.arrived.length;
      // Owed while the process starts: it queues and sends them as soon as it runs, which is when the kill comes.
      for (let n = kill * perKill; n < (kill + 1) * perKill; n++) {
        const b = await calendar.request(creator, startOf(n));
        await calendar.pay(b);
        await calendar.confirm(b);
      }
      await waitFor("the mail process to start", async () => running.output().includes(READY), 60_000);
      // Once it is sending, within a few messages: the kill lands before, during or after a send, or between a send and its mark.
      await waitFor("the mail process to send", async () => smtp.arrived.length > arrived, 60_000);
      await sleep(Math.random() * 80);
      const owed = await count("status = 'pending' AND send_after <= now()");
      running.child.kill("SIGKILL");
      await running.exited;
      if (owed > 0) killedInFlight++;
      running = start();
    }

    await waitFor("every mail owed to be sent", async () => (await count("status = 'sent'")) === MAILS, 120_000);
    await waitFor("the mail process to be up", async () => running.output().includes(READY), 60_000);
    running.child.kill("SIGTERM");
    expect(await running.exited).toBe(0);

    // The outbox: each mail owed once, sent; the reminders wait for their time.
    expect(await count("kind IN ('booking_requested', 'booking_confirmed')")).toBe(MAILS);
    expect(await count("status = 'pending' AND kind LIKE 'reminder%'")).toBe(BOOKINGS * 4);
    // What arrived: every sent mail, by its Message-ID.
    const { rows } = await api.ctx.db.query<{ message_id: string }>("SELECT message_id FROM mail_outbox WHERE status = 'sent'");
    const byId = new Map<string, ArrivedMail[]>();
    for (const m of smtp.arrived) byId.set(m.messageId, [...(byId.get(m.messageId) ?? []), m]);
    expect([...byId.keys()].sort()).toEqual(rows.map((r) => smtpMessageId(r.message_id, PUBLIC_URL)).sort());
    // A resend is the same message: same recipient, subject and bodies.
    for (const copies of byId.values()) {
      const [first, ...again] = copies.map((m) => JSON.stringify([m.to, m.subject, m.text, m.html]));
      for (const copy of again) expect(copy).toBe(first);
    }
    const resent = smtp.arrived.length - byId.size;
    console.log(
      `[mail crash] ${KILLS} kills, ${killedInFlight} with mail in flight; ${smtp.arrived.length} arrivals, ${byId.size} distinct Message-IDs, ${resent} resent after a kill`,
    );
  }, 300_000);
});
