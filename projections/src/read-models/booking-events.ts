import { formatPosition, type AdminBookingEventReply, type BookingEventRecord } from "@booking/contracts";
import { factsProjection, streamEntityId, type ProjectedEvent } from "../projection.ts";
import { bookingEventErasure } from "./bookings-erasure.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

/** A row of the `booking_events` read model: declared once, in contracts. */
export type BookingEventRow = BookingEventRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const bookingEventColumnTypes = {
  event_id: "text",
  booking_id: "text",
  expert_id: "text",
  stream_version: "bigint",
  type: "text",
  data: "jsonb",
  actor: "jsonb",
  occurred_at: "timestamptz",
  position: "text",
} as const satisfies Record<keyof BookingEventRow, ColumnType>;

export const bookingEventColumns = columnsOf<BookingEventRow>(bookingEventColumnTypes);

/** A row as pg returns it, in the Row's JSON shape. */
export const bookingEventFromPg = (raw: Record<string, unknown>): BookingEventRow =>
  rowFromPg<BookingEventRow>(bookingEventColumnTypes, raw);

/** The whole rule: an event of a booking on its expert's calendar stream is one row; anything else none. */
export function bookingEventRows({ event, stored }: ProjectedEvent): BookingEventRow[] {
  const data = event.data as Record<string, unknown>;
  if (!stored.streamId.startsWith("calendar-") || typeof data.bookingId !== "string") return [];
  return [
    {
      event_id: stored.eventId,
      booking_id: data.bookingId,
      expert_id: streamEntityId(stored.streamId),
      stream_version: stored.version,
      type: event.type,
      data,
      actor: stored.metadata.actor ?? null,
      occurred_at: stored.metadata.at,
      position: formatPosition(stored.position),
    },
  ];
}

/** Each booking's full event history, for the admin timeline. */
export const bookingEventsProjection = factsProjection<BookingEventRow>({
  name: "booking_events",
  version: 1,
  table: "booking_events",
  key: ["event_id"],
  columns: bookingEventColumns,
  rows: bookingEventRows,
  erasure: bookingEventErasure,
});

// The admin list: every booking's history as one flat list.

export const bookingEventSelectList = bookingEventColumns.map((c) => `e.${c}`).join(", ");

/** A row of the admin list as the console gets it (contracts' AdminBookingEventReply), keyed by the event id. */
export function adminBookingEventReply(raw: Record<string, unknown>): AdminBookingEventReply {
  const row = bookingEventFromPg(raw);
  return { id: row.event_id, ...row };
}

export async function findAdminBookingEvent(db: Queryable, eventId: string): Promise<AdminBookingEventReply | null> {
  const raw = (await db.query(`SELECT ${bookingEventSelectList} FROM booking_events e WHERE e.event_id = $1`, [eventId])).rows[0];
  return raw ? adminBookingEventReply(raw) : null;
}

/** The admin list's sort whitelist, as SQL over `e`. Within a calendar stream the version orders events exactly; time alone may tie. */
export const bookingEventListSort: Record<string, string | readonly string[]> = {
  id: "e.event_id",
  occurred_at: ["e.occurred_at", "e.expert_id", "e.stream_version"],
  stream_version: ["e.expert_id", "e.stream_version"],
  booking_id: ["e.booking_id", "e.stream_version"],
  type: "e.type",
};
