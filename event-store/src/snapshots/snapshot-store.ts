// Snapshots of a stream's folded state, beside the event store: a cold load reads the latest one
// and only the events after it. A snapshot is only ever a shortcut: the stream stays the truth,
// a lost or ignored snapshot costs a longer fold, never a different decision.
//
// Adapters: Postgres (its own table, postgres-snapshot-store.ts) and memory. EventStoreDB has none
// yet: the natural one is a `$snapshot-{stream}` stream with $maxCount 1 whose one event carries the
// version and shape in its metadata; it was left out because no EventStoreDB runs here to prove it
// (its contract suite is skipped), and a process on EventStoreDB may use the Postgres adapter meanwhile.

export type Snapshot = {
  streamId: string;
  /** The stream's version the state was folded up to. */
  version: number;
  /** The decider's state shape it was written under (SnapshotCodec.shape). */
  shape: string;
  state: unknown;
};

export interface SnapshotStore {
  /** The stream's snapshot written under `shape`; null when there is none (or only one of another shape). */
  read(streamId: string, shape: string): Promise<Snapshot | null>;
  /** Keep `snapshot` unless one of the same shape at a later version is already there. */
  write(snapshot: Snapshot): Promise<void>;
  /**
   * Delete every snapshot whose stream or state mentions `id` (a person being erased: a snapshot is only a shortcut,
   * and the stream it was folded from reads them as erased); resolves with how many went.
   */
  forgetMentioning(id: string): Promise<number>;
  close(): Promise<void>;
}

/** How a decider's state goes into a snapshot and comes back, and when a state from one will not do. */
export type SnapshotCodec<C, S> = {
  /** Changes whenever the state's shape does: snapshots of another shape are ignored. */
  shape: string;
  /** Plain JSON of what decisions need; it may leave things out (at the snapshot writer's `now`). */
  encode: (state: S, now: string) => unknown;
  decode: (data: unknown) => S;
  /** True when a state decoded from a snapshot may lack what the command needs: the handler folds the whole stream for it. */
  needsWholeStream: (command: C, state: S) => boolean;
};

/** Snapshots in memory (tests, and a process that wants them without a database). */
export class InMemorySnapshotStore implements SnapshotStore {
  readonly snapshots = new Map<string, Snapshot>();
  writes = 0;

  async read(streamId: string, shape: string): Promise<Snapshot | null> {
    const s = this.snapshots.get(streamId);
    return s && s.shape === shape ? structuredClone(s) : null;
  }

  async write(snapshot: Snapshot): Promise<void> {
    const s = this.snapshots.get(snapshot.streamId);
    this.writes++;
    if (s && s.shape === snapshot.shape && s.version >= snapshot.version) return;
    this.snapshots.set(snapshot.streamId, structuredClone(snapshot));
  }

  async forgetMentioning(id: string): Promise<number> {
    let forgotten = 0;
    for (const [streamId, s] of this.snapshots) {
      if (streamId.includes(id) || JSON.stringify(s.state).includes(id)) forgotten += Number(this.snapshots.delete(streamId));
    }
    return forgotten;
  }

  async close(): Promise<void> {}
}
