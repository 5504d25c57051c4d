import { briefMomentText, isValidTimezone, momentText } from "@booking/contracts";

// Times and money as a mail states them: in the reader's own zone with the zone named, so
// nobody has to work out what "10:00" meant.

/** The zone to write times in: the one given when it is a real IANA zone, else UTC. */
export const zoneOrUtc = (zone: string | null | undefined): string => (zone && isValidTimezone(zone) ? zone : "UTC");

/** Recipients have no locale on file yet: mails are written in British English, the zone always named. */
const MAIL_LOCALE = "en-GB";

/** "Tuesday, 1 December 2026, 10:00 (Europe/Berlin, GMT+1)"; in UTC "… 09:00 (UTC)" (the shared formatter, as the app writes it). */
export const localTime = (iso: string, zone: string, locale = MAIL_LOCALE): string => momentText(iso, { locale, zone: zoneOrUtc(zone) });

/** "Tue 1 Dec, 10:00": short enough for a subject line (the body names the zone). */
export const shortLocalTime = (iso: string, zone: string, locale = MAIL_LOCALE): string =>
  briefMomentText(iso, { locale, zone: zoneOrUtc(zone) });

/** "$150", "$49.50". */
export function dollars(cents: number): string {
  const whole = cents % 100 === 0;
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** "60 minutes": sessions are booked in minutes, and the app says it so. */
export const duration = (minutes: number): string => `${minutes} minutes`;
