import { z } from "zod";
import { ExpertIdParams } from "./api.ts";
import { BookingStatus } from "./calendar.ts";
import { EventMetadata } from "./events.ts";
import { Currency } from "./money.ts";
import { pageQueryFields } from "./page-query.ts";
import { Actor } from "./primitives.ts";

// Replies of the audit side, declared once (see replies.ts for the pattern): the event log as
// stored, the booking_events and earnings read models' rows, and the read models' own status.
// Strict objects, on purpose.

/** An instant as a read model returns it (ISO 8601). */
const Time = z.string();
/** An event's data: an object whose fields its type names (the log's schema says which). */
const EventData = z.record(z.string(), z.unknown());

/** One event of the global log, raw as stored (GET /admin/events; id = event id). */
export const LoggedEventRecord = z.strictObject({
  id: z.string(),
  stream_id: z.string(),
  version: z.number(),
  type: z.string(),
  schema_version: z.number(),
  /** `{commit}:{prepare}`: the log's order. */
  position: z.string(),
  recorded_at: Time,
  data: EventData,
  // Shown as stored: a key an older writer added stays visible rather than failing the page.
  metadata: z.looseObject(EventMetadata.shape),
});
export type LoggedEventRecord = z.infer<typeof LoggedEventRecord>;

/** One row of the `booking_events` read model: an event of a booking, from its expert's calendar stream. */
export const BookingEventRecord = z.strictObject({
  event_id: z.string(),
  booking_id: z.string(),
  expert_id: z.string(),
  stream_version: z.number(),
  type: z.string(),
  data: EventData,
  actor: Actor.nullable(),
  occurred_at: Time,
  position: z.string(),
});
export type BookingEventRecord = z.infer<typeof BookingEventRecord>;

/** GET /admin/booking-events: the row, keyed by `id` (the event id). */
export const AdminBookingEventReply = BookingEventRecord.extend({ id: z.string() });
export type AdminBookingEventReply = z.infer<typeof AdminBookingEventReply>;

/**
 * One row of the `earnings` read model: one booking's money as its expert earns it, in the UTC
 * month of the session. Refunds count when owed (a refunding cancellation or a refund due), since
 * owed money is no longer the expert's; `refund_issued_cents` says how much of it has reached the creator.
 */
export const EarningsRecord = z.strictObject({
  booking_id: z.string(),
  expert_id: z.string(),
  session_title: z.string(),
  scheduled_time: Time,
  /** `YYYY-MM` of the session (UTC). */
  month: z.string(),
  status: BookingStatus,
  /** The expert accepted the booking at some point (a later cancellation keeps it true). */
  accepted: z.boolean(),
  /** Counts in the expert's earnings: paid and accepted, or cancelled with part of the payment not refunded. */
  earning: z.boolean(),
  payments_count: z.number(),
  paid_cents: z.number(),
  refunded_cents: z.number(),
  refund_issued_cents: z.number(),
  /** The booking's currency (issue 29.8); every amount of the row is in it. */
  currency: Currency,
  /** The platform's fee rate the booking was paid under (0: paid before fees were recorded). */
  fee_basis_points: z.number(),
  /** The fee on what was kept (paid − refunded) and the expert's share of it (`earningSplit`). */
  fee_cents: z.number(),
  share_cents: z.number(),
  stream_version: z.number(),
});
export type EarningsRecord = z.infer<typeof EarningsRecord>;

/**
 * Earning bookings' money in one currency (amounts of different currencies are never added): in
 * cents, refunds as owed, net = gross − refunds, fee = the platform's fee on the net, share = net − fee.
 */
export const EarningsTotalsReply = z.strictObject({
  currency: Currency,
  sessions: z.number(),
  gross_cents: z.number(),
  refunds_cents: z.number(),
  net_cents: z.number(),
  fee_cents: z.number(),
  share_cents: z.number(),
});
export type EarningsTotalsReply = z.infer<typeof EarningsTotalsReply>;

/** A month with sessions in one currency (a month with sessions in two currencies has two). */
export const EarningsMonthReply = z.strictObject({
  /** `YYYY-MM` (UTC). */
  month: z.string(),
  ...EarningsTotalsReply.shape,
});
export type EarningsMonthReply = z.infer<typeof EarningsMonthReply>;

/**
 * GET /experts/me/earnings and /experts/{expertId}/earnings: the expert's months, newest first (then
 * by currency), and their totals. `totals` is in the currency of the expert's latest earning session
 * (USD and zeros without any); `totals_by_currency` holds one per currency they earned in.
 */
export const ExpertEarningsReply = z.strictObject({
  expert_id: z.string(),
  months: z.array(EarningsMonthReply),
  totals: EarningsTotalsReply,
  totals_by_currency: z.array(EarningsTotalsReply),
});
export type ExpertEarningsReply = z.infer<typeof ExpertEarningsReply>;

/** One booking of a month's earnings. `refund_state`: none owed, owed but not yet paid back, or paid back. */
export const EarningsBookingReply = z.strictObject({
  booking_id: z.string(),
  session_title: z.string(),
  scheduled_time: Time,
  status: BookingStatus,
  currency: Currency,
  gross_cents: z.number(),
  refunds_cents: z.number(),
  net_cents: z.number(),
  fee_basis_points: z.number(),
  fee_cents: z.number(),
  share_cents: z.number(),
  refund_state: z.enum(["none", "pending", "refunded"]),
});
export type EarningsBookingReply = z.infer<typeof EarningsBookingReply>;

/**
 * GET /experts/me/earnings/{month} and /experts/{expertId}/earnings/{month}: the month's totals and its
 * bookings, by session time. The totals are in the currency of the month's latest session;
 * `by_currency` holds the month's totals in each currency it has sessions in.
 */
export const ExpertMonthEarningsReply = EarningsMonthReply.extend({
  expert_id: z.string(),
  by_currency: z.array(EarningsMonthReply),
  bookings: z.array(EarningsBookingReply),
});
export type ExpertMonthEarningsReply = z.infer<typeof ExpertMonthEarningsReply>;

/** A month in a path: `YYYY-MM`. */
export const EarningsMonthParams = z.strictObject({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "invalid_request" }) });
export const ExpertEarningsMonthParams = EarningsMonthParams.extend(ExpertIdParams.shape);

/** A month's bookings per page of its earnings when the client does not say, and the most a page holds (issue 34.5). */
export const EARNINGS_BOOKINGS_PAGE_DEFAULT = 500;

/**
 * A page of a month's earning bookings (issue 34.5): `before` is the cursor a `Link: rel="next"` header gave (the page after
 * it, by session time); `limit` 1-500 (default 500). The month's totals are the whole month's on every page.
 */
export const EarningsMonthQuery = z.strictObject(
  pageQueryFields({
    cursorError: "earnings_cursor_invalid",
    sizeError: "earnings_page_size_invalid",
    max: EARNINGS_BOOKINGS_PAGE_DEFAULT,
    defaultSize: EARNINGS_BOOKINGS_PAGE_DEFAULT,
    items: "Bookings",
    after: "the month's bookings after it",
    first: "the first page",
  }),
);
export type EarningsMonthQuery = z.infer<typeof EarningsMonthQuery>;

/** A rebuild's progress, as the console's progress bar shows it. */
export const RebuildProgress = z.strictObject({
  state: z.enum(["running", "done", "failed"]),
  done: z.number(),
  total: z.number(),
  eventsPerSecond: z.number(),
  secondsLeft: z.number().nullable(),
  started_at: Time,
  finished_at: Time.nullable(),
  error: z.string().optional(),
});
export type RebuildProgress = z.infer<typeof RebuildProgress>;

/**
 * A generation of a read model (blue-green rebuilds): the live one, which readers and the runners
 * use; one being built from the event store; or an old one, retired at a switch and kept until dropped.
 */
export const ProjectionGeneration = z.strictObject({
  generation: z.number(),
  state: z.enum(["live", "building", "retired"]),
  /** The version of the read model's rule that built it. */
  version: z.number(),
  /** Its tables, as named now (the live generation's are the read model's own names). */
  tables: z.array(z.string()),
  position: z.string().nullable(),
  events_applied: z.number(),
  /** Events in the store after its position; null when the store cannot count them. */
  lag: z.number().nullable(),
  started_at: Time.nullable(),
  updated_at: Time,
  retired_at: Time.nullable(),
  /** Being built by a process now (false for one a crash left: the next rebuild drops it). */
  running: z.boolean(),
});
export type ProjectionGeneration = z.infer<typeof ProjectionGeneration>;

/** A read model (GET /admin/projections; id = name): its checkpoint, lag behind the event store, last error and latest rebuild. */
export const ProjectionRecord = z.strictObject({
  id: z.string(),
  name: z.string(),
  tables: z.array(z.string()),
  status: z.enum(["live", "rebuilding", "not_started"]),
  position: z.string().nullable(),
  events_applied: z.number(),
  last_error: z.string().nullable(),
  updated_at: Time.nullable(),
  /** Events in the store after the checkpoint; null when the store cannot count them. */
  lag: z.number().nullable(),
  /** The latest rebuild started by the API process that answers, if any. */
  rebuild: RebuildProgress.nullable(),
  /** The version of the read model's rule in the API process that answers. */
  version: z.number(),
  /** Events in the store (the head a generation catches up to); null when the store cannot count them. */
  head_events: z.number().nullable(),
  /** The live generation first, then one being built, then retired ones. */
  generations: z.array(ProjectionGeneration),
});
export type ProjectionRecord = z.infer<typeof ProjectionRecord>;
