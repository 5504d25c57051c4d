import type { Queryable } from "../reactors/index.ts";
import { forgetMailPerson } from "./erasure.ts";
import type { MailFact } from "./facts.ts";
import { REMINDER_KINDS, type BookingState, type Recipient } from "./owed.ts";
import type { MailPerson } from "./templates/booking.ts";
import { zoneOrUtc } from "./templates/when.ts";

// The mail reactor's tables: the facts a mail needs (people, schedule zones,
// bookings). Each write is guarded by the stream version, so a batch read again changes nothing.

/** Apply a fact to the tables; false when a row already holds it (a redelivery) or the fact is about something unknown. */
export async function applyFact(db: Queryable, fact: MailFact): Promise<boolean> {
  const v = fact.version;
  const run = async (sql: string, values: unknown[]) => (await db.query(sql, values)).rowCount === 1;
  switch (fact.kind) {
    case "registered":
      return run(
        `INSERT INTO mail_people (user_id, email, first_name, last_name, timezone, reminder_mails, version) VALUES ($1, $2, $3, $4, $5, true, $6)
         ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name,
           timezone = EXCLUDED.timezone, reminder_mails = true, version = EXCLUDED.version
         WHERE mail_people.version < EXCLUDED.version`,
        [fact.userId, fact.email, fact.firstName, fact.lastName, fact.timezone, v],
      );
    case "renamed":
      return run("UPDATE mail_people SET first_name = $2, last_name = $3, version = $4 WHERE user_id = $1 AND version < $4", [
        fact.userId,
        fact.firstName,
        fact.lastName,
        v,
      ]);
    case "preferences":
      return run("UPDATE mail_people SET timezone = $2, reminder_mails = $3, version = $4 WHERE user_id = $1 AND version < $4", [
        fact.userId,
        fact.timezone,
        fact.reminderMails,
        v,
      ]);
    case "erased":
      // Read again, it owes the dropping again: a mail queued meanwhile from the person's earlier events is dropped too.
      await forgetMailPerson(db, fact.userId, v);
      return true;
    case "schedule":
      return run(
        `INSERT INTO mail_calendars (expert_id, timezone, version) VALUES ($1, $2, $3)
         ON CONFLICT (expert_id) DO UPDATE SET timezone = EXCLUDED.timezone, version = EXCLUDED.version WHERE mail_calendars.version < EXCLUDED.version`,
        [fact.expertId, fact.timezone, v],
      );
    case "requested":
      return run(
        `INSERT INTO mail_bookings (booking_id, expert_id, expert_user_id, creator_id, title, starts_at, length_minutes, price_cents, version, instant,
           full_refund_hours)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (booking_id) DO NOTHING`,
        [
          fact.bookingId,
          fact.expertId,
          fact.expertUserId,
          fact.creatorId,
          fact.title,
          fact.startsAt,
          fact.lengthMinutes,
          fact.priceCents,
          v,
          fact.instant,
          fact.fullRefundHours,
        ],
      );
    case "paid":
      return run(
        `UPDATE mail_bookings SET paid_cents = paid_cents + $2, respond_by = coalesce($4, respond_by), version = $3,
           currency = coalesce($5, currency), payment_event_id = $6, payment_id = $7, paid_at = $8
         WHERE booking_id = $1 AND version < $3`,
        [fact.bookingId, fact.amountCents, v, fact.respondBy, fact.currency ?? null, fact.eventId, fact.paymentId ?? null, fact.at],
      );
    case "time_proposed":
    case "rescheduled":
      return run("UPDATE mail_bookings SET starts_at = $2, version = $3 WHERE booking_id = $1 AND version < $3", [
        fact.bookingId,
        fact.startsAt,
        v,
      ]);
    case "join_link_set":
      return run("UPDATE mail_bookings SET join_link = $2, version = $3 WHERE booking_id = $1 AND version < $3", [
        fact.bookingId,
        fact.url,
        v,
      ]);
    case "confirmed":
      return run(
        "UPDATE mail_bookings SET confirmed = true, meeting_room = coalesce($3, meeting_room), version = $2 WHERE booking_id = $1 AND version < $2",
        [fact.bookingId, v, fact.meetingRoom],
      );
    case "expert_profile":
      return run(
        `INSERT INTO mail_experts (expert_id, user_id, version) VALUES ($1, $2, $3)
         ON CONFLICT (expert_id) DO UPDATE SET user_id = EXCLUDED.user_id, version = EXCLUDED.version WHERE mail_experts.version < EXCLUDED.version`,
        [fact.expertId, fact.userId, v],
      );
    case "vetting":
      // A decision is mailed once: its version marks it read (a redelivery changes nothing).
      return run("UPDATE mail_experts SET version = $2 WHERE expert_id = $1 AND version < $2", [fact.expertId, v]);
    // A conversation's own stream: its versions are not the booking's. A message owes a mail once per period (the outbox keeps
    // the first of an id); a mute is kept by its own version.
    case "message_sent":
      return true;
    case "conversation_muted":
      return run(
        `INSERT INTO mail_muted_threads (booking_id, user_id, muted, version) VALUES ($1, $2, $3, $4)
         ON CONFLICT (booking_id, user_id) DO UPDATE SET muted = EXCLUDED.muted, version = EXCLUDED.version
         WHERE mail_muted_threads.version < EXCLUDED.version`,
        [fact.bookingId, fact.userId, fact.muted, v],
      );
    case "info_requested":
    case "reschedule_requested":
    case "reschedule_declined":
    case "reschedule_withdrawn":
    case "cancelled":
    case "refund_issued":
    case "notes_added":
    case "dispute_opened":
    case "dispute_closed":
    case "no_show_reported":
    case "no_show_contested":
    case "no_show_settled":
      // Nothing a mail states changes; the version marks the fact as read.
      return run("UPDATE mail_bookings SET version = $2 WHERE booking_id = $1 AND version < $2", [fact.bookingId, v]);
  }
}

type StateRow = {
  booking_id: string;
  title: string;
  starts_at: Date;
  confirmed: boolean;
  join_link: string | null;
  instant: boolean;
  respond_by: Date | null;
  meeting_room: string | null;
  full_refund_hours: number;
  length_minutes: number;
  price_cents: string;
  paid_cents: string;
  expert_user_id: string;
  creator_id: string;
  schedule_zone: string | null;
} & Record<`${"e" | "c"}_${"email" | "first_name" | "last_name" | "timezone"}`, string | null> &
  Record<`${"e" | "c"}_reminder_mails`, boolean | null> &
  Record<`${"e" | "c"}_version`, number | null>;

function recipient(r: StateRow, side: "e" | "c", userId: string, zone: string | null): Recipient | null {
  const email = r[`${side}_email`];
  if (email === null) return null;
  return {
    userId,
    email,
    firstName: r[`${side}_first_name`],
    lastName: r[`${side}_last_name`],
    zone: zoneOrUtc(zone),
    reminderMails: r[`${side}_reminder_mails`] ?? true,
    version: r[`${side}_version`] ?? 0,
  };
}

/** A booking with both parties, as a mail about it needs them; null if the booking is unknown. */
export async function loadBookingState(db: Queryable, bookingId: string): Promise<BookingState | null> {
  const people = (p: "e" | "c") =>
    `${p}.email AS ${p}_email, ${p}.first_name AS ${p}_first_name, ${p}.last_name AS ${p}_last_name, ` +
    `${p}.timezone AS ${p}_timezone, ${p}.reminder_mails AS ${p}_reminder_mails, ${p}.version AS ${p}_version`;
  const r = (
    await db.query<StateRow>(
      `SELECT b.booking_id, b.title, b.starts_at, b.length_minutes, b.price_cents, b.paid_cents, b.confirmed, b.join_link,
              b.instant, b.respond_by, b.meeting_room, b.full_refund_hours, b.expert_user_id, b.creator_id, cal.timezone AS schedule_zone,
              ${people("e")}, ${people("c")}
       FROM mail_bookings b
       LEFT JOIN mail_calendars cal ON cal.expert_id = b.expert_id
       LEFT JOIN mail_people e ON e.user_id = b.expert_user_id
       LEFT JOIN mail_people c ON c.user_id = b.creator_id
       WHERE b.booking_id = $1`,
      [bookingId],
    )
  ).rows[0];
  if (!r) return null;
  return {
    booking: {
      bookingId: r.booking_id,
      title: r.title,
      startsAt: r.starts_at.toISOString(),
      lengthMinutes: r.length_minutes,
      priceCents: Number(r.price_cents),
      joinLink: r.join_link,
      instant: r.instant,
      respondBy: r.respond_by?.toISOString() ?? null,
      meetingRoom: r.meeting_room,
      fullRefundHours: r.full_refund_hours,
    },
    paidCents: Number(r.paid_cents),
    confirmed: r.confirmed,
    // The expert's times follow their schedule's zone (what they set their hours in), else their own.
    expert: recipient(r, "e", r.expert_user_id, r.schedule_zone ?? r.e_timezone),
    creator: recipient(r, "c", r.creator_id, r.c_timezone),
  };
}

/** The expert's account as a mail to them needs it; null when the profile or the account is unknown. */
export async function loadExpertRecipient(db: Queryable, expertId: string): Promise<(MailPerson & { userId: string }) | null> {
  const r = (
    await db.query<{ user_id: string; email: string; first_name: string | null; last_name: string | null; timezone: string | null }>(
      `SELECT p.user_id, p.email, p.first_name, p.last_name, p.timezone FROM mail_experts x JOIN mail_people p ON p.user_id = x.user_id
       WHERE x.expert_id = $1`,
      [expertId],
    )
  ).rows[0];
  return r ? { userId: r.user_id, email: r.email, firstName: r.first_name, lastName: r.last_name, zone: zoneOrUtc(r.timezone) } : null;
}

const SKIP =
  "UPDATE mail_outbox SET status = 'skipped', skipped_reason = $2, updated_at = now() WHERE status = 'pending' AND kind = ANY($3)";

/**
 * Skip a booking's pending reminders, with why; `keepingStart`: those for that start stay (a time
 * change read again after the new time's reminders were queued leaves them be); `sparingEvent`:
 * those that event queued stay (the same, for a change that queues reminders at the same time).
 */
export async function skipBookingReminders(
  db: Queryable,
  bookingId: string,
  reason: string,
  keepingStart: string | null = null,
  sparingEvent: string | null = null,
): Promise<void> {
  await db.query(
    `${SKIP} AND booking_id = $1 AND ($4::timestamptz IS NULL OR send_before IS DISTINCT FROM $4::timestamptz) ` +
      `AND ($5::text IS NULL OR message_id NOT LIKE $5 || ':%')`,
    [bookingId, reason, REMINDER_KINDS, keepingStart, sparingEvent],
  );
}

/** Skip a user's pending reminders queued before their user stream reached `version` (an opt-out read again spares later ones). */
export async function skipUserReminders(db: Queryable, userId: string, version: number, reason: string): Promise<void> {
  await db.query(`${SKIP} AND user_id = $1 AND (preferences_version IS NULL OR preferences_version < $4)`, [
    userId,
    reason,
    REMINDER_KINDS,
    version,
  ]);
}

/** Whether the reader muted the booking's conversation (issue 31.3). */
export async function mutedThread(db: Queryable, bookingId: string, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ muted: boolean }>("SELECT muted FROM mail_muted_threads WHERE booking_id = $1 AND user_id = $2", [
    bookingId,
    userId,
  ]);
  return rows[0]?.muted ?? false;
}
