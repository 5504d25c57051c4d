import { FULL_REFUND_NOTICE_HOURS } from "@booking/contracts";
import { fullRefundUntil } from "@booking/engine";
import { dollars, duration, localTime, shortLocalTime } from "./when.ts";
import type { Who } from "../facts.ts";
import type { MailBody } from "./layout.ts";

// What each booking mail says, to whom. Times are in the reader's zone (`to.zone`), names are the
// other party's, and the button goes to the reader's screen for the booking.

export type MailPerson = { userId: string; email: string; firstName: string | null; lastName: string | null; zone: string };

/**
 * `joinLink`: the link the expert set (null: none set); `instant`: booked instantly (issue 27.6); `respondBy`: the expert's
 * deadline to accept a paid request (null: none); `meetingRoom`: the generated room its confirmation recorded (issue 27.13).
 */
export type BookingView = {
  bookingId: string;
  title: string;
  startsAt: string;
  lengthMinutes: number;
  priceCents: number;
  joinLink: string | null;
  instant?: boolean;
  respondBy?: string | null;
  meetingRoom?: string | null;
  /** The cut-off for a full refund the booking was made under (issue 31.4); absent: FULL_REFUND_NOTICE_HOURS. */
  fullRefundHours?: number;
};

export type Side = "creator" | "expert";

export type BookingMailInput = {
  booking: BookingView;
  to: MailPerson;
  /** Which party of the booking the reader is. */
  side: Side;
  /** The other party (null if their account is unknown to the mail reactor). */
  other: MailPerson | null;
  /** Where the session meets (the expert's link, or the generated room), once the booking is confirmed; null: none yet. */
  meetingLink: string | null;
  publicUrl: string;
};

export const nameOf = (p: MailPerson | null, side: Side): string => {
  const full = [p?.firstName, p?.lastName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(" ");
  return full || (side === "creator" ? "your expert" : "the creator");
};

/** Where the reader acts on the booking: the expert manages it, the creator sees its details. */
export const bookingUrl = (publicUrl: string, side: Side, bookingId: string) =>
  `${publicUrl}/${side === "expert" ? "manage-booking" : "session-details"}/${encodeURIComponent(bookingId)}`;

export const when = (i: BookingMailInput, at = i.booking.startsAt) => localTime(at, i.to.zone);
const short = (i: BookingMailInput) => shortLocalTime(i.booking.startsAt, i.to.zone);
const otherLabel = (side: Side) => (side === "creator" ? "Expert" : "Creator");

export function details(i: BookingMailInput, extra: { label: string; value: string }[] = []) {
  return [
    { label: "Session", value: i.booking.title },
    { label: "When", value: when(i) },
    { label: "Length", value: duration(i.booking.lengthMinutes) },
    { label: otherLabel(i.side), value: nameOf(i.other, i.side) },
    ...(i.meetingLink ? [{ label: "Join", value: i.meetingLink }] : []),
    ...extra,
  ];
}

export const open = (i: BookingMailInput, label: string) => ({ label, url: bookingUrl(i.publicUrl, i.side, i.booking.bookingId) });

/** To the expert, once the creator has paid: the request waits for their answer. */
export function bookingRequestedBody(i: BookingMailInput): MailBody {
  const creator = nameOf(i.other, "expert");
  return {
    subject: `New request: ${i.booking.title} with ${creator}, ${short(i)}`,
    heading: "You have a new booking request",
    preview: `${creator} booked ${i.booking.title} for ${when(i)} and paid ${dollars(i.booking.priceCents)}.`,
    firstName: i.to.firstName,
    paragraphs: [
      `${creator} booked ${i.booking.title} and paid ${dollars(i.booking.priceCents)}.`,
      "Confirm it, ask for more information, or propose another time.",
      ...(i.booking.respondBy
        ? [
            `Please answer by ${when(i, i.booking.respondBy)}. If it is not accepted by then, it is cancelled and ${creator} is refunded in full.`,
          ]
        : []),
    ],
    details: details(i, [
      { label: "Paid", value: dollars(i.booking.priceCents) },
      ...(i.booking.respondBy ? [{ label: "Accept by", value: when(i, i.booking.respondBy) }] : []),
    ]),
    action: open(i, "Review the request"),
  };
}

/** The cancellation policy as it stands for the creator once the booking is confirmed (engine's refundOnCancel), with its date in their zone. */
const confirmedTerms = (i: BookingMailInput) =>
  `Cancel by ${when(i, fullRefundUntil({ scheduledTime: i.booking.startsAt, fullRefundHours: i.booking.fullRefundHours }))} ` +
  `(${i.booking.fullRefundHours ?? FULL_REFUND_NOTICE_HOURS} hours before the start) for a full refund; ` +
  "after that, a cancellation is not refunded. If the expert cancels, you get everything back.";

/** To the creator, once they have paid for a request (issue 27.7): what they paid, until when the expert may accept, and what cancelling costs. */
export function requestSentBody(i: BookingMailInput): MailBody {
  const expert = nameOf(i.other, "creator");
  const by = i.booking.respondBy;
  return {
    subject: `Request sent: ${i.booking.title} with ${expert}, ${short(i)}`,
    heading: "Your request is sent",
    preview: by ? `${expert} has until ${when(i, by)} to accept.` : `${expert} will answer your request.`,
    firstName: i.to.firstName,
    paragraphs: [
      `You paid ${dollars(i.booking.priceCents)} and your request is with ${expert}. It is not confirmed until ${expert} accepts it.`,
      by
        ? `${expert} has until ${when(i, by)} to accept. If they do not, the request is cancelled and you get everything back automatically.`
        : `If ${expert} does not accept, you get everything back.`,
      `Until ${expert} accepts, you can cancel for a full refund. ${confirmedTerms(i)}`,
    ],
    details: details(i, [
      { label: "Paid", value: dollars(i.booking.priceCents) },
      ...(by ? [{ label: "Expert accepts by", value: when(i, by) }] : []),
    ]),
    action: open(i, "See your request"),
  };
}

/** To the creator: the expert asks something before confirming. */
export function infoRequestedBody(i: BookingMailInput, note: string): MailBody {
  const expert = nameOf(i.other, "creator");
  return {
    subject: `${expert} has a question about ${i.booking.title}`,
    heading: `${expert} needs more information`,
    preview: note.slice(0, 140),
    firstName: i.to.firstName,
    paragraphs: [`Before confirming your booking, ${expert} asked:`],
    quote: note,
    details: details(i),
    action: open(i, "Answer on the session page"),
  };
}

/** To the creator: the expert proposes another time; the booking waits for them to accept it. */
export function timeProposedBody(i: BookingMailInput, previousTime: string): MailBody {
  const expert = nameOf(i.other, "creator");
  return {
    subject: `${expert} proposed a new time for ${i.booking.title}: ${short(i)}`,
    heading: "A new time was proposed",
    preview: `${expert} proposed ${when(i)} instead of ${when(i, previousTime)}.`,
    firstName: i.to.firstName,
    paragraphs: [`${expert} cannot make the time you asked for and proposed another one. Accept it, or cancel for a full refund.`],
    details: [
      { label: "Session", value: i.booking.title },
      { label: "Proposed time", value: when(i) },
      { label: "You asked for", value: when(i, previousTime) },
      { label: "Expert", value: expert },
    ],
    action: open(i, "Review the new time"),
  };
}

function confirmedLine(i: BookingMailInput, by: Who): string {
  const other = nameOf(i.other, i.side);
  if (by === i.side)
    return i.side === "expert" ? `You confirmed ${other}'s booking.` : "You accepted the new time, so your session is confirmed.";
  if (i.booking.instant && by === "system")
    return i.side === "expert"
      ? `${other} booked and paid: sessions you offer with instant booking are confirmed on payment.`
      : `${other} takes instant bookings, so your session is confirmed.`;
  if (by === "expert") return `${other} confirmed your session.`;
  if (by === "creator") return `${other} accepted the time you proposed.`;
  return "The session is confirmed.";
}

/** To both parties. */
export function bookingConfirmedBody(i: BookingMailInput, by: Who): MailBody {
  const other = nameOf(i.other, i.side);
  return {
    subject: `Confirmed: ${i.booking.title} with ${other}, ${short(i)}`,
    heading: "Your session is confirmed",
    preview: `${i.booking.title} with ${other}, ${when(i)}.`,
    firstName: i.to.firstName,
    // The creator reads what they paid and what cancelling costs now (issue 27.7).
    paragraphs: [confirmedLine(i, by), ...(i.side === "creator" ? [confirmedTerms(i)] : [])],
    details: details(i, i.side === "creator" || i.booking.instant ? [{ label: "Paid", value: dollars(i.booking.priceCents) }] : []),
    action: open(i, i.side === "expert" ? "Open the booking" : "Open the session"),
  };
}

const CANCEL_REASONS: Record<string, string> = { payment_timeout: "The payment arrived after the time was no longer held." };

function cancelledLine(i: BookingMailInput, by: Who): string {
  if (by === i.side) return "You cancelled this booking.";
  if (by === "expert" || by === "creator") return `${nameOf(i.other, i.side)} cancelled this booking.`;
  return by === "admin" ? "Our team cancelled this booking." : "This booking was cancelled.";
}

/** To both parties; the creator also learns what they get back. */
export function bookingCancelledBody(i: BookingMailInput, cancel: { by: Who; reason: string; refundCents: number }): MailBody {
  const refunded = cancel.refundCents > 0;
  const refund = refunded
    ? [
        i.side === "creator"
          ? { label: "Refund", value: `${dollars(cancel.refundCents)}, back to the card you paid with` }
          : { label: `Refund to ${nameOf(i.other, i.side)}`, value: dollars(cancel.refundCents) },
      ]
    : [];
  const reason = CANCEL_REASONS[cancel.reason] ?? cancel.reason.trim();
  return {
    subject: `Cancelled: ${i.booking.title} with ${nameOf(i.other, i.side)}, ${short(i)}`,
    heading: "The session is cancelled",
    preview: `${i.booking.title} on ${when(i)} will not take place.`,
    firstName: i.to.firstName,
    paragraphs: [
      cancelledLine(i, cancel.by),
      ...(i.side === "creator" && !refunded ? ["Under the cancellation policy this cancellation is not refunded."] : []),
    ],
    ...(reason ? { quote: reason } : {}),
    details: details(i, refund),
    action: open(i, "See the booking"),
    ...(i.side === "creator" && refunded ? { footer: "We will write again when the refund is on its way." } : {}),
  };
}

/** To the creator: money owed back reached their card. */
export function refundIssuedBody(i: BookingMailInput, amountCents: number): MailBody {
  return {
    subject: `Your refund of ${dollars(amountCents)} is on its way`,
    heading: `We refunded ${dollars(amountCents)}`,
    preview: `${dollars(amountCents)} for ${i.booking.title} is on its way back to your card.`,
    firstName: i.to.firstName,
    paragraphs: [
      `We refunded ${dollars(amountCents)} for ${i.booking.title} to the card you paid with. Banks usually show it within 5 to 10 business days.`,
    ],
    details: [
      { label: "Session", value: i.booking.title },
      { label: "Was booked for", value: when(i) },
      { label: "Refunded", value: dollars(amountCents) },
    ],
    action: open(i, "See the booking"),
  };
}

/** To both parties, 24 hours and 1 hour before the start; non-essential, so with an unsubscribe link. */
export function reminderBody(i: BookingMailInput, hoursBefore: 24 | 1, unsubscribeUrl: string): MailBody {
  const other = nameOf(i.other, i.side);
  const soon = hoursBefore === 24 ? "in 24 hours" : "in 1 hour";
  return {
    subject: `Reminder: ${i.booking.title} with ${other} starts ${soon}`,
    heading: `Your session starts ${soon}`,
    preview: `${i.booking.title} with ${other}, ${when(i)}.`,
    firstName: i.to.firstName,
    paragraphs: [`${i.booking.title} with ${other} starts ${soon}.`],
    details: details(i),
    action: open(i, i.side === "expert" ? "Open the booking" : "Open the session"),
    unsubscribeUrl,
  };
}

/** To the creator: the expert wrote up the session. */
/** To the expert: the creator asks to move the session; the old time holds until the expert answers. */
export function rescheduleRequestedBody(i: BookingMailInput, to: string): MailBody {
  const creator = nameOf(i.other, "expert");
  return {
    subject: `${creator} asks to move ${i.booking.title} to ${shortLocalTime(to, i.to.zone)}`,
    heading: "A new time is requested",
    preview: `${creator} asks to move ${i.booking.title} from ${when(i)} to ${when(i, to)}.`,
    firstName: i.to.firstName,
    paragraphs: [`${creator} asks to move the session to another time. Both times stay held for you until you accept or decline.`],
    details: [
      { label: "Session", value: i.booking.title },
      { label: "Requested time", value: when(i, to) },
      { label: "Booked time", value: when(i) },
      { label: "Creator", value: creator },
    ],
    action: open(i, "Accept or decline"),
  };
}

/** To both: the move was accepted; the booking now starts at its new time. */
export function rescheduledBody(i: BookingMailInput, previousTime: string): MailBody {
  const other = nameOf(i.other, i.side);
  return {
    subject: `Moved: ${i.booking.title} with ${other}, now ${short(i)}`,
    heading: "Your session has a new time",
    preview: `${i.booking.title} with ${other} moved from ${when(i, previousTime)} to ${when(i)}.`,
    firstName: i.to.firstName,
    paragraphs: [
      i.side === "expert" ? `You accepted ${other}'s request to move the session.` : `${other} accepted your request to move the session.`,
    ],
    details: details(i, [{ label: "Was", value: when(i, previousTime) }]),
    action: open(i, i.side === "expert" ? "Open the booking" : "Open the session"),
  };
}

/** To the creator: the expert keeps the booked time. */
export function rescheduleDeclinedBody(i: BookingMailInput, to: string, reason: string): MailBody {
  const expert = nameOf(i.other, "creator");
  return {
    subject: `${expert} kept ${i.booking.title} at ${short(i)}`,
    heading: "Your session keeps its time",
    preview: `${expert} could not move the session to ${when(i, to)}.`,
    firstName: i.to.firstName,
    paragraphs: [`${expert} could not move the session to ${when(i, to)}, so it stays at its booked time.`],
    ...(reason.trim() ? { quote: reason.trim() } : {}),
    details: details(i),
    action: open(i, "Open the session"),
  };
}

/** To the expert: the creator took back their request; nothing to answer. */
export function rescheduleWithdrawnBody(i: BookingMailInput, to: string): MailBody {
  const creator = nameOf(i.other, "expert");
  return {
    subject: `${creator} kept ${i.booking.title} at ${short(i)}`,
    heading: "The request to move was withdrawn",
    preview: `${creator} no longer asks to move the session to ${when(i, to)}.`,
    firstName: i.to.firstName,
    paragraphs: [`${creator} withdrew their request to move the session to ${when(i, to)}. It stays at its booked time.`],
    details: details(i),
    action: open(i, "Open the booking"),
  };
}

/** To both: where the session meets (the expert set the link). */
export function joinLinkSetBody(i: BookingMailInput): MailBody {
  const other = nameOf(i.other, i.side);
  return {
    subject: `Meeting link for ${i.booking.title} with ${other}, ${short(i)}`,
    heading: "Your session's meeting link",
    preview: `${i.booking.title} with ${other} meets at ${i.meetingLink ?? "the link on the session page"}.`,
    firstName: i.to.firstName,
    paragraphs: [
      i.side === "expert"
        ? "You set the meeting link for this session. Your calendar invite is updated."
        : `${other} set the meeting link for your session. Your calendar invite is updated.`,
    ],
    details: details(i),
    action: open(i, i.side === "expert" ? "Open the booking" : "Open the session"),
  };
}

export function notesAddedBody(i: BookingMailInput): MailBody {
  const expert = nameOf(i.other, "creator");
  return {
    subject: `${expert} shared notes from ${i.booking.title}`,
    heading: "Your session notes are ready",
    preview: `${expert} wrote up ${i.booking.title}: a summary, takeaways and next steps.`,
    firstName: i.to.firstName,
    paragraphs: [`${expert} shared notes from your session: a summary, takeaways and suggested next steps.`],
    details: details(i),
    action: { label: "Read the notes", url: `${i.publicUrl}/session-notes/${encodeURIComponent(i.booking.bookingId)}` },
  };
}
