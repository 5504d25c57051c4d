import type pg from "pg";
import { parsePosition } from "@booking/contracts";

// A reader that checks every read it makes returns a complete generation: each read model's row
// count, read in one statement with its checkpoint, equals what the log says up to that
// checkpoint. A half-built table (or rows switched without their checkpoint, or a checkpoint
// without its rows) shows as a difference.

/** For each read model, its rows in terms of the events of the log (an SQL aggregate over `events`). */
export const rowsFromLog: Record<string, string> = {
  bookings: "count(*) FILTER (WHERE type = 'BookingRequested')",
  earnings: "count(*) FILTER (WHERE type = 'BookingRequested')",
  booking_events: "count(*) FILTER (WHERE stream_id LIKE 'calendar-%' AND data ? 'bookingId')",
  sessions: "count(DISTINCT stream_id) FILTER (WHERE type = 'SessionCreated')",
  experts: "count(DISTINCT data->>'expertId') FILTER (WHERE type = 'ExpertProfileSaved')",
  schedules: "count(DISTINCT stream_id) FILTER (WHERE type = 'ScheduleSet')",
  users: "count(DISTINCT data->>'userId') FILTER (WHERE type = 'UserRegistered')",
  terms_acceptances: "count(DISTINCT (data->>'userId', data->>'versionId')) FILTER (WHERE type = 'TermsAccepted')",
  reviews: "count(DISTINCT stream_id) FILTER (WHERE type = 'ReviewLeft')",
};

export type GenerationRead = { name: string; generation: number; rows: number; expected: number; at: number };

/** One read of one read model: its rows and checkpoint in one statement (one snapshot), then the log's count up to that checkpoint. */
export async function readOnce(readModels: pg.Pool, store: pg.Pool, name: string): Promise<GenerationRead> {
  const { rows } = await readModels.query<{ position: string | null; generation: number; n: string }>(
    `SELECT c.position, c.generation, (SELECT count(*) FROM "${name}") AS n FROM projection_checkpoints c WHERE c.name = $1`,
    [name],
  );
  const row = rows[0]!;
  const position = row.position ? parsePosition(row.position) : null;
  const { rows: counted } = await store.query<{ n: string }>(
    `SELECT ${rowsFromLog[name]} AS n FROM events WHERE (transaction_id, global_position) <= ($1::text::xid8, $2::bigint)`,
    [String(position?.commit ?? 0n), String(position?.prepare ?? 0n)],
  );
  return { name, generation: row.generation, rows: Number(row.n), expected: Number(counted[0]!.n), at: performance.now() };
}

/** Read every read model named, over and over, until stopped; every read is kept. */
export function readContinuously(readModels: pg.Pool, store: pg.Pool, names: readonly string[] = Object.keys(rowsFromLog)) {
  const reads: GenerationRead[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const name of names) reads.push(await readOnce(readModels, store, name));
    }
  })();
  return {
    reads,
    stop: async () => {
      stopped = true;
      await loop;
      return reads;
    },
  };
}

/** The reads whose rows differ from the log: a reader saw an incomplete generation. */
export const incomplete = (reads: readonly GenerationRead[]) => reads.filter((r) => r.rows !== r.expected);
