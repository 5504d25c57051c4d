import { z } from "zod";

// The dev mailbox's replies (GET /admin/mailbox and /admin/mailbox/{id}): the outbox's messages as
// the console shows them while no SMTP server is configured. Strict objects, on purpose.

/** An instant as the API returns it (ISO 8601). */
const Time = z.string();

/** Where a message is: waiting to be sent (or for its time), sent, skipped (preferences, a moved booking), failed. */
export const MailStatus = z.enum(["pending", "sent", "skipped", "failed"]);
export type MailStatus = z.infer<typeof MailStatus>;

/** One row of the mailbox list: who, what and when, without the bodies. */
export const MailboxListItem = z.strictObject({
  id: z.string(),
  /** Which template made it (verify_email, password_reset, booking_confirmed, reminder_24h...). */
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: MailStatus,
  created_at: Time,
  send_after: Time,
  sent_at: Time.nullable(),
  booking_id: z.string().nullable(),
  /** Why it was skipped, or the last delivery error (failed, or pending a retry): in the list, not only on the message's page. */
  note: z.string().nullable(),
});
export type MailboxListItem = z.infer<typeof MailboxListItem>;

/** One message whole: the list row, the From it goes out with, its extra headers, both bodies and its attachments' names. */
export const MailboxMessageReply = MailboxListItem.extend({
  from: z.string(),
  /** Extra headers (List-Unsubscribe on reminders...). */
  headers: z.record(z.string(), z.string()),
  text: z.string(),
  html: z.string(),
  attachments: z.array(z.strictObject({ filename: z.string(), content_type: z.string() })),
});
export type MailboxMessageReply = z.infer<typeof MailboxMessageReply>;
