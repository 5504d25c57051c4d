import type pg from "pg";
import type { EventLog, StoredEvent } from "@booking/contracts";
import { followLog, oneLine } from "@booking/event-store";
import { reactToNextBatch, type CheckpointTable } from "./checkpoints.ts";
import { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelayMs } from "./retry-back-off.ts";

// What the refund and payout reactors share: both follow the log into their area's tables with
// the checkpoint in one transaction, then take what is due under a lease and ask the provider for
// it, retrying a failure with back-off. Each says what it records of a batch and what it pays.

export type LeasedReactorOptions = {
  /** Names the checkpoint (default: the area's name). */
  name?: string;
  /** Events read together (default 500). */
  batchSize?: number;
  /** How often to look for work due again (a retry whose wait is over) when no append wakes it (default 1000 ms). */
  idleMs?: number;
  /** How long a taken movement is left to this process before another may take it (default 60 s). */
  leaseMs?: number;
  /** The first retry's wait after a failure; it doubles per failure up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
  warn?: (line: string) => void;
};

export type ReactorRun = { stop(): Promise<void>; done: Promise<void> };

export abstract class LeasedReactor {
  readonly name: string;
  private readonly batchSize: number;
  private readonly idleMs: number;
  private readonly leaseMs: number;
  protected readonly warn: (line: string) => void;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;

  protected constructor(
    private readonly follows: { log: EventLog; db: pg.Pool; clock: () => string },
    /** The area's name (the default checkpoint name and its warnings' prefix) and its checkpoint table. */
    private readonly area: { name: string; checkpoints: CheckpointTable },
    options: LeasedReactorOptions,
  ) {
    this.name = options.name ?? area.name;
    this.batchSize = options.batchSize ?? 500;
    this.idleMs = options.idleMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.firstRetryMs = options.firstRetryMs ?? FIRST_RETRY_MS;
    this.maxRetryMs = options.maxRetryMs ?? MAX_RETRY_MS;
    this.warn = options.warn ?? ((line) => console.warn(line));
  }

  /** What the area keeps of a batch of the log, in the checkpoint's transaction. */
  protected abstract record(client: pg.PoolClient, batch: readonly StoredEvent[]): Promise<void>;

  /** Read the next batch of the log into the area's tables, with the checkpoint; resolves to how many events were read. */
  async follow(): Promise<number> {
    const { db, log } = this.follows;
    return reactToNextBatch({ db, log, table: this.area.checkpoints, name: this.name, batchSize: this.batchSize }, (client, batch) =>
      this.record(client, batch),
    );
  }

  /** Follow the log to its end; resolves to how many events were read. */
  protected async followToEnd(): Promise<number> {
    let read = 0;
    for (let n = await this.follow(); n > 0; n = n >= this.batchSize ? await this.follow() : 0) read += n;
    return read;
  }

  /** Until when a movement taken now is this process's. */
  protected leaseUntil(now: string): string {
    return new Date(Date.parse(now) + this.leaseMs).toISOString();
  }

  /** When a movement that has failed `attempts` times is tried again. */
  protected nextAttemptAt(attempts: number): string {
    return new Date(Date.parse(this.follows.clock()) + retryDelayMs(attempts, this.firstRetryMs, this.maxRetryMs)).toISOString();
  }

  /** One pass of the running reactor. */
  protected abstract pass(): Promise<void>;

  /** Pass until stopped; woken by appends, else looking again every `idleMs` (retries come due without an append). */
  start(): ReactorRun {
    return followLog(this.follows.log, () => this.pass(), {
      idleMs: this.idleMs,
      onError: (e, failures, backoff) =>
        this.warn(`${this.area.name}: pass failed (${failures} in a row), retrying in ${backoff} ms: ${oneLine(e)}`),
    });
  }
}
