import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Restarting the Kafka broker from a test, safely: only the broker that scripts/kafka/broker.sh
// started from KAFKA_DATA_DIR (default /tmp/booking-kafka-data) and that answers on
// KAFKA_BROKERS. Its ports are read from the config broker.sh wrote, so a restart brings the
// same broker back on the same ports; anything else is a reason to skip, never a guess.

const script = fileURLToPath(new URL("../../scripts/kafka/broker.sh", import.meta.url));

export type BrokerControl = { brokers: string[]; dataDir: string; restart: () => Promise<{ seconds: number; output: string }> };

function run(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", [script, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ code: null, output: `${output}${e.message}` });
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** The broker this run may restart, or the reason it may not. */
export async function brokerControl(): Promise<BrokerControl | { skip: string }> {
  const brokers =
    process.env.KAFKA_BROKERS?.split(",")
      .map((b) => b.trim())
      .filter(Boolean) ?? [];
  if (brokers.length === 0) return { skip: "KAFKA_BROKERS is not set (`bash scripts/kafka/broker.sh start` runs a broker)" };
  if (brokers.length !== 1)
    return { skip: `KAFKA_BROKERS names ${brokers.length} brokers; the restart test drives the single broker of scripts/kafka/broker.sh` };
  const m = /^(127\.0\.0\.1|localhost):(\d+)$/.exec(brokers[0]!);
  if (!m) return { skip: `KAFKA_BROKERS=${brokers[0]} is not a local broker that scripts/kafka/broker.sh could restart` };
  if (!existsSync(script)) return { skip: `${script} is missing` };
  const dataDir = process.env.KAFKA_DATA_DIR || "/tmp/booking-kafka-data";
  const props = `${dataDir}/config/server.properties`;
  if (!existsSync(props)) return { skip: `no broker started by scripts/kafka/broker.sh in KAFKA_DATA_DIR=${dataDir} (no ${props})` };
  const config = readFileSync(props, "utf8");
  const plaintext = /PLAINTEXT:\/\/[^:]+:(\d+)/.exec(config)?.[1];
  const controller = /CONTROLLER:\/\/[^:]+:(\d+)/.exec(config)?.[1];
  const nodeId = /^node\.id=(\d+)/m.exec(config)?.[1];
  if (!plaintext || !controller || !nodeId) return { skip: `${props} does not name the broker's ports` };
  if (plaintext !== m[2])
    return { skip: `the broker in KAFKA_DATA_DIR=${dataDir} listens on ${plaintext}, but KAFKA_BROKERS points at ${m[2]}` };
  const env = { ...process.env, KAFKA_DATA_DIR: dataDir, KAFKA_PORT: plaintext, KAFKA_CONTROLLER_PORT: controller, KAFKA_NODE_ID: nodeId };
  const status = await run(["status"], env, 60_000);
  if (status.code !== 0 || !/running \(pid \d+/.test(status.output)) {
    return {
      skip: `the broker on ${brokers[0]} was not started by scripts/kafka/broker.sh from ${dataDir}, or does not answer: ${status.output.trim().split("\n").pop()}`,
    };
  }
  return {
    brokers,
    dataDir,
    restart: async () => {
      const t0 = performance.now();
      const r = await run(["restart"], env, 300_000);
      if (r.code !== 0) throw new Error(`broker.sh restart exited ${r.code}: ${r.output.trim().split("\n").slice(-5).join(" | ")}`);
      return { seconds: Math.round((performance.now() - t0) / 100) / 10, output: r.output };
    },
  };
}
