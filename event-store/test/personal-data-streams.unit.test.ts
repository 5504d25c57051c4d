import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  DomainEvent,
  EXPERT_STANDARDS_VERSION,
  expertImagePath,
  personalFieldsOf,
  readDomainEvent,
  type DomainEventType,
} from "@booking/contracts";
import { InMemoryKeyRing, openEvent, sealEvent, type EventParties } from "../src/index.ts";

// A real event of every type of every stream, sealed as a writer would and opened as a reader would (issue 33.1): the
// round trip gives the event back, the sealed JSON holds none of its personal text, and once its people are erased
// every event still reads, and still parses under its schema, with markers in place of what they wrote.

const CREATOR = "c-7f3a"; // Anastasia Okonkwo-Lindqvist
const EXPERT = "u-91e2"; // Bartholomew Nakashima, whose expert id is his user id (as the API makes it)
const ADMIN = "a-0c5d";
const BOOKING = "b-4412";
const booking = { bookingId: BOOKING };
const ofBooking: EventParties = { creator: CREATOR, expert: EXPERT };
const ofExpert: EventParties = { expert: EXPERT };
const expert = { expertId: EXPERT };
const [T0, T1, T2] = ["2026-03-01T10:00:00.000Z", "2026-03-03T10:00:00.000Z", "2026-03-04T10:00:00.000Z"];
const decision = { ...expert, by: ADMIN, at: T0 };
const move = { ...booking, from: T1, to: T2 };
const paid = { ...booking, paymentId: "pi_1", amountCents: 15_000 };
const ofBoth = { ...booking, expertId: EXPERT, creatorId: CREATOR };
const earning = { ...expert, ...booking, currency: "EUR" };
const definition = {
  title: "Grow your channel past 10k",
  description: "A working session on your next ninety days.",
  priceCents: 15_000,
  lengthMinutes: 60,
  prepQuestions: ["What is your goal?", "Where are you now?"],
  sessionDetails: "We look at your analytics together.",
  idealFor: ["Creators stuck below 10k subscribers"],
  currency: "EUR",
};

type Sample = { stream: string; parties: EventParties; event: DomainEvent };
const on = (stream: string, parties: EventParties, ...events: unknown[]): Sample[] =>
  events.map((event) => ({ stream, parties, event: DomainEvent.parse(event) }));

const SAMPLES: Sample[] = [
  ...on(
    `user-${CREATOR}`,
    {},
    {
      type: "UserRegistered",
      data: {
        userId: CREATOR,
        email: "anastasia.okonkwo@example.com",
        role: "creator",
        firstName: "Anastasia",
        lastName: "Okonkwo-Lindqvist",
        timezone: "Europe/Stockholm",
      },
    },
    { type: "UserRenamed", data: { userId: CREATOR, firstName: "Anastasija", lastName: "Lindqvist-Okonkwo" } },
    { type: "EmailVerified", data: { userId: CREATOR, email: "anastasia.okonkwo@example.com" } },
    { type: "PreferencesSet", data: { userId: CREATOR, timezone: "Europe/Stockholm", reminderMails: false } },
    { type: "UserErased", data: { userId: CREATOR, at: T0, expertIds: [] } },
  ),
  ...on(`terms-${CREATOR}`, {}, { type: "TermsAccepted", data: { userId: CREATOR, versionId: "terms-2026-01", acceptedAt: T0 } }),
  ...on(
    `expert-${EXPERT}`,
    ofExpert,
    {
      type: "ExpertProfileSaved",
      data: {
        expertId: EXPERT,
        userId: EXPERT,
        slug: "bartholomew-nakashima-u91e2",
        published: true,
        profile: {
          firstName: "Bartholomew",
          lastName: "Nakashima",
          title: "Former head of growth at Lumenfield Studios",
          bio: "Twelve years of turning hobby channels into businesses in Osaka and Lisbon.",
          tags: ["storytelling-for-sponsors", "thumbnail-psychology"],
          profileImage: `${expertImagePath(EXPERT)}?v=1700000000`,
        },
      },
    },
    { type: "ExpertVerified", data: { expertId: EXPERT, by: ADMIN, reason: "Identity checked against his Lumenfield contract" } },
    { type: "ExpertUnverified", data: { expertId: EXPERT, by: ADMIN, reason: "Lumenfield says he never worked there" } },
    {
      type: "ApplicationSubmitted",
      data: {
        ...decision,
        by: EXPERT,
        answers: {
          expertise: "Sponsorship storytelling for gaming channels",
          title: "Growth lead turned independent coach",
          bio: "I grew three gaming channels from nothing to a million subscribers, then ran growth for Lumenfield Studios in Osaka.",
          links: ["https://bartholomew-nakashima.example/portfolio"],
          yearsOfExperience: 12,
          creatorsCanExpect: "A frank teardown of the last ten uploads and a ninety-day plan",
          standardsVersion: EXPERT_STANDARDS_VERSION,
        },
      },
    },
    { type: "ApplicationReviewStarted", data: decision },
    { type: "ApplicationNoted", data: { ...decision, note: "His LinkedIn photo does not match the uploaded one" } },
    {
      type: "ApplicationApproved",
      data: { ...decision, reason: "Strong portfolio, references confirmed", checklist: { identity_plausible: true } },
    },
    { type: "ApplicationChangesRequested", data: { ...decision, reason: "Please add a link to the Osaka channel", checklist: {} } },
    {
      type: "ApplicationRejected",
      data: { ...decision, reason: "The links are someone else's", checklist: { links_work: false }, mayReapplyFrom: T0 },
    },
    { type: "ExpertSuspended", data: { ...decision, reason: "Three creators reported rude behaviour in calls" } },
    { type: "ExpertReinstated", data: { ...decision, reason: "Complaints withdrawn after mediation" } },
  ),
  ...on(
    `session-s-1`,
    {},
    { type: "SessionCreated", data: { sessionId: "s-1", expertId: EXPERT, status: "draft", definition } },
    { type: "SessionUpdated", data: { sessionId: "s-1", definition } },
    { type: "SessionPublished", data: { sessionId: "s-1" } },
    { type: "SessionUnpublished", data: { sessionId: "s-1" } },
    { type: "SessionDeleted", data: { sessionId: "s-1" } },
  ),
  ...on(
    `calendar-${EXPERT}`,
    ofExpert,
    { type: "BookingsPaused", data: { ...expert, by: ADMIN, reason: "Paused while the harassment complaint is reviewed" } },
    { type: "BookingsResumed", data: { ...expert, by: ADMIN } },
    {
      type: "ScheduleSet",
      data: { ...expert, timezone: "Asia/Tokyo", slots: [{ weekday: "monday", start_local: "09:00", end_local: "17:00" }] },
    },
    {
      type: "TimeOffAdded",
      data: { ...expert, timeOffId: "t-1", start: "2026-04-01T00:00", end: "2026-04-08T00:00", reason: "Knee surgery at Keio hospital" },
    },
    { type: "TimeOffRemoved", data: { ...expert, timeOffId: "t-1" } },
    { type: "DateOverrideAdded", data: { ...expert, overrideId: "o-1", date: "2026-04-12", start_local: "10:00", end_local: "12:00" } },
    { type: "DateOverrideRemoved", data: { ...expert, overrideId: "o-1" } },
    { type: "BookingRulesSet", data: { ...expert, bufferBeforeMinutes: 15, bufferAfterMinutes: 10, minNoticeHours: 24 } },
    { type: "ExternalBusyTimesSynced", data: { ...expert, sourceId: "cal-1", from: T0, to: T2, busy: [{ start: T1, end: T2 }] } },
    { type: "ExternalBusyTimesRemoved", data: { ...expert, sourceId: "cal-1" } },
  ),
  ...on(
    `calendar-${EXPERT}`,
    ofBooking,
    {
      type: "BookingRequested",
      data: {
        ...booking,
        expertId: EXPERT,
        expertUserId: EXPERT,
        creatorId: CREATOR,
        sessionId: "s-1",
        sessionTitle: definition.title,
        lengthMinutes: 60,
        priceCents: 15_000,
        prepQuestions: definition.prepQuestions,
        scheduledTime: T1,
        heldUntil: T0,
        currency: "EUR",
      },
    },
    { type: "PaymentSucceeded", data: { ...paid, provider: "test", respondBy: T0 } },
    { type: "PaymentFailed", data: { ...booking, paymentId: "pi_0", reason: "card_declined" } },
    {
      type: "PrepSubmitted",
      data: { ...booking, answers: ["Reach 50k by summer with my sourdough channel", "Stuck at 9,400 since my divorce"] },
    },
    { type: "InfoRequested", data: { ...booking, note: "Which of your sourdough videos did best, and why do you think so?" } },
    { type: "TimeProposed", data: { ...booking, scheduledTime: T0, previousTime: T1 } },
    { type: "Confirmed", data: { ...booking, by: "expert", meetingRoom: "Qk3mX9vT2pL8rN4wY6zA1b" } },
    { type: "Cancelled", data: { ...booking, by: "creator", reason: "My mother is in hospital in Malmö", refundCents: 15_000 } },
    { type: "RefundDue", data: { ...paid, reason: "no_show: Logs show he never joined" } },
    { type: "RefundIssued", data: { ...booking, refundKey: "ev-9", refundId: "re_1", amountCents: 15_000, provider: "test" } },
    { type: "RefundFailed", data: { ...booking, refundKey: "ev-9", reason: "charge_already_refunded" } },
    { type: "Completed", data: booking },
    {
      type: "NotesAdded",
      data: {
        ...booking,
        notes: {
          summary: "Anastasia should film the starter feeding live",
          recap: "We went through the divorce-era uploads and why they dipped.",
          takeaways: ["Post the starter every Sunday"],
          suggestedActions: ["Email the Malmö bakery about a collab"],
        },
      },
    },
    { type: "RescheduleRequested", data: { ...move, by: "creator" } },
    { type: "RescheduleAccepted", data: { ...move, by: "expert" } },
    { type: "RescheduleDeclined", data: { ...move, by: "expert", reason: "I am at my niece's wedding in Kyoto" } },
    { type: "RescheduleWithdrawn", data: { ...move, by: "creator" } },
    { type: "JoinLinkSet", data: { ...booking, url: "https://zoom.us/my/bartholomew.nakashima", by: "expert" } },
    {
      type: "NoShowReported",
      data: { ...booking, absent: "expert", by: CREATOR, note: "Waited 20 minutes, he never came", contestBy: T0 },
    },
    { type: "NoShowContested", data: { ...booking, by: EXPERT, note: "My internet in Osaka was down, I emailed her" } },
    {
      type: "NoShowSettled",
      data: { ...booking, absent: "expert", outcome: "expert_no_show", refundCents: 0, by: ADMIN, reason: "Logs show he never joined" },
    },
    {
      type: "DisputeOpened",
      data: { ...paid, disputeId: "dp_1", reason: "fraudulent", status: "needs_response", evidenceDueBy: null, refundedCents: 0 },
    },
    { type: "DisputeUpdated", data: { ...booking, disputeId: "dp_1", status: "under_review", evidenceDueBy: T0 } },
    { type: "DisputeClosed", data: { ...booking, disputeId: "dp_1", status: "won", lostCents: 0 } },
  ),
  ...on(
    `review-${BOOKING}`,
    ofBooking,
    { type: "ReviewLeft", data: { reviewId: "r-1", ...ofBoth, rating: 2, text: "He talked about Osaka the whole hour", leftAt: T0 } },
    {
      type: "ReviewEdited",
      data: { ...booking, rating: 3, text: "Useful in the end, but rambling about Osaka", editedAt: T0 },
    },
    {
      type: "ReviewReplied",
      data: { ...booking, expertId: EXPERT, text: "Sorry Anastasia, Osaka is my weakness", repliedAt: T0 },
    },
    { type: "ReviewHidden", data: { ...booking, reason: "Names the creator's divorce", by: ADMIN } },
  ),
  ...on(
    `conversation-${BOOKING}`,
    ofBooking,
    {
      type: "MessageSent",
      data: { ...booking, messageId: "m-1", seq: 1, by: CREATOR, role: "creator", text: "My phone is +46 70 123 45 67 if the link fails" },
    },
    { type: "ConversationRead", data: { ...booking, userId: EXPERT, readCount: 1 } },
    { type: "ConversationMuted", data: { ...booking, userId: EXPERT, muted: true } },
  ),
  ...on(
    `payouts-${EXPERT}`,
    ofExpert,
    { type: "PayoutAccountConnected", data: { ...expert, accountId: "acct_1", provider: "test" } },
    {
      type: "PayoutAccountUpdated",
      data: { ...expert, accountId: "acct_1", payoutsEnabled: true, detailsSubmitted: true, reportedAt: T0 },
    },
    { type: "PayoutsHeld", data: { ...expert, reason: "Held while his Osaka tax residence is checked", by: ADMIN } },
    { type: "PayoutsResumed", data: { ...expert, by: ADMIN } },
    {
      type: "EarningReleased",
      data: {
        ...earning,
        paidCents: 15_000,
        refundedCents: 0,
        keptCents: 15_000,
        feeBasisPoints: 1500,
        feeCents: 2250,
        shareCents: 12_750,
      },
    },
    { type: "EarningAdjusted", data: { ...earning, refundedCents: 5000, feeCents: 750, shareCents: 4250 } },
    {
      type: "TransferSent",
      data: { ...expert, transferKey: "transfer-b", ...booking, transferId: "tr_1", amountCents: 12_750, currency: "EUR" },
    },
    { type: "TransferFailed", data: { ...expert, transferKey: "transfer-b", ...booking, reason: "account_closed" } },
    {
      type: "TransferReversed",
      data: { ...expert, reversalKey: "rev-b", ...booking, transferId: "tr_1", reversalId: "trr_1", amountCents: 4250, currency: "EUR" },
    },
    { type: "TransferReversalFailed", data: { ...expert, reversalKey: "rev-b", ...booking, reason: "insufficient_funds" } },
    { type: "PayoutRequested", data: { ...expert, payoutKey: "po-1", amountCents: 8500, currency: "EUR", by: "expert" } },
    { type: "PayoutSent", data: { ...expert, payoutKey: "po-1", payoutId: "po_1" } },
    { type: "PayoutPaid", data: { ...expert, payoutKey: "po-1", payoutId: "po_1" } },
    { type: "PayoutFailed", data: { ...expert, payoutKey: "po-1", reason: "bank_account_restricted", afterPaid: true } },
  ),
];

/** The event's data with each non-empty string at a personal field replaced by what `change` makes of it. */
function mapPersonal(event: DomainEvent, change: (value: string, field: string) => string): unknown {
  const walk = (value: unknown, segments: string[], field: string): unknown => {
    const [segment, ...rest] = segments;
    if (segment === undefined) return typeof value === "string" && value !== "" ? change(value, field) : value;
    const name = segment.replace(/\[\]$/, "");
    if (typeof value !== "object" || value === null || !(name in value)) return value;
    const child = (value as Record<string, unknown>)[name];
    const next = segment.endsWith("[]") && Array.isArray(child) ? child.map((item) => walk(item, rest, field)) : walk(child, rest, field);
    return { ...value, [name]: next };
  };
  return personalFieldsOf(event.type).reduce<unknown>((data, f) => walk(data, f.field.split("."), f.field), event.data);
}

/** The strings at an event's personal fields, as a writer gives them, with the field each is in. */
function personalTexts(event: DomainEvent): { field: string; text: string }[] {
  const found: { field: string; text: string }[] = [];
  mapPersonal(event, (text, field) => (found.push({ field, text }), text));
  return found;
}

const ERASED_MARKER = /^(\[erased\].*|Deleted|user|https:\/\/erased\.invalid\/|deleted-user-[a-z0-9-]+(@erased\.invalid)?)$/;

const keysFor = () => new InMemoryKeyRing(randomBytes(32));
const typeOf = (s: Sample) => s.event.type;

describe("every stream's events through the envelope", () => {
  it("has a real event of every type the log holds", () => {
    const types = new Set<string>(SAMPLES.map(typeOf));
    const all = DomainEvent.options.map((o) => o.shape.type.value as DomainEventType);
    expect(all.filter((t) => !types.has(t))).toEqual([]);
  });

  it.each(SAMPLES.map((s) => [s.stream, typeOf(s), s] as const))(
    "%s %s: sealed, holds no personal text; opened, is the event",
    async (_stream, _type, s) => {
      const keys = keysFor();
      const sealed = await sealEvent(s.event, keys, s.parties);
      const json = Buffer.from(JSON.stringify(sealed), "utf8");
      for (const { text } of personalTexts(s.event))
        expect(json.includes(Buffer.from(text, "utf8")), `${s.event.type} shows "${text}"`).toBe(false);
      expect(await openEvent(sealed, keys)).toEqual(s.event);
    },
  );

  it("fills every personal field of every event (so the search above searched for something)", () => {
    const empty = SAMPLES.flatMap((s) => {
      const filled = new Set(personalTexts(s.event).map((t) => t.field));
      return personalFieldsOf(s.event.type)
        .filter((f) => !filled.has(f.field))
        .map((f) => `${s.event.type}.${f.field}`);
    });
    expect(empty).toEqual([]);
  });

  it.each(SAMPLES.map((s) => [s.stream, typeOf(s), s] as const))(
    "%s %s: with its people erased, reads and parses, nothing they wrote in it",
    async (_stream, _type, s) => {
      const keys = keysFor();
      const sealed = await sealEvent(s.event, keys, s.parties);
      for (const person of [CREATOR, EXPERT, ADMIN]) keys.erase(person);
      const opened = await openEvent(sealed, keys);
      const parsed = readDomainEvent(opened.type, 1, opened.data);
      const json = JSON.stringify(parsed);
      for (const { text } of personalTexts(s.event)) expect(json.includes(text), `${s.event.type} still shows "${text}"`).toBe(false);
      for (const { field, text } of personalTexts(parsed)) expect(text, `${s.event.type}.${field}`).toMatch(ERASED_MARKER);
      // Only personal fields changed: the rest of the event (ids, amounts, times, statuses) reads as it was written.
      expect(mapPersonal(parsed, () => "•")).toEqual(mapPersonal(s.event, () => "•"));
    },
  );

  it("erasing one party leaves the other's words readable", async () => {
    const keys = keysFor();
    const events = SAMPLES.filter((s) => s.parties === ofBooking);
    const sealed = await Promise.all(events.map((s) => sealEvent(s.event, keys, s.parties)));
    keys.erase(CREATOR);
    const opened = await Promise.all(sealed.map((e) => openEvent(e, keys)));
    const find = (type: string) => opened.find((e) => e.type === type)!.data as Record<string, unknown>;
    expect(find("PrepSubmitted").answers).toEqual(["[erased]", "[erased]"]);
    expect(find("MessageSent").text).toBe("[erased]");
    expect(find("ReviewLeft").text).toBe("[erased]");
    expect(find("Cancelled").reason).toBe("[erased]");
    expect(find("ReviewReplied").text).toBe("Sorry Anastasia, Osaka is my weakness");
    expect(find("InfoRequested").note).toBe("Which of your sourdough videos did best, and why do you think so?");
    expect(find("JoinLinkSet").url).toBe("https://zoom.us/my/bartholomew.nakashima");
    expect(find("RescheduleDeclined").reason).toBe("I am at my niece's wedding in Kyoto");
    expect(find("BookingRequested")).toMatchObject({ creatorId: CREATOR, priceCents: 15_000, sessionTitle: definition.title });
  });
});
