import { DateTime } from "luxon";
import { clockText, dateText, momentText } from "@booking/contracts";
import { viewerLocale } from "./viewer-locale.ts";

// Times are stored as UTC instants and shown in the viewer's own timezone, with the zone named.

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** "Wednesday, 2 December 2026, 14:00 (Europe/London, GMT)" for a UK viewer: a moment in `zone`, the zone named (issue 27.14). */
export function localMoment(iso: string, zone = browserZone(), locale = viewerLocale()): string {
  return momentText(iso, { locale, zone });
}

/** "14:00" or "2:00 PM": the clock in `zone`, for lists whose heading names the zone. */
export function clockTime(iso: string, zone = browserZone(), locale = viewerLocale()): string {
  return clockText(iso, { locale, zone });
}

/** "Wednesday, 2 December 2026" or "Wednesday, December 2, 2026": the day in `zone`. */
export function longDate(iso: string, zone = browserZone(), locale = viewerLocale()): string {
  return dateText(iso, { locale, zone });
}

/** "New York time (America/New_York)": the zone named for people. */
export function zoneLabel(zone = browserZone()): string {
  const city = zone.split("/").pop()?.replace(/_/g, " ") ?? zone;
  return `${city} time (${zone})`;
}

/** The calendar day (yyyy-MM-dd) of an instant in `zone`. */
export function dayOf(iso: string, zone = browserZone()): string {
  return DateTime.fromISO(iso, { zone }).toISODate() ?? "";
}
