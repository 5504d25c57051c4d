import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type pg from "pg";
import { comparePositions } from "@booking/contracts";
import { readCheckpoints } from "@booking/projections";
import { PostgresEventStore, type EventStore } from "@booking/event-store";
import { TEST_DATA_KEY_SECRET } from "@booking/testkit";
import { loadCheckpoint, type CheckpointTable } from "../src/reactors/checkpoints.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
export const processFile = (name: string) => `${here}../src/processes/${name}.ts`;

export type Running = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/**
 * Start a process entrypoint as a real OS process (node with the tsx loader). It seals personal data with the suites'
 * DATA_KEY_SECRET unless `env` says otherwise, as the test API does on the same database.
 */
export function startProcess(name: string, env: Record<string, string>, args: string[] = []): Running {
  const child = spawn(process.execPath, ["--import", "tsx", processFile(name), ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", DATA_KEY_SECRET: TEST_DATA_KEY_SECRET, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** True once every projection's checkpoint has reached the log's head. */
export async function projectorCaughtUp(pool: pg.Pool, store: EventStore): Promise<boolean> {
  const head = await store.headPosition();
  const cps = await readCheckpoints(pool);
  return (
    cps.length > 0 &&
    cps.every(
      (c) =>
        c.status === "live" &&
        c.position !== null &&
        head !== null &&
        c.position.commit === head.commit &&
        c.position.prepare === head.prepare,
    )
  );
}

/**
 * True once the mail and refund reactors (in the API process in the embedded default) have read
 * the log to its head: a process started on a seeded log spends its first seconds there.
 */
export async function reactorsCaughtUp(pool: pg.Pool, store: EventStore): Promise<boolean> {
  const head = await store.headPosition();
  if (!head) return true;
  const caughtUp = async (table: CheckpointTable, name: string) => {
    const at = await loadCheckpoint(pool, table, name);
    return at !== null && comparePositions(at, head) >= 0;
  };
  return (await caughtUp("mail_checkpoints", "mail")) && (await caughtUp("refund_checkpoints", "refunds"));
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The line each process prints once its signal handlers are in place and it is working. */
const READY_LINE = { projector: "projector: running", relay: "relay: publishing" };

/**
 * SIGTERM a process once it is up, and its exit code. A signal that lands while node is still
 * loading the process's modules finds no handler and kills it (exit code null): that is not
 * the graceful stop under test.
 */
export async function stopGracefully(running: Running, name: keyof typeof READY_LINE): Promise<number | null> {
  await waitFor(`the ${name} to start`, async () => running.output().includes(READY_LINE[name]), 60_000);
  running.child.kill("SIGTERM");
  return running.exited;
}

/** Our team approves an expert of a database other processes serve (issue 30): the console's Verify, written to the log as the console would. */
export async function approveInLog(databaseUrl: string, expertId: string): Promise<void> {
  const log = await PostgresEventStore.connect(databaseUrl);
  try {
    const approval = { type: "ExpertVerified", data: { expertId, by: "test-admin" }, metadata: { at: new Date().toISOString() } };
    await log.append(`expert-${expertId}`, [approval], "stream_exists");
  } finally {
    await log.close();
  }
}
