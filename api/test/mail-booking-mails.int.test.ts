import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLink } from "../src/auth/signed-links.ts";
import { startTestApi, TEST_JWT_SECRET, type TestApi } from "./harness.ts";
import {
  expertCalendarIn,
  PUBLIC_URL,
  registered,
  sentTo,
  setPreferences,
  smtpDelivery,
  testMail,
  type DeliveredMail,
  type MailCalendar,
  type MailUser,
} from "./mail-bookings.ts";
import { startTestSmtp, type TestSmtp } from "./mail-smtp.ts";

// Each booking event owes exactly one mail to each person it concerns, delivered over SMTP: to
// the right address, in the reader's own zone with the zone named (an expert in Europe/Berlin, a
// creator in America/Los_Angeles, across both DST changes of March 2027), with the right subject
// and a link to the reader's screen. Reminders carry List-Unsubscribe; essential mails do not.

let now = "2027-03-10T12:00:00.000Z";
const clock = () => now;

let api: TestApi;
let smtp: TestSmtp;
let mail: ReturnType<typeof testMail>;
let expert: MailUser;
let creator: MailUser;
let calendar: MailCalendar;

type Received = DeliveredMail;
const received: Received[] = [];

beforeAll(async () => {
  api = await startTestApi({ clock });
  smtp = await startTestSmtp();
  mail = testMail(api, { smtpUrl: smtp.url, clock });
  // The expert's own zone is Tokyo, but their schedule is in Berlin: their mails follow the schedule.
  expert = await registered(api, "expert", "Ava", "Weber", "Asia/Tokyo");
  // The creator gave no zone at sign-up and set one later.
  creator = await registered(api, "creator", "Cole", "Rivera");
  await setPreferences(api, creator, "America/Los_Angeles", true);
  calendar = await expertCalendarIn(api, expert, "Europe/Berlin");
});
afterAll(async () => {
  mail.close();
  await smtp.close();
  await api.close();
});

/** Queue and send what is due; the mails that arrived since the last call (all kept in `received`). */
async function deliver(): Promise<Received[]> {
  const fresh = await smtpDelivery(api, smtp, mail)();
  received.push(...fresh);
  return fresh;
}

const who = (m: Received) => sentTo({ expert, creator })(m);
const one = (mails: Received[], kind: string, to: MailUser) => {
  const found = mails.filter((m) => m.kind === kind && m.userId === to.id);
  expect(found, `${kind} to ${to.firstName}`).toHaveLength(1);
  expect(found[0]!.to).toBe(to.email);
  return found[0]!;
};
/** The mail's one calendar invite, parsed with a real iCalendar parser. */
function inviteOf(m: Received): { method: unknown; event: ICAL.Event } {
  const ics = m.attachments.filter((a) => a.contentType.startsWith("text/calendar"));
  expect(ics, `calendar invites on ${m.kind}`).toHaveLength(1);
  const root = new ICAL.Component(ICAL.parse(ics[0]!.content));
  return { method: root.getFirstPropertyValue("method"), event: new ICAL.Event(root.getFirstSubcomponent("vevent")!) };
}
const pendingOf = async (bookingId: string) =>
  (
    await api.ctx.db.query<{ kind: string; user_id: string; status: string; send_after: Date }>(
      "SELECT kind, user_id, status, send_after FROM mail_outbox WHERE booking_id = $1 AND kind LIKE 'reminder%' ORDER BY send_after, user_id",
      [bookingId],
    )
  ).rows;

const BERLIN_REQUESTED = "Friday, 26 March 2027, 17:00 (Europe/Berlin, GMT+1)";
const LA_REQUESTED = "Friday, 26 March 2027, 09:00 (America/Los_Angeles, GMT-7)";
// After Europe's change to summer time (28 March): Berlin is GMT+2, Los Angeles still GMT-7.
const BERLIN_PROPOSED = "Tuesday, 30 March 2027, 17:00 (Europe/Berlin, GMT+2)";
const LA_PROPOSED = "Tuesday, 30 March 2027, 08:00 (America/Los_Angeles, GMT-7)";

describe("booking mails over SMTP, one per event and person, in each reader's zone", () => {
  let walk: string;

  it("an unpaid hold owes no mail; once paid, the expert gets the request in Berlin time with a link to manage it, the creator 'Request sent'", async () => {
    walk = await calendar.request(creator, "2027-03-26T16:00:00.000Z");
    expect(await deliver()).toEqual([]);
    await calendar.pay(walk);
    const mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["booking_requested -> creator", "booking_requested -> expert"]);
    // Issue 27.7: the creator hears what they paid, until when the expert may accept (16 days off: 48 hours after paying), and the terms.
    const sent = one(mails, "booking_requested", creator);
    expect(sent.subject).toBe("Request sent: Pricing review with Ava Weber, Fri 26 Mar, 09:00");
    expect(sent.text).toContain("You paid $150 and your request is with Ava Weber.");
    expect(sent.text).toContain("Ava Weber has until Friday, 12 March 2027, 04:00 (America/Los_Angeles, GMT-8) to accept.");
    expect(sent.text).toContain(
      "Cancel by Thursday, 25 March 2027, 09:00 (America/Los_Angeles, GMT-7) (24 hours before the start) for a full refund",
    );
    const m = one(mails, "booking_requested", expert);
    expect(m.subject).toBe("New request: Pricing review with Cole Rivera, Fri 26 Mar, 17:00");
    expect(m.text).toContain("Hi Ava,");
    expect(m.text).toContain(`When: ${BERLIN_REQUESTED}`);
    expect(m.text).toContain("Cole Rivera booked Pricing review and paid $150.");
    expect(m.text).toContain(`Review the request: ${PUBLIC_URL}/manage-booking/${walk}`);
    expect(m.html).toContain(`href="${PUBLIC_URL}/manage-booking/${walk}"`);
    expect(m.from).toBe(`"Expert Sessions" <hello@sessions.example.com>`);
  });

  it("the expert's question reaches the creator, in Los Angeles time, with the note and a link to the session", async () => {
    await calendar.requestInfo(walk, "Which pricing page should we look at? <the new one>");
    const mails = await deliver();
    expect(mails.map(who)).toEqual(["info_requested -> creator"]);
    const m = one(mails, "info_requested", creator);
    expect(m.subject).toBe("Ava Weber has a question about Pricing review");
    expect(m.text).toContain("Hi Cole,");
    expect(m.text).toContain("> Which pricing page should we look at? <the new one>");
    expect(m.text).toContain(`When: ${LA_REQUESTED}`);
    expect(m.text).toContain(`${PUBLIC_URL}/session-details/${walk}`);
    // What a person wrote is escaped in the HTML part.
    expect(m.html).toContain("Which pricing page should we look at? &lt;the new one&gt;");
  });

  it("a proposed time reaches the creator with the new and the old time in their zone", async () => {
    await calendar.propose(walk, "2027-03-30T15:00:00.000Z");
    const mails = await deliver();
    expect(mails.map(who)).toEqual(["time_proposed -> creator"]);
    const m = one(mails, "time_proposed", creator);
    expect(m.subject).toBe("Ava Weber proposed a new time for Pricing review: Tue 30 Mar, 08:00");
    expect(m.text).toContain(`Proposed time: ${LA_PROPOSED}`);
    expect(m.text).toContain(`You asked for: ${LA_REQUESTED}`);
  });

  it("the creator accepting the time confirms it to both, each in their own zone (Berlin now on summer time); reminders wait", async () => {
    await calendar.confirm(walk, creator);
    const mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["booking_confirmed -> creator", "booking_confirmed -> expert"]);
    const toExpert = one(mails, "booking_confirmed", expert);
    expect(toExpert.subject).toBe("Confirmed: Pricing review with Cole Rivera, Tue 30 Mar, 17:00");
    expect(toExpert.text).toContain("Cole Rivera accepted the time you proposed.");
    expect(toExpert.text).toContain(`When: ${BERLIN_PROPOSED}`);
    expect(toExpert.text).toContain(`${PUBLIC_URL}/manage-booking/${walk}`);
    const toCreator = one(mails, "booking_confirmed", creator);
    expect(toCreator.subject).toBe("Confirmed: Pricing review with Ava Weber, Tue 30 Mar, 08:00");
    expect(toCreator.text).toContain("You accepted the new time, so your session is confirmed.");
    expect(toCreator.text).toContain(`When: ${LA_PROPOSED}`);
    expect(toCreator.text).toContain(`${PUBLIC_URL}/session-details/${walk}`);
    // Each carries the calendar invite: the booking's one UID, its UTC time, METHOD:REQUEST.
    for (const m of [toCreator, toExpert]) {
      const invite = inviteOf(m);
      expect(invite.method).toBe("REQUEST");
      expect(invite.event.uid).toBe(`booking-${walk}@${new URL(PUBLIC_URL).host}`);
      expect(invite.event.startDate.toJSDate().toISOString()).toBe("2027-03-30T15:00:00.000Z");
      expect(invite.event.description).toContain("Europe/Berlin");
    }
    // Both parties' reminders are queued for 24 h and 1 h before the start, and not sent yet.
    const reminders = await pendingOf(walk);
    const day = ["reminder_24h", "pending", "2027-03-29T15:00:00.000Z"];
    const hour = ["reminder_1h", "pending", "2027-03-30T14:00:00.000Z"];
    expect(reminders.map((r) => [r.kind, r.status, r.send_after.toISOString()])).toEqual([day, day, hour, hour]);
    for (const kind of ["reminder_24h", "reminder_1h"])
      expect(
        reminders
          .filter((r) => r.kind === kind)
          .map((r) => r.user_id)
          .sort(),
      ).toEqual([expert.id, creator.id].sort());
  });

  it("notes reach the creator with a link to read them", async () => {
    await calendar.notes(walk);
    const mails = await deliver();
    expect(mails.map(who)).toEqual(["notes_added -> creator"]);
    const m = one(mails, "notes_added", creator);
    expect(m.subject).toBe("Ava Weber shared notes from Pricing review");
    expect(m.text).toContain(`Read the notes: ${PUBLIC_URL}/session-notes/${walk}`);
  });

  it("before the US change to summer time: confirmed by the expert, cancelled by the expert, refunded: each told to the right people", async () => {
    const b = await calendar.request(creator, "2027-03-12T18:00:00.000Z", { title: "Growth & <b>pricing</b>" });
    await calendar.pay(b);
    await calendar.confirm(b);
    let mails = await deliver();
    expect(mails.map(who).sort()).toEqual([
      "booking_confirmed -> creator",
      "booking_confirmed -> expert",
      "booking_requested -> creator",
      "booking_requested -> expert",
    ]);
    const confirmed = one(mails, "booking_confirmed", creator);
    expect(confirmed.text).toContain("Ava Weber confirmed your session.");
    expect(confirmed.text).toContain("When: Friday, 12 March 2027, 10:00 (America/Los_Angeles, GMT-8)");
    expect(one(mails, "booking_confirmed", expert).text).toContain("When: Friday, 12 March 2027, 19:00 (Europe/Berlin, GMT+1)");
    // A title is escaped in the HTML, never markup.
    expect(confirmed.html).toContain("Growth &amp; &lt;b&gt;pricing&lt;/b&gt;");
    expect(confirmed.html).not.toContain("<b>pricing</b>");

    await calendar.cancel(b, "expert", "I am travelling that week.");
    mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["booking_cancelled -> creator", "booking_cancelled -> expert"]);
    const toCreator = one(mails, "booking_cancelled", creator);
    expect(toCreator.subject).toBe("Cancelled: Growth & <b>pricing</b> with Ava Weber, Fri 12 Mar, 10:00");
    expect(toCreator.text).toContain("Ava Weber cancelled this booking.");
    expect(toCreator.text).toContain("> I am travelling that week.");
    expect(toCreator.text).toContain("Refund: $150, back to the card you paid with");
    const toExpert = one(mails, "booking_cancelled", expert);
    expect(toExpert.text).toContain("You cancelled this booking.");
    expect(toExpert.text).toContain("Refund to Cole Rivera: $150");
    expect((await pendingOf(b)).map((r) => r.status)).toEqual(["skipped", "skipped", "skipped", "skipped"]);
    // The cancellation withdraws the invite the confirmation sent: same UID, a higher SEQUENCE.
    const sentInvite = inviteOf(confirmed);
    const withdrawn = inviteOf(toCreator);
    expect(withdrawn.method).toBe("CANCEL");
    expect(withdrawn.event.uid).toBe(sentInvite.event.uid);
    expect(withdrawn.event.sequence).toBeGreaterThan(sentInvite.event.sequence);

    await calendar.refunded(b, `rk-${b}`, 15_000);
    mails = await deliver();
    // The refund is the creator's news; the expert heard of it in the cancellation mail.
    expect(mails.map(who)).toEqual(["refund_issued -> creator"]);
    const refund = one(mails, "refund_issued", creator);
    expect(refund.subject).toBe("Your refund of $150 is on its way");
    expect(refund.text).toContain("Refunded: $150");
    expect(refund.text).toContain(`${PUBLIC_URL}/session-details/${b}`);
  });

  it("reminders go out 24 hours and 1 hour before the start, to both, in their zones", async () => {
    now = "2027-03-29T15:00:00.000Z";
    let mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["reminder_24h -> creator", "reminder_24h -> expert"]);
    const toCreator = one(mails, "reminder_24h", creator);
    expect(toCreator.subject).toBe("Reminder: Pricing review with Ava Weber starts in 24 hours");
    expect(toCreator.text).toContain(`When: ${LA_PROPOSED}`);
    expect(one(mails, "reminder_24h", expert).text).toContain(`When: ${BERLIN_PROPOSED}`);
    now = "2027-03-30T14:00:00.000Z";
    mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["reminder_1h -> creator", "reminder_1h -> expert"]);
    expect(one(mails, "reminder_1h", expert).subject).toBe("Reminder: Pricing review with Cole Rivera starts in 1 hour");
    expect(await deliver()).toEqual([]);
  });

  it("reminders carry List-Unsubscribe (one click, a token for their reader) and an unsubscribe link; essential mails carry neither", async () => {
    const reminders = received.filter((m) => m.kind.startsWith("reminder"));
    const essential = received.filter((m) => !m.kind.startsWith("reminder"));
    expect(reminders).toHaveLength(4);
    expect(essential.length).toBeGreaterThanOrEqual(11);
    for (const m of reminders) {
      const header = /^<(.+)>$/.exec(m.headers["list-unsubscribe"] ?? "");
      expect(header, m.subject).not.toBeNull();
      const url = new URL(header![1]!);
      expect(`${url.origin}${url.pathname}`).toBe(`${PUBLIC_URL}/api/v1/mail/unsubscribe`);
      const read = readLink(TEST_JWT_SECRET, url.searchParams.get("token")!, "unsubscribe", now);
      expect(read.ok && read.claims.userId).toBe(m.userId);
      expect(m.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      expect(m.text).toContain(`To stop reminder mails, open ${PUBLIC_URL}/unsubscribe?token=${url.searchParams.get("token")}`);
      expect(m.html).toContain(`href="${PUBLIC_URL}/unsubscribe?token=`);
    }
    for (const m of essential) {
      expect(m.headers["list-unsubscribe"], `${m.kind}: ${m.subject}`).toBeUndefined();
      expect(m.headers["list-unsubscribe-post"]).toBeUndefined();
      expect(m.text).not.toContain("/unsubscribe");
    }
  });

  it("the creator's terms name the cut-off the booking was made under (issue 31.4): 48 hours for this session", async () => {
    now = "2027-03-10T12:00:00.000Z";
    const b = await calendar.request(creator, "2027-03-27T18:00:00.000Z", { fullRefundHours: 48 });
    await calendar.pay(b);
    const mails = await deliver();
    expect(one(mails, "booking_requested", creator).text).toContain(
      "Cancel by Thursday, 25 March 2027, 11:00 (America/Los_Angeles, GMT-7) (48 hours before the start) for a full refund",
    );
  });
});
