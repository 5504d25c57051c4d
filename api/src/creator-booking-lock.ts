import pg from "pg";

/**
 * One creator's booking requests run one at a time, across every API process. The rules about a
 * creator's bookings with all experts (the holds cap, no creator booked twice at once) read the
 * bookings read model, which is current for this creator only while no other request of theirs
 * is in flight: a request holds the lock from reading those facts until its own write shows in
 * the read model. A session-level advisory lock on a pool of its own: were it on the pool the work
 * inside uses, ten waiting creators could hold every connection while each waits for another.
 */
export class CreatorBookingLock {
  private readonly pool: pg.Pool;

  constructor(connection: pg.PoolConfig) {
    this.pool = new pg.Pool({ ...connection, max: 20, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
    this.pool.on("error", () => undefined);
  }

  /** `work` runs holding the creator's lock; its client may read (the facts), the rest goes through other pools. */
  async run<T>(creatorId: string, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    const key = `creator-bookings:${creatorId}`;
    const client = await this.pool.connect();
    let unlocked = false;
    try {
      await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
      try {
        return await work(client);
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]);
        unlocked = true;
      }
    } finally {
      // A connection that may still hold the lock is closed, never handed to the next request.
      client.release(!unlocked);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
