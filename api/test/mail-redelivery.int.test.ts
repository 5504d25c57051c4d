import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comparePositions } from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import { deliverDue } from "../src/mail/delivery.ts";
import { loadCheckpoint } from "../src/reactors/checkpoints.ts";
import { MailReactor } from "../src/mail/reactor.ts";
import { smtpMessageId } from "../src/mail/sender.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";
import {
  expertCalendarIn,
  PUBLIC_URL,
  readEverything,
  registered,
  setPreferences,
  testMail,
  type MailCalendar,
  type MailUser,
} from "./mail-bookings.ts";
import { startTestSmtp, type TestSmtp } from "./mail-smtp.ts";

// The log delivered three times (three reactors racing on one checkpoint, the checkpoint reset
// and read again, three reactors with checkpoints of their own) queues each mail once, and three
// senders racing send each once: what the outbox holds after the first reading is what it holds
// after every other, and a re-reading never rewinds what later mails say.

const now = "2027-06-01T08:00:00.000Z";
const clock = () => now;
const EXPERTS = 3;
/**
 * Per expert: a walked booking (7 mails, 4 reminders, the creator's 2 skipped when they turn
 * reminders off), a cancelled one (7 mails, 4 reminders skipped) and one confirmed after the
 * creator turned reminders on again (4 mails, 4 reminders). Each paid request mails its creator
 * "Request sent" (issue 27.7).
 */
const ROWS = EXPERTS * 30;
const SENT = EXPERTS * 18;
const SKIPPED = EXPERTS * 6;

let api: TestApi;
let smtp: TestSmtp;

beforeAll(async () => {
  api = await startTestApi({ clock });
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

const day = (d: number, hour = 10) => `2027-06-${String(d).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00.000Z`;

async function bookings(calendar: MailCalendar, creator: MailUser): Promise<void> {
  const walked = await calendar.request(creator, day(4));
  await calendar.pay(walked);
  await calendar.requestInfo(walked, "What should we cover first?");
  await calendar.propose(walked, day(5, 11));
  await calendar.confirm(walked, creator);
  await calendar.notes(walked);
  await setPreferences(api, creator, "America/New_York", false);
  await setPreferences(api, creator, "America/New_York", true);
  const kept = await calendar.request(creator, day(7));
  await calendar.pay(kept);
  await calendar.confirm(kept);
  const cancelled = await calendar.request(creator, day(6));
  await calendar.pay(cancelled);
  await calendar.confirm(cancelled);
  await calendar.cancel(cancelled, creator, "Something came up.");
  await calendar.refunded(cancelled, `rk-${cancelled}`, 15_000);
  // An unpaid hold released by its creator owes nothing.
  await calendar.cancel(await calendar.request(creator, day(8)), creator);
}

/** Everything the outbox holds, as the sender and the console would see it. */
const outbox = async () =>
  (
    await api.ctx.db.query<Record<string, unknown>>(
      "SELECT message_id, kind, user_id, to_address, status, subject, text_body, html_body, headers, send_after, send_before, skipped_reason FROM mail_outbox ORDER BY message_id",
    )
  ).rows;
/** The reactor's own facts: people, schedule zones, bookings. */
const facts = async () =>
  Promise.all(
    [
      "SELECT * FROM mail_people ORDER BY user_id",
      "SELECT * FROM mail_calendars ORDER BY expert_id",
      "SELECT * FROM mail_bookings ORDER BY booking_id",
    ].map(async (sql) => (await api.ctx.db.query(sql)).rows),
  );
const reactor = (name: string, batchSize: number) =>
  new MailReactor(
    { log: api.ctx.store, db: api.ctx.db, settings: { publicUrl: PUBLIC_URL }, linkSecret: TEST_JWT_SECRET, clock },
    { name, batchSize },
  );

describe("the log read three times, sent by three senders at once", () => {
  let first: Awaited<ReturnType<typeof outbox>>;

  it("three reactors racing on one checkpoint queue each mail once", async () => {
    for (let n = 0; n < EXPERTS; n++) {
      const expert = await registered(api, "expert", "Expert", `No${n}`, "Europe/Berlin");
      await bookings(await expertCalendarIn(api, expert, "UTC"), await registered(api, "creator", "Creator", `No${n}`, "America/New_York"));
    }
    const racing = [reactor("mail", 7), reactor("mail", 7), reactor("mail", 7)];
    await Promise.all(racing.map((r) => readEverything(api, r)));
    first = await outbox();
    expect(first).toHaveLength(ROWS);
    expect(first.filter((r) => r.status === "skipped")).toHaveLength(SKIPPED);
  });

  it("the checkpoint reset and the log read twice more (the second time with the reactor's facts lost too): nothing new, nothing changed", async () => {
    const known = await facts();
    for (let reading = 2; reading <= 3; reading++) {
      await api.ctx.db.query("DELETE FROM mail_checkpoints WHERE name = 'mail'");
      // Every fact applies afresh: only the messages' ids keep the outbox from queuing them again.
      if (reading === 3) await api.ctx.db.query("TRUNCATE mail_people, mail_calendars, mail_bookings");
      await readEverything(api, reactor("mail", 11));
      expect(await outbox(), `reading ${reading}`).toEqual(first);
      expect(await facts()).toEqual(known);
    }
  });

  it("three reactors with checkpoints of their own, racing from the start: nothing new, nothing changed", async () => {
    await Promise.all(["mail-a", "mail-b", "mail-c"].map((name, i) => readEverything(api, reactor(name, 5 + i * 4))));
    expect(await outbox()).toEqual(first);
  });

  it("three senders racing send each due mail once, with its outbox id as Message-ID; reading and sending again sends nothing", async () => {
    const senders = [1, 2, 3].map(() => testMail(api, { smtpUrl: smtp.url, clock, sender: { batchSize: 4 } }));
    await Promise.all(senders.map((s) => deliverDue(s)));
    const sent = (await outbox()).filter((r) => r.status === "sent");
    expect(sent).toHaveLength(SENT);
    expect(smtp.arrived).toHaveLength(SENT);
    expect(smtp.arrived.map((m) => m.messageId).sort()).toEqual(sent.map((r) => smtpMessageId(r.message_id as string, PUBLIC_URL)).sort());

    await api.ctx.db.query("DELETE FROM mail_checkpoints");
    await Promise.all(senders.map((s) => s.deliver()));
    expect(smtp.arrived).toHaveLength(SENT);
    for (const s of senders) s.close();
  });

  it("a reactor re-reading old events does not rewind the booking later mails describe", async () => {
    const expert = await registered(api, "expert", "Rewind", "Expert", "UTC");
    const creator = await registered(api, "creator", "Rewind", "Creator", "UTC");
    const calendar = await expertCalendarIn(api, expert, "UTC");
    const b = await calendar.request(creator, day(8));
    await calendar.pay(b);
    await calendar.propose(b, day(9, 15));
    const main = reactor("mail", 50);
    await readEverything(api, main);
    // Another reader starts over and stops just past the request, before the new time.
    const { events } = await api.ctx.store.readStream(calendarStream(expert.id));
    const requested = events.find((e) => e.type === "BookingRequested" && (e.data as { bookingId: string }).bookingId === b)!;
    const late = reactor("mail-late", 1);
    const before = async () => {
      const reached = await loadCheckpoint(api.ctx.db, "mail_checkpoints", late.name);
      return reached === null || comparePositions(reached, requested.position) < 0;
    };
    while (await before()) await late.follow();
    await calendar.confirm(b, creator);
    await readEverything(api, main);
    const { rows } = await api.ctx.db.query<{ text_body: string }>(
      "SELECT text_body FROM mail_outbox WHERE booking_id = $1 AND kind = 'booking_confirmed'",
      [b],
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.text_body).toContain("When: Wednesday, 9 June 2027, 15:00 (UTC)");
  });
});
