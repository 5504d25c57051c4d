import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort } from "@booking/testkit";
import { startProcess } from "./processes.ts";

// `npm start` when the embedded Postgres port is already taken: one line naming the port, the
// process holding it and how to choose another, exit code 1 (it used to crash with "Cannot read
// properties of undefined").

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

it("names the taken port, the process holding it and EMBEDDED_PG_PORT, and exits 1", async () => {
  const port = await freePort();
  const squatter: Server = createServer();
  await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
  const dataDir = await mkdtemp(join(tmpdir(), "start-port-"));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

  const start = startProcess("start", { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(port), PORT: String(await freePort()) });
  cleanups.push(async () => start.child.kill("SIGKILL"));
  const code = await start.exited;
  const output = start.output();

  expect(code, output).toBe(1);
  expect(output).not.toMatch(/TypeError/);
  const line = output.split("\n").find((l) => l.startsWith("start: embedded Postgres could not start"));
  expect(line, output).toContain(`port ${port}`);
  expect(line).toContain("is taken");
  expect(line).toContain("EMBEDDED_PG_PORT");
  // This test's own process holds the port: the line names it, so the person knows what to stop.
  expect(line).toContain(`pid ${process.pid} (`);
}, 120_000);
