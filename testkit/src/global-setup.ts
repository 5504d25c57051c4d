import type {} from "vitest";
import type { TestProject } from "vitest/node";
import { startPostgres, type PostgresServer } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** One Postgres server per vitest worker (see testPostgresUrl in ./worker-postgres.ts). */
    databaseUrls: string[];
  }
}

type SharedServers = { servers: Promise<PostgresServer[]>; users: number };
// Every project's global setup runs in the one main process: the servers are started once for
// the run and shared by the projects (globalThis, since each project loads this module anew).
const shared = globalThis as typeof globalThis & { __bookingTestPostgres?: SharedServers };

/**
 * A Postgres server per test worker; each suite makes its own database on its worker's server.
 * Two files running at once must not share a server: a transaction held open in one (the catch-up
 * contract test holds one on purpose) holds back the server-wide snapshot horizon at which every
 * other file's log readers, head and lag stop. With DATABASE_URL there is one server, and the
 * root config runs one file at a time.
 */
export default async function setup(project: TestProject) {
  const workers = process.env.DATABASE_URL ? 1 : Math.max(1, Number(project.globalConfig.maxWorkers) || 1);
  shared.__bookingTestPostgres ??= { servers: Promise.all(Array.from({ length: workers }, () => startPostgres())), users: 0 };
  const entry = shared.__bookingTestPostgres;
  entry.users++;
  const servers = await entry.servers;
  console.log(`[testkit] Postgres for ${project.name}: ${servers.map((s) => s.source).join(", ")}`);
  project.provide(
    "databaseUrls",
    servers.map((s) => s.url),
  );
  return async () => {
    if (--entry.users > 0) return;
    shared.__bookingTestPostgres = undefined;
    await Promise.all(servers.map((s) => s.stop()));
  };
}
