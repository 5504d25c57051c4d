import {
  FULL_REFUND_NOTICE_HOURS,
  readDomainEvent,
  type DisputeStatus,
  type Currency,
  type NoShowOutcome,
  type NoShowParty,
  type StoredEvent,
} from "@booking/contracts";

type Side = NoShowParty;

// What the mail reactor reads in the event log, as plain facts (no I/O): who people are and how
// they want mail (user streams), an expert's schedule zone and each booking's changes (calendar
// streams). `version` is the event's place in its stream: a fact older than what a row already
// holds is a redelivery and changes nothing.

type Read = { eventId: string; at: string; version: number };

export type MailFact = Read &
  (
    | { kind: "registered"; userId: string; email: string; firstName: string | null; lastName: string | null; timezone: string | null }
    | { kind: "renamed"; userId: string; firstName: string | null; lastName: string | null }
    | { kind: "preferences"; userId: string; timezone: string; reminderMails: boolean }
    /** The person deleted their account (issue 33.2): nothing more is mailed to them, nothing waiting for them is sent. */
    | { kind: "erased"; userId: string }
    | { kind: "schedule"; expertId: string; timezone: string }
    | {
        kind: "requested";
        bookingId: string;
        expertId: string;
        expertUserId: string;
        creatorId: string;
        title: string;
        startsAt: string;
        lengthMinutes: number;
        priceCents: number;
        /** Instant booking: the payment confirms it (issue 27.6). */
        instant: boolean;
        /** The cut-off for a full refund it was made under (issue 31.4). */
        fullRefundHours: number;
      }
    /** `respondBy`: the expert's deadline to accept, when the payment made it a request waiting for them. */
    /** `paymentId`, `currency` (issue 29.7): what its receipt states; absent in facts made by hand (tests). */
    | { kind: "paid"; bookingId: string; amountCents: number; respondBy: string | null; paymentId?: string; currency?: Currency | null }
    | { kind: "info_requested"; bookingId: string; note: string }
    | { kind: "time_proposed"; bookingId: string; startsAt: string; previousTime: string }
    /** `meetingRoom`: the generated room the confirmation recorded (issue 27.13). */
    | { kind: "confirmed"; bookingId: string; by: Who; instant: boolean; meetingRoom: string | null }
    | { kind: "cancelled"; bookingId: string; by: Who; reason: string; refundCents: number }
    | { kind: "refund_issued"; bookingId: string; amountCents: number; refundId?: string }
    | { kind: "notes_added"; bookingId: string }
    | { kind: "reschedule_requested"; bookingId: string; from: string; to: string }
    /** A move accepted: the booking now starts at `startsAt`. */
    | { kind: "rescheduled"; bookingId: string; startsAt: string; previousTime: string }
    | { kind: "reschedule_declined"; bookingId: string; from: string; to: string; reason: string }
    | { kind: "reschedule_withdrawn"; bookingId: string; from: string; to: string }
    | { kind: "join_link_set"; bookingId: string; url: string }
    /** No-shows (issue 31.1): a report, its contest and its end, each mailed to the party it concerns. */
    | { kind: "no_show_reported"; bookingId: string; absent: Side; note: string; contestBy: string }
    /** `by`: the user who contests (the party reported absent). */
    | { kind: "no_show_contested"; bookingId: string; by: string; note: string }
    | { kind: "no_show_settled"; bookingId: string; absent: Side; outcome: NoShowOutcome; refundCents: number; reason: string; by: string }
    /** A booking's conversation (issue 31.3; stream `conversation-{bookingId}`, whose versions are its own). */
    | { kind: "message_sent"; bookingId: string; by: string; text: string }
    | { kind: "conversation_muted"; bookingId: string; userId: string; muted: boolean }
    /** A creator's bank disputed the payment (issue 31.2): the expert hears of it, and of its end. */
    | { kind: "dispute_opened"; bookingId: string; amountCents: number; reason: string }
    | { kind: "dispute_closed"; bookingId: string; status: DisputeStatus; lostCents: number }
    /** Whose account an expert's profile is (expert streams): a vetting decision is mailed to it. */
    | { kind: "expert_profile"; expertId: string; userId: string }
    /** An admin's decision on the expert's application or standing (issue 30). */
    | { kind: "vetting"; expertId: string; decision: VettingDecision; reason: string; mayReapplyFrom: string | null }
  );

export type VettingDecision = "approved" | "changes_requested" | "rejected" | "suspended" | "reinstated";
const VETTING_DECISIONS: Record<string, VettingDecision> = {
  ApplicationApproved: "approved",
  ApplicationChangesRequested: "changes_requested",
  ApplicationRejected: "rejected",
  ExpertSuspended: "suspended",
  ExpertReinstated: "reinstated",
};

export type Who = "creator" | "expert" | "admin" | "system";

/** Facts about a booking (the rest are about people and calendars). */
export type BookingFact = Extract<MailFact, { bookingId: string }>;

const READ = new Set([
  "UserRegistered",
  "UserRenamed",
  "PreferencesSet",
  "UserErased",
  "ScheduleSet",
  "BookingRequested",
  "PaymentSucceeded",
  "InfoRequested",
  "TimeProposed",
  "Confirmed",
  "Cancelled",
  "RefundIssued",
  "NotesAdded",
  "RescheduleRequested",
  "RescheduleAccepted",
  "RescheduleDeclined",
  "RescheduleWithdrawn",
  "JoinLinkSet",
  "NoShowReported",
  "NoShowContested",
  "NoShowSettled",
  "MessageSent",
  "ConversationMuted",
  "DisputeOpened",
  "DisputeClosed",
  "ExpertProfileSaved",
  ...Object.keys(VETTING_DECISIONS),
]);
const STREAMS = ["user-", "calendar-", "expert-", "conversation-"];

/** The fact an event states for mail, or null (most events owe no mail and change nothing a mail says). */
export function mailFact(stored: StoredEvent): MailFact | null {
  if (!READ.has(stored.type) || !STREAMS.some((prefix) => stored.streamId.startsWith(prefix))) return null;
  const event = readDomainEvent(stored.type, stored.schemaVersion, stored.data);
  const read: Read = { eventId: stored.eventId, at: stored.metadata.at, version: stored.version };
  switch (event.type) {
    case "UserRegistered": {
      const { userId, email, firstName, lastName, timezone } = event.data;
      return { ...read, kind: "registered", userId, email, firstName, lastName, timezone: timezone ?? null };
    }
    case "UserRenamed":
      return { ...read, kind: "renamed", userId: event.data.userId, firstName: event.data.firstName, lastName: event.data.lastName };
    case "PreferencesSet":
      return {
        ...read,
        kind: "preferences",
        userId: event.data.userId,
        timezone: event.data.timezone,
        reminderMails: event.data.reminderMails,
      };
    case "UserErased":
      return { ...read, kind: "erased", userId: event.data.userId };
    case "ScheduleSet":
      return { ...read, kind: "schedule", expertId: event.data.expertId, timezone: event.data.timezone };
    case "BookingRequested": {
      const d = event.data;
      return {
        ...read,
        kind: "requested",
        bookingId: d.bookingId,
        expertId: d.expertId,
        expertUserId: d.expertUserId,
        creatorId: d.creatorId,
        title: d.sessionTitle,
        startsAt: d.scheduledTime,
        lengthMinutes: d.lengthMinutes,
        priceCents: d.priceCents,
        instant: d.instantBooking ?? false,
        fullRefundHours: d.fullRefundHours ?? FULL_REFUND_NOTICE_HOURS,
      };
    }
    case "PaymentSucceeded":
      return {
        ...read,
        kind: "paid",
        bookingId: event.data.bookingId,
        amountCents: event.data.amountCents,
        respondBy: event.data.respondBy ?? null,
        paymentId: event.data.paymentId,
        currency: event.data.currency ?? null,
      };
    case "InfoRequested":
      return { ...read, kind: "info_requested", bookingId: event.data.bookingId, note: event.data.note };
    case "TimeProposed":
      return {
        ...read,
        kind: "time_proposed",
        bookingId: event.data.bookingId,
        startsAt: event.data.scheduledTime,
        previousTime: event.data.previousTime,
      };
    case "Confirmed":
      return {
        ...read,
        kind: "confirmed",
        bookingId: event.data.bookingId,
        by: event.data.by,
        instant: event.data.instant ?? false,
        meetingRoom: event.data.meetingRoom ?? null,
      };
    case "Cancelled": {
      const { bookingId, by, reason, refundCents } = event.data;
      return { ...read, kind: "cancelled", bookingId, by, reason, refundCents };
    }
    case "RefundIssued":
      return {
        ...read,
        kind: "refund_issued",
        bookingId: event.data.bookingId,
        amountCents: event.data.amountCents,
        refundId: event.data.refundId,
      };
    case "NotesAdded":
      return { ...read, kind: "notes_added", bookingId: event.data.bookingId };
    case "RescheduleRequested":
      return { ...read, kind: "reschedule_requested", bookingId: event.data.bookingId, from: event.data.from, to: event.data.to };
    case "RescheduleAccepted":
      return { ...read, kind: "rescheduled", bookingId: event.data.bookingId, startsAt: event.data.to, previousTime: event.data.from };
    case "RescheduleDeclined":
      return {
        ...read,
        kind: "reschedule_declined",
        bookingId: event.data.bookingId,
        from: event.data.from,
        to: event.data.to,
        reason: event.data.reason,
      };
    case "JoinLinkSet":
      return { ...read, kind: "join_link_set", bookingId: event.data.bookingId, url: event.data.url };
    case "RescheduleWithdrawn":
      return { ...read, kind: "reschedule_withdrawn", bookingId: event.data.bookingId, from: event.data.from, to: event.data.to };
    case "NoShowReported": {
      const { bookingId, absent, note, contestBy } = event.data;
      return { ...read, kind: "no_show_reported", bookingId, absent, note, contestBy };
    }
    case "NoShowContested":
      return { ...read, kind: "no_show_contested", bookingId: event.data.bookingId, by: event.data.by, note: event.data.note };
    case "NoShowSettled": {
      const { bookingId, absent, outcome, refundCents, reason, by } = event.data;
      return { ...read, kind: "no_show_settled", bookingId, absent, outcome, refundCents, reason, by };
    }
    case "DisputeOpened":
      return {
        ...read,
        kind: "dispute_opened",
        bookingId: event.data.bookingId,
        amountCents: event.data.amountCents,
        reason: event.data.reason,
      };
    case "DisputeClosed":
      return {
        ...read,
        kind: "dispute_closed",
        bookingId: event.data.bookingId,
        status: event.data.status,
        lostCents: event.data.lostCents,
      };
    case "MessageSent":
      return { ...read, kind: "message_sent", bookingId: event.data.bookingId, by: event.data.by, text: event.data.text };
    case "ConversationMuted":
      return { ...read, kind: "conversation_muted", bookingId: event.data.bookingId, userId: event.data.userId, muted: event.data.muted };
    case "ExpertProfileSaved":
      return { ...read, kind: "expert_profile", expertId: event.data.expertId, userId: event.data.userId };
    case "ApplicationApproved":
    case "ApplicationChangesRequested":
    case "ApplicationRejected":
    case "ExpertSuspended":
    case "ExpertReinstated": {
      const mayReapplyFrom = event.type === "ApplicationRejected" ? event.data.mayReapplyFrom : null;
      const decision = VETTING_DECISIONS[event.type]!;
      return { ...read, kind: "vetting", expertId: event.data.expertId, decision, reason: event.data.reason, mayReapplyFrom };
    }
    default:
      return null;
  }
}
