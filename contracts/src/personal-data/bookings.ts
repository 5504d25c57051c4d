import type { CalendarEvent } from "../calendar.ts";
import type { ConversationEvent } from "../conversation.ts";
import type { ReviewEvent } from "../review.ts";
import type { DataOwner, EventPersonalData } from "./fields.ts";
import { CREATOR, EXPERT, fields, idIn, link, nothingPersonal, text } from "./notation.ts";

// The personal data of a booking's events: the expert's calendar (`calendar-{expertId}`), the booking's review
// (`review-{bookingId}`) and its conversation (`conversation-{bookingId}`). The rules are in ./fields.ts.

/**
 * A reason a party of the booking wrote is theirs; one an admin wrote, or the system's code, is kept with the booking's
 * creator (whose purchase the booking is): it cannot be told which party an admin wrote about.
 */
const AUTHOR_OR_CREATOR: DataOwner = { partyNamedBy: "by", otherwise: "creator" };

export const CALENDAR_PERSONAL_DATA = {
  /** An admin's reason for suspending the expert: about the expert. */
  BookingsPaused: fields(["expertId", "by"], text("reason", EXPERT)),
  BookingsResumed: nothingPersonal("expertId", "by"),
  ScheduleSet: nothingPersonal("expertId", "timezone", "slots[].start_local", "slots[].end_local"),
  /** The expert's own note on their time off ("surgery", "my daughter's wedding"). */
  TimeOffAdded: fields(["expertId", "timeOffId", "start", "end"], text("reason", EXPERT)),
  TimeOffRemoved: nothingPersonal("expertId", "timeOffId"),
  DateOverrideAdded: nothingPersonal("expertId", "overrideId", "date", "start_local", "end_local"),
  DateOverrideRemoved: nothingPersonal("expertId", "overrideId"),
  BookingRulesSet: nothingPersonal("expertId"),
  /** Busy times are start and end only: an external event's title is never recorded. */
  ExternalBusyTimesSynced: nothingPersonal("expertId", "sourceId", "from", "to", "busy[].start", "busy[].end"),
  ExternalBusyTimesRemoved: nothingPersonal("expertId", "sourceId"),
  /** The session's title and prep questions are the expert's published product text, copied from the session: not personal. */
  BookingRequested: nothingPersonal(
    "bookingId",
    "expertId",
    "expertUserId",
    "creatorId",
    "sessionId",
    "sessionTitle",
    "prepQuestions[]",
    "scheduledTime",
    "heldUntil",
  ),
  PaymentSucceeded: nothingPersonal("bookingId", "paymentId", "provider", "respondBy"),
  /** The provider's decline message, about a card payment, not a person's words. */
  PaymentFailed: nothingPersonal("bookingId", "paymentId", "reason"),
  PrepSubmitted: fields(["bookingId"], text("answers[]", CREATOR)),
  /** The expert's question to the creator. */
  InfoRequested: fields(["bookingId"], text("note", EXPERT)),
  TimeProposed: nothingPersonal("bookingId", "scheduledTime", "previousTime"),
  /** A generated room's random name (MeetingRoomName): names nobody. An expert's own link is JoinLinkSet's `url`. */
  Confirmed: nothingPersonal("bookingId", "meetingRoom"),
  Cancelled: fields(["bookingId"], text("reason", AUTHOR_OR_CREATOR)),
  /** A code ("booking_closed"), or after a no-show an admin's words (`no_show: …`): kept with the creator, whose money it is. */
  RefundDue: fields(["bookingId", "paymentId"], text("reason", CREATOR)),
  RefundIssued: nothingPersonal("bookingId", "refundKey", "refundId", "provider"),
  /** The provider's failure message. */
  RefundFailed: nothingPersonal("bookingId", "refundKey", "reason"),
  Completed: nothingPersonal("bookingId"),
  /** The expert writes the session's notes. */
  NotesAdded: fields(
    ["bookingId"],
    text("notes.summary", EXPERT),
    text("notes.recap", EXPERT),
    text("notes.takeaways[]", EXPERT),
    text("notes.suggestedActions[]", EXPERT),
  ),
  RescheduleRequested: nothingPersonal("bookingId", "from", "to"),
  RescheduleAccepted: nothingPersonal("bookingId", "from", "to"),
  RescheduleDeclined: fields(["bookingId", "from", "to"], text("reason", AUTHOR_OR_CREATOR)),
  RescheduleWithdrawn: nothingPersonal("bookingId", "from", "to"),
  /** The expert's meeting link (a personal room often carries their name), whoever typed it. */
  JoinLinkSet: fields(["bookingId"], link("url", EXPERT)),
  /** `by`: the reporting user, who wrote the note. */
  NoShowReported: fields(["bookingId", "by", "contestBy"], text("note", idIn("by"))),
  NoShowContested: fields(["bookingId", "by"], text("note", idIn("by"))),
  /** How an admin (or the system: "uncontested") settled the report: about the party reported absent. */
  NoShowSettled: fields(["bookingId", "by"], text("reason", { partyNamedBy: "absent" })),
  /** The provider's dispute code ("fraudulent") and its ids. */
  DisputeOpened: nothingPersonal("bookingId", "disputeId", "paymentId", "reason", "evidenceDueBy"),
  DisputeUpdated: nothingPersonal("bookingId", "disputeId", "evidenceDueBy"),
  DisputeClosed: nothingPersonal("bookingId", "disputeId"),
} satisfies { [T in CalendarEvent["type"]]: EventPersonalData };

export const REVIEW_PERSONAL_DATA = {
  ReviewLeft: fields(["reviewId", "bookingId", "expertId", "creatorId", "leftAt"], text("text", idIn("creatorId"))),
  ReviewEdited: fields(["bookingId", "editedAt"], text("text", CREATOR)),
  ReviewReplied: fields(["bookingId", "expertId", "repliedAt"], text("text", EXPERT)),
  /** An admin's reason for hiding the creator's review: about the review's author. */
  ReviewHidden: fields(["bookingId", "by"], text("reason", CREATOR)),
} satisfies { [T in ReviewEvent["type"]]: EventPersonalData };

export const CONVERSATION_PERSONAL_DATA = {
  /** `by`: the sender's user id. */
  MessageSent: fields(["bookingId", "messageId", "by"], text("text", idIn("by"))),
  ConversationRead: nothingPersonal("bookingId", "userId"),
  ConversationMuted: nothingPersonal("bookingId", "userId"),
} satisfies { [T in ConversationEvent["type"]]: EventPersonalData };
