import { randomUUID } from "node:crypto";
import pg from "pg";
import {
  PostgresEventStore,
  WrongExpectedVersion,
  eventStoreMigrations,
  migrate,
  type AppendResult,
  type ExpectedVersion,
  type NewEvent,
  type StoredEvent,
  type StreamRead,
} from "@booking/engine";

// Experiments for the booking-command figure, kept out of engine/: they show what the fixes we
// recommend would give, measured in the same run. Not for production use as they stand.
//
// 1. `append` as ONE statement (data-modifying CTEs: claim the version, insert the events, notify)
//    run outside an explicit transaction: one round trip and one commit instead of five
//    (BEGIN, claim, insert, notify, COMMIT).
//    `lean`: RETURNING only the log position, not data/metadata back as jsonb to be parsed again.
// 2. `warmReads`: a stream this store has just written or read is not read again before the next
//    decision. In the engine this is "append optimistically at the cached version; on
//    WrongExpectedVersion read what is new and decide again" inside CommandHandler; here it is
//    emulated at the store, which is valid only because the bench's store is the only writer.

const COLUMNS = "global_position, transaction_id::text AS transaction_id, stream_id, version, event_id, type, schema_version, data, metadata, recorded_at";

const LEAN_COLUMNS = "global_position, transaction_id::text AS transaction_id, version, event_id, recorded_at";

type Row = { global_position: string; transaction_id: string; stream_id: string; version: string; event_id: string; type: string; schema_version: number; data: unknown; metadata: StoredEvent["metadata"]; recorded_at: Date };

const toStored = (r: Row): StoredEvent => ({
  eventId: r.event_id,
  streamId: r.stream_id,
  version: Number(r.version),
  position: { commit: BigInt(r.transaction_id), prepare: BigInt(r.global_position) },
  type: r.type,
  schemaVersion: r.schema_version,
  data: r.data,
  metadata: r.metadata,
  recordedAt: r.recorded_at.toISOString(),
});

export class OneTripEventStore extends PostgresEventStore {
  private readonly known = new Map<string, number>();

  constructor(
    pool: pg.Pool,
    private readonly warmReads: boolean,
    private readonly notify = true,
    private readonly lean = false,
  ) {
    super(pool);
  }

  static async open(connectionString: string, warmReads: boolean, options: { notify?: boolean; lean?: boolean; poolSize?: number } = {}): Promise<OneTripEventStore> {
    const pool = new pg.Pool({ connectionString, max: options.poolSize ?? 10 });
    pool.on("error", () => undefined);
    await migrate(pool, "event_store_migrations", eventStoreMigrations);
    return new OneTripEventStore(pool, warmReads, options.notify ?? true, options.lean ?? false);
  }

  override async append(streamId: string, events: readonly NewEvent[], expected: ExpectedVersion): Promise<AppendResult> {
    if (expected === "any" || expected === "stream_exists") return super.append(streamId, events, expected);
    const claim =
      expected === "no_stream" || expected === 0
        ? "INSERT INTO streams (stream_id, version) SELECT $1::text, $3::bigint WHERE $2::bigint = 0 ON CONFLICT DO NOTHING RETURNING version"
        : "UPDATE streams SET version = version + $3::bigint WHERE stream_id = $1::text AND version = $2::bigint RETURNING version";
    const eventIds = events.map((e) => e.eventId ?? randomUUID());
    const { rows } = await this.pool.query<Row>(
      `WITH claimed AS (${claim}),
       written AS (
         INSERT INTO events (stream_id, version, event_id, type, schema_version, data, metadata)
         SELECT $1::text, claimed.version - $3::bigint + x.ord, x.e, x.t, x.sv, x.d, x.m
         FROM claimed, unnest($4::uuid[], $5::text[], $6::int[], $7::jsonb[], $8::jsonb[]) WITH ORDINALITY AS x(e, t, sv, d, m, ord)
         RETURNING ${this.lean ? LEAN_COLUMNS : COLUMNS}
       )
       SELECT written.*${this.notify ? ", (SELECT pg_notify('events_appended', '')) IS NULL AS notified" : ""} FROM written`,
      [
        streamId,
        typeof expected === "number" ? expected : 0,
        events.length,
        eventIds,
        events.map((e) => e.type),
        events.map((e) => e.schemaVersion ?? 1),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata)),
      ],
    );
    if (rows.length === 0) {
      this.known.delete(streamId);
      const { rows: head } = await this.pool.query<{ version: string }>("SELECT version FROM streams WHERE stream_id = $1", [streamId]);
      throw new WrongExpectedVersion(streamId, expected, head[0] ? Number(head[0].version) : null);
    }
    // Lean: the events' data and metadata are what we sent; only their place in the log comes back.
    const sent = new Map(eventIds.map((id, i) => [id, events[i]!]));
    const full = (r: Row): Row => {
      const e = sent.get(r.event_id)!;
      return { ...r, stream_id: streamId, type: e.type, schema_version: e.schemaVersion ?? 1, data: e.data, metadata: e.metadata };
    };
    const stored = rows.map((r) => toStored(this.lean ? full(r) : r)).sort((a, b) => a.version - b.version);
    const last = stored[stored.length - 1]!;
    this.known.set(streamId, last.version);
    return { nextVersion: last.version, position: last.position, events: stored };
  }

  override async readStream(streamId: string, options: { afterVersion?: number } = {}): Promise<StreamRead> {
    const after = options.afterVersion ?? 0;
    if (this.warmReads && this.known.get(streamId) === after && after > 0) return { version: after, events: [] };
    const read = await super.readStream(streamId, options);
    this.known.set(streamId, read.version);
    return read;
  }
}
