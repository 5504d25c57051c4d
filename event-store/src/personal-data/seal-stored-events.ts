import type pg from "pg";
import { isDeclaredEventType, personalFieldsOf } from "@booking/contracts";
import type { KeyRing } from "./data-keys.ts";
import { PersonalDataOwnerError, sealEvent } from "./envelope.ts";
import type { EventPartySource } from "./sealed-event-store.ts";

// The one-time migration of a log written before personal data was sealed (issue 33.1; `npm run seal-stored-events`,
// api/src/processes/seal-stored-events.ts): every stored event's personal fields are rewritten in place as envelopes,
// batch by batch in log order, in the `events` table of the Postgres store. Fields sealed already are left as they are (sealEvent opens them and keeps
// them), so a second run, or a run over a log partly sealed (the API seals every new event meanwhile), rewrites
// nothing it rewrote before; an owner erased meanwhile gets their kind's marker, never their text again.
//
// Nothing is published again, and no checkpoint moves: the read models hold plain text by design and every reader of
// the log (projectors, reactors, replay, time travel) opens plain and sealed fields alike, so none of them can tell the
// difference. Messages the relay put on Kafka before the migration keep the plain text they were published with until
// the topic's retention drops them; new messages carry envelopes (see README, "Personal data in the log").
// EventStoreDB's events cannot be rewritten (a stream is append-only there): the command refuses to run on it.

export type SealingProgress = { done: number; rewritten: number; total: number };

export type SealingResult = {
  /** Events looked at, and those whose data was rewritten. */
  events: number;
  rewritten: number;
  /** Events left as they were because a personal field's owner could not be told (each named, at most 20). */
  leftPlain: { eventId: string; type: string; why: string }[];
  leftPlainCount: number;
  /** Snapshots deleted because their state was stored in plain text (the next cold load folds the stream, sealed). */
  plainSnapshotsDeleted: number;
};

type EventRow = { global_position: string; event_id: string; stream_id: string; type: string; data: unknown };

const MAX_NAMED = 20;

/**
 * Seal every stored event's personal fields in place. `pool`: the Postgres store's database (its `events` table);
 * `keys`: the data keys under DATA_KEY_SECRET; `parties`: who the parties of a booking's event are (it is told of each
 * BookingRequested as the log goes by, so a booking's later events find their parties without a lookup).
 */
export async function sealStoredEvents(
  deps: { pool: pg.Pool; keys: KeyRing; parties: EventPartySource },
  options: { batchSize?: number; onProgress?: (p: SealingProgress) => void } = {},
): Promise<SealingResult> {
  const batchSize = options.batchSize ?? 1000;
  const total = Number((await deps.pool.query<{ n: string }>("SELECT count(*) AS n FROM events")).rows[0]!.n);
  const result: SealingResult = { events: 0, rewritten: 0, leftPlain: [], leftPlainCount: 0, plainSnapshotsDeleted: 0 };
  for (let after = "0"; ;) {
    const { rows } = await deps.pool.query<EventRow>(
      `SELECT global_position, event_id::text AS event_id, stream_id, type, data FROM events
       WHERE global_position > $1 ORDER BY global_position LIMIT $2`,
      [after, batchSize],
    );
    if (rows.length === 0) break;
    const changed: { position: string; data: string }[] = [];
    for (const row of rows) {
      const sealed = await sealRow(row, deps, result);
      if (sealed !== null) changed.push({ position: row.global_position, data: JSON.stringify(sealed) });
    }
    // One statement per batch; each batch commits on its own, so a stopped run keeps what it did and a new run goes on.
    if (changed.length > 0) {
      await deps.pool.query(
        `UPDATE events e SET data = v.data FROM unnest($1::bigint[], $2::jsonb[]) AS v(position, data) WHERE e.global_position = v.position`,
        [changed.map((c) => c.position), changed.map((c) => c.data)],
      );
    }
    result.events += rows.length;
    result.rewritten += changed.length;
    options.onProgress?.({ done: result.events, rewritten: result.rewritten, total: Math.max(total, result.events) });
    after = rows[rows.length - 1]!.global_position;
  }
  result.plainSnapshotsDeleted = await deletePlainSnapshots(deps.pool);
  return result;
}

/** The row's data sealed; null when nothing changes (nothing personal, or sealed already) or its owner cannot be told. */
async function sealRow(row: EventRow, deps: { keys: KeyRing; parties: EventPartySource }, result: SealingResult): Promise<unknown> {
  const event = { type: row.type, data: row.data };
  deps.parties.written?.(row.stream_id, [event]);
  if (!isDeclaredEventType(row.type) || personalFieldsOf(row.type).length === 0) return null;
  try {
    const parties = personalFieldsOf(row.type).some((f) => !("idIn" in f.owner))
      ? await deps.parties.partiesOf(row.stream_id, event, [])
      : {};
    const sealed = await sealEvent(event, deps.keys, parties);
    return sealed === event ? null : sealed.data;
  } catch (e) {
    if (!(e instanceof PersonalDataOwnerError)) throw e;
    result.leftPlainCount++;
    if (result.leftPlain.length < MAX_NAMED) result.leftPlain.push({ eventId: row.event_id, type: row.type, why: e.message });
    return null;
  }
}

/** Snapshots written before sealing hold plain state: deleted (a snapshot is only a shortcut). */
async function deletePlainSnapshots(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ t: string | null }>("SELECT to_regclass('snapshots')::text AS t");
  if (!rows[0]?.t) return 0;
  const deleted = await pool.query("DELETE FROM snapshots WHERE json_typeof(state) <> 'string'");
  return deleted.rowCount ?? 0;
}
