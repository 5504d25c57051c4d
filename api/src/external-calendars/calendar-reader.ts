import { STATUS_CODES } from "node:http";
import {
  BOOKING_WINDOW_DAYS,
  MAX_BUSY_TIMES_PER_CALENDAR,
  refusal,
  type BusyInterval,
  type ErrorCode,
  type Refusal,
} from "@booking/contracts";
import { busyTimesOf } from "./busy-times.ts";
import { CalDavRefused, calDavAccount, type CalDavCredentials } from "./caldav-account.ts";
import { CalendarFetchRefused } from "./calendar-fetch.ts";
import type { CalendarRow, ConnectionWithCalendars } from "./connections-table.ts";

// Reading a connection's blocking calendars: an iCal address by GET (its ETag and Last-Modified
// sent back, so an unchanged file costs a 304), a CalDAV calendar by a time-range REPORT. Each
// becomes busy intervals through busy-times.ts. Nothing of an event but its start and end leaves
// this file. A failure is a refusal of the catalogue, so the expert reads what went wrong.

/** How long a file read in full may be answered by a 304: after that it is read again, so the window moves on. */
const VALIDATORS_TRUSTED_MS = 60 * 60_000;
const DAY_MS = 86_400_000;

/** The span read: from now to the end of the booking window, and a day more for sessions that end after it. */
export function readWindow(now: string): { from: string; to: string } {
  return { from: now, to: new Date(Date.parse(now) + (BOOKING_WINDOW_DAYS + 1) * DAY_MS).toISOString() };
}

export type CalendarReading = {
  calendar: CalendarRow;
  /** null: the file has not changed since it was last read in full (a 304). */
  busy: BusyInterval[] | null;
  etag: string | null;
  lastModified: string | null;
};

export type ConnectionReading = { ok: true; readings: CalendarReading[] } | { ok: false; refusal: Refusal };

export type ReadDeps = {
  fetch: typeof globalThis.fetch;
  now: string;
  /** the expert's zone: floating times and all-day dates */ timezone: string;
};

/** The secret of a connection, unsealed: an iCal address, or CalDAV credentials. */
export type ConnectionSecret = { kind: "ics"; url: string } | ({ kind: "caldav" } & CalDavCredentials);

export async function readConnection(c: ConnectionWithCalendars, secret: ConnectionSecret, deps: ReadDeps): Promise<ConnectionReading> {
  try {
    const blocking = c.calendars.filter((k) => k.blocks);
    if (secret.kind === "ics") return { ok: true, readings: await Promise.all(blocking.map((k) => readAddress(k, secret.url, c, deps))) };
    const account = calDavAccount(secret, deps.fetch);
    const window = readWindow(deps.now);
    const readings: CalendarReading[] = [];
    for (const k of blocking) {
      const texts = await account.objectsBetween(k.url!, window.from, window.to);
      readings.push({ calendar: k, busy: busyFrom(texts, c, deps), etag: null, lastModified: null });
    }
    return { ok: true, readings };
  } catch (e) {
    return { ok: false, refusal: refusalOf(e) };
  }
}

/** A read that found something the catalogue names (not iCalendar, too many busy times). */
class ReadRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.code);
  }
}

function refusalOf(e: unknown): Refusal {
  if (e instanceof ReadRefused) return e.refusal;
  if (e instanceof CalendarFetchRefused || e instanceof CalDavRefused) return refusal(e.code as ErrorCode);
  return refusal("calendar_unreachable");
}

function busyFrom(texts: readonly string[], c: ConnectionWithCalendars, deps: ReadDeps): BusyInterval[] {
  const found = busyTimesOf(
    texts,
    { ...readWindow(deps.now), allDayBlocks: c.all_day_blocks, timezone: deps.timezone },
    MAX_BUSY_TIMES_PER_CALENDAR,
  );
  if (found.ok) return found.busy;
  throw new ReadRefused(
    found.reason === "too_many"
      ? refusal("calendar_too_many_busy_times", { max: MAX_BUSY_TIMES_PER_CALENDAR.toLocaleString("en-US") })
      : refusal("calendar_not_icalendar"),
  );
}

async function readAddress(k: CalendarRow, url: string, c: ConnectionWithCalendars, deps: ReadDeps): Promise<CalendarReading> {
  const trusted = k.read_in_full_at !== null && Date.parse(deps.now) - Date.parse(k.read_in_full_at) < VALIDATORS_TRUSTED_MS;
  const headers: Record<string, string> = { accept: "text/calendar, */*;q=0.5" };
  if (trusted && k.etag) headers["if-none-match"] = k.etag;
  if (trusted && k.last_modified) headers["if-modified-since"] = k.last_modified;
  const response = await deps.fetch(url, { headers });
  const validators = { etag: response.headers.get("etag"), lastModified: response.headers.get("last-modified") };
  if (response.status === 304 && trusted) return { calendar: k, busy: null, etag: k.etag, lastModified: k.last_modified };
  if (!response.ok)
    throw new ReadRefused(
      refusal("calendar_fetch_refused", {
        status: `${response.status} ${response.statusText || STATUS_CODES[response.status] || ""}`.trim(),
      }),
    );
  return { calendar: k, busy: busyFrom([await response.text()], c, deps), ...validators };
}
