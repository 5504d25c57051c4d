import type { EventLog, LogPosition } from "@booking/contracts";
import { followLog, oneLine } from "../follow-log.ts";
import type { BusPublisher } from "./bus.ts";
import { SpanKind, inBatchSpan } from "../tracing.ts";

/** Where a relay (by name) has published up to. */
export type RelayCheckpoints = {
  load(name: string): Promise<LogPosition | null>;
  save(name: string, position: LogPosition): Promise<void>;
};

export type RelayOptions = {
  /** Names the checkpoint (default "relay"); one name, one running relay. */
  name?: string;
  /** Events read and published together (default 500). */
  batchSize?: number;
  /** Wait before looking again once the log is caught up (default 50 ms). */
  idleMs?: number;
  /** Longest wait between retries after a failure (default 2000 ms); the first is 100 ms, then it doubles. */
  maxBackoffMs?: number;
  /** Receives the one line logged per failed batch (default console.warn). */
  warn?: (line: string) => void;
};

export type RelayRun = {
  /** Let the batch under way finish (published and checkpointed), then end the loop. */
  stop(): Promise<void>;
  /** Settles when the loop has ended. */
  done: Promise<void>;
};

const FIRST_BACKOFF_MS = 100;

/**
 * Publishes the event log to the bus in log order, at least once: a batch is published, the bus
 * acknowledges it, and only then is the checkpoint moved past it. A crash between the two
 * publishes the batch again; consumers drop what they have by stream version.
 */
export class Relay {
  readonly name: string;
  private readonly batchSize: number;
  private readonly idleMs: number;
  private readonly maxBackoffMs: number;
  private readonly warn: (line: string) => void;
  /** The checkpoint as last loaded or saved; undefined means "load it from the store first". */
  private published: LogPosition | null | undefined = undefined;
  private running: RelayRun | null = null;

  constructor(
    private readonly log: EventLog,
    private readonly publisher: BusPublisher,
    private readonly checkpoints: RelayCheckpoints,
    options: RelayOptions = {},
  ) {
    this.name = options.name ?? "relay";
    this.batchSize = options.batchSize ?? 500;
    this.idleMs = options.idleMs ?? 50;
    this.maxBackoffMs = options.maxBackoffMs ?? 2000;
    this.warn = options.warn ?? ((line) => console.warn(line));
  }

  /** Publish the next batch after the checkpoint, then save the checkpoint; resolves to how many events went out. */
  async runOnce(): Promise<number> {
    if (this.running) throw new Error(`Relay ${this.name} is running; runOnce would publish alongside it`);
    return this.relayBatch();
  }

  /** Relay until stopped; a failed batch is retried after a back-off, the checkpoint left where it was. */
  start(): RelayRun {
    if (this.running) throw new Error(`Relay ${this.name} is already running`);
    // Woken by appends (of this process, or announced by others) instead of waiting out the idle poll.
    const following = followLog(this.log, async () => ((await this.relayBatch()) >= this.batchSize ? "more" : undefined), {
      idleMs: this.idleMs,
      firstBackoffMs: FIRST_BACKOFF_MS,
      maxBackoffMs: this.maxBackoffMs,
      onError: (e, failures, backoff) =>
        this.warn(`relay ${this.name}: batch failed (${failures} in a row), checkpoint kept, retrying in ${backoff} ms: ${oneLine(e)}`),
    });
    const run: RelayRun = {
      done: following.done.finally(() => {
        this.running = null;
      }),
      stop: () => following.stop(),
    };
    this.running = run;
    return run;
  }

  /** How long ago the oldest event not yet published was recorded, in ms; 0 when the bus is caught up. */
  async lag(): Promise<number> {
    // The stored checkpoint, not this instance's memory: lag is asked from health checks too.
    const [next] = await this.log.readAll(await this.checkpoints.load(this.name), 1);
    return next ? Math.max(0, Date.now() - Date.parse(next.recordedAt)) : 0;
  }

  private async relayBatch(): Promise<number> {
    try {
      if (this.published === undefined) this.published = await this.checkpoints.load(this.name);
      const batch = await this.log.readAll(this.published, this.batchSize);
      if (batch.length === 0) return 0;
      await inBatchSpan("relay publish", batch, { "relay.name": this.name }, () => this.publisher.publish(batch), SpanKind.PRODUCER);
      const last = batch[batch.length - 1]!.position;
      await this.checkpoints.save(this.name, last);
      this.published = last;
      return batch.length;
    } catch (e) {
      // A save that failed may still have committed: the stored checkpoint decides where to resume.
      this.published = undefined;
      throw e;
    }
  }
}
