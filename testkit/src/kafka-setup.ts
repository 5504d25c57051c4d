import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./postgres.ts";

// A Kafka broker for `npm test` (issue 28.5): a newcomer who runs the README's test command gets
// the Kafka suites run, not skipped. The root vitest config runs this once for the whole run:
// KAFKA_BROKERS from the caller wins (CI starts its own broker for the reliability suite and the
// bench too); otherwise, where Java is present, scripts/kafka/broker.sh starts a broker on free
// ports in a throwaway data directory, and the teardown deletes it. Runs that cannot reach a Kafka
// suite (unit-only filters, projects without one) start nothing.

const script = fileURLToPath(new URL("../../scripts/kafka/broker.sh", import.meta.url));
const repository = fileURLToPath(new URL("../../", import.meta.url));
/** The projects that hold Kafka suites; a run limited to other projects needs no broker. */
const projectsWithKafkaSuites = ["api", "api-e2e", "event-store"];

/** The suites that use a broker: the test files of those projects that read KAFKA_BROKERS. */
function kafkaSuites(): string[] {
  return ["api/test", "event-store/test"].flatMap((folder) =>
    readdirSync(join(repository, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.(int|e2e)\.test\.ts$/.test(file))
      .map((file) => join(folder, file))
      .filter((file) => readFileSync(join(repository, file), "utf8").includes("KAFKA_BROKERS")),
  );
}
/** Flags whose next argument is a value, not a file filter. */
const flagsWithValue = new Set([
  "--project",
  "--config",
  "-c",
  "--reporter",
  "--outputFile",
  "--pool",
  "--maxWorkers",
  "-t",
  "--testNamePattern",
  "--root",
  "-r",
]);

/** The file filters and --project names of this run, as the vitest CLI was given them. */
function cliSelection(argv: string[]): { filters: string[]; projects: string[] } {
  const filters: string[] = [];
  const projects: string[] = [];
  const args = argv.slice(argv.indexOf("run") >= 0 ? argv.indexOf("run") + 1 : 2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("--project=")) projects.push(arg.slice("--project=".length));
    else if (arg === "--project") projects.push(args[++i] ?? "");
    else if (flagsWithValue.has(arg)) i++;
    else if (!arg.startsWith("-")) filters.push(arg);
  }
  return { filters, projects };
}

/** Why this run needs no broker of ours, or null when it does. */
export function reasonToStartNoBroker(env: NodeJS.ProcessEnv, argv: string[], javaRuns = javaIsInstalled): string | null {
  if (env.KAFKA_BROKERS) return "KAFKA_BROKERS is set";
  if (env.KAFKA_AUTOSTART === "0") return "KAFKA_AUTOSTART=0";
  const { filters, projects } = cliSelection(argv);
  if (projects.length > 0 && !projects.some((p) => projectsWithKafkaSuites.includes(p))) return "no project of this run has a Kafka suite";
  const relative = filters.map((f) => (f.startsWith(repository) ? f.slice(repository.length) : f));
  if (relative.length > 0 && !kafkaSuites().some((suite) => relative.some((f) => suite.includes(f))))
    return "no Kafka suite matches this run's filters";
  if (!javaRuns()) return "Java is not installed (the broker needs it)";
  return null;
}

const javaIsInstalled = () => spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;

function brokerScript(command: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", [script, command], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (e) => resolve({ code: null, stdout, stderr: `${stderr}${e.message}` }));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

export default async function setup() {
  const reason = reasonToStartNoBroker(process.env, process.argv);
  if (reason) {
    if (!process.env.KAFKA_BROKERS) console.log(`[testkit] no Kafka broker started (${reason}): the Kafka suites say they are skipped`);
    return;
  }
  const base = await mkdtemp(join(tmpdir(), "test-kafka-"));
  const env = {
    ...process.env,
    KAFKA_DATA_DIR: join(base, "data"),
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
  };
  const started = await brokerScript("start", env);
  const brokers = /KAFKA_BROKERS=(\S+)/.exec(started.stdout)?.[1];
  if (started.code !== 0 || !brokers) {
    console.log(
      `[testkit] KAFKA BROKER DID NOT START, the Kafka suites are skipped: ${started.stderr.trim().split("\n").slice(-3).join(" | ")}`,
    );
    await brokerScript("reset", env);
    await rm(base, { recursive: true, force: true });
    return;
  }
  // Test workers start after this setup and inherit the variable; KAFKA_DATA_DIR lets the
  // reliability-style restart tests find this broker.
  process.env.KAFKA_BROKERS = brokers;
  process.env.KAFKA_DATA_DIR = env.KAFKA_DATA_DIR;
  console.log(`[testkit] Kafka broker for this run: ${brokers}`);
  return async () => {
    await brokerScript("reset", env);
    await rm(base, { recursive: true, force: true });
    delete process.env.KAFKA_BROKERS;
  };
}
