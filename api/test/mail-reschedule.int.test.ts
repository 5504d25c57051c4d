import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@booking/contracts";
import { startTestApi, type TestApi } from "./harness.ts";
import {
  expertCalendarIn,
  PUBLIC_URL,
  registered,
  sentTo,
  smtpDelivery,
  testMail,
  type DeliveredMail,
  type MailCalendar,
  type MailUser,
} from "./mail-bookings.ts";
import { startTestSmtp, type TestSmtp } from "./mail-smtp.ts";

// Changes to a booking after it is made, by mail. Moving it: the expert hears of a request to move,
// the creator of a declined one, the expert of a withdrawn one; an accepted move tells both the new
// time in their own zone, moves the calendar entry (same UID, higher SEQUENCE) and the reminders.
// Its meeting link: set by the expert, it reaches both with the updated invite, and the reminders
// are queued again carrying it.

const now = "2027-03-10T12:00:00.000Z";
let api: TestApi;
let smtp: TestSmtp;
let mail: ReturnType<typeof testMail>;
let expert: MailUser;
let creator: MailUser;
let calendar: MailCalendar;

type Received = DeliveredMail;

beforeAll(async () => {
  api = await startTestApi({ clock: () => now });
  smtp = await startTestSmtp();
  mail = testMail(api, { smtpUrl: smtp.url, clock: () => now });
  expert = await registered(api, "expert", "Ava", "Weber", "Europe/Berlin");
  creator = await registered(api, "creator", "Cole", "Rivera", "America/New_York");
  calendar = await expertCalendarIn(api, expert, "Europe/Berlin");
});
afterAll(async () => {
  mail.close();
  await smtp.close();
  await api.close();
});

const deliver = () => smtpDelivery(api, smtp, mail)();
const who = (m: Received) => sentTo({ expert, creator })(m);
const to = (mails: Received[], kind: string, u: MailUser) => mails.find((m) => m.kind === kind && m.userId === u.id)!;
const asCreator = (): Actor => ({ userId: creator.id, role: "creator" });
const on = (bookingId: string) => ({ expertId: expert.id, bookingId });

async function confirmedAt(at: string): Promise<string> {
  const b = await calendar.request(creator, at);
  await calendar.pay(b);
  await calendar.confirm(b);
  await deliver();
  return b;
}
const askToMove = (b: string, at: string) =>
  calendar.run({ type: "RequestReschedule", ...on(b), actor: asCreator(), scheduledTime: at, creatorBookings: [] });
const remindersOf = async (b: string) =>
  (
    await api.ctx.db.query<{ kind: string; status: string; send_after: Date }>(
      "SELECT kind, status, send_after FROM mail_outbox WHERE booking_id = $1 AND kind LIKE 'reminder%' ORDER BY status, send_after, kind",
      [b],
    )
  ).rows.map((r) => `${r.kind} ${r.status} ${r.send_after.toISOString()}`);

describe("reschedule mails", () => {
  it("a request reaches the expert with both times in Berlin time; accepting tells both the new time, moves the invite and the reminders", async () => {
    const b = await confirmedAt("2027-03-20T10:00:00.000Z");
    await askToMove(b, "2027-03-22T14:00:00.000Z");
    let mails = await deliver();
    expect(mails.map(who)).toEqual(["reschedule_requested -> expert"]);
    const request = to(mails, "reschedule_requested", expert);
    expect(request.subject).toBe("Cole Rivera asks to move Pricing review to Mon 22 Mar, 15:00");
    expect(request.text).toContain("Requested time: Monday, 22 March 2027, 15:00 (Europe/Berlin, GMT+1)");
    expect(request.text).toContain("Booked time: Saturday, 20 March 2027, 11:00 (Europe/Berlin, GMT+1)");
    expect(request.text).toContain(`${PUBLIC_URL}/manage-booking/${b}`);

    await calendar.run({ type: "AcceptReschedule", ...on(b), actor: calendar.asExpert });
    mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["rescheduled -> creator", "rescheduled -> expert"]);
    const moved = to(mails, "rescheduled", creator);
    // New York is on summer time from 14 March: GMT-4.
    expect(moved.text).toContain("When: Monday, 22 March 2027, 10:00 (America/New_York, GMT-4)");
    expect(moved.text).toContain("Was: Saturday, 20 March 2027, 06:00 (America/New_York, GMT-4)");
    const invite = new ICAL.Component(ICAL.parse(moved.attachments.find((a) => a.contentType.startsWith("text/calendar"))!.content));
    const event = new ICAL.Event(invite.getFirstSubcomponent("vevent")!);
    expect(invite.getFirstPropertyValue("method")).toBe("REQUEST");
    expect(event.uid).toBe(`booking-${b}@${new URL(PUBLIC_URL).host}`);
    expect(event.startDate.toJSDate().toISOString()).toBe("2027-03-22T14:00:00.000Z");
    // The old time's reminders are skipped; the new time's wait for their hour.
    expect(await remindersOf(b)).toEqual([
      "reminder_24h pending 2027-03-21T14:00:00.000Z",
      "reminder_24h pending 2027-03-21T14:00:00.000Z",
      "reminder_1h pending 2027-03-22T13:00:00.000Z",
      "reminder_1h pending 2027-03-22T13:00:00.000Z",
      "reminder_24h skipped 2027-03-19T10:00:00.000Z",
      "reminder_24h skipped 2027-03-19T10:00:00.000Z",
      "reminder_1h skipped 2027-03-20T09:00:00.000Z",
      "reminder_1h skipped 2027-03-20T09:00:00.000Z",
    ]);
  });

  it("a declined request tells the creator, with the expert's reason; a withdrawn one tells the expert; the reminders stay", async () => {
    const b = await confirmedAt("2027-03-24T10:00:00.000Z");
    await askToMove(b, "2027-03-25T10:00:00.000Z");
    await deliver();
    await calendar.run({ type: "DeclineReschedule", ...on(b), actor: calendar.asExpert, reason: "That day is full." });
    let mails = await deliver();
    expect(mails.map(who)).toEqual(["reschedule_declined -> creator"]);
    expect(to(mails, "reschedule_declined", creator).text).toContain("> That day is full.");

    await askToMove(b, "2027-03-26T10:00:00.000Z");
    await deliver();
    await calendar.run({ type: "WithdrawReschedule", ...on(b), actor: asCreator() });
    mails = await deliver();
    expect(mails.map(who)).toEqual(["reschedule_withdrawn -> expert"]);
    expect((await remindersOf(b)).every((r) => r.includes("pending"))).toBe(true);
  });
});

describe("the meeting link by mail", () => {
  const inviteOf = (m: Received) =>
    new ICAL.Event(
      new ICAL.Component(ICAL.parse(m.attachments.find((a) => a.contentType.startsWith("text/calendar"))!.content)).getFirstSubcomponent(
        "vevent",
      )!,
    );

  it("the expert's link reaches both with the updated invite, and the reminders are queued again with it", async () => {
    const b = await confirmedAt("2027-03-27T10:00:00.000Z");
    const before = await remindersOf(b);
    await calendar.run({ type: "SetJoinLink", ...on(b), actor: calendar.asExpert, url: "https://meet.example.com/ava/pricing" });
    const mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["join_link_set -> creator", "join_link_set -> expert"]);
    const toCreator = to(mails, "join_link_set", creator);
    expect(toCreator.text).toContain("Join: https://meet.example.com/ava/pricing");
    expect(inviteOf(toCreator).location).toBe("https://meet.example.com/ava/pricing");
    // The four reminders queued at confirmation are replaced by four carrying the link.
    const after = await remindersOf(b);
    expect(after.filter((r) => r.includes("skipped"))).toEqual(before.map((r) => r.replace("pending", "skipped")));
    expect(after.filter((r) => r.includes("pending"))).toEqual(before);
    const { rows } = await api.ctx.db.query<{ text_body: string }>(
      "SELECT text_body FROM mail_outbox WHERE booking_id = $1 AND kind LIKE 'reminder%' AND status = 'pending'",
      [b],
    );
    expect(rows.every((r) => r.text_body.includes("Join: https://meet.example.com/ava/pricing"))).toBe(true);
  });

  it("without an expert's link, the confirmation names the room generated from the deployment's template", async () => {
    const rooms = testMail(api, {
      smtpUrl: smtp.url,
      clock: () => now,
      meetingRoomUrlTemplate: "https://rooms.example.com/{bookingId}",
      reactor: { name: "mail-rooms" },
    });
    try {
      const b = await calendar.request(creator, "2027-03-28T10:00:00.000Z");
      await calendar.pay(b);
      await calendar.confirm(b);
      const before = smtp.arrived.length;
      await rooms.deliver();
      const confirmed = smtp.arrived.slice(before).filter((m) => m.subject.startsWith("Confirmed:") && m.to === creator.email);
      expect(confirmed).toHaveLength(1);
      expect(confirmed[0]!.text).toContain(`Join: https://rooms.example.com/${b}`);
    } finally {
      rooms.close();
    }
  });
});
