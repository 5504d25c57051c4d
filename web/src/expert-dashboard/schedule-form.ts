import { DEFAULT_NEW_SLOT, SLOT_OPTIONS_PER_DAY, SLOT_STEP_MINUTES, WEEKDAYS, minutesOfDay, wallClockText } from "@booking/contracts";
import type { WeeklySlot } from "../shared/api-types.ts";
import { viewerLocale } from "../shared/viewer-locale.ts";

/** The 48 half-hour times of a day, "00:00" to "23:30". */
export const TIME_OPTIONS: string[] = Array.from({ length: SLOT_OPTIONS_PER_DAY }, (_, i) => {
  const m = i * SLOT_STEP_MINUTES;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
});

/** "09:30" -> "9:30 AM" (en-US) or "09:30" (en-GB): the viewer's own clock. */
export function timeLabel(hhmm: string, locale = viewerLocale()): string {
  return wallClockText(hhmm, locale);
}

/** End options: only the times after the start. */
export const endOptions = (start: string) => TIME_OPTIONS.filter((t) => minutesOfDay(t) > minutesOfDay(start));

export const WEEKDAY_OPTIONS = WEEKDAYS.map((d) => ({ value: d, label: d[0]!.toUpperCase() + d.slice(1) }));

export const newSlot = (): WeeklySlot => ({ ...DEFAULT_NEW_SLOT });

export const END_BEFORE_START = "End time must be after start time";

/** "Monday 09:00–12:00". */
export const slotName = (s: WeeklySlot) => `${s.weekday[0]!.toUpperCase()}${s.weekday.slice(1)} ${s.start_local}–${s.end_local}`;

const overlapping = (a: WeeklySlot, b: WeeklySlot) =>
  a.weekday === b.weekday &&
  minutesOfDay(a.start_local) < minutesOfDay(b.end_local) &&
  minutesOfDay(b.start_local) < minutesOfDay(a.end_local);

/**
 * Per slot: the message of its problem, if any. Save all is disabled while any slot has one.
 * An overlap names both slots, e.g. "Monday 09:00–12:00 overlaps Monday 11:00–13:00".
 */
export function slotErrors(slots: WeeklySlot[]): (string | null)[] {
  return slots.map((s, i) => {
    if (minutesOfDay(s.end_local) <= minutesOfDay(s.start_local)) return END_BEFORE_START;
    const other = slots.find((o, j) => j !== i && minutesOfDay(o.end_local) > minutesOfDay(o.start_local) && overlapping(s, o));
    return other ? `${slotName(s)} overlaps ${slotName(other)}` : null;
  });
}

const WORKING_WEEK = WEEKDAYS.slice(0, 5);
const weekOrder = (s: WeeklySlot) => WEEKDAYS.indexOf(s.weekday) * 24 * 60 + minutesOfDay(s.start_local);

/**
 * "Copy to weekdays": Monday to Friday get `source`'s hours, one action instead of a row per day.
 * Weekday slots that would clash with those hours give way; other hours (an evening, the weekend) stay.
 */
export function copyToWeekdays(slots: WeeklySlot[], source: WeeklySlot): WeeklySlot[] {
  const hours = { start_local: source.start_local, end_local: source.end_local };
  const kept = slots.filter((s) => !WORKING_WEEK.some((weekday) => overlapping(s, { weekday, ...hours })));
  return [...kept, ...WORKING_WEEK.map((weekday) => ({ weekday, ...hours }))].sort((a, b) => weekOrder(a) - weekOrder(b));
}
