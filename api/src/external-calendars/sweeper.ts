import { sweepEvery, type SweepGate } from "../bookings/index.ts";
import { leaseConnections } from "./connections-table.ts";
import { syncConnection, type CalendarSyncDeps } from "./sync.ts";

// Every connected calendar read again every EXTERNAL_CALENDAR_SYNC_MINUTES (later after failures):
// the sweeper takes the connections due under a lease, so two processes never read one at once.

/** Long enough for a read of every calendar of a connection at the fetch's time limit. */
export const SYNC_LEASE_MS = 5 * 60_000;

/** Reads every connection due now, a batch at a time; resolves to how many were read. */
export async function syncDueCalendars(deps: CalendarSyncDeps, limit = 20): Promise<number> {
  const now = deps.clock();
  const due = await leaseConnections(deps.db, now, new Date(Date.parse(now) + SYNC_LEASE_MS).toISOString(), { due: true, limit });
  for (const c of due) await syncConnection(deps, c);
  return due.length;
}

export const startCalendarSyncSweeper = (deps: CalendarSyncDeps, gate: SweepGate, everyMs = 30_000) =>
  sweepEvery(() => syncDueCalendars(deps), everyMs, gate);
