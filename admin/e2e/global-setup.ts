import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

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

/** Build the console once, into admin/dist (the second global setup is testkit's Postgres). */
export default async function setup() {
  await buildConsole();
}
