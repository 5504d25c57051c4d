// Dates and times as people read them (issue 27.14): the reader's own locale writes the words and their
// order ("Wednesday, 2 December 2026" or "Wednesday, December 2, 2026"), never numerals a UK and a US
// reader take for different days, and a moment always names its zone. The web app, the console and the
// mails all write through these, so one instant reads the same everywhere. Plain Intl: no library, so
// the browser and the API share it.

/** Who reads a time: their locale (a BCP 47 tag, e.g. "en-GB") and the IANA zone they live in. */
export interface Reader {
  locale: string;
  zone: string;
}

/** The locale to write in: the one given when the runtime knows it, else British English. */
export function readableLocale(locale: string | null | undefined): string {
  if (!locale) return "en-GB";
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? "en-GB";
  } catch {
    return "en-GB";
  }
}

/** The zone to write in: the one given when the runtime knows it, else UTC. */
function knownZone(zone: string): string {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    return "UTC";
  }
}

// ICU puts a narrow no-break space before "PM" and thin spaces around range dashes; a plain space reads
// the same, copies cleanly and keeps mails plain text.
const plainSpaces = (text: string) => text.replace(/[\u202f\u2009]/g, " ");

// Building a formatter costs far more than using one, and a list writes the same few shapes many times.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

function write(iso: string, reader: Reader, options: Intl.DateTimeFormatOptions): string {
  // Not an instant (a corrupt or hand-typed value): shown as it is rather than breaking the screen.
  if (Number.isNaN(new Date(iso).getTime())) return iso;
  return plainSpaces(formatter(readableLocale(reader.locale), { ...options, timeZone: knownZone(reader.zone) }).format(new Date(iso)));
}

const DAY: Intl.DateTimeFormatOptions = { weekday: "long", day: "numeric", month: "long", year: "numeric" };
const CLOCK: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };

/** A 24-hour locale writes "01:30" (as the mails always have), a 12-hour one "1:30 AM". */
function clockFor(locale: string): Intl.DateTimeFormatOptions {
  const cycle = formatter(readableLocale(locale), CLOCK).resolvedOptions().hourCycle;
  return cycle === "h23" || cycle === "h24" ? { ...CLOCK, hour: "2-digit" } : CLOCK;
}

/** Minutes the zone's clock is ahead of UTC at that instant (so a DST change shows). */
function offsetMinutes(iso: string, zone: string): number {
  const instant = new Date(iso);
  const parts = formatter("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wallClock = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return Math.round((wallClock - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** "GMT", "GMT+1", "GMT-8", "GMT+5:30". */
function offsetName(minutes: number): string {
  if (minutes === 0) return "GMT";
  const sign = minutes > 0 ? "+" : "-";
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = Math.abs(minutes) % 60;
  return `GMT${sign}${hours}${rest ? `:${String(rest).padStart(2, "0")}` : ""}`;
}

/** "Europe/London, GMT+1" (the offset in force at that instant), or "UTC". */
export function zoneText(iso: string, zone: string): string {
  const known = knownZone(zone);
  return known === "UTC" || known === "Etc/UTC" ? "UTC" : `${known}, ${offsetName(offsetMinutes(iso, known))}`;
}

/** "Wednesday, 2 December 2026" (en-GB), "Wednesday, December 2, 2026" (en-US): the instant's day where the reader is. */
export function dateText(iso: string, reader: Reader): string {
  return write(iso, reader, DAY);
}

/** A calendar day ("2026-12-02", no instant, so no zone): "Wednesday, 2 December 2026". */
export function dayText(day: string, locale: string): string {
  return write(`${day.slice(0, 10)}T12:00:00Z`, { locale, zone: "UTC" }, DAY);
}

/**
 * "14:00" (en-GB), "2:00 PM" (en-US): the clock where the reader is; the page or line names the zone. An audit
 * trail asks for `seconds` ("14:00:05"): a request and its payment often share a minute.
 */
export function clockText(iso: string, reader: Reader, precision: "minutes" | "seconds" = "minutes"): string {
  return write(iso, reader, { ...clockFor(reader.locale), ...(precision === "seconds" ? { second: "2-digit" } : {}) });
}

/** A calendar day, short, for lists of days: "Wed, 2 Dec 2026" (en-GB), "Wed, Dec 2, 2026" (en-US). */
export function shortDayText(day: string, locale: string): string {
  return write(
    `${day.slice(0, 10)}T12:00:00Z`,
    { locale, zone: "UTC" },
    { weekday: "short", day: "numeric", month: "short", year: "numeric" },
  );
}

/** A wall-clock time of no particular day ("14:00" as stored for a weekly slot): "14:00", "2:00 PM". */
export function wallClockText(hhmm: string, locale: string): string {
  return write(`2000-01-01T${hhmm.slice(0, 5)}:00Z`, { locale, zone: "UTC" }, clockFor(locale));
}

/** "Wednesday, 2 December 2026, 14:00 (Europe/London, GMT)": a moment with its day, clock and zone. */
export function momentText(iso: string, reader: Reader, precision: "minutes" | "seconds" = "minutes"): string {
  if (Number.isNaN(new Date(iso).getTime())) return iso;
  return `${dateText(iso, reader)}, ${clockText(iso, reader, precision)} (${zoneText(iso, reader.zone)})`;
}

/** "Wed 2 Dec, 14:00" (en-GB), "Wed, Dec 2, 2:00 PM" (en-US): short enough for a mail's subject line; the body names the zone. */
export function briefMomentText(iso: string, reader: Reader): string {
  return write(iso, reader, { weekday: "short", day: "numeric", month: "short", ...clockFor(reader.locale) }).replace(" at ", ", ");
}

/**
 * "Wednesday, 2 December 2026, 14:00–15:00 (Europe/London, GMT)"; a range over midnight writes both days:
 * "Wednesday, 2 December 2026, 23:00 – Thursday, 3 December 2026, 01:00 (Europe/London, GMT)".
 */
export function timeRangeText(startIso: string, endIso: string, reader: Reader): string {
  const zone = zoneText(startIso, reader.zone);
  const endZone = zoneText(endIso, reader.zone);
  const zones = zone === endZone ? zone : `${zone} to ${endZone}`;
  const startDay = dateText(startIso, reader);
  const endDay = dateText(endIso, reader);
  if (startDay !== endDay) return `${startDay}, ${clockText(startIso, reader)} – ${endDay}, ${clockText(endIso, reader)} (${zones})`;
  const clocks = formatter(readableLocale(reader.locale), { ...clockFor(reader.locale), timeZone: knownZone(reader.zone) });
  return `${startDay}, ${plainSpaces(clocks.formatRange(new Date(startIso), new Date(endIso)))} (${zones})`;
}

/** A month ("2026-12"): "December 2026". */
export function monthText(month: string, locale: string): string {
  return write(`${month.slice(0, 7)}-15T12:00:00Z`, { locale, zone: "UTC" }, { month: "long", year: "numeric" });
}
