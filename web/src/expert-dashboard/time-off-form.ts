import { DateTime } from "luxon";
import {
  BUFFER_OPTIONS_MINUTES,
  MAX_NOTICE_HOURS,
  TIME_OFF_REASON_MAX,
  minutesOfDay,
  shortDayText,
  type BufferMinutes,
  type DateOverrideBody,
  type TimeOffBody,
} from "@booking/contracts";
import type { Schedule } from "../shared/api-types.ts";
import { viewerLocale } from "../shared/viewer-locale.ts";
import { END_BEFORE_START, timeLabel } from "./schedule-form.ts";

// The expert's own time beside the weekly hours: time off, extra hours on a date, buffers and
// notice. Everything here is a wall-clock reading in the expert's timezone ("2026-03-29T01:30"),
// so it is read as such (luxon in UTC, which has no DST gap to shift a time across).

export type TimeOff = NonNullable<Schedule["time_off"]>[number];
export type DateOverride = NonNullable<Schedule["date_overrides"]>[number];
export type BookingRules = NonNullable<Schedule["booking_rules"]>;

const wallClock = (local: string) => DateTime.fromISO(local, { zone: "UTC" });

/** "Wed, 4 Mar 2026" (en-GB), "Wed, Mar 4, 2026" (en-US): the viewer's locale (issue 27.14). */
export const dayLabel = (isoDate: string) => shortDayText(isoDate, viewerLocale());

/** "Wed, Mar 4, 2026, 12:00 PM" (en-US), "Wed, 4 Mar 2026, 12:00" (en-GB). */
const dayTimeLabel = (local: string) => `${dayLabel(local.slice(0, 10))}, ${timeLabel(local.slice(11, 16))}`;

/**
 * How a period of time off reads: whole days by their first and last day ("Fri, Mar 20, 2026 –
 * Fri, Mar 27, 2026", one day alone), hours by their start and end ("Wed, Mar 4, 2026, 12:00 PM –
 * 2:30 PM", the end's date named when it is another day).
 */
export function timeOffLabel(t: Pick<TimeOff, "start" | "end" | "whole_days">): string {
  if (t.whole_days) {
    const first = t.start.slice(0, 10);
    const last = wallClock(t.end).minus({ days: 1 }).toISODate()!;
    return first === last ? dayLabel(first) : `${dayLabel(first)} – ${dayLabel(last)}`;
  }
  const sameDay = t.start.slice(0, 10) === t.end.slice(0, 10);
  return `${dayTimeLabel(t.start)} – ${sameDay ? timeLabel(t.end.slice(11, 16)) : dayTimeLabel(t.end)}`;
}

/** "Sat, Mar 14, 2026, 10:00 AM – 12:00 PM" (en-US). */
export const extraHoursLabel = (o: Pick<DateOverride, "date" | "start_local" | "end_local">) =>
  `${dayLabel(o.date)}, ${timeLabel(o.start_local)} – ${timeLabel(o.end_local)}`;

export type TimeOffForm =
  | { kind: "days"; startDate: string; endDate: string; reason: string }
  | { kind: "hours"; startDate: string; startTime: string; endDate: string; endTime: string; reason: string };

export type TimeOffFormErrors = { startDate?: string; endDate?: string; endTime?: string; reason?: string };

export const CHOOSE_DATE = "Please choose a date.";
export const LAST_DAY_BEFORE_FIRST = "The last day cannot be before the first.";
export const END_NOT_AFTER_START = "The end must be after the start.";
export const REASON_TOO_LONG = `Please keep the label to ${TIME_OFF_REASON_MAX} characters or fewer.`;

/** What stops the form from being sent (the server checks the same and more: past dates, a year at most). */
export function timeOffErrors(form: TimeOffForm): TimeOffFormErrors {
  const errors: TimeOffFormErrors = {};
  if (!form.startDate) errors.startDate = CHOOSE_DATE;
  if (!form.endDate) errors.endDate = CHOOSE_DATE;
  if (form.reason.trim().length > TIME_OFF_REASON_MAX) errors.reason = REASON_TOO_LONG;
  if (errors.startDate || errors.endDate) return errors;
  if (form.kind === "days") {
    if (form.endDate < form.startDate) errors.endDate = LAST_DAY_BEFORE_FIRST;
  } else if (`${form.endDate}T${form.endTime}` <= `${form.startDate}T${form.startTime}`) {
    errors.endTime = END_NOT_AFTER_START;
  }
  return errors;
}

/** POST /experts/{id}/time-off's body: whole days both included, or local date-times with the end exclusive. */
export function timeOffBody(form: TimeOffForm): TimeOffBody {
  const reason = form.reason.trim();
  const label = reason ? { reason } : {};
  if (form.kind === "days") return { start_date: form.startDate, end_date: form.endDate, ...label };
  return { start: `${form.startDate}T${form.startTime}`, end: `${form.endDate}T${form.endTime}`, ...label };
}

export type ExtraHoursForm = { date: string; start: string; end: string };

/** The message of what stops extra hours from being sent, or null. */
export function extraHoursError(form: ExtraHoursForm): string | null {
  if (!form.date) return CHOOSE_DATE;
  if (minutesOfDay(form.end) <= minutesOfDay(form.start)) return END_BEFORE_START;
  return null;
}

export const extraHoursBody = (form: ExtraHoursForm): DateOverrideBody => ({
  date: form.date,
  start_local: form.start,
  end_local: form.end,
});

/** A buffer the API offers (one it never sent reads as none). */
export const bufferOf = (minutes: number): BufferMinutes => BUFFER_OPTIONS_MINUTES.find((m) => m === minutes) ?? 0;

/** "No buffer", "10 minutes", … */
export const BUFFER_OPTIONS = BUFFER_OPTIONS_MINUTES.map((m) => ({ value: m, label: m === 0 ? "No buffer" : `${m} minutes` }));

export const NOTICE_RULE = `A whole number of hours from 0 to ${MAX_NOTICE_HOURS} (a week).`;

/** The minimum notice typed, as hours, or null when it is not a whole number from 0 to 168. */
export function noticeHours(typed: string): number | null {
  if (!/^\d+$/.test(typed.trim())) return null;
  const hours = Number(typed.trim());
  return hours <= MAX_NOTICE_HOURS ? hours : null;
}

/** An expert who never set rules keeps no buffers and asks no notice. */
export const rulesOf = (schedule: Pick<Schedule, "booking_rules">): BookingRules =>
  schedule.booking_rules ?? { buffer_before_minutes: 0, buffer_after_minutes: 0, min_notice_hours: 0 };
