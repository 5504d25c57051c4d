import { gzipSync } from "node:zlib";
import type pg from "pg";
import { formatPosition } from "@booking/contracts";
import { readCheckpoints } from "@booking/projections";

/**
 * Serialised replies of read-only routes that every caller sees alike (the experts listing and
 * search), kept until the read models they are computed from move.
 *
 * An entry is served only while all of these hold:
 * - the checkpoints of its read models (position, events applied, status, time of the last
 *   change: every batch a projection commits, and every rebuild, changes them) are the ones read
 *   just before the entry's query ran. A request compares them with a checkpoint read that started
 *   at most `maxStalenessMs` before it arrived (0: after it arrived); one read serves every
 *   request meanwhile, and under steady traffic it is renewed ahead of time, so requests do not
 *   wait for it. A write projected before a GET arrives (through any instance, or by a separate
 *   projector) is seen by every GET that arrives `maxStalenessMs` later or more;
 * - no write through this instance has been projected since the entry's query started
 *   (`invalidate`, called by the context's read-your-writes wait), so the writer's next GET on
 *   this instance sees its write at once;
 * - it is younger than `ttlMs`: a backstop for changes made to the tables without a projection
 *   (by hand), which move no checkpoint.
 * While one of the read models is rebuilding (or has no checkpoint) nothing is cached.
 */
export type ReplyCacheOptions = {
  /** Read models (projection names) the cached replies are computed from. */
  readModels: readonly string[];
  ttlMs: number;
  /** 0: every request waits for a checkpoint read that started after it arrived. */
  maxStalenessMs: number;
  maxEntries: number;
  /** Total size of the kept replies; the least recently used go first. */
  maxBytes?: number;
  /** Milliseconds on a monotonic clock. */
  now?: () => number;
};

export type ReplyCacheStats = {
  hits: number;
  /** Requests that joined a query already running for the same key and read-model state. */
  shared: number;
  misses: number;
  /** Requests answered without the cache while a read model was rebuilding. */
  bypassed: number;
  checkpointReads: number;
};

type Fingerprint = string | null;
type Entry = { body: Buffer; fingerprint: string; generation: number; storedAt: number };
type Running = { body: Promise<Buffer>; fingerprint: string; generation: number };

export class ReplyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly running = new Map<string, Running>();
  private bytes = 0;
  private generation = 0;
  private inFlight: Promise<Fingerprint> | null = null;
  private queued: Promise<Fingerprint> | null = null;
  private lastRead: { startedAt: number; fingerprint: Fingerprint } | null = null;
  private readonly now: () => number;
  readonly stats: ReplyCacheStats = { hits: 0, shared: 0, misses: 0, bypassed: 0, checkpointReads: 0 };

  constructor(
    private readonly db: pg.Pool,
    private readonly options: ReplyCacheOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Forget every entry and the last checkpoint read: a write through this instance has been projected. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
    this.lastRead = null;
  }

  /** The reply for `key`: kept JSON while still valid, else `compute()` serialised as JSON (and kept). */
  async get(key: string, compute: () => Promise<unknown>): Promise<Buffer> {
    const generation = this.generation;
    const fingerprint = await this.checkpoints();
    if (fingerprint === null) {
      this.stats.bypassed++;
      return serialise(await compute());
    }
    const entry = this.entries.get(key);
    if (
      entry &&
      entry.fingerprint === fingerprint &&
      entry.generation === this.generation &&
      this.now() - entry.storedAt < this.options.ttlMs
    ) {
      this.stats.hits++;
      this.entries.delete(key); // most recently used last
      this.entries.set(key, entry);
      return entry.body;
    }
    // A query that started for the same read-model state (and no write of ours since) is as good as a new one.
    const running = this.running.get(key);
    if (running && running.fingerprint === fingerprint && running.generation === generation) {
      this.stats.shared++;
      return running.body;
    }
    this.stats.misses++;
    const storedAt = this.now();
    const mine: Running = { body: compute().then(serialise), fingerprint, generation };
    this.running.set(key, mine);
    try {
      const body = await mine.body;
      if (generation === this.generation) this.keep(key, { body, fingerprint, generation, storedAt });
      return body;
    } finally {
      if (this.running.get(key) === mine) this.running.delete(key);
    }
  }

  private keep(key: string, entry: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    const maxBytes = this.options.maxBytes ?? Infinity;
    while (this.entries.size > this.options.maxEntries || this.bytes > maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytes -= oldest.body.length;
    }
  }

  /**
   * The read models' checkpoints, read at most `maxStalenessMs` before this call; else by the
   * read in flight if none is, else by the next one, shared by everyone who asks meanwhile.
   */
  private checkpoints(): Promise<Fingerprint> {
    const staleness = this.options.maxStalenessMs;
    if (staleness > 0 && this.lastRead) {
      const age = this.now() - this.lastRead.startedAt;
      if (age <= staleness) {
        // Read again ahead of time, so that under steady traffic no request waits for a read.
        if (age > staleness / 2 && !this.inFlight) this.startRead().catch(() => undefined);
        return Promise.resolve(this.lastRead.fingerprint);
      }
    }
    if (!this.inFlight) return this.startRead();
    const next = () => {
      this.queued = null;
      return this.startRead();
    };
    this.queued ??= this.inFlight.then(next, next);
    return this.queued;
  }

  private startRead(): Promise<Fingerprint> {
    this.stats.checkpointReads++;
    const startedAt = this.now();
    const generation = this.generation;
    const read = this.readFingerprint().then((fingerprint) => {
      // A read that started before one of our writes was projected is not kept for the requests after it.
      if (generation === this.generation && (!this.lastRead || this.lastRead.startedAt <= startedAt))
        this.lastRead = { startedAt, fingerprint };
      return fingerprint;
    });
    this.inFlight = read;
    const settled = () => {
      if (this.inFlight === read) this.inFlight = null;
    };
    read.then(settled, settled);
    return read;
  }

  private async readFingerprint(): Promise<Fingerprint> {
    const rows = await readCheckpoints(this.db, this.options.readModels);
    if (rows.length !== this.options.readModels.length || rows.some((r) => r.status !== "live")) return null;
    return rows.map((r) => `${r.name}@${r.position ? formatPosition(r.position) : "-"}#${r.eventsApplied}/${r.updatedAt}`).join(" ");
  }
}

function serialise(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

// The gzip form of a reply, made once per cached body: a browser asks for gzip on every request,
// and 500 experts' cards shrink from about 100 KB to a tenth of that.
const gzipForms = new WeakMap<Buffer, Buffer>();

export function gzipOnce(body: Buffer): Buffer {
  let gz = gzipForms.get(body);
  if (!gz) gzipForms.set(body, (gz = gzipSync(body)));
  return gz;
}

/** Whether an Accept-Encoding header allows gzip (by name or `*`, with a q above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let allowed = false;
  for (const part of header.toLowerCase().split(",")) {
    const [coding, ...params] = part.trim().split(";");
    if (coding !== "gzip" && coding !== "*") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    if (coding === "gzip") return weight > 0;
    allowed = weight > 0;
  }
  return allowed;
}
