/**
 * The console's "calendar at an instant" page, its state in the address so that an answer can be
 * shared: `expert`, `at` (an ISO instant), `date` (a local date in the expert's timezone; absent:
 * the date of `on`, else of `at`, there), `on` (an instant whose local date to show) and `length`.
 */
export type CalendarAtParams = { expert?: string; at?: string; date?: string; on?: string; length?: number };

export const CALENDAR_AT_ROUTE = "/calendar-at";

export function calendarAtPath(params: CalendarAtParams): string {
  const query = new URLSearchParams(
    Object.entries(params).flatMap(([key, value]) => (value === undefined || value === "" ? [] : [[key, String(value)]])),
  );
  return `${CALENDAR_AT_ROUTE}?${query}`;
}

/** The local date (YYYY-MM-DD) of an instant in a timezone. */
export function localDateIn(instant: string, timezone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(instant),
  );
}
