import type pg from "pg";
import { Kafka, logLevel } from "kafkajs";
import { comparePositions, type EventLog, type LogPosition } from "@booking/contracts";
import { readCheckpoints } from "@booking/projections";

// What "ready" means for a process, check by check: each says "ok" or, in a few words, why not.
// A check that does not answer in time counts as failing: a probe that hangs on a dead database
// would keep a process in the pool as surely as one that says "ok".

export const OK = "ok";

/** Each check's answer: "ok", or why the process cannot do its job. */
export type Readiness = { ready: boolean; checks: Record<string, string>; lagEvents: number | null };

const CHECK_TIMEOUT_MS = 2_000;

export function withinTime<T>(work: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e)) || "failed";

/** The database answers a trivial query. */
export async function databaseCheck(db: Pick<pg.Pool, "query">): Promise<string> {
  try {
    await withinTime(db.query("SELECT 1"));
    return OK;
  } catch (e) {
    return `unreachable: ${reasonOf(e)}`;
  }
}

/**
 * The read models: none stopped on an error, and the slowest live one at most `maxLag` events
 * behind the log (counting at most maxLag + 1 keeps the probe cheap however far behind it is).
 */
export async function readModelChecks(
  db: Pick<pg.Pool, "query">,
  log: Pick<EventLog, "readAll">,
  maxLag: number,
): Promise<{ checks: Record<string, string>; lagEvents: number | null }> {
  let checkpoints;
  try {
    checkpoints = await withinTime(readCheckpoints(db));
  } catch (e) {
    const reason = `checkpoints unreadable: ${reasonOf(e)}`;
    return { checks: { readModels: reason, projectorLag: reason }, lagEvents: null };
  }
  const failing = checkpoints.find((c) => c.lastError);
  const readModels = failing ? `error in ${failing.name}: ${failing.lastError}` : OK;
  const live = checkpoints.filter((c) => c.status === "live");
  let from: LogPosition | null = live[0]?.position ?? null;
  for (const c of live) if (!c.position || (from && comparePositions(c.position, from) < 0)) from = c.position;
  try {
    const lagEvents = (await withinTime(log.readAll(from, maxLag + 1))).length;
    const projectorLag = lagEvents > maxLag ? `more than ${maxLag} events behind` : OK;
    return { checks: { readModels, eventStore: OK, projectorLag }, lagEvents };
  } catch (e) {
    return {
      checks: { readModels, eventStore: `unreachable: ${reasonOf(e)}`, projectorLag: "unknown: the event store did not answer" },
      lagEvents: null,
    };
  }
}

/** Kafka answers for the cluster (a broker of `brokers` is up and tells who the others are). */
export async function kafkaCheck(brokers: readonly string[]): Promise<string> {
  // A client per probe, without retries: a probe says how it is now, and every few seconds is cheap.
  const admin = new Kafka({
    clientId: "booking-readiness",
    brokers: [...brokers],
    connectionTimeout: 1_000,
    requestTimeout: 1_500,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    await withinTime(
      (async () => {
        await admin.connect();
        await admin.describeCluster();
      })(),
    );
    return OK;
  } catch (e) {
    return `unreachable: ${reasonOf(e)}`;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Every check together: ready only when each says "ok". */
export function readinessOf(checks: Record<string, string>, lagEvents: number | null = null): Readiness {
  return { ready: Object.values(checks).every((v) => v === OK), checks, lagEvents };
}
