import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitPluginOptions } from "@fastify/rate-limit";
import type { Migration } from "@booking/contracts";
import type pg from "pg";

// Where the per-address limits are counted: in one place every API process sees, so that N
// replicas do not give an address N times the attempts. Postgres by default (one upsert per hit
// on a limited route); Redis when REDIS_URL is set, with Postgres standing in while Redis fails.

export const rateLimitMigrations: readonly Migration[] = [
  {
    // Unlogged: counters are worth no WAL; a crash forgets them, which only forgives a minute's attempts.
    name: "001_rate_limit_hits",
    sql: `
      CREATE UNLOGGED TABLE rate_limit_hits (
        key text PRIMARY KEY,
        hits integer NOT NULL,
        resets_at timestamptz NOT NULL
      );
      CREATE INDEX rate_limit_hits_resets_at ON rate_limit_hits (resets_at);
    `,
  },
];

/** A hit to count under `key` for `timeWindow` ms: the count in the window so far and the ms left of it. */
type Counted = { current: number; ttl: number };
type Done = (error: Error | null, result?: Counted) => void;
/** What @fastify/rate-limit hands a store's child: the route's merged options. */
type RouteLimit = { routeInfo?: { method?: string | string[]; url?: string }; continueExceeding?: boolean; exponentialBackoff?: boolean };

/** Expired rows are deleted after this many hits counted by one process. */
const PRUNE_EVERY_HITS = 500;

/**
 * One statement per hit, atomic under concurrent hits from any process. The database's clock
 * decides windows, so processes whose clocks differ still agree. The key is hashed: no client
 * address is stored.
 */
const COUNT_HIT = `
  INSERT INTO rate_limit_hits AS h (key, hits, resets_at)
  VALUES ($1, 1, clock_timestamp() + make_interval(secs => $2::double precision / 1000))
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN h.resets_at <= clock_timestamp() THEN 1 ELSE h.hits + 1 END,
    resets_at = CASE WHEN h.resets_at <= clock_timestamp() THEN EXCLUDED.resets_at ELSE h.resets_at END
  RETURNING h.hits AS current, greatest(0, ceil(extract(epoch FROM h.resets_at - clock_timestamp()) * 1000))::float8 AS ttl`;

const routeOf = (options: RouteLimit): string => {
  const method = options.routeInfo?.method;
  return `${Array.isArray(method) ? method.join(",") : (method ?? "")} ${options.routeInfo?.url ?? ""}`;
};

class PostgresCounter {
  private hits = 0;
  constructor(private readonly db: pg.Pool) {}

  async count(key: string, timeWindow: number): Promise<Counted> {
    const hashed = createHash("sha256").update(key).digest("base64url");
    const { rows } = await this.db.query<Counted>(COUNT_HIT, [hashed, timeWindow]);
    if (++this.hits % PRUNE_EVERY_HITS === 0)
      void this.db.query("DELETE FROM rate_limit_hits WHERE resets_at < clock_timestamp()").catch(() => undefined);
    return rows[0]!;
  }
}

/** The part of @fastify/rate-limit's Redis store this file uses (it ships untyped). */
type RedisStoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, redis: unknown, key?: string) => FastifyRateLimitStore;

/**
 * The store class for @fastify/rate-limit: counts in Postgres, or in Redis through
 * @fastify/rate-limit's own Redis store (`redis` given) with Postgres counting while Redis fails.
 */
export function sharedRateLimitStore(db: pg.Pool, redis?: { client: unknown; Store: RedisStoreCtor }): FastifyRateLimitStoreCtor {
  const postgres = new PostgresCounter(db);
  class SharedStore implements FastifyRateLimitStore {
    constructor(
      _options: RateLimitPluginOptions = {},
      private readonly route = "",
      private readonly inRedis: FastifyRateLimitStore | null = null,
    ) {}

    incr(key: string, done: Done, timeWindow: number): void {
      const inPostgres = () =>
        postgres.count(`${this.route} ${key}`, timeWindow).then(
          (counted) => done(null, counted),
          (error: Error) => done(error),
        );
      if (!this.inRedis) return void inPostgres();
      this.inRedis.incr(key, (error, counted) => (error || !counted ? void inPostgres() : done(null, counted)), timeWindow, 0);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore["child"]>[0]): FastifyRateLimitStore {
      // Typed as the route's options; what the plugin passes is its merged limit options, the route under routeInfo.
      const options = routeOptions as unknown as RouteLimit;
      // Neither is used here; Postgres would need a statement of its own for each.
      if (options.continueExceeding || options.exponentialBackoff) throw new Error("the shared rate-limit store counts fixed windows only");
      const route = routeOf(options);
      return new SharedStore({}, route, redis ? new redis.Store(false, false, redis.client, `rate-limit:${route}:`) : null);
    }
  }
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}

/** The rate limits' store for this app, and what to close with it (the Redis connection). */
export async function rateLimitCounters(
  db: pg.Pool,
  redisUrl?: string,
): Promise<{ store: FastifyRateLimitStoreCtor; close: () => Promise<void> }> {
  if (!redisUrl) return { store: sharedRateLimitStore(db), close: async () => undefined };
  const { Redis } = await import("ioredis");
  // Fail fast rather than queue while Redis is away: the hit is counted in Postgres meanwhile.
  const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  client.on("error", () => undefined);
  // Connected before the first hit, or that hit would be counted in Postgres while Redis counts the next.
  await client.connect().catch(() => undefined);
  const Store = createRequire(import.meta.url)("@fastify/rate-limit/store/RedisStore.js") as RedisStoreCtor;
  return {
    store: sharedRateLimitStore(db, { client, Store }),
    close: async () => void (await client.quit().catch(() => client.disconnect())),
  };
}
