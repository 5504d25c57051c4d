import type pg from "pg";
import { isErasedEmail } from "@booking/contracts";
import { activeTraceFields } from "@booking/event-store";

// Putting a message in the outbox. Callers pass their transaction's client, so the message is
// owed exactly when what made it owed commits (the reactor's checkpoint, a sign-up, a reset).

/** Which template made a message; the dev mailbox and the console show it. */
export const MAIL_KINDS = [
  "verify_email",
  "password_reset",
  "account_exists",
  "booking_requested",
  "info_requested",
  "time_proposed",
  "booking_confirmed",
  "booking_cancelled",
  "refund_issued",
  "reminder_24h",
  "reminder_1h",
  "notes_added",
  "reschedule_requested",
  "rescheduled",
  "reschedule_declined",
  "reschedule_withdrawn",
  "join_link_set",
  "support_request",
  "vetting_decided",
  "no_show_reported",
  "no_show_contested",
  "no_show_settled",
  "message_received",
  "dispute_opened",
  "dispute_closed",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** `encoding` base64: `content` is the file's bytes in base64 (a PDF receipt); absent: the text itself (a calendar invite). */
export type MailAttachment = { filename: string; contentType: string; content: string; encoding?: "base64" };

/** A rendered message: what the sender delivers, unchanged, however often it is retried. */
export type OutgoingMail = {
  messageId: string;
  kind: MailKind;
  essential: boolean;
  /** The recipient's user id (null when the address has no account). */
  userId: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe on non-essential mails. */
  headers?: Record<string, string>;
  /** Files sent with it (the calendar invite of a confirmed booking, once calendars land). */
  attachments?: MailAttachment[];
  bookingId?: string | null;
  /** ISO instant: not sent before (reminders); else the time it was queued. */
  sendAfter: string;
  /** ISO instant: skipped if it could not go out by then (a reminder once its session has begun). */
  sendBefore?: string | null;
  /** Reminders: the version of the recipient's user stream they were queued under (see skipping on opt-out). */
  preferencesVersion?: number | null;
  createdAt: string;
};

type Queryable = Pick<pg.PoolClient, "query">;

/**
 * Queue a message once: a second call with the same id changes nothing. Resolves to whether it was new. A mail to an
 * erased person's address (issue 33.2: the erased marker, which no mail can reach) is never queued.
 */
export async function enqueueMail(db: Queryable, mail: OutgoingMail): Promise<boolean> {
  if (isErasedEmail(mail.to)) return false;
  const { rowCount } = await db.query(
    `INSERT INTO mail_outbox (message_id, kind, essential, user_id, to_address, subject, text_body, html_body, headers, attachments,
       booking_id, send_after, send_before, preferences_version, created_at, trace_parent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (message_id) DO NOTHING`,
    [
      mail.messageId,
      mail.kind,
      mail.essential,
      mail.userId,
      mail.to,
      mail.subject,
      mail.text,
      mail.html,
      JSON.stringify(mail.headers ?? {}),
      JSON.stringify(mail.attachments ?? []),
      mail.bookingId ?? null,
      mail.sendAfter,
      mail.sendBefore ?? null,
      mail.preferencesVersion ?? null,
      mail.createdAt,
      // The trace it is owed under (the reactor runs each event in its appending span's context): its delivery joins it.
      activeTraceFields().traceparent ?? null,
    ],
  );
  return rowCount === 1;
}

/** How many mails of `kinds` went to this address since `since` (sending limits count them). */
export async function mailsSentTo(db: Queryable, address: string, kinds: readonly MailKind[], since: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM mail_outbox WHERE lower(to_address) = lower($1) AND kind = ANY($2) AND created_at >= $3",
    [address, kinds, since],
  );
  return Number(rows[0]!.n);
}
