import type { Currency } from "@booking/contracts";

// The weekly payout's key: one per expert, currency and ISO week, so asking again in the same week
// (another process, a restart, a retry) never pays twice, and the next week asks afresh.

/** The ISO 8601 week of an instant (UTC), as `2026-W48`: weeks start on Monday; week 1 holds the year's first Thursday. */
export function isoWeekOf(at: string): string {
  const d = new Date(at);
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  // The Thursday of this week decides the year the week belongs to.
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const year = day.getUTCFullYear();
  const week = Math.ceil(((day.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}

export const weeklyPayoutKey = (expertId: string, currency: Currency, at: string) => `weekly-${expertId}-${currency}-${isoWeekOf(at)}`;
