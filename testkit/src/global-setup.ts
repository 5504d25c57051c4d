import type {} from "vitest";
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/** One Postgres server per test run; each suite makes its own database on it. */
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  console.log(`[testkit] Postgres for ${project.name}: ${server.source}`);
  project.provide("databaseUrl", server.url);
  return async () => {
    await server.stop();
  };
}
