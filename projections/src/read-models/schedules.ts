import type { ScheduleRecord, ScheduleReply } from "@booking/contracts";
import { entityProjection, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

// The `schedules` read model, whole: its Row, columns, rule, its query and the schedule reply.

/** A row of the `schedules` read model: declared once, in contracts. */
export type ScheduleRow = ScheduleRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const scheduleColumnTypes = {
  expert_id: "text", timezone: "text", slots: "jsonb", updated_at: "timestamptz", stream_version: "bigint",
} as const satisfies Record<keyof ScheduleRow, ColumnType>;

export const scheduleColumns = columnsOf<ScheduleRow>(scheduleColumnTypes);

/** A row as pg returns it, in the Row's JSON shape (numbers and ISO strings), parsed here once. */
export const scheduleFromPg = (raw: Record<string, unknown>): ScheduleRow => rowFromPg<ScheduleRow>(scheduleColumnTypes, raw);

/** Each expert's weekly schedule (the booked periods come from the bookings read model). */
export const schedulesProjection = entityProjection<ScheduleRow>({
  name: "schedules",
  table: "schedules",
  key: ["expert_id"],
  columns: scheduleColumns,
  rowKey: ({ event }) => (event.type === "ScheduleSet" ? [event.data.expertId] : null),
  evolve: evolveSchedule,
});

/** The whole rule: a schedule set replaces the one before it; nothing else changes it. */
export function evolveSchedule(row: ScheduleRow | undefined, { event, stored }: ProjectedEvent): ScheduleRow | undefined {
  if (event.type !== "ScheduleSet") return row;
  const { expertId, timezone, slots } = event.data;
  return { expert_id: expertId, timezone, slots, updated_at: stored.metadata.at, stream_version: stored.version };
}

/** An expert's schedule as last set, or null before one is. */
export async function findSchedule(db: Queryable, expertId: string): Promise<ScheduleRow | null> {
  const raw = (await db.query(`SELECT ${scheduleColumns.map((c) => `sc.${c}`).join(", ")} FROM schedules sc WHERE sc.expert_id = $1`, [expertId])).rows[0];
  return raw ? scheduleFromPg(raw) : null;
}

/** GET /experts/{expertId}/schedule (contracts' ScheduleReply): no zone and no slots before a schedule is set. */
export function scheduleReply(row: ScheduleRow | null, booked: ScheduleReply["booked"]): ScheduleReply {
  return { timezone: row?.timezone ?? null, slots: row?.slots ?? [], booked };
}
