import { ERASED_FIRST_NAME, ERASED_LAST_NAME, ERASED_PERSON_NAME, ERASED_TEXT, erasedEmail } from "@booking/contracts";
import type { Queryable } from "../reactors/index.ts";
import type { MailAttachment } from "./outbox.ts";
import { escapeHtml } from "./templates/layout.ts";

// Mail and an erased person (issue 33.2). Mails still waiting for them are dropped (skipped, never sent); every mail to
// them, sent or not, keeps its kind and times but no longer their address or what it said; the mails they wrote to
// support lose their words and address; and the other party's mails about their bookings name "Deleted user" where they
// named them. The mail reactor's copy of who they are reads as erased, so nothing later is addressed to them.

const DROPPED = "The recipient deleted their account.";

/** Their mails, sent or waiting: waiting ones are dropped, and none keeps their address or its text. */
export async function dropMailsTo(db: Queryable, userId: string, email: string | null): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE mail_outbox SET
       status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END,
       skipped_reason = CASE WHEN status = 'pending' THEN $3 ELSE skipped_reason END,
       to_address = $4, subject = $5, text_body = $5, html_body = $5, headers = '{}', attachments = '[]', last_error = NULL,
       leased_until = NULL, updated_at = now()
     WHERE user_id = $1 OR ($2::text IS NOT NULL AND lower(to_address) = lower($2))`,
    [userId, email, DROPPED, erasedEmail(userId), ERASED_TEXT],
  );
  return rowCount ?? 0;
}

/** The reactor's copy of the person, as erased; `version` is their UserErased's, so no older fact of theirs writes it back. */
export async function forgetMailPerson(db: Queryable, userId: string, version: number): Promise<boolean> {
  const { rowCount } = await db.query(
    "UPDATE mail_people SET email = $2, first_name = $3, last_name = $4, version = $5 WHERE user_id = $1 AND version < $5",
    [userId, erasedEmail(userId), ERASED_FIRST_NAME, ERASED_LAST_NAME, version],
  );
  return rowCount === 1;
}

export type ErasedRecipient = {
  userId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** What they wrote that the other party's mails may quote (their messages, answers, reasons). */
  words: readonly string[];
};

/** A text of theirs shorter than this is not looked for in other people's mails: it would take common words out of them. */
const QUOTED_AT_LEAST = 8;

type Replacement = readonly [from: string, to: string];

const replaced = (text: string, replacements: readonly Replacement[]) =>
  replacements.reduce((t, [from, to]) => t.replaceAll(from, to), text);
/** An iCalendar file's lines unfolded (RFC 5545 3.1): a name folded across two lines is found too. */
const unfolded = (ics: string) => ics.replace(/\r\n[ \t]/g, "");

/** The other party's mails about the person's bookings, naming "Deleted user" where they named them and quoting none of their words. */
async function forgetInOthersMails(db: Queryable, person: ErasedRecipient, bookingIds: readonly string[]): Promise<void> {
  if (bookingIds.length === 0) return;
  const name = [person.firstName, person.lastName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(" ");
  const text: Replacement[] = [
    // Longest first: a quote may hold their name or address.
    ...[...new Set(person.words)]
      .filter((w) => w.trim().length >= QUOTED_AT_LEAST)
      .sort((a, b) => b.length - a.length)
      .map((w) => [w, ERASED_TEXT] as const),
    ...(name ? [[name, ERASED_PERSON_NAME] as const] : []),
    [person.email, erasedEmail(person.userId)] as const,
  ];
  const html = text.map(([from, to]) => [escapeHtml(from), escapeHtml(to)] as const);
  const { rows } = await db.query<{
    message_id: string;
    subject: string;
    text_body: string;
    html_body: string;
    attachments: MailAttachment[];
  }>("SELECT message_id, subject, text_body, html_body, attachments FROM mail_outbox WHERE booking_id = ANY($1)", [bookingIds]);
  for (const row of rows) {
    const attachments = row.attachments.map((a) => {
      if (a.encoding === "base64") return a;
      const content = unfolded(a.content);
      return text.some(([from]) => content.includes(from)) ? { ...a, content: replaced(content, text) } : a;
    });
    const next = {
      subject: replaced(row.subject, text),
      text_body: replaced(row.text_body, text),
      html_body: replaced(row.html_body, html),
    };
    const same = next.subject === row.subject && next.text_body === row.text_body && next.html_body === row.html_body;
    if (same && attachments.every((a, i) => a === row.attachments[i])) continue;
    await db.query(
      "UPDATE mail_outbox SET subject = $2, text_body = $3, html_body = $4, attachments = $5, updated_at = now() WHERE message_id = $1",
      [row.message_id, next.subject, next.text_body, next.html_body, JSON.stringify(attachments)],
    );
  }
}

/**
 * Everything the mail records hold of an erased person: their mails (dropped or emptied), the help requests they wrote
 * (answered to their address), and their name, address and words in the other party's mails about `bookingIds`.
 */
export async function forgetInMail(db: Queryable, person: ErasedRecipient, bookingIds: readonly string[], version: number): Promise<void> {
  await dropMailsTo(db, person.userId, person.email);
  await db.query(
    `UPDATE mail_outbox SET subject = $2, text_body = $2, html_body = $2, headers = '{}', updated_at = now()
     WHERE kind = 'support_request' AND lower(headers->>'Reply-To') = lower($1)`,
    [person.email, ERASED_TEXT],
  );
  await forgetInOthersMails(db, person, bookingIds);
  await forgetMailPerson(db, person.userId, version);
}
