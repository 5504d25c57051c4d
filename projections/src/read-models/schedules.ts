import { sql, type Projection } from "../projection.ts";

/** Each expert's weekly schedule (the booked periods come from the bookings read model). */
export const schedulesProjection: Projection = {
  name: "schedules",
  tables: ["schedules"],
  project: ({ event, stored }) =>
    event.type === "ScheduleSet"
      ? [
          sql(
            `INSERT INTO schedules (expert_id, timezone, slots, updated_at, stream_version) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (expert_id) DO UPDATE SET timezone = EXCLUDED.timezone, slots = EXCLUDED.slots, updated_at = EXCLUDED.updated_at, stream_version = EXCLUDED.stream_version
             WHERE schedules.stream_version < EXCLUDED.stream_version`,
            event.data.expertId, event.data.timezone, JSON.stringify(event.data.slots), stored.metadata.at, stored.version,
          ),
        ]
      : [],
};
