import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./harness.ts";
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

// The no-show mails (issue 31.1) over SMTP: the party reported absent hears of the report and of their 48 hours
// to contest, the reporter hears of a contest, both hear how it ended and why; each in their own zone (an
// expert in Europe/Berlin, a creator in America/Los_Angeles).

let now = "2027-03-10T12:00:00.000Z";
const clock = () => now;

let api: TestApi;
let smtp: TestSmtp;
let mail: ReturnType<typeof testMail>;
let expert: MailUser;
let creator: MailUser;
let calendar: MailCalendar;

beforeAll(async () => {
  api = await startTestApi({ clock });
  smtp = await startTestSmtp();
  mail = testMail(api, { smtpUrl: smtp.url, clock });
  expert = await registered(api, "expert", "Ava", "Weber", "Europe/Berlin");
  creator = await registered(api, "creator", "Cole", "Rivera");
  await setPreferences(api, creator, "America/Los_Angeles", true);
  calendar = await expertCalendarIn(api, expert, "Europe/Berlin");
});
afterAll(async () => {
  mail.close();
  await smtp.close();
  await api.close();
});

const deliver = () => smtpDelivery(api, smtp, mail)();
const who = (m: DeliveredMail) => sentTo({ expert, creator })(m);
const one = (mails: DeliveredMail[], kind: string, to: MailUser) => {
  const found = mails.filter((m) => m.kind === kind && m.userId === to.id);
  expect(found, `${kind} to ${to.firstName}`).toHaveLength(1);
  return found[0]!;
};
const on = (bookingId: string) => ({ expertId: expert.id, bookingId });

describe("no-show mails, one per event and person, in each reader's zone", () => {
  it("a report reaches the expert with the creator's note and the deadline in Berlin time; a contest reaches the creator; the decision both", async () => {
    const b = await calendar.request(creator, "2027-03-16T16:00:00.000Z");
    await calendar.pay(b);
    await calendar.confirm(b);
    await deliver();

    now = "2027-03-16T16:25:00.000Z";
    await calendar.run({
      type: "ReportNoShow",
      ...on(b),
      actor: { userId: creator.id, role: "creator" },
      note: "I waited 25 minutes <and mailed>",
    });
    let mails = await deliver();
    expect(mails.map(who)).toEqual(["no_show_reported -> expert"]);
    const report = one(mails, "no_show_reported", expert);
    expect(report.subject).toBe("Cole Rivera reported that you did not join Pricing review");
    expect(report.text).toContain(
      "Cole Rivera reported that you did not join Pricing review on Tuesday, 16 March 2027, 17:00 (Europe/Berlin, GMT+1).",
    );
    expect(report.text).toContain("contest the report by Thursday, 18 March 2027, 17:25 (Europe/Berlin, GMT+1)");
    expect(report.text).toContain("Cole Rivera will be refunded in full");
    expect(report.text).toContain("> I waited 25 minutes <and mailed>");
    expect(report.html).toContain("I waited 25 minutes &lt;and mailed&gt;");
    expect(report.text).toContain(`${PUBLIC_URL}/manage-booking/${b}`);

    now = "2027-03-17T09:00:00.000Z";
    await calendar.run({ type: "ContestNoShow", ...on(b), actor: calendar.asExpert, note: "I was in the room from 16:58 UTC." });
    mails = await deliver();
    expect(mails.map(who)).toEqual(["no_show_contested -> creator"]);
    const contest = one(mails, "no_show_contested", creator);
    expect(contest.subject).toBe("Ava Weber contests your no-show report for Pricing review");
    expect(contest.text).toContain(
      "Ava Weber says they were there for Pricing review on Tuesday, 16 March 2027, 09:00 (America/Los_Angeles, GMT-7).",
    );
    expect(contest.text).toContain(`${PUBLIC_URL}/session-details/${b}`);

    await calendar.run({
      type: "DecideNoShow",
      ...on(b),
      actor: { userId: "admin-1", role: "admin" },
      upheld: true,
      refundCents: 7_500,
      reason: "The expert joined 25 minutes late: half back.",
    });
    mails = await deliver();
    expect(mails.map(who).sort()).toEqual(["no_show_settled -> creator", "no_show_settled -> expert"]);
    const toCreator = one(mails, "no_show_settled", creator);
    expect(toCreator.subject).toBe("The no-show report for Pricing review is settled");
    expect(toCreator.text).toContain("The session counts as missed by Ava Weber.");
    expect(toCreator.text).toContain("$75 goes back to the card you paid with");
    expect(toCreator.text).toContain("> The expert joined 25 minutes late: half back.");
    const toExpert = one(mails, "no_show_settled", expert);
    expect(toExpert.text).toContain("The session counts as missed by you.");
    expect(toExpert.text).toContain("$75 goes back to the creator.");
    expect(toExpert.text).toContain("When: Tuesday, 16 March 2027, 17:00 (Europe/Berlin, GMT+1)");
  });

  it("an uncontested report by the expert stands: the creator was told they could contest, then both that it stood", async () => {
    now = "2027-03-10T12:00:00.000Z";
    const b = await calendar.request(creator, "2027-03-19T16:00:00.000Z");
    await calendar.pay(b);
    await calendar.confirm(b);
    await deliver();
    now = "2027-03-19T17:05:00.000Z";
    await calendar.run({ type: "ReportNoShow", ...on(b), actor: calendar.asExpert, note: "" });
    const reported = await deliver();
    expect(reported.map(who)).toEqual(["no_show_reported -> creator"]);
    expect(one(reported, "no_show_reported", creator).text).toContain("If you do not, the report stands: Ava Weber keeps the payment.");
    expect(one(reported, "no_show_reported", creator).text).toContain(
      "contest the report by Sunday, 21 March 2027, 10:05 (America/Los_Angeles, GMT-7)",
    );

    now = "2027-03-21T17:05:00.001Z";
    await calendar.run({ type: "SettleNoShow", ...on(b), actor: { userId: "no-show-sweeper", role: "system" } });
    const settled = await deliver();
    expect(settled.map(who).sort()).toEqual(["no_show_settled -> creator", "no_show_settled -> expert"]);
    const m = one(settled, "no_show_settled", creator);
    expect(m.text).toContain("Nobody contested the report for Pricing review");
    expect(m.text).toContain("The session counts as missed by you.");
    expect(m.text).toContain("Nothing is refunded.");
    expect(m.text).not.toContain("Our team's reason");
  });

  it("a new message reaches the other party in their own zone, once per quarter hour (issue 31.3)", async () => {
    now = "2027-03-10T12:00:00.000Z";
    const b = await calendar.request(creator, "2027-03-22T16:00:00.000Z");
    await calendar.pay(b);
    await calendar.confirm(b);
    await deliver();
    const booking = { bookingId: b, creatorId: creator.id, expertUserId: expert.id, endsAt: "2027-03-22T17:00:00.000Z" };
    const say = async (by: "creator" | "expert", text: string, messageId: string) => {
      const actor = by === "creator" ? ({ userId: creator.id, role: "creator" } as const) : calendar.asExpert;
      const r = await api.ctx.conversations.handle(
        `conversation-${b}`,
        { type: "SendMessage", bookingId: b, actor, booking, messageId, text },
        { actor },
      );
      if (!r.ok) throw new Error(r.refusal.code);
    };
    await say("creator", "Could we start ten minutes late?", "m1");
    await say("creator", "Sorry, one more thing.", "m2");
    let mails = await deliver();
    expect(mails.map(who)).toEqual(["message_received -> expert"]);
    const toExpert = one(mails, "message_received", expert);
    expect(toExpert.subject).toBe("New message from Cole Rivera about Pricing review");
    expect(toExpert.text).toContain("> Could we start ten minutes late?");
    expect(toExpert.text).toContain("When: Monday, 22 March 2027, 17:00 (Europe/Berlin, GMT+1)");
    await say("expert", "Of course.", "m3");
    mails = await deliver();
    expect(one(mails, "message_received", creator).text).toContain("When: Monday, 22 March 2027, 09:00 (America/Los_Angeles, GMT-7)");
  });

  it("the expert hears of a dispute of the payment and of its end, in their zone (issue 31.2); the creator, whose bank it is, does not", async () => {
    now = "2027-03-10T12:00:00.000Z";
    const b = await calendar.request(creator, "2027-03-23T16:00:00.000Z");
    await calendar.pay(b);
    await calendar.confirm(b);
    await deliver();
    const report = { disputeId: `dp-${b}`, paymentId: `pi-${b}`, amountCents: 15_000, reason: "product_not_received", evidenceDueBy: null };
    const record = (status: "needs_response" | "lost") =>
      calendar.run({ type: "RecordDispute", ...on(b), actor: { userId: "payments", role: "system" }, report: { ...report, status } });
    await record("needs_response");
    let mails = await deliver();
    expect(mails.map(who)).toEqual(["dispute_opened -> expert"]);
    expect(one(mails, "dispute_opened", expert).text).toContain(
      "Cole Rivera's bank disputed $150 paid for Pricing review (reason given: product not received).",
    );
    expect(one(mails, "dispute_opened", expert).text).toContain("When: Tuesday, 23 March 2027, 17:00 (Europe/Berlin, GMT+1)");
    await record("lost");
    mails = await deliver();
    expect(mails.map(who)).toEqual(["dispute_closed -> expert"]);
    expect(one(mails, "dispute_closed", expert).subject).toBe("The dispute about Pricing review was lost");
  });
});
