import type { Migration, ScheduleRecord, ScheduleReply, TimeOffReply } from "@booking/contracts";
import { erased } from "../erasure.ts";
import { entityProjection, type ProjectedEvent } from "../projection.ts";
import type { Queryable } from "./bookings-queries.ts";
import { columnsOf, rowFromPg, type ColumnType } from "./column-types.ts";

// The `schedules` read model, whole: its Row, columns, rule, its query and the schedule reply.
// Besides the weekly slots it keeps the expert's time off, extra hours on dates and booking rules
// (all on the same calendar stream; the decider refuses them before a schedule is set).

/** A row of the `schedules` read model: declared once, in contracts. */
export type ScheduleRow = ScheduleRecord;

/** What Postgres holds in each column, tied to the Row by the compiler; the column list is its keys. */
const scheduleColumnTypes = {
  expert_id: "text",
  timezone: "text",
  slots: "jsonb",
  time_off: "jsonb",
  date_overrides: "jsonb",
  buffer_before_minutes: "int",
  buffer_after_minutes: "int",
  min_notice_hours: "int",
  external_busy: "jsonb",
  updated_at: "timestamptz",
  stream_version: "bigint",
} as const satisfies Record<keyof ScheduleRow, ColumnType>;

export const scheduleColumns = columnsOf<ScheduleRow>(scheduleColumnTypes);

/** A row as pg returns it, in the Row's JSON shape (numbers and ISO strings), parsed here once. */
export const scheduleFromPg = (raw: Record<string, unknown>): ScheduleRow => rowFromPg<ScheduleRow>(scheduleColumnTypes, raw);

export const scheduleMigrations: readonly Migration[] = [
  {
    // Issue 17: time off, extra hours and booking rules live with the weekly schedule. Rows of
    // experts who set none get the empty defaults, which is what their events say.
    name: "009_schedules_time_off_and_rules",
    sql: `
      ALTER TABLE schedules
        ADD COLUMN time_off jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN date_overrides jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN buffer_before_minutes int NOT NULL DEFAULT 0,
        ADD COLUMN buffer_after_minutes int NOT NULL DEFAULT 0,
        ADD COLUMN min_notice_hours int NOT NULL DEFAULT 0;
    `,
  },
  {
    // Issue 32: the busy times of the expert's connected calendars, by calendar, for the listing's next opening.
    name: "028_schedules_external_busy",
    sql: `ALTER TABLE schedules ADD COLUMN external_busy jsonb NOT NULL DEFAULT '{}';`,
  },
];

const CALENDAR_HOURS_EVENTS: ReadonlySet<string> = new Set([
  "ScheduleSet",
  "TimeOffAdded",
  "TimeOffRemoved",
  "DateOverrideAdded",
  "DateOverrideRemoved",
  "BookingRulesSet",
  "ExternalBusyTimesSynced",
  "ExternalBusyTimesRemoved",
]);

/** Each expert's weekly schedule, time off, extra hours and rules (the booked periods come from the bookings read model). */
export const schedulesProjection = entityProjection<ScheduleRow>({
  name: "schedules",
  version: 1,
  table: "schedules",
  key: ["expert_id"],
  columns: scheduleColumns,
  rowKey: ({ event }) => (CALENDAR_HOURS_EVENTS.has(event.type) && "expertId" in event.data ? [event.data.expertId] : null),
  evolve: evolveSchedule,
  // Issue 33.2: the expert's own notes on their time off go with them.
  erasure: {
    rowsOf: () => "t.expert_id = ANY(p.expert_ids)",
    erase: (rows) => (rows as ScheduleRow[]).map((r) => ({ ...r, time_off: r.time_off.map((t) => ({ ...t, reason: erased(t.reason) })) })),
  },
});

/** Whole days: from one midnight to another. */
const isWholeDays = (start: string, end: string) => start.endsWith("T00:00") && end.endsWith("T00:00");

/**
 * The whole rule: a schedule set replaces the slots and zone before it (time off, extra hours and
 * rules stay); time off and extra hours are added and removed by id; rules set replace the rules.
 * Only a schedule makes a row: the calendar refuses the others before one.
 */
export function evolveSchedule(row: ScheduleRow | undefined, { event, stored }: ProjectedEvent): ScheduleRow | undefined {
  const at = { updated_at: stored.metadata.at, stream_version: stored.version };
  if (event.type === "ScheduleSet") {
    const { expertId, timezone, slots } = event.data;
    const kept = row ?? {
      time_off: [],
      date_overrides: [],
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      min_notice_hours: 0,
      external_busy: {},
    };
    return { ...kept, expert_id: expertId, timezone, slots, ...at };
  }
  if (!row) return row;
  switch (event.type) {
    case "TimeOffAdded": {
      const { timeOffId, start, end, reason } = event.data;
      const added: TimeOffReply = { id: timeOffId, start, end, reason, whole_days: isWholeDays(start, end) };
      return { ...row, time_off: [...row.time_off.filter((t) => t.id !== timeOffId), added], ...at };
    }
    case "TimeOffRemoved":
      return { ...row, time_off: row.time_off.filter((t) => t.id !== event.data.timeOffId), ...at };
    case "DateOverrideAdded": {
      const { overrideId, date, start_local, end_local } = event.data;
      return {
        ...row,
        date_overrides: [...row.date_overrides.filter((o) => o.id !== overrideId), { id: overrideId, date, start_local, end_local }],
        ...at,
      };
    }
    case "DateOverrideRemoved":
      return { ...row, date_overrides: row.date_overrides.filter((o) => o.id !== event.data.overrideId), ...at };
    case "BookingRulesSet": {
      const { bufferBeforeMinutes, bufferAfterMinutes, minNoticeHours } = event.data;
      return {
        ...row,
        buffer_before_minutes: bufferBeforeMinutes,
        buffer_after_minutes: bufferAfterMinutes,
        min_notice_hours: minNoticeHours,
        ...at,
      };
    }
    case "ExternalBusyTimesSynced":
      return { ...row, external_busy: { ...row.external_busy, [event.data.sourceId]: event.data.busy }, ...at };
    case "ExternalBusyTimesRemoved": {
      const { [event.data.sourceId]: _removed, ...kept } = row.external_busy;
      return { ...row, external_busy: kept, ...at };
    }
    default:
      return row;
  }
}

/** An expert's schedule as last set, or null before one is. */
export async function findSchedule(db: Queryable, expertId: string): Promise<ScheduleRow | null> {
  return (await schedulesOf(db, [expertId])).get(expertId) ?? null;
}

/** The schedules of several experts in one statement (the listing's next openings); an expert with none is absent. */
export async function schedulesOf(db: Queryable, expertIds: readonly string[]): Promise<Map<string, ScheduleRow>> {
  const { rows } = await db.query(
    `SELECT ${scheduleColumns.map((c) => `sc.${c}`).join(", ")} FROM schedules sc WHERE sc.expert_id = ANY($1)`,
    [expertIds],
  );
  return new Map(rows.map((raw) => [String(raw.expert_id), scheduleFromPg(raw)]));
}

/**
 * GET /experts/{expertId}/schedule (contracts' ScheduleReply): no zone and no slots before a
 * schedule is set. `own` is for the expert and admins: then the time off and extra hours not over
 * by `nowLocal` (the expert's wall clock now, `YYYY-MM-DDTHH:mm`), earliest first, and the rules.
 */
export function scheduleReply(row: ScheduleRow | null, booked: ScheduleReply["booked"], own?: { nowLocal: string }): ScheduleReply {
  const reply: ScheduleReply = { timezone: row?.timezone ?? null, slots: row?.slots ?? [], booked };
  if (!own) return reply;
  const today = own.nowLocal.slice(0, 10);
  return {
    ...reply,
    time_off: (row?.time_off ?? []).filter((t) => t.end > own.nowLocal).sort((a, b) => a.start.localeCompare(b.start)),
    date_overrides: (row?.date_overrides ?? [])
      .filter((o) => o.date >= today)
      .sort((a, b) => a.date.localeCompare(b.date) || a.start_local.localeCompare(b.start_local)),
    booking_rules: {
      buffer_before_minutes: row?.buffer_before_minutes ?? 0,
      buffer_after_minutes: row?.buffer_after_minutes ?? 0,
      min_notice_hours: row?.min_notice_hours ?? 0,
    },
  };
}
