import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "@booking/testkit";
import { portIsFree } from "../src/processes/local-postgres.ts";
import { isRunning } from "../src/processes/system-processes.ts";
import { startProcess, waitFor, type Running } from "./processes.ts";

// `npm start` after the one before it was killed (a crash, kill -9, a closed terminal): its
// embedded Postgres lives on, holding the port and the data directory. The next start stops it
// and comes up on the same data; it used to refuse, blaming "another program".

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

const RUNNING_LINE = "Expert sessions is running";

/** Resolves once the process says it is running; rejects with its output if it exits first. */
async function upAndRunning(start: Running): Promise<void> {
  let exited: number | null | undefined;
  void start.exited.then((code) => (exited = code));
  await waitFor(
    "npm start to be running",
    async () => {
      if (exited !== undefined) throw new Error(`npm start exited (${exited}) before it was running:\n${start.output()}`);
      return start.output().includes(RUNNING_LINE);
    },
    240_000,
  );
}

const postmasterPid = async (dataDir: string) =>
  Number((await readFile(join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);

it("after npm start is killed, the next npm start stops the Postgres it left running and comes up on the same data", async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "start-crash-"));
  const pgPort = await freePort();
  const env = { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) };
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  // Whatever happens, no Postgres is left running on the test's data directory.
  cleanups.push(async () => {
    const pid = await postmasterPid(dataDir);
    if (pid > 0 && (await isRunning(pid))) process.kill(pid, "SIGQUIT");
  });

  const first = startProcess("start", { ...env, PORT: String(await freePort()) });
  cleanups.push(async () => first.child.kill("SIGKILL"));
  await upAndRunning(first);
  const orphan = await postmasterPid(dataDir);
  first.child.kill("SIGKILL");
  await first.exited;
  expect(await isRunning(orphan)).toBe(true);
  expect(await portIsFree(pgPort)).toBe(false);

  const port = await freePort();
  const second = startProcess("start", { ...env, PORT: String(port) });
  cleanups.push(async () => second.child.kill("SIGKILL"));
  await upAndRunning(second);
  const output = second.output();
  expect(output).toContain(`start: stopped the embedded Postgres (pid ${orphan}) that an earlier npm start left running`);
  expect(output).toContain(`Using the existing data in ${dataDir}`);
  expect(await isRunning(orphan)).toBe(false);
  expect(await postmasterPid(dataDir)).not.toBe(orphan);
  const experts = await fetch(`http://127.0.0.1:${port}/api/v1/experts`);
  expect(experts.status).toBe(200);
  expect(((await experts.json()) as unknown[]).length).toBeGreaterThan(0);

  // Stopped as it should be, it takes its Postgres with it.
  second.child.kill("SIGTERM");
  await second.exited;
  expect(await isRunning(orphan)).toBe(false);
  await waitFor("the port to be free", () => portIsFree(pgPort), 30_000);
}, 600_000);
