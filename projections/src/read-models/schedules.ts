import type { WeeklySchedule } from "@booking/contracts";
import { entityProjection } from "../projection.ts";

type ScheduleRow = {
  expert_id: string;
  timezone: string;
  slots: WeeklySchedule["slots"];
  updated_at: string;
  stream_version: number;
};

/** Each expert's weekly schedule (the booked periods come from the bookings read model). */
export const schedulesProjection = entityProjection<ScheduleRow>({
  name: "schedules",
  table: "schedules",
  key: ["expert_id"],
  columns: ["expert_id", "timezone", "slots", "updated_at", "stream_version"],
  rowKey: ({ event }) => (event.type === "ScheduleSet" ? [event.data.expertId] : null),
  evolve: (row, { event, stored }) =>
    event.type === "ScheduleSet"
      ? { expert_id: event.data.expertId, timezone: event.data.timezone, slots: event.data.slots, updated_at: stored.metadata.at, stream_version: stored.version }
      : row,
});
