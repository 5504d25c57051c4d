import type { DomainEvent } from "@booking/contracts";
import type { GivenEvent } from "./read-model-spec.ts";

// A small marketplace's history that touches every read model: two users, an expert who is
// vetted, a session published and changed, a schedule, and two bookings (one paid, confirmed
// and completed with notes; one paid and then cancelled with a refund), terms accepted twice, and the
// first booking's conversation (two messages, one read, one mute).

const on = (stream: string, ...events: DomainEvent[]): GivenEvent[] => events.map((event) => ({ stream, event }));

const booking = {
  bookingId: "b1",
  expertId: "e1",
  expertUserId: "u-expert",
  creatorId: "u-creator",
  sessionId: "s1",
  sessionTitle: "Pricing review",
  lengthMinutes: 60,
  priceCents: 15_000,
  prepQuestions: ["Goal?"],
  scheduledTime: "2030-02-01T10:00:00.000Z",
  heldUntil: "2030-01-06T09:30:00.000Z",
};
const definition = {
  title: "Pricing review",
  description: "Your prices, reviewed",
  priceCents: 15_000,
  lengthMinutes: 60 as const,
  prepQuestions: ["Goal?"],
  sessionDetails: "",
  idealFor: ["makers"],
};

export const marketplaceEvents: readonly GivenEvent[] = [
  ...on("user-u-creator", {
    type: "UserRegistered",
    data: { userId: "u-creator", email: "maya@example.com", role: "creator", firstName: "Maya", lastName: null },
  }),
  ...on("user-u-expert", {
    type: "UserRegistered",
    data: { userId: "u-expert", email: "ines@example.com", role: "expert", firstName: "Ines", lastName: "Okafor" },
  }),
  ...on("user-u-creator", { type: "UserRenamed", data: { userId: "u-creator", firstName: "Maya", lastName: "Lind" } }),
  ...on(
    "expert-e1",
    {
      type: "ExpertProfileSaved",
      data: {
        expertId: "e1",
        userId: "u-expert",
        slug: "ines-okafor",
        published: true,
        profile: { firstName: "Ines", lastName: "Okafor", title: "Pricing coach", bio: null, tags: ["pricing"], profileImage: null },
      },
    },
    { type: "ExpertVerified", data: { expertId: "e1", by: "u-admin" } },
  ),
  ...on(
    "session-s1",
    { type: "SessionCreated", data: { sessionId: "s1", expertId: "e1", status: "draft", definition } },
    { type: "SessionPublished", data: { sessionId: "s1" } },
    { type: "SessionUpdated", data: { sessionId: "s1", definition: { ...definition, priceCents: 18_000 } } },
  ),
  ...on(
    "calendar-e1",
    {
      type: "ScheduleSet",
      data: { expertId: "e1", timezone: "Europe/London", slots: [{ weekday: "monday", start_local: "09:00", end_local: "12:00" }] },
    },
    { type: "BookingRequested", data: booking },
    { type: "PaymentSucceeded", data: { bookingId: "b1", paymentId: "p1", amountCents: 15_000, provider: "test" } },
    { type: "PrepSubmitted", data: { bookingId: "b1", answers: ["Raise prices"] } },
    { type: "Confirmed", data: { bookingId: "b1", by: "expert" } },
    { type: "Completed", data: { bookingId: "b1" } },
    {
      type: "NotesAdded",
      data: {
        bookingId: "b1",
        notes: { summary: "Raised", recap: "We looked at tiers", takeaways: ["Tier up"], suggestedActions: ["Email list"] },
      },
    },
    { type: "BookingRequested", data: { ...booking, bookingId: "b2", scheduledTime: "2030-02-08T10:00:00.000Z" } },
    { type: "PaymentSucceeded", data: { bookingId: "b2", paymentId: "p2", amountCents: 15_000, provider: "test" } },
    { type: "Cancelled", data: { bookingId: "b2", by: "creator", reason: "Moved", refundCents: 15_000 } },
  ),
  // A second expert's profile, unverified after a vetting; a session made and deleted; a schedule replaced.
  ...on(
    "expert-e2",
    {
      type: "ExpertProfileSaved",
      data: {
        expertId: "e2",
        userId: "u-expert-2",
        slug: "sam-reyes",
        published: false,
        profile: {
          firstName: "Sam",
          lastName: "Reyes",
          title: "Brand deals",
          bio: "Ten years of brand deals",
          tags: ["brands", "sponsorships"],
          profileImage: "/media/experts/u-expert-2/profile?v=1",
        },
      },
    },
    { type: "ExpertVerified", data: { expertId: "e2", by: "u-admin" } },
    { type: "ExpertUnverified", data: { expertId: "e2", by: "u-admin" } },
  ),
  ...on(
    "session-s2",
    {
      type: "SessionCreated",
      data: {
        sessionId: "s2",
        expertId: "e1",
        status: "published",
        definition: { ...definition, title: "Quick check", prepQuestions: ["Goal?", "Price now?", "Audience?"] },
      },
    },
    { type: "SessionDeleted", data: { sessionId: "s2" } },
  ),
  ...on(
    "calendar-e2",
    {
      type: "ScheduleSet",
      data: { expertId: "e2", timezone: "America/New_York", slots: [{ weekday: "monday", start_local: "09:00", end_local: "12:00" }] },
    },
    {
      type: "ScheduleSet",
      data: {
        expertId: "e2",
        timezone: "Asia/Tokyo",
        slots: [
          { weekday: "friday", start_local: "14:00", end_local: "16:30" },
          { weekday: "sunday", start_local: "08:00", end_local: "09:00" },
        ],
      },
    },
    // Issue 17: time off (one taken back), extra hours on a date and booking rules.
    {
      type: "TimeOffAdded",
      data: { expertId: "e2", timeOffId: "off-1", start: "2030-02-01T00:00", end: "2030-02-08T00:00", reason: "Holiday" },
    },
    { type: "TimeOffAdded", data: { expertId: "e2", timeOffId: "off-2", start: "2030-02-10T13:00", end: "2030-02-10T15:30", reason: "" } },
    { type: "TimeOffRemoved", data: { expertId: "e2", timeOffId: "off-2" } },
    {
      type: "DateOverrideAdded",
      data: { expertId: "e2", overrideId: "extra-1", date: "2030-02-12", start_local: "18:00", end_local: "20:00" },
    },
    { type: "BookingRulesSet", data: { expertId: "e2", bufferBeforeMinutes: 10, bufferAfterMinutes: 30, minNoticeHours: 12 } },
  ),
  ...on("terms-u-creator", {
    type: "TermsAccepted",
    data: { userId: "u-creator", versionId: "2026-01", acceptedAt: "2030-01-06T09:00:00.000Z" },
  }),
  ...on("terms-u-creator", {
    type: "TermsAccepted",
    data: { userId: "u-creator", versionId: "2026-06", acceptedAt: "2030-01-06T10:00:00.000Z" },
  }),
  // Said twice or late: a second acceptance of a version (recorded once), a registration again
  // (its first time kept), a refund owed on a completed booking (its month's refunds).
  ...on("terms-u-creator", {
    type: "TermsAccepted",
    data: { userId: "u-creator", versionId: "2026-06", acceptedAt: "2030-01-06T11:00:00.000Z" },
  }),
  ...on("user-u-expert", {
    type: "UserRegistered",
    data: { userId: "u-expert", email: "ines@okafor.example", role: "expert", firstName: "Ines", lastName: "Okafor" },
  }),
  ...on("calendar-e1", { type: "RefundDue", data: { bookingId: "b1", paymentId: "p1", amountCents: 5_000, reason: "Goodwill" } }),
  // Refunds paid back: b2's cancellation refund failed once, then was issued; b1's goodwill refund issued.
  ...on(
    "calendar-e1",
    { type: "RefundFailed", data: { bookingId: "b2", refundKey: "ev-b2-cancelled", reason: "The payment provider could not be asked" } },
    {
      type: "RefundIssued",
      data: { bookingId: "b2", refundKey: "ev-b2-cancelled", refundId: "re_1", amountCents: 15_000, provider: "test" },
    },
    {
      type: "RefundIssued",
      data: { bookingId: "b1", refundKey: "ev-b1-goodwill", refundId: "re_2", amountCents: 5_000, provider: "test" },
    },
  ),
  // Reviews: the completed booking reviewed, edited and replied to; another review hidden by an
  // admin (the read model takes each review stream as it is), so the rating counts one.
  ...on(
    "review-b1",
    {
      type: "ReviewLeft",
      data: {
        reviewId: "r1",
        bookingId: "b1",
        expertId: "e1",
        creatorId: "u-creator",
        rating: 5,
        text: "Clear pricing tiers",
        leftAt: "2030-02-01T12:00:00.000Z",
      },
    },
    {
      type: "ReviewEdited",
      data: { bookingId: "b1", rating: 4, text: "Clear pricing tiers, a bit rushed", editedAt: "2030-02-02T12:00:00.000Z" },
    },
    { type: "ReviewReplied", data: { bookingId: "b1", expertId: "e1", text: "Thank you, Maya!", repliedAt: "2030-02-03T12:00:00.000Z" } },
  ),
  ...on(
    "review-b2",
    {
      type: "ReviewLeft",
      data: {
        reviewId: "r2",
        bookingId: "b2",
        expertId: "e1",
        creatorId: "u-creator",
        rating: 1,
        text: "Spam",
        leftAt: "2030-02-09T12:00:00.000Z",
      },
    },
    { type: "ReviewHidden", data: { bookingId: "b2", reason: "Not about the session", by: "u-admin" } },
  ),
  ...on(
    "conversation-b1",
    {
      type: "MessageSent",
      data: { bookingId: "b1", messageId: "m1", seq: 1, by: "u-creator", role: "creator", text: "Can we cover pricing?" },
    },
    {
      type: "MessageSent",
      data: { bookingId: "b1", messageId: "m2", seq: 2, by: "u-expert", role: "expert", text: "Yes, bring your tiers." },
    },
    { type: "ConversationRead", data: { bookingId: "b1", userId: "u-creator", readCount: 2 } },
    { type: "ConversationMuted", data: { bookingId: "b1", userId: "u-expert", muted: true } },
  ),
] as GivenEvent[];
