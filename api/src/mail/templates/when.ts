import { DateTime } from "luxon";
import { isValidTimezone } from "@booking/contracts";

// Times and money as a mail states them: in the reader's own zone with the zone named, so
// nobody has to work out what "10:00" meant.

/** The zone to write times in: the one given when it is a real IANA zone, else UTC. */
export const zoneOrUtc = (zone: string | null | undefined): string => (zone && isValidTimezone(zone) ? zone : "UTC");

const at = (iso: string, zone: string) => DateTime.fromISO(iso, { zone: zoneOrUtc(zone) }).setLocale("en-GB");

/** "GMT+1", "GMT-8", "GMT+5:30": the offset in force at that instant (so a DST change shows). */
function offsetName(offsetMinutes: number): string {
  if (offsetMinutes === 0) return "GMT";
  const sign = offsetMinutes > 0 ? "+" : "-";
  const hours = Math.floor(Math.abs(offsetMinutes) / 60);
  const minutes = Math.abs(offsetMinutes) % 60;
  return `GMT${sign}${hours}${minutes ? `:${String(minutes).padStart(2, "0")}` : ""}`;
}

/** "Tuesday, 1 December 2026, 10:00 (Europe/Berlin, GMT+1)"; in UTC "… 09:00 (UTC)". */
export function localTime(iso: string, zone: string): string {
  const t = at(iso, zone);
  const named = t.zoneName === "UTC" ? "UTC" : `${t.zoneName}, ${offsetName(t.offset)}`;
  return `${t.toFormat("cccc, d LLLL yyyy, HH:mm")} (${named})`;
}

/** "Tue 1 Dec, 10:00": short enough for a subject line (the body names the zone). */
export const shortLocalTime = (iso: string, zone: string): string => at(iso, zone).toFormat("ccc d LLL, HH:mm");

/** "$150", "$49.50". */
export function dollars(cents: number): string {
  const whole = cents % 100 === 0;
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** "60 minutes": sessions are booked in minutes, and the app says it so. */
export const duration = (minutes: number): string => `${minutes} minutes`;
