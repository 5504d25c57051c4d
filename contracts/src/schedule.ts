import { z } from "zod";
import { Id, LocalTime, Timezone, Weekday, minutesOfDay } from "./primitives.ts";

export const WeeklySlot = z.object({
  weekday: Weekday,
  start_local: LocalTime,
  end_local: LocalTime,
});
export type WeeklySlot = z.infer<typeof WeeklySlot>;

/** Rule: every slot ends after it starts, and no two slots of one weekday overlap. */
export const WeeklySchedule = z
  .object({
    timezone: Timezone,
    slots: z.array(WeeklySlot).max(7 * 48),
  })
  .superRefine((schedule, ctx) => {
    for (const slot of schedule.slots) {
      if (minutesOfDay(slot.end_local) <= minutesOfDay(slot.start_local)) {
        ctx.addIssue({ code: "custom", message: "schedule_end_before_start", path: ["slots"] });
        return;
      }
    }
    if (slotsOverlap(schedule.slots)) {
      ctx.addIssue({ code: "custom", message: "schedule_slots_overlap", path: ["slots"] });
    }
  });
export type WeeklySchedule = z.infer<typeof WeeklySchedule>;

export function slotsOverlap(slots: readonly WeeklySlot[]): boolean {
  const sorted = [...slots].sort((a, b) => a.weekday.localeCompare(b.weekday) || minutesOfDay(a.start_local) - minutesOfDay(b.start_local));
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if (prev.weekday === cur.weekday && minutesOfDay(cur.start_local) < minutesOfDay(prev.end_local)) return true;
  }
  return false;
}

// ---- time off, extra hours on a date, booking rules (issue 17) ---------------------------------
// All in the expert's timezone, read off the wall clock the way weekly slots are: a period is a
// range of local date-times, so it follows the expert's hours across DST changes.

/** Buffers an expert may keep before and after each session, in minutes. */
export const BUFFER_OPTIONS_MINUTES = [0, 10, 15, 30] as const;
export type BufferMinutes = (typeof BUFFER_OPTIONS_MINUTES)[number];
/** The longest minimum notice an expert may ask for: a week. */
export const MAX_NOTICE_HOURS = 168;
/** The longest single period of time off. */
export const MAX_TIME_OFF_DAYS = 366;
/** Upcoming periods of time off, and upcoming dates' extra hours, an expert may keep at once. */
export const MAX_UPCOMING_TIME_OFF = 100;
export const MAX_UPCOMING_DATE_OVERRIDES = 100;
export const TIME_OFF_REASON_MAX = 200;

function isRealDate(isoDate: string): boolean {
  const [y, m, d] = isoDate.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A calendar date on the expert's wall clock (YYYY-MM-DD); `code` says what it is for. */
const localDate = (code: "date_override_invalid" | "time_off_range_invalid") =>
  z
    .string({ error: code })
    .regex(/^(19|20)\d\d-\d\d-\d\d$/, { error: code })
    .refine(isRealDate, { error: code });
export const LocalDate = localDate("date_override_invalid");

/** A wall-clock date and time on the half-hour grid (YYYY-MM-DDTHH:mm); strings of this shape sort in time order. */
export const LocalDateTime = z
  .string({ error: "time_off_range_invalid" })
  .regex(/^(19|20)\d\d-\d\d-\d\dT([01]\d|2[0-3]):(00|30)$/, { error: "time_off_range_invalid" })
  .refine((s) => isRealDate(s.slice(0, 10)), { error: "time_off_range_invalid" });

const daysBetween = (startLocal: string, endLocal: string) =>
  (Date.parse(`${endLocal}:00Z`) - Date.parse(`${startLocal}:00Z`)) / 86_400_000;

export const TimeOffReason = z
  .string({ error: "time_off_reason_too_long" })
  .trim()
  .max(TIME_OFF_REASON_MAX, { error: "time_off_reason_too_long" });

/**
 * Rule: time off blocks every moment whose wall-clock reading is at or after `start` and before
 * `end` (whole days are midnight to midnight); it ends after it starts and lasts at most a year.
 */
export const TimeOff = z
  .object({ timeOffId: Id, start: LocalDateTime, end: LocalDateTime, reason: TimeOffReason })
  .refine((t) => t.end > t.start && daysBetween(t.start, t.end) <= MAX_TIME_OFF_DAYS, { error: "time_off_range_invalid", path: ["end"] });
export type TimeOff = z.infer<typeof TimeOff>;

/** Rule: extra hours open `start_local` to `end_local` on one date, besides that weekday's slots; they end after they start. */
export const DateOverride = z
  .object({ overrideId: Id, date: LocalDate, start_local: LocalTime, end_local: LocalTime })
  .refine((o) => minutesOfDay(o.end_local) > minutesOfDay(o.start_local), { error: "date_override_invalid", path: ["end_local"] });
export type DateOverride = z.infer<typeof DateOverride>;

const BufferMinutes = z
  .number({ error: "booking_buffer_invalid" })
  .refine((n): n is BufferMinutes => (BUFFER_OPTIONS_MINUTES as readonly number[]).includes(n), { error: "booking_buffer_invalid" });

/** Per expert: buffers kept free before and after each session, and how long ahead a session must be booked. */
export const BookingRules = z.object({
  bufferBeforeMinutes: BufferMinutes,
  bufferAfterMinutes: BufferMinutes,
  minNoticeHours: z
    .number({ error: "booking_notice_invalid" })
    .int({ error: "booking_notice_invalid" })
    .min(0, { error: "booking_notice_invalid" })
    .max(MAX_NOTICE_HOURS, { error: "booking_notice_invalid" }),
});
export type BookingRules = z.infer<typeof BookingRules>;

/** An expert who never set booking rules: no buffers, no notice. */
export const NO_BOOKING_RULES: BookingRules = { bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minNoticeHours: 0 };

// ---- bodies of the routes that set them (snake case, as the API's fields are) -------------------

/**
 * POST /experts/{expertId}/time-off: either `start` and `end` (local date-times, end exclusive) or
 * `start_date` and `end_date` (whole days, both included). `id` makes a retried request harmless.
 */
export const TimeOffBody = z
  .strictObject({
    id: Id.optional(),
    start: LocalDateTime.optional(),
    end: LocalDateTime.optional(),
    start_date: localDate("time_off_range_invalid").optional(),
    end_date: localDate("time_off_range_invalid").optional(),
    reason: TimeOffReason.optional(),
  })
  .refine(
    (b) =>
      (b.start !== undefined && b.end !== undefined && b.start_date === undefined && b.end_date === undefined) ||
      (b.start === undefined && b.end === undefined && b.start_date !== undefined && b.end_date !== undefined),
    {
      error: "time_off_range_invalid",
    },
  );
export type TimeOffBody = z.infer<typeof TimeOffBody>;

const nextDate = (isoDate: string) => new Date(Date.parse(`${isoDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The body as the calendar's TimeOff (not yet checked: parse it with `TimeOff`). Whole days run from the first midnight to the midnight after the last day. */
export function timeOffOfBody(body: TimeOffBody, timeOffId: string): Record<keyof TimeOff, unknown> {
  const whole = body.start_date !== undefined && body.end_date !== undefined;
  return {
    timeOffId,
    start: whole ? `${body.start_date}T00:00` : body.start,
    end: whole ? `${nextDate(body.end_date!)}T00:00` : body.end,
    reason: body.reason ?? "",
  };
}

/** POST /experts/{expertId}/date-overrides: extra hours on one date. */
export const DateOverrideBody = z.strictObject({ id: Id.optional(), date: LocalDate, start_local: LocalTime, end_local: LocalTime });
export type DateOverrideBody = z.infer<typeof DateOverrideBody>;

/** PUT /experts/{expertId}/booking-rules. */
export const BookingRulesBody = z.strictObject({
  buffer_before_minutes: BookingRules.shape.bufferBeforeMinutes,
  buffer_after_minutes: BookingRules.shape.bufferAfterMinutes,
  min_notice_hours: BookingRules.shape.minNoticeHours,
});
export type BookingRulesBody = z.infer<typeof BookingRulesBody>;
