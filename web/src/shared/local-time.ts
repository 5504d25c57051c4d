import { DateTime } from "luxon";

// Times are stored as UTC instants and shown in the viewer's own timezone, with the zone named.

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** "8/4/25 2:00 PM" (spec section 4), in `zone`. */
export function shortDateTime(iso: string, zone = browserZone()): string {
  return DateTime.fromISO(iso, { zone }).toFormat("M/d/yy h:mm a");
}

/** "EST" / "GMT+1": the zone's abbreviation at that instant. */
export function zoneAbbreviation(iso: string, zone = browserZone()): string {
  return DateTime.fromISO(iso, { zone }).toFormat("ZZZZ");
}

/** "8/4/25 2:00 PM EST". */
export function shortDateTimeWithZone(iso: string, zone = browserZone()): string {
  return `${shortDateTime(iso, zone)} ${zoneAbbreviation(iso, zone)}`;
}

/** "2:00 PM". */
export function clockTime(iso: string, zone = browserZone()): string {
  return DateTime.fromISO(iso, { zone }).toFormat("h:mm a");
}

/** "Monday, August 4, 2025". */
export function longDate(iso: string, zone = browserZone()): string {
  return DateTime.fromISO(iso, { zone }).toFormat("cccc, LLLL d, yyyy");
}

/** "New York time (America/New_York)": the zone named for people. */
export function zoneLabel(zone = browserZone()): string {
  const city = zone.split("/").pop()?.replace(/_/g, " ") ?? zone;
  return `${city} time (${zone})`;
}

/** "(UTC+01:00) Europe/London": a zone with its current offset. */
export function zoneWithOffset(zone: string, at = DateTime.now()): string {
  return `(UTC${at.setZone(zone).toFormat("ZZ")}) ${zone}`;
}

/** The calendar day (yyyy-MM-dd) of an instant in `zone`. */
export function dayOf(iso: string, zone = browserZone()): string {
  return DateTime.fromISO(iso, { zone }).toISODate() ?? "";
}
