import { formatPosition, type Actor } from "@booking/contracts";
import { factsProjection, streamEntityId } from "../projection.ts";

type BookingEventRow = {
  event_id: string;
  booking_id: string;
  expert_id: string;
  stream_version: number;
  type: string;
  data: Record<string, unknown>;
  actor: Actor | null;
  occurred_at: string;
  position: string;
};

/** Each booking's full event history, for the admin timeline. */
export const bookingEventsProjection = factsProjection<BookingEventRow>({
  name: "booking_events",
  table: "booking_events",
  key: ["event_id"],
  columns: ["event_id", "booking_id", "expert_id", "stream_version", "type", "data", "actor", "occurred_at", "position"],
  rows: ({ event, stored }) => {
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
  },
});
