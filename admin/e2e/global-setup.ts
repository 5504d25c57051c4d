import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type {} from "vitest";
import type { TestProject } from "vitest/node";
import { startPostgres } from "@booking/testkit";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

const adminDir = fileURLToPath(new URL("..", import.meta.url));

/** `vite build` of the console into admin/dist, which the API serves at /admin/. */
async function buildConsole(): Promise<void> {
  const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin/vite.js");
  const started = Date.now();
  try {
    await promisify(execFile)(process.execPath, [vite, "build", "--logLevel", "warn"], {
      cwd: adminDir,
      maxBuffer: 16 * 1024 * 1024,
      // Vitest sets NODE_ENV=test, which vite would keep: React's development build, many times slower.
      env: { ...process.env, NODE_ENV: "production" },
    });
  } catch (e) {
    const failure = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`vite build of the admin console failed:\n${failure.stderr || failure.stdout || failure.message}`);
  }
  console.log(`[admin-e2e] console built in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}

/** Build the console once, start one Postgres for the run; each suite makes its own database. */
export default async function setup(project: TestProject) {
  const [server] = await Promise.all([startPostgres(), buildConsole()]);
  console.log(`[admin-e2e] Postgres for ${project.name}: ${server.source}`);
  project.provide("databaseUrl", server.url);
  return async () => {
    await server.stop();
  };
}
