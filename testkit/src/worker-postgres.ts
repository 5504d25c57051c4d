import { inject } from "vitest";
import type {} from "./global-setup.ts";

/**
 * The Postgres server of the vitest worker running this file (VITEST_POOL_ID is 1..maxWorkers and
 * unique among the files running at once), so files that run together never share a server.
 */
export function testPostgresUrl(): string {
  const urls = inject("databaseUrls");
  const worker = Number(process.env.VITEST_POOL_ID ?? "1");
  return urls[(worker - 1) % urls.length]!;
}
