import type pg from "pg";
import { bookingReplyColumns, type BookingReply, type BookingStatus, type CreatorBookingFacts } from "@booking/contracts";
import { bookingColumns, bookingFromPg, type BookingRow } from "./bookings.ts";

// The readers of the `bookings` read model: every query of it, what a booking's reply is made
// of, and the SQL form of the hold rule. The api's routes, the admin list and the hold sweeper
// use these; none of them names a column list of its own.

/** A pool, or one client of it (inside a transaction or under a lock). */
export type Queryable = Pick<pg.Pool | pg.ClientBase, "query">;

/** A booking with the names its parties show under (from the users and experts read models). */
export type BookingWithParties = BookingRow & {
  creator_first_name: string | null;
  creator_last_name: string | null;
  expert_first_name: string | null;
  expert_last_name: string | null;
  expert_image: string | null;
};

/** Every column of the table, as `b.column` (the alias every query here uses). */
export const bookingSelectList = bookingColumns.map((c) => `b.${c}`).join(", ");

const WITH_PARTIES = `SELECT ${bookingSelectList}, u.first_name AS creator_first_name, u.last_name AS creator_last_name,
  e.first_name AS expert_first_name, e.last_name AS expert_last_name, e.profile_image AS expert_image
  FROM bookings b LEFT JOIN users u ON u.user_id = b.creator_id LEFT JOIN experts e ON e.expert_id = b.expert_id`;

type PartyNames = Omit<BookingWithParties, keyof BookingRow>;

const withParties = (raw: BookingRow & PartyNames): BookingWithParties => ({
  ...bookingFromPg(raw),
  creator_first_name: raw.creator_first_name,
  creator_last_name: raw.creator_last_name,
  expert_first_name: raw.expert_first_name,
  expert_last_name: raw.expert_last_name,
  expert_image: raw.expert_image,
});

export async function findBooking(db: Queryable, bookingId: string): Promise<BookingWithParties | null> {
  const raw = (await db.query(`${WITH_PARTIES} WHERE b.booking_id = $1`, [bookingId])).rows[0];
  return raw ? withParties(raw) : null;
}

/** Where a page of a person's bookings starts: after this booking in the list's order (newest start first). */
export type BookingsCursor = { scheduledTime: string; bookingId: string };
/** A page of a person's bookings, newest start first, and where the next page starts (null: this is the last). */
export type BookingsPage = { bookings: BookingWithParties[]; next: BookingsCursor | null };

/**
 * One page of bookings matching `who` (a condition on `b` over $1), by keyset: the order is the
 * start then the id, both descending, so a page starts strictly after the last row of the one
 * before whatever is booked meanwhile, and reading any page costs the same (no OFFSET).
 */
async function bookingsPage(
  db: Queryable,
  who: string,
  id: string,
  page: { after: BookingsCursor | null; limit: number },
): Promise<BookingsPage> {
  const after = page.after ? `AND (b.scheduled_time, b.booking_id) < ($3::timestamptz, $4)` : "";
  const values = [id, page.limit + 1, ...(page.after ? [page.after.scheduledTime, page.after.bookingId] : [])];
  const { rows } = await db.query(
    `${WITH_PARTIES} WHERE ${who} ${after} ORDER BY b.scheduled_time DESC, b.booking_id DESC LIMIT $2`,
    values,
  );
  const bookings = rows.slice(0, page.limit).map(withParties);
  const last = bookings.at(-1);
  return { bookings, next: rows.length > page.limit && last ? { scheduledTime: last.scheduled_time, bookingId: last.booking_id } : null };
}

export const bookingsOfCreator = (db: Queryable, creatorId: string, page: { after: BookingsCursor | null; limit: number }) =>
  bookingsPage(db, "b.creator_id = $1", creatorId, page);

/**
 * An expert's bookings: the ones a creator paid for (issue 27.9). A hold still being paid, or one
 * released unpaid, is the creator's business; the expert saw those as cancelled bookings.
 */
export const bookingsOfExpertUser = (db: Queryable, expertUserId: string, page: { after: BookingsCursor | null; limit: number }) =>
  bookingsPage(db, "b.expert_user_id = $1 AND b.paid_cents > 0", expertUserId, page);

const name = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(" ") || null;

/**
 * What a reply shows that the clock and the deployment decide, by the engine's rules (the route
 * works it out; projections do not read the engine): whether the request to move the booking is
 * still open, and the meeting link as the parties may see it now.
 */
export type BookingReplyView = {
  rescheduleOpen: boolean;
  joinLink: { url: string | null; opensAt: string | null; source: "expert" | "generated" | null };
};

/** What GET /bookings/:id and the dashboards send for a booking (contracts' BookingReply): the columns it names as they are, and what is made of the rest. */
export function bookingReply(r: BookingWithParties, view: BookingReplyView): BookingReply {
  const answers = r.prep_answers ?? [];
  const price = r.price_cents / 100;
  const columns = Object.fromEntries(Object.keys(bookingReplyColumns).map((c) => [c, r[c as keyof BookingRow]])) as Pick<
    BookingRow,
    keyof typeof bookingReplyColumns
  >;
  return {
    ...columns,
    id: r.booking_id,
    session: { title: r.session_title, price, expertFirstName: r.expert_first_name },
    creator_name: name(r.creator_first_name, r.creator_last_name),
    expert_name: name(r.expert_first_name, r.expert_last_name),
    expert_image: r.expert_image,
    profile_image: r.expert_image,
    prep_question_1: r.prep_questions[0] ?? null,
    prep_question_2: r.prep_questions[1] ?? null,
    prep_question_3: r.prep_questions[2] ?? null,
    prep_response_1: answers[0] ?? null,
    prep_response_2: answers[1] ?? null,
    prep_response_3: answers[2] ?? null,
    price,
    paid: r.paid_cents >= r.price_cents,
    has_notes: r.notes !== null,
    reschedule_to: view.rescheduleOpen ? r.reschedule_to : null,
    reschedule_requested_at: view.rescheduleOpen ? r.reschedule_requested_at : null,
    join_link: view.joinLink.url,
    join_link_opens_at: view.joinLink.opensAt,
    join_link_source: view.joinLink.source,
  };
}

/*
 * The hold rule in SQL. The engine owns it (holdExpired and blocksTime in
 * engine/src/calendar/calendar.ts); these fragments say the same over the `b` alias, for the two
 * reads that must filter in Postgres: the sweeper, whose LIMIT would otherwise fill up with paid
 * bookings past their hold, and the public schedule's booked periods. projections/test/
 * bookings-hold-rule.int.test.ts checks both against the engine on every status × paid × expired case.
 * `now` is the placeholder of an ISO instant, e.g. "$2".
 */

/** holdExpired: a pending booking not fully paid whose hold has run out. */
export const holdExpiredSql = (now: string) =>
  `(b.status = 'pending' AND b.paid_cents < b.price_cents AND b.held_until <= ${now}::timestamptz)`;

/** blocksTime: an active booking, unless it is a hold that has expired. */
export const blocksTimeSql = (now: string) =>
  `(b.status IN ('pending', 'time_proposed', 'more_info_requested', 'confirmed') AND NOT ${holdExpiredSql(now)})`;

/** openReschedule: a request to move the booking whose new time and the booking's current start are both still ahead. */
export const openRescheduleSql = (now: string) =>
  `(b.reschedule_to IS NOT NULL AND b.reschedule_to > ${now}::timestamptz AND b.scheduled_time > ${now}::timestamptz)`;

/** Statuses of a booking that may still hold its time (which ones do is the calendar's call). */
const ACTIVE: readonly BookingStatus[] = ["pending", "time_proposed", "more_info_requested", "confirmed"];

/**
 * The creator's bookings with every expert that may still hold time, as facts for a booking
 * request; which of them hold it (an unpaid hold expires) is the calendar rules' call.
 */
export async function creatorBookingFacts(db: Queryable, creatorId: string, now: string): Promise<CreatorBookingFacts[]> {
  const { rows } = await db.query(
    `SELECT ${bookingSelectList} FROM bookings b
     WHERE b.creator_id = $1 AND b.status = ANY($3::text[]) AND b.scheduled_time + make_interval(mins => b.length_minutes) > $2::timestamptz`,
    [creatorId, now, ACTIVE],
  );
  return rows.map(bookingFromPg).map((r) => ({
    bookingId: r.booking_id,
    status: r.status,
    scheduledTime: r.scheduled_time,
    lengthMinutes: r.length_minutes,
    heldUntil: r.held_until,
    priceCents: r.price_cents,
    paidCents: r.paid_cents,
    rescheduleTo: r.reschedule_to,
  }));
}

/**
 * Periods an expert's bookings hold (busyPeriods: their own times, and the times open requests to move them
 * hold), as the schedule call's `booked` list shows them.
 */
export async function bookedPeriods(
  db: Queryable,
  expertId: string,
  now: string,
): Promise<{ scheduled_time: string; length_minutes: number }[]> {
  return (await bookedPeriodsOf(db, [expertId], now)).get(expertId) ?? [];
}

/** bookedPeriods of several experts in one statement (the listing's next openings). */
export async function bookedPeriodsOf(
  db: Queryable,
  expertIds: readonly string[],
  now: string,
): Promise<Map<string, { scheduled_time: string; length_minutes: number }[]>> {
  const { rows } = await db.query<{ expert_id: string; scheduled_time: Date; length_minutes: number }>(
    `SELECT t.expert_id, t.scheduled_time, t.length_minutes FROM (
       SELECT b.expert_id, b.scheduled_time, b.length_minutes FROM bookings b WHERE b.expert_id = ANY($1) AND ${blocksTimeSql("$2")}
       UNION ALL
       SELECT b.expert_id, b.reschedule_to, b.length_minutes FROM bookings b
       WHERE b.expert_id = ANY($1) AND ${blocksTimeSql("$2")} AND ${openRescheduleSql("$2")}
     ) t
     WHERE t.scheduled_time + make_interval(mins => t.length_minutes) > $2::timestamptz
     ORDER BY t.scheduled_time`,
    [expertIds, now],
  );
  const periods = new Map<string, { scheduled_time: string; length_minutes: number }[]>();
  for (const r of rows) {
    const list = periods.get(r.expert_id) ?? [];
    list.push({ scheduled_time: r.scheduled_time.toISOString(), length_minutes: r.length_minutes });
    periods.set(r.expert_id, list);
  }
  return periods;
}

/** The meeting links experts set on these bookings and the rooms their confirmations recorded (bookings with neither are absent). */
export async function joinLinksOf(
  db: Queryable,
  bookingIds: readonly string[],
): Promise<Map<string, { joinLink: string | null; meetingRoom: string | null }>> {
  const { rows } = await db.query<{ booking_id: string; join_link: string | null; meeting_room: string | null }>(
    "SELECT booking_id, join_link, meeting_room FROM bookings WHERE booking_id = ANY($1::text[]) AND (join_link IS NOT NULL OR meeting_room IS NOT NULL)",
    [bookingIds],
  );
  return new Map(rows.map((r) => [r.booking_id, { joinLink: r.join_link, meetingRoom: r.meeting_room }]));
}

/** Holds that have run out and are not yet recorded as cancelled, oldest first, for the sweeper. */
export async function expiredHolds(db: Queryable, now: string, limit = 500): Promise<{ booking_id: string; expert_id: string }[]> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string }>(
    `SELECT b.booking_id, b.expert_id FROM bookings b WHERE ${holdExpiredSql("$1")} ORDER BY b.held_until LIMIT $2`,
    [now, limit],
  );
  return rows;
}

/** requestLapsed: a paid request still waiting for its expert past the deadline recorded with its payment (issue 27.6). */
export const requestLapsedSql = (now: string) => `(b.status IN ('pending', 'more_info_requested') AND b.respond_by <= ${now}::timestamptz)`;

/** Requests the expert let lapse and that are not yet recorded as cancelled, oldest deadline first, for the sweeper. */
export async function lapsedRequests(db: Queryable, now: string, limit = 500): Promise<{ booking_id: string; expert_id: string }[]> {
  const { rows } = await db.query<{ booking_id: string; expert_id: string }>(
    `SELECT b.booking_id, b.expert_id FROM bookings b WHERE ${requestLapsedSql("$1")} ORDER BY b.respond_by LIMIT $2`,
    [now, limit],
  );
  return rows;
}

/** The admin list's sort whitelist: the columns an operator may order by, as SQL over `b`. */
export const bookingListSort = {
  id: "b.booking_id",
  ...Object.fromEntries(
    (
      [
        "scheduled_time",
        "created_at",
        "updated_at",
        "held_until",
        "status",
        "payment_state",
        "price_cents",
        "paid_cents",
        "refund_due_cents",
        "refunded_cents",
        "refund_state",
        "session_title",
        "expert_id",
        "creator_id",
      ] as const satisfies readonly (keyof BookingRow)[]
    ).map((c) => [c, `b.${c}`]),
  ),
} as Record<string, string>;
