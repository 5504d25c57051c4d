import {
  DEFAULT_CURRENCY,
  FULL_REFUND_NOTICE_HOURS,
  RESCHEDULE_NOTICE_HOURS,
  type BookingRecord,
  type Migration,
} from "@booking/contracts";
import { entityProjection, streamEntityId, type ProjectedEvent } from "../projection.ts";
import { bookingErasure } from "./bookings-erasure.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

/** A row of the `bookings` read model: declared once, in contracts (the admin console shows it as it is). */
export type BookingRow = BookingRecord;

/**
 * What Postgres holds in each column. The compiler ties it to the Row (no column missing, none
 * extra); the column list is its keys, and a row pg returns is parsed by it once (below).
 */
const bookingColumnTypes = {
  booking_id: "text",
  expert_id: "text",
  expert_user_id: "text",
  creator_id: "text",
  session_id: "text",
  session_title: "text",
  price_cents: "bigint",
  length_minutes: "int",
  scheduled_time: "timestamptz",
  previous_time: "timestamptz",
  held_until: "timestamptz",
  status: "text",
  paid_cents: "bigint",
  refund_due_cents: "bigint",
  refunded_cents: "bigint",
  refund_state: "text",
  payment_state: "text",
  prep_questions: "jsonb",
  prep_answers: "jsonb",
  info_request_note: "text",
  notes: "jsonb",
  cancelled_by: "text",
  cancel_reason: "text",
  cancelled_at: "timestamptz",
  confirmed_at: "timestamptz",
  created_at: "timestamptz",
  updated_at: "timestamptz",
  reschedule_to: "timestamptz",
  reschedule_requested_at: "timestamptz",
  reschedule_declined_to: "timestamptz",
  reschedule_decline_reason: "text",
  join_link: "text",
  instant_booking: "boolean",
  currency: "text",
  respond_by: "timestamptz",
  meeting_room: "text",
  no_show: "jsonb",
  full_refund_hours: "int",
  reschedule_hours: "int",
  disputes: "jsonb",
  stream_version: "bigint",
} as const satisfies Record<keyof BookingRow, ColumnType>;

export const bookingColumns = columnsOf<BookingRow>(bookingColumnTypes);

/** A row as pg returns it, in the Row's JSON shape (pg gives bigints as strings and timestamps as Dates). */
export const bookingFromPg = (raw: Record<string, unknown>): BookingRow => rowFromPg<BookingRow>(bookingColumnTypes, raw);

/**
 * Changes to the table after 001_read_models (schema.ts), oldest first: a new column is added here,
 * beside its Row field and its rule. Read models are rebuilt from events, so a backfill need only be close.
 */
export const bookingMigrations: readonly Migration[] = [
  {
    // Close for rows already cancelled (their last change); a rebuild of `bookings` makes it exact.
    name: "003_bookings_cancelled_at",
    sql: "ALTER TABLE bookings ADD COLUMN cancelled_at timestamptz; UPDATE bookings SET cancelled_at = updated_at WHERE status = 'cancelled';",
  },
  {
    // Unknown for rows confirmed before the column (null) until a rebuild of `bookings` fills it from the events.
    name: "004_bookings_confirmed_at",
    sql: "ALTER TABLE bookings ADD COLUMN confirmed_at timestamptz;",
  },
  {
    // Rows owing a refund before the column show it pending until a rebuild sees what was paid back.
    name: "005_bookings_refunds",
    sql: `ALTER TABLE bookings ADD COLUMN refunded_cents bigint NOT NULL DEFAULT 0, ADD COLUMN refund_state text NOT NULL DEFAULT 'none';
          UPDATE bookings SET refund_state = 'pending' WHERE refund_due_cents > 0;`,
  },
  {
    // No booking had a request to move it or a meeting link before: nothing to backfill.
    name: "010_bookings_reschedule_and_join_link",
    sql: "ALTER TABLE bookings ADD COLUMN reschedule_to timestamptz, ADD COLUMN reschedule_requested_at timestamptz, ADD COLUMN join_link text;",
  },
  {
    // Requests declined before the columns show none until a rebuild of `bookings` reads them from the events.
    name: "013_bookings_declined_move",
    sql: "ALTER TABLE bookings ADD COLUMN reschedule_declined_to timestamptz, ADD COLUMN reschedule_decline_reason text;",
  },
  {
    // Exact, not close: the rule reads only these columns, so a rebuild would label the same rows.
    name: "014_bookings_partially_refunded",
    sql: "UPDATE bookings SET payment_state = 'partially_refunded' WHERE payment_state = 'refunded' AND refunded_cents < paid_cents;",
  },
  {
    // Issue 27.6 and 27.13; version 2 of the projection rebuilds the table, which fills them from the events.
    name: "015_bookings_instant_respond_by_room",
    sql: `ALTER TABLE bookings ADD COLUMN instant_booking boolean NOT NULL DEFAULT false, ADD COLUMN respond_by timestamptz, ADD COLUMN meeting_room text;`,
  },
  {
    // Issue 29.8: bookings made before it are in US dollars, as their events say (no currency): the default is the backfill.
    name: "019_bookings_currency",
    sql: "ALTER TABLE bookings ADD COLUMN currency text NOT NULL DEFAULT 'USD';",
  },
  {
    // Issue 31.1: a no-show report and its end; the sweeper that settles uncontested reports finds the open ones by index.
    name: "023_bookings_no_show",
    sql: `ALTER TABLE bookings ADD COLUMN no_show jsonb;
      CREATE INDEX bookings_no_show_open ON bookings (((no_show->>'contest_by')::text)) WHERE no_show IS NOT NULL AND no_show->>'outcome' IS NULL;`,
  },
  {
    // Issue 31.4: bookings made before it were made under the policy's 24 hours for both, as their events say (none).
    name: "025_bookings_cut_offs",
    sql: "ALTER TABLE bookings ADD COLUMN full_refund_hours int NOT NULL DEFAULT 24, ADD COLUMN reschedule_hours int NOT NULL DEFAULT 24;",
  },
  {
    // Issue 31.2: disputes by the creator's bank; no booking had one before it.
    name: "026_bookings_disputes",
    sql: `ALTER TABLE bookings ADD COLUMN disputes jsonb NOT NULL DEFAULT '[]';
      CREATE INDEX bookings_disputed ON bookings (booking_id) WHERE disputes <> '[]'::jsonb;`,
  },
];

/** Bookings as both parties see them: time, status, payment state, prep, info note, notes. */
export const bookingsProjection = entityProjection<BookingRow>({
  name: "bookings",
  // 2: instant_booking, respond_by and meeting_room (issue 27.6, 27.13), filled by a rebuild. no_show (issue 31.1) needs
  // none: no booking had a report before the column.
  version: 2,
  table: "bookings",
  key: ["booking_id"],
  columns: bookingColumns,
  rowKey: ({ event }) => ("bookingId" in event.data ? [event.data.bookingId] : null),
  evolve: evolveBooking,
  // Issue 33.2: no log held a UserErased before, so the rows this rule keeps are the ones it kept (no new version).
  erasure: bookingErasure,
});

/** The whole rule of the read model: the row as it was (undefined: none yet) and an event, to the row after it. */
export function evolveBooking(row: BookingRow | undefined, { event, stored }: ProjectedEvent): BookingRow | undefined {
  const at = stored.metadata.at;
  if (event.type === "BookingRequested") {
    if (row) return row; // requested once; a second request for the id changes nothing
    const d = event.data;
    return {
      booking_id: d.bookingId,
      expert_id: streamEntityId(stored.streamId),
      expert_user_id: d.expertUserId,
      creator_id: d.creatorId,
      session_id: d.sessionId,
      session_title: d.sessionTitle,
      price_cents: d.priceCents,
      length_minutes: d.lengthMinutes,
      scheduled_time: d.scheduledTime,
      previous_time: null,
      held_until: d.heldUntil,
      status: "pending",
      paid_cents: 0,
      refund_due_cents: 0,
      refunded_cents: 0,
      refund_state: "none",
      payment_state: "unpaid",
      prep_questions: d.prepQuestions,
      prep_answers: null,
      info_request_note: null,
      notes: null,
      cancelled_by: null,
      cancel_reason: null,
      cancelled_at: null,
      confirmed_at: null,
      reschedule_to: null,
      reschedule_requested_at: null,
      ...noDecline,
      join_link: null,
      instant_booking: d.instantBooking ?? false,
      currency: d.currency ?? DEFAULT_CURRENCY,
      respond_by: null,
      meeting_room: null,
      no_show: null,
      full_refund_hours: d.fullRefundHours ?? FULL_REFUND_NOTICE_HOURS,
      reschedule_hours: d.rescheduleHours ?? RESCHEDULE_NOTICE_HOURS,
      disputes: [],
      created_at: at,
      updated_at: at,
      stream_version: stored.version,
    };
  }
  // Every later event updates a booking that was requested; before that there is nothing to update.
  if (!row) return row;
  const next = evolveRequested(row, { event, stored });
  // The expert's deadline shows only while the request waits for them.
  return next && next.respond_by !== null && next.status !== "pending" && next.status !== "more_info_requested"
    ? { ...next, respond_by: null }
    : next;
}

/** A requested booking's row after a later event. */
function evolveRequested(row: BookingRow, { event, stored }: ProjectedEvent): BookingRow {
  const at = stored.metadata.at;
  const updated = { ...row, updated_at: at, stream_version: stored.version };
  switch (event.type) {
    case "PaymentSucceeded":
      return {
        ...updated,
        paid_cents: row.paid_cents + event.data.amountCents,
        payment_state: row.payment_state === "unpaid" ? "paid" : row.payment_state,
        respond_by: event.data.respondBy ?? row.respond_by,
      };
    case "RefundDue":
      return { ...updated, ...owed(row, event.data.amountCents) };
    case "RefundIssued": {
      const refunded = row.refunded_cents + event.data.amountCents;
      const settled = refunded >= row.refund_due_cents;
      const payment_state = settled ? paidBack(row.paid_cents, refunded) : "refund_due";
      return { ...updated, refunded_cents: refunded, refund_state: settled ? "refunded" : "pending", payment_state };
    }
    case "RefundFailed":
      // Stale once everything owed is back (the calendar records no such failure, but an old log may hold one).
      return row.refund_state === "refunded" ? row : { ...updated, refund_state: "failed" };
    case "PrepSubmitted":
      return { ...updated, prep_answers: event.data.answers, status: row.status === "more_info_requested" ? "pending" : row.status };
    case "InfoRequested":
      return { ...updated, status: "more_info_requested", info_request_note: event.data.note };
    case "TimeProposed":
      return {
        ...updated,
        ...noRequest,
        status: "time_proposed",
        scheduled_time: event.data.scheduledTime,
        previous_time: event.data.previousTime,
      };
    case "Confirmed":
      return { ...updated, status: "confirmed", confirmed_at: at, meeting_room: event.data.meetingRoom ?? row.meeting_room };
    case "Cancelled": {
      const { by, reason, refundCents } = event.data;
      // An open request to move it ends with the booking.
      return {
        ...updated,
        ...noRequest,
        status: "cancelled",
        cancelled_by: by,
        cancel_reason: reason,
        cancelled_at: at,
        ...(refundCents > 0 && owed(row, refundCents)),
      };
    }
    case "Completed":
      return { ...updated, ...noRequest, status: "completed" };
    case "NotesAdded":
      return { ...updated, notes: event.data.notes };
    case "RescheduleRequested":
      return { ...updated, ...noDecline, reschedule_to: event.data.to, reschedule_requested_at: at };
    case "RescheduleAccepted":
      // Moved: its status stays, the time it had shows as the previous one.
      return { ...updated, ...noRequest, ...noDecline, scheduled_time: event.data.to, previous_time: event.data.from };
    case "RescheduleDeclined":
      // The creator reads in the app what the mail told them: which time was declined, and why.
      return {
        ...updated,
        ...noRequest,
        reschedule_declined_to: event.data.to,
        reschedule_decline_reason: event.data.reason.trim() || null,
      };
    case "RescheduleWithdrawn":
      return { ...updated, ...noRequest };
    case "JoinLinkSet":
      return { ...updated, join_link: event.data.url };
    case "DisputeOpened": {
      const d = event.data;
      const dispute = {
        dispute_id: d.disputeId,
        payment_id: d.paymentId,
        amount_cents: d.amountCents,
        reason: d.reason,
        status: d.status,
        evidence_due_by: d.evidenceDueBy,
        opened_at: at,
        closed_at: null,
        lost_cents: 0,
        refunded_before_cents: d.refundedCents,
      };
      return { ...updated, disputes: [...row.disputes, dispute] };
    }
    case "DisputeUpdated": {
      const { disputeId, status, evidenceDueBy } = event.data;
      return {
        ...updated,
        disputes: row.disputes.map((x) => (x.dispute_id === disputeId ? { ...x, status, evidence_due_by: evidenceDueBy } : x)),
      };
    }
    case "DisputeClosed": {
      const { disputeId, status, lostCents } = event.data;
      const disputes = row.disputes.map((x) => (x.dispute_id === disputeId ? { ...x, status, closed_at: at, lost_cents: lostCents } : x));
      if (lostCents === 0) return { ...updated, disputes };
      // The bank took it back: owed and returned at once, as a refund that needed no sending.
      const refunded = row.refunded_cents + lostCents;
      const due = row.refund_due_cents + lostCents;
      return {
        ...updated,
        disputes,
        refund_due_cents: due,
        refunded_cents: refunded,
        refund_state: refunded >= due ? "refunded" : row.refund_state,
        payment_state: refunded >= due ? paidBack(row.paid_cents, refunded) : row.payment_state,
      };
    }
    case "NoShowReported": {
      const { absent, note, contestBy } = event.data;
      const no_show = { absent, note, reported_at: at, contest_by: contestBy, contested: false, contest_note: null, contested_at: null };
      return { ...updated, no_show: { ...no_show, outcome: null, refund_cents: null, reason: null, decided_by: null, settled_at: null } };
    }
    case "NoShowContested":
      return row.no_show
        ? { ...updated, no_show: { ...row.no_show, contested: true, contest_note: event.data.note, contested_at: at } }
        : row;
    case "NoShowSettled": {
      const { outcome, refundCents, reason, by } = event.data;
      if (!row.no_show) return row;
      const no_show = { ...row.no_show, outcome, refund_cents: refundCents, reason, decided_by: by, settled_at: at };
      return { ...updated, ...noRequest, status: outcome, no_show };
    }
    default:
      // PaymentFailed and the rest leave the booking as it is (and its version with it).
      return row;
  }
}

/** No declined request to move the booking is shown: another was asked, or one was accepted. */
const noDecline = { reschedule_declined_to: null, reschedule_decline_reason: null } as const satisfies Partial<BookingRow>;

/** No request to move the booking is open. */
const noRequest = { reschedule_to: null, reschedule_requested_at: null } as const satisfies Partial<BookingRow>;

/** Everything owed is back: all that was paid, or only part of it while the rest is still held (an admin's partial refund, a late cancellation). */
const paidBack = (paidCents: number, refundedCents: number): "refunded" | "partially_refunded" =>
  refundedCents >= paidCents ? "refunded" : "partially_refunded";

/** More money owed back: it is pending until the provider pays it. */
function owed(row: BookingRow, cents: number): Pick<BookingRow, "refund_due_cents" | "refund_state" | "payment_state"> {
  return { refund_due_cents: row.refund_due_cents + cents, refund_state: "pending", payment_state: "refund_due" };
}
