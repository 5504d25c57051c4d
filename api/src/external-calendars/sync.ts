import type pg from "pg";
import {
  EXTERNAL_CALENDAR_MAX_BACKOFF_MINUTES,
  EXTERNAL_CALENDAR_SYNC_MINUTES,
  refusalMessage,
  type Actor,
  type Refusal,
} from "@booking/contracts";
import { calendarStream } from "@booking/engine";
import type { Projected } from "../http/index.ts";
import type { CalendarCommands } from "../main/index.ts";
import type { CalDavCredentials } from "./caldav-account.ts";
import { readConnection, readWindow, type ConnectionSecret } from "./calendar-reader.ts";
import { recordSynced, recordSyncFailed, type CalendarReadOutcome, type ConnectionWithCalendars } from "./connections-table.ts";
import type { SecretBox } from "./secret-box.ts";

// One read of a connection, start to end: its blocking calendars read, each calendar's busy times
// given to the expert's calendar stream (which records them only when they changed), calendars no
// longer blocking cleared, and the outcome kept for the expert to see (last sync, last error, the
// next read after back-off). The caller holds the connection's lease: one read in flight at a time.

export type CalendarSyncDeps = {
  db: pg.Pool;
  calendar: CalendarCommands;
  box: SecretBox;
  /** The SSRF-checking fetch (calendar-fetch.ts). */
  fetch: typeof globalThis.fetch;
  clock: () => string;
  /** A request waits for the read models to show the busy times (the listing's next opening); the sweeper does not. */
  projected?: Projected;
};

const SYNC_ACTOR: Actor = { userId: "calendar-sync", role: "system" };
const MINUTE_MS = 60_000;

/** Rule: after n failures in a row the next read waits the sync interval doubled n times, at most six hours. */
export function nextReadAfter(now: string, failures: number): string {
  const minutes = Math.min(EXTERNAL_CALENDAR_SYNC_MINUTES * 2 ** Math.min(failures, 16), EXTERNAL_CALENDAR_MAX_BACKOFF_MINUTES);
  return new Date(Date.parse(now) + minutes * MINUTE_MS).toISOString();
}

export const secretOf = (box: SecretBox, c: Pick<ConnectionWithCalendars, "kind" | "sealed_secret">): ConnectionSecret =>
  c.kind === "ics"
    ? { kind: "ics", url: box.open(c.sealed_secret) }
    : { kind: "caldav", ...(JSON.parse(box.open(c.sealed_secret)) as { serverUrl: string; username: string; password: string }) };

/** The account of a CalDAV connection (the only kind that receives bookings). */
export function calDavCredentialsOf(box: SecretBox, c: Pick<ConnectionWithCalendars, "kind" | "sealed_secret">): CalDavCredentials {
  const secret = secretOf(box, c);
  if (secret.kind !== "caldav") throw new Error("Only a CalDAV connection has an account to write to");
  return secret;
}

/** Read the connection now; resolves to the refusal that stopped it, or null when every calendar was read. */
export async function syncConnection(deps: CalendarSyncDeps, c: ConnectionWithCalendars): Promise<Refusal | null> {
  const { db, calendar, box, fetch, clock } = deps;
  const now = clock();
  const stream = calendarStream(c.expert_id);
  const { state } = await calendar.load(stream);
  const reading = await readConnection(c, secretOf(box, c), { fetch, now, timezone: state.schedule?.timezone ?? "UTC" });
  const failed = async (r: Refusal) => {
    await recordSyncFailed(db, c.connection_id, refusalMessage(r), nextReadAfter(now, c.failures + 1));
    return r;
  };
  if (!reading.ok) return failed(reading.refusal);
  const base = { expertId: c.expert_id, actor: SYNC_ACTOR };
  const outcomes: CalendarReadOutcome[] = [];
  for (const r of reading.readings) {
    const known = { calendar_id: r.calendar.calendar_id, etag: r.etag, last_modified: r.lastModified };
    if (r.busy === null) {
      outcomes.push({ ...known, busy_count: r.calendar.busy_count, in_full: false });
      continue;
    }
    const result = await calendar.handle(
      stream,
      { type: "SyncExternalBusyTimes", ...base, sourceId: r.calendar.calendar_id, ...readWindow(now), busy: r.busy },
      { actor: SYNC_ACTOR },
    );
    if (!result.ok) return failed(result.refusal);
    await deps.projected?.(result.value);
    outcomes.push({ ...known, busy_count: r.busy.length, in_full: true });
  }
  for (const k of c.calendars.filter((k) => !k.blocks && state.externalBusy.has(k.calendar_id))) {
    const result = await calendar.handle(
      stream,
      { type: "RemoveExternalBusyTimes", ...base, sourceId: k.calendar_id },
      { actor: SYNC_ACTOR },
    );
    if (!result.ok) return failed(result.refusal);
    await deps.projected?.(result.value);
    outcomes.push({ calendar_id: k.calendar_id, busy_count: 0, etag: null, last_modified: null, in_full: false });
  }
  await recordSynced(db, c.connection_id, now, nextReadAfter(now, 0), outcomes);
  return null;
}

/** Clears every calendar of a connection from the expert's calendar stream (disconnecting). */
export async function clearConnection(
  { calendar, projected }: Pick<CalendarSyncDeps, "calendar" | "projected">,
  c: ConnectionWithCalendars,
  actor: Actor,
): Promise<Refusal | null> {
  for (const k of c.calendars) {
    const result = await calendar.handle(
      calendarStream(c.expert_id),
      { type: "RemoveExternalBusyTimes", expertId: c.expert_id, actor, sourceId: k.calendar_id },
      { actor },
    );
    if (!result.ok) return result.refusal;
    await projected?.(result.value);
  }
  return null;
}
