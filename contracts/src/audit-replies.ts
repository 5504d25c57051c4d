import { z } from "zod";
import { EventMetadata } from "./events.ts";
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

/** One row of the `earnings` read model: an expert's money in one calendar month (UTC). */
export const EarningsRecord = z.strictObject({
  expert_id: z.string(),
  /** `YYYY-MM` of the payment or refund. */
  month: z.string(),
  payments_count: z.number(),
  paid_cents: z.number(),
  refunded_cents: z.number(),
  stream_version: z.number(),
});
export type EarningsRecord = z.infer<typeof EarningsRecord>;

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
});
export type ProjectionRecord = z.infer<typeof ProjectionRecord>;
