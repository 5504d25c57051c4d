import { MESSAGE_MAIL_EVERY_MINUTES } from "@booking/contracts";
import { meetingLinkOf } from "@booking/engine";
import { calendarInviteFor } from "./calendar-invite.ts";
import type { BookingFact, MailFact } from "./facts.ts";
import { vettingDecidedBody } from "./templates/vetting.ts";
import { noShowContestedBody, noShowReportedBody, noShowSettledBody } from "./templates/no-show.ts";
import { messageReceivedBody } from "./templates/message.ts";
import { disputeClosedBody, disputeOpenedBody } from "./templates/dispute.ts";
import type { MailKind, OutgoingMail } from "./outbox.ts";
import {
  bookingCancelledBody,
  bookingConfirmedBody,
  bookingRequestedBody,
  infoRequestedBody,
  requestSentBody,
  joinLinkSetBody,
  notesAddedBody,
  refundIssuedBody,
  reminderBody,
  rescheduleDeclinedBody,
  rescheduleRequestedBody,
  rescheduleWithdrawnBody,
  rescheduledBody,
  timeProposedBody,
  type BookingMailInput,
  type BookingView,
  type MailPerson,
  type Side,
} from "./templates/booking.ts";
import { renderMail, type MailBody } from "./templates/layout.ts";

// Which mails a booking fact owes, to whom, rendered (no I/O). A message's id is the owing event's
// id, the kind and the recipient, so the same event read again owes the same ids and queues nothing.

export type Recipient = MailPerson & {
  reminderMails: boolean;
  /** Their user stream's version as the reactor has read it. */ version: number;
};

/** A booking as the mail reactor knows it after the fact was applied, with both parties. */
export type BookingState = {
  booking: BookingView;
  /** Paid so far, this fact included. */
  paidCents: number;
  /** Confirmed, this fact included (reminders belong to confirmed bookings). */
  confirmed: boolean;
  expert: Recipient | null;
  creator: Recipient | null;
};

export type MailEnv = {
  publicUrl: string;
  /** A signed unsubscribe token for the user (the fact's time as its issue time, so it is the same on every reading). */
  unsubscribeToken: (userId: string, at: string) => string;
  /** The reactor's clock: a reminder whose time has passed is not queued. */
  now: string;
  /** MEETING_ROOM_URL_TEMPLATE (null: none). */
  meetingRoomUrlTemplate: string | null;
};

/** Reminders: how long before the start each goes out. */
export const REMINDERS: readonly { kind: Extract<MailKind, "reminder_24h" | "reminder_1h">; hours: 24 | 1 }[] = [
  { kind: "reminder_24h", hours: 24 },
  { kind: "reminder_1h", hours: 1 },
];
export const REMINDER_KINDS: readonly MailKind[] = REMINDERS.map((r) => r.kind);

export const messageIdOf = (eventId: string, kind: MailKind, userId: string) => `${eventId}:${kind}:${userId}`;

export function owedMails(fact: BookingFact, state: BookingState, env: MailEnv): OutgoingMail[] {
  const mails: OutgoingMail[] = [];
  // The engine's rule: a confirmed booking meets at its expert's link, else in the generated room.
  const b = state.booking;
  const status = state.confirmed ? "confirmed" : "pending";
  const meeting = meetingLinkOf(
    { bookingId: b.bookingId, status, scheduledTime: b.startsAt, joinLink: b.joinLink, meetingRoom: b.meetingRoom ?? null },
    env.meetingRoomUrlTemplate,
  );
  const input = (side: Side): BookingMailInput | null => {
    const [to, other] = side === "expert" ? [state.expert, state.creator] : [state.creator, state.expert];
    return to ? { booking: state.booking, to, side, other, publicUrl: env.publicUrl, meetingLink: meeting?.url ?? null } : null;
  };
  /** Queue `kind` to one side, if that side has an address. */
  const owe = (
    kind: MailKind,
    side: Side,
    body: (i: BookingMailInput) => MailBody,
    extra: (i: BookingMailInput) => Partial<OutgoingMail> = () => ({}),
  ) => {
    const i = input(side);
    if (!i) return;
    mails.push({
      messageId: messageIdOf(fact.eventId, kind, i.to.userId),
      kind,
      essential: true,
      userId: i.to.userId,
      to: i.to.email,
      ...renderMail(body(i)),
      bookingId: state.booking.bookingId,
      sendAfter: env.now,
      createdAt: env.now,
      ...extra(i),
    });
  };
  const both = (kind: MailKind, body: (i: BookingMailInput) => MailBody, extra?: (i: BookingMailInput) => Partial<OutgoingMail>) => {
    owe(kind, "creator", body, extra);
    owe(kind, "expert", body, extra);
  };

  switch (fact.kind) {
    case "requested":
      // An unpaid hold is not a request the expert can act on (it may lapse in minutes): the
      // expert hears of it once it is paid.
      return [];
    case "paid":
      // Paid in full by this payment: a request for the expert and "request sent" for the creator (issue 27.7). An
      // instant booking's payment confirms it in the same decision, and the confirmation's mails say so instead.
      if (state.paidCents === fact.amountCents && !state.booking.instant) {
        owe("booking_requested", "expert", bookingRequestedBody);
        owe("booking_requested", "creator", requestSentBody);
      }
      return mails;
    case "info_requested":
      owe("info_requested", "creator", (i) => infoRequestedBody(i, fact.note));
      return mails;
    case "time_proposed":
      owe("time_proposed", "creator", (i) => timeProposedBody(i, fact.previousTime));
      return mails;
    case "confirmed":
      both(
        "booking_confirmed",
        (i) => bookingConfirmedBody(i, fact.by),
        (i) => ({ attachments: calendarInviteFor(i, { method: "REQUEST", sequence: fact.version, at: fact.at }) }),
      );
      mails.push(...reminders(fact.eventId, fact.at, state, env, input));
      return mails;
    case "cancelled":
      // A hold released before it was paid (by its creator, or lapsed) was never the expert's to hear of.
      // The invite withdrawn too, so a calendar that took the confirmation drops the entry.
      if (state.paidCents > 0)
        both(
          "booking_cancelled",
          (i) => bookingCancelledBody(i, fact),
          (i) => ({ attachments: calendarInviteFor(i, { method: "CANCEL", sequence: fact.version, at: fact.at }) }),
        );
      return mails;
    case "refund_issued":
      owe("refund_issued", "creator", (i) => refundIssuedBody(i, fact.amountCents));
      return mails;
    case "notes_added":
      owe("notes_added", "creator", notesAddedBody);
      return mails;
    case "reschedule_requested":
      owe("reschedule_requested", "expert", (i) => rescheduleRequestedBody(i, fact.to));
      return mails;
    case "rescheduled":
      // The calendar entry moves (same UID, higher SEQUENCE); a confirmed booking's reminders follow the new time.
      both(
        "rescheduled",
        (i) => rescheduledBody(i, fact.previousTime),
        (i) => ({ attachments: state.confirmed ? calendarInviteFor(i, { method: "REQUEST", sequence: fact.version, at: fact.at }) : [] }),
      );
      if (state.confirmed) mails.push(...reminders(fact.eventId, fact.at, state, env, input));
      return mails;
    case "reschedule_declined":
      owe("reschedule_declined", "creator", (i) => rescheduleDeclinedBody(i, fact.to, fact.reason));
      return mails;
    case "reschedule_withdrawn":
      owe("reschedule_withdrawn", "expert", (i) => rescheduleWithdrawnBody(i, fact.to));
      return mails;
    case "no_show_reported":
      owe("no_show_reported", fact.absent, (i) => noShowReportedBody(i, fact));
      return mails;
    case "no_show_contested":
      // The reporter hears of it: the party who did not contest.
      owe("no_show_contested", state.creator?.userId === fact.by ? "expert" : "creator", (i) => noShowContestedBody(i, fact.note));
      return mails;
    case "no_show_settled":
      both("no_show_settled", (i) => noShowSettledBody(i, fact));
      return mails;
    case "dispute_opened":
      owe("dispute_opened", "expert", (i) => disputeOpenedBody(i, fact));
      return mails;
    case "dispute_closed":
      owe("dispute_closed", "expert", (i) => disputeClosedBody(i, fact));
      return mails;
    case "message_sent": {
      // Rule: one mail per reader and thread per MESSAGE_MAIL_EVERY_MINUTES period, for its first message (the outbox keeps the
      // first of an id). The reactor leaves out a reader who muted the thread.
      const side: Side = state.creator?.userId === fact.by ? "expert" : "creator";
      const period = Math.floor(Date.parse(fact.at) / (MESSAGE_MAIL_EVERY_MINUTES * 60_000));
      owe(
        "message_received",
        side,
        (i) => messageReceivedBody(i, fact.text),
        (i) => ({
          messageId: `${fact.bookingId}:message_received:${i.to.userId}:${period}`,
        }),
      );
      return mails;
    }
    case "conversation_muted":
      return mails;
    case "join_link_set":
      // The invite carries the link; the reminders are queued again with it (the reactor skipped the old ones).
      both("join_link_set", joinLinkSetBody, (i) => ({
        attachments: calendarInviteFor(i, { method: "REQUEST", sequence: fact.version, at: fact.at }),
      }));
      if (state.confirmed) mails.push(...reminders(fact.eventId, fact.at, state, env, input));
      return mails;
  }
}

/** The two reminders each party who wants them is owed by a confirmation, while their time is still ahead. */
function reminders(
  eventId: string,
  at: string,
  state: BookingState,
  env: MailEnv,
  input: (side: Side) => BookingMailInput | null,
): OutgoingMail[] {
  const start = Date.parse(state.booking.startsAt);
  const earliest = Math.max(Date.parse(at), Date.parse(env.now));
  const mails: OutgoingMail[] = [];
  for (const side of ["creator", "expert"] as const) {
    const i = input(side);
    const to = side === "creator" ? state.creator : state.expert;
    if (!i || !to?.reminderMails) continue;
    const token = encodeURIComponent(env.unsubscribeToken(to.userId, at));
    for (const { kind, hours } of REMINDERS) {
      const sendAfter = start - hours * 3_600_000;
      if (sendAfter <= earliest) continue;
      mails.push({
        messageId: messageIdOf(eventId, kind, to.userId),
        kind,
        essential: false,
        userId: to.userId,
        to: to.email,
        ...renderMail(reminderBody(i, hours, `${env.publicUrl}/unsubscribe?token=${token}`)),
        // RFC 8058: a mail client may unsubscribe in one click, by POST to this address.
        headers: {
          "List-Unsubscribe": `<${env.publicUrl}/api/v1/mail/unsubscribe?token=${token}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
        bookingId: state.booking.bookingId,
        sendAfter: new Date(sendAfter).toISOString(),
        // A reminder that could not go out before the session began is pointless: the sender skips it.
        sendBefore: state.booking.startsAt,
        preferencesVersion: to.version,
        createdAt: env.now,
      });
    }
  }
  return mails;
}

/** An admin's decision on an expert's application or standing, mailed to the expert (essential: it changes whether they can be booked). */
export function vettingMail(fact: Extract<MailFact, { kind: "vetting" }>, to: MailPerson, publicUrl: string): OutgoingMail {
  const body = vettingDecidedBody(
    { ...fact, firstName: to.firstName, zone: to.zone },
    `${publicUrl}/expert-dashboard/${fact.expertId}/application`,
  );
  return {
    messageId: messageIdOf(fact.eventId, "vetting_decided", to.userId),
    kind: "vetting_decided",
    essential: true,
    userId: to.userId,
    to: to.email,
    ...renderMail(body),
    sendAfter: fact.at,
    createdAt: fact.at,
  };
}
