import { MailStatus, type MailboxListItem, type MailboxMessageReply } from "@booking/contracts";

/** A row of GET /admin/mailbox and the whole message of GET /admin/mailbox/{id} (contracts' shapes). */
export type MailRow = MailboxListItem;
export type MailMessage = MailboxMessageReply;
/** What the show page renders: at first the list's row (react-admin shows it while the message loads), then the whole message. */
export type ShownMail = MailRow & Partial<MailMessage>;

/**
 * The console has a mailbox only while no SMTP server is configured (issue 27.20): what the sender
 * marks sent there was written to the outbox and reached nobody, so "Sent" would not be true.
 */
export const mailStatusLabels: Record<MailStatus, string> = {
  pending: "Waiting",
  sent: "Logged (no SMTP server)",
  skipped: "Skipped",
  failed: "Failed",
};
export const mailStatusChoices = MailStatus.options.map((id) => ({ id, name: mailStatusLabels[id] }));

/** The templates' names as the console says them; a kind it does not know yet shows as it is. */
const kindLabels: Record<string, string> = {
  verify_email: "Confirm email",
  password_reset: "Password reset",
  account_exists: "Sign-up with a taken address",
  booking_requested: "Booking requested",
  info_requested: "Information requested",
  time_proposed: "Time proposed",
  booking_confirmed: "Booking confirmed",
  booking_cancelled: "Booking cancelled",
  refund_issued: "Refund issued",
  reminder_24h: "Reminder (24 h)",
  reminder_1h: "Reminder (1 h)",
  notes_added: "Notes added",
  reschedule_requested: "New time requested",
  rescheduled: "Moved to a new time",
  reschedule_declined: "New time declined",
  reschedule_withdrawn: "New time withdrawn",
  join_link_set: "Meeting link set",
};
export const kindLabel = (kind: string): string => kindLabels[kind] ?? kind;
export const mailKindChoices = Object.entries(kindLabels).map(([id, name]) => ({ id, name }));

/**
 * The message's HTML for a sandboxed frame's srcdoc, with `<base target="_blank">` so its links
 * open in a new tab (the frame may open pop-ups and nothing else). Inside <head> when it has one:
 * before a doctype it would put the page in quirks mode.
 */
export function framedMailHtml(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return `${base}${html}`;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}${base}${html.slice(at)}`;
}
