import { calendarQuery, createAccount, createObject, deleteObject, ensureTrailingSlash, fetchCalendars, type DAVResponse } from "tsdav";
import { isErrorCode } from "@booking/contracts";
import { Refused } from "../http/index.ts";

// An expert's CalDAV account (issue 32), through tsdav: its calendars, the events of one in a time
// window (busy times), and the bookings written into the one the expert chose. Every request goes
// through the caller's fetch (the SSRF-checking one), with Basic auth. What fails is told by a code
// of the error catalogue; messages never carry the credentials or an address (they end up in logs).

export type CalDavCredentials = { serverUrl: string; username: string; password: string };

export type FoundCalendar = {
  url: string;
  name: string;
  /** Accepts VEVENTs (its supported-calendar-component-set names VEVENT, or it has none: every component). */
  events: boolean;
  /** Changes whenever the calendar does (getctag), when the server tells it. */
  ctag: string | null;
};

export type CalDavRefusal = "caldav_sign_in_failed" | "caldav_no_calendars" | "calendar_unreachable";

export class CalDavRefused extends Error {
  constructor(
    readonly code: CalDavRefusal,
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = "CalDavRefused";
  }
}

export type CalDavAccount = {
  /** Discover the principal's calendars (current-user-principal → calendar-home-set → calendars). */
  calendars(): Promise<FoundCalendar[]>;
  /** The calendar objects (raw VCALENDAR texts) with events in [from, to): a calendar-query REPORT with a time-range filter. */
  objectsBetween(calendarUrl: string, from: string, to: string): Promise<string[]>;
  /** PUT a VCALENDAR text as `<calendarUrl><fileName>` (create or replace); the object's URL, and its ETag when the server gives one. */
  putEvent(calendarUrl: string, fileName: string, icsText: string): Promise<{ url: string; etag: string | null }>;
  /** DELETE it; one already gone counts as done. */
  removeEvent(objectUrl: string): Promise<void>;
};

type Fetch = typeof globalThis.fetch;

/** What the requests of one call met: a refused sign-in anywhere, or a fetch that never got an answer. */
type Watch = { fetch: Fetch; signInRefused: boolean; unanswered: unknown };

function watched(fetch: Fetch): Watch {
  const watch: Watch = {
    signInRefused: false,
    unanswered: undefined,
    fetch: async (input, init) => {
      try {
        const response = await fetch(input, init);
        if (response.status === 401 || response.status === 403) watch.signInRefused = true;
        return response;
      } catch (error) {
        watch.unanswered ??= error;
        throw error;
      }
    },
  };
  return watch;
}

/**
 * The caller's fetch may refuse with a code of the catalogue (an address inside a private network,
 * a reply too big or too slow): that says more than "unreachable", so it is passed on as it is.
 */
function refusedByFetch(error: unknown): error is Error {
  if (error instanceof Refused) return true;
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && isErrorCode(code);
}

/** tsdav's own errors name the address they failed on: they are replaced, never wrapped (a logged cause would leak it). */
function refusalFor(watch: Watch, error: unknown, doing: string): Error {
  if (error instanceof CalDavRefused) return error;
  if (watch.signInRefused) return new CalDavRefused("caldav_sign_in_failed");
  if (refusedByFetch(watch.unanswered)) return watch.unanswered;
  if (watch.unanswered !== undefined) return new CalDavRefused("calendar_unreachable", `${doing}: no answer`);
  return new CalDavRefused("calendar_unreachable", `${doing}: the server's answer was not CalDAV`);
}

/** One account operation: its own watch, and whatever fails told by a code. */
async function attempt<T>(fetch: Fetch, doing: string, work: (watch: Watch) => Promise<T>): Promise<T> {
  const watch = watched(fetch);
  try {
    return await work(watch);
  } catch (error) {
    throw refusalFor(watch, error, doing);
  }
}

/** A refusal for an HTTP status that is not a success. */
function statusRefusal(status: number, doing: string): CalDavRefused {
  if (status === 401 || status === 403) return new CalDavRefused("caldav_sign_in_failed");
  return new CalDavRefused("calendar_unreachable", `${doing} answered ${status}`);
}

/** tsdav's parse of a 207 keeps the whole document as `raw`; an empty one, `<multistatus/>`, has no `props` but is still one. */
const isMultistatus = (response: DAVResponse): boolean =>
  typeof response.raw === "object" && response.raw !== null && "multistatus" in response.raw;

/** tsdav turns XML texts that look like numbers or booleans into those: a name or ctag is text again. */
function text(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value && typeof value === "object" && "_cdata" in value) return text((value as { _cdata: unknown })._cdata);
  return null;
}

/** A calendar's last path segment, decoded: the name of one without a displayname. */
function lastSegment(url: string): string {
  const segment = new URL(url).pathname.split("/").filter(Boolean).at(-1) ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** RFC 5545 UTC date-time (20260301T090000Z), as a CalDAV time-range wants it. */
function caldavInstant(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${iso}`);
  return `${date.toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
}

/** Our own file names (booking-<id>.ics): a path of their own, never `..` or a folder. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,200}$/;

export function calDavAccount(credentials: CalDavCredentials, fetch: Fetch): CalDavAccount {
  const headers = { authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}` };
  const account = { accountType: "caldav" as const, serverUrl: credentials.serverUrl, credentials: {} };

  return {
    calendars: () =>
      attempt(fetch, "discovering calendars", async (watch) => {
        const found = await createAccount({ account, headers, fetch: watch.fetch });
        const calendars = (await fetchCalendars({ account: found, headers, fetch: watch.fetch })).map((calendar): FoundCalendar => ({
          url: calendar.url,
          name: text(calendar.displayName)?.trim() || lastSegment(calendar.url),
          events: (calendar.components ?? []).length === 0 || (calendar.components ?? []).includes("VEVENT"),
          ctag: text(calendar.ctag),
        }));
        // A PROPFIND refused for want of rights answers a multistatus without calendars, not an error.
        if (watch.signInRefused && calendars.length === 0) throw new CalDavRefused("caldav_sign_in_failed");
        if (!calendars.some((calendar) => calendar.events)) throw new CalDavRefused("caldav_no_calendars");
        return calendars;
      }),

    objectsBetween: async (calendarUrl, from, to) => {
      const range = { start: caldavInstant(from), end: caldavInstant(to) };
      return attempt(fetch, "reading events", async (watch) => {
        const responses: DAVResponse[] = await calendarQuery({
          url: ensureTrailingSlash(calendarUrl),
          props: { "d:getetag": {}, "c:calendar-data": {} },
          filters: {
            "comp-filter": {
              _attributes: { name: "VCALENDAR" },
              "comp-filter": { _attributes: { name: "VEVENT" }, "time-range": { _attributes: range } },
            },
          },
          depth: "1",
          headers,
          fetch: watch.fetch,
        });
        // Anything but a multistatus comes back as one response holding the raw answer: a refusal,
        // or a page that is no calendar (taken as empty, it would hide every busy time).
        const [only] = responses;
        if (responses.length === 1 && only && !isMultistatus(only)) {
          throw only.ok
            ? new CalDavRefused("calendar_unreachable", "the calendar-query's answer was no multistatus")
            : statusRefusal(only.status, "the calendar-query");
        }
        // Every response refused (the collection itself, inside a 207): no calendar to read, not an empty one.
        const refused = responses.filter((response) => response.href && !response.ok);
        if (refused.length > 0 && refused.length === responses.length) throw statusRefusal(refused[0]!.status, "the calendar-query");
        return responses.flatMap((response) => {
          const data = response.ok ? text(response.props?.calendarData) : null;
          return data && data.includes("BEGIN:VCALENDAR") ? [data] : [];
        });
      });
    },

    putEvent: async (calendarUrl, fileName, icsText) => {
      if (!FILE_NAME.test(fileName))
        throw new RangeError("a calendar object's file name is letters, digits, dots, dashes, underscores and @");
      const url = new URL(encodeURIComponent(fileName), ensureTrailingSlash(calendarUrl)).href;
      return attempt(fetch, "writing an event", async (watch) => {
        const response = await createObject({
          url,
          data: icsText,
          headers: { ...headers, "content-type": "text/calendar; charset=utf-8" },
          fetch: watch.fetch,
        });
        await response.body?.cancel();
        if (!response.ok) throw statusRefusal(response.status, "PUT");
        return { url, etag: response.headers.get("etag") };
      });
    },

    removeEvent: (objectUrl) =>
      attempt(fetch, "removing an event", async (watch) => {
        const response = await deleteObject({ url: objectUrl, headers, fetch: watch.fetch });
        await response.body?.cancel();
        // Already gone (removed in the calendar app, or a retry of ours): what was asked is done.
        if (!response.ok && response.status !== 404 && response.status !== 410) throw statusRefusal(response.status, "DELETE");
      }),
  };
}
