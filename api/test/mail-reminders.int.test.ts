import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./harness.ts";
import { expertCalendarIn, registered, setPreferences, testMail, type MailCalendar, type MailUser } from "./mail-bookings.ts";
import { startTestSmtp, type TestSmtp } from "./mail-smtp.ts";

// Reminders are the optional mails: queued at confirmation for 24 h and 1 h before the start
// (only those still ahead), skipped when the booking is cancelled or its reader turns reminders
// off, and never sent once the session has begun.

const HOUR = 3_600_000;
let now = Date.parse("2027-05-03T08:00:00.000Z");
const clock = () => new Date(now).toISOString();
const at = (ms: number) => new Date(ms).toISOString();

let api: TestApi;
let smtp: TestSmtp;
let mail: ReturnType<typeof testMail>;
let creator: MailUser;
let calendar: MailCalendar;

beforeAll(async () => {
  api = await startTestApi({ clock });
  smtp = await startTestSmtp();
  mail = testMail(api, { smtpUrl: smtp.url, clock });
  creator = await registered(api, "creator", "Nora", "Lind", "Europe/Stockholm");
  calendar = await expertCalendarIn(api, await registered(api, "expert", "Omar", "Haddad", "Africa/Cairo"), "Africa/Cairo");
});
afterAll(async () => {
  mail.close();
  await smtp.close();
  await api.close();
});

type Row = { kind: string; user_id: string; status: string; skipped_reason: string | null };
const reminders = async (bookingId: string) =>
  (
    await api.ctx.db.query<Row>(
      "SELECT kind, user_id, status, skipped_reason FROM mail_outbox WHERE booking_id = $1 AND kind LIKE 'reminder%' ORDER BY kind, user_id",
      [bookingId],
    )
  ).rows;
const arrivedReminders = (bookingId: string) => smtp.arrived.filter((m) => m.subject.startsWith("Reminder:") && m.text.includes(bookingId));

async function confirmedAt(start: number): Promise<string> {
  const b = await calendar.request(creator, at(start));
  await calendar.pay(b);
  await calendar.confirm(b);
  await mail.deliver();
  return b;
}

describe("reminders", () => {
  it("a confirmation queues both parties' reminders only while their time is ahead", async () => {
    const far = await confirmedAt(now + 72 * HOUR);
    expect((await reminders(far)).map((r) => `${r.kind} ${r.status}`)).toEqual([
      "reminder_1h pending",
      "reminder_1h pending",
      "reminder_24h pending",
      "reminder_24h pending",
    ]);
    // Confirmed 5 hours ahead: the 24-hour reminder's time has passed, the 1-hour one is still to come.
    const soon = await confirmedAt(now + 5 * HOUR);
    expect((await reminders(soon)).map((r) => r.kind)).toEqual(["reminder_1h", "reminder_1h"]);
    // Confirmed 30 minutes ahead: too late for either.
    const late = await confirmedAt(now + 30 * 60_000);
    expect(await reminders(late)).toEqual([]);
  });

  it("cancelling a booking skips its pending reminders, with the reason, and none is sent", async () => {
    const b = await confirmedAt(now + 48 * HOUR);
    expect(await reminders(b)).toHaveLength(4);
    await calendar.cancel(b, creator);
    await mail.deliver();
    const rows = await reminders(b);
    expect(rows.map((r) => `${r.status}: ${r.skipped_reason}`)).toEqual(Array(4).fill("skipped: The booking was cancelled."));
    now += 48 * HOUR;
    await mail.deliver();
    expect(arrivedReminders(b)).toEqual([]);
  });

  it("a reader turning reminders off skips theirs (the other party's still go), and no new ones are queued for them", async () => {
    const b = await confirmedAt(now + 48 * HOUR);
    await setPreferences(api, creator, "Europe/Stockholm", false);
    await mail.deliver();
    const rows = await reminders(b);
    const mine = rows.filter((r) => r.user_id === creator.id);
    const theirs = rows.filter((r) => r.user_id !== creator.id);
    expect(mine.map((r) => `${r.status}: ${r.skipped_reason}`)).toEqual(Array(2).fill("skipped: The recipient turned reminder mails off."));
    expect(theirs.map((r) => r.status)).toEqual(["pending", "pending"]);

    const later = await confirmedAt(now + 96 * HOUR);
    expect((await reminders(later)).map((r) => r.user_id === creator.id)).toEqual([false, false]);

    now += 48 * HOUR - HOUR;
    await mail.deliver();
    const sent = arrivedReminders(b);
    expect(sent.map((m) => m.to)).toHaveLength(2);
    expect(sent.every((m) => m.to !== creator.email)).toBe(true);
    // Turned on again: later confirmations remind them again.
    await setPreferences(api, creator, "Europe/Stockholm", true);
    const again = await confirmedAt(now + 72 * HOUR);
    expect((await reminders(again)).filter((r) => r.user_id === creator.id)).toHaveLength(2);
  });

  it("a reminder the sender could not send before the session began is skipped, not sent late", async () => {
    const b = await confirmedAt(now + 48 * HOUR);
    // The sender was down until after the start.
    now += 49 * HOUR;
    await mail.deliver();
    expect(arrivedReminders(b)).toEqual([]);
    expect((await reminders(b)).map((r) => `${r.status}: ${r.skipped_reason}`)).toEqual(
      Array(4).fill("skipped: Its time passed before it could be sent."),
    );
  });
});
