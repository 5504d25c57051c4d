import { formatPosition } from "@booking/contracts";
import { sql, streamEntityId, type Projection } from "../projection.ts";

/** Each booking's full event history, for the admin timeline. */
export const bookingEventsProjection: Projection = {
  name: "booking_events",
  tables: ["booking_events"],
  project: ({ event, stored }) => {
    const data = event.data as Record<string, unknown>;
    if (!stored.streamId.startsWith("calendar-") || typeof data.bookingId !== "string") return [];
    return [
      sql(
        `INSERT INTO booking_events (event_id, booking_id, expert_id, stream_version, type, data, actor, occurred_at, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (event_id) DO NOTHING`,
        stored.eventId, data.bookingId, streamEntityId(stored.streamId), stored.version, event.type, JSON.stringify(data),
        stored.metadata.actor ? JSON.stringify(stored.metadata.actor) : null, stored.metadata.at, formatPosition(stored.position),
      ),
    ];
  },
};
