import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { apiConfig, parseConfig, projectorConfig, relayConfig } from "../src/main/config.ts";
import { mailConfig } from "../src/mail/config.ts";
import { refundsConfig } from "../src/refunds/config.ts";

// docker-compose.yml checked against what each process validates at start, and for the order in
// which services may start.

const root = fileURLToPath(new URL("../..", import.meta.url));
type Service = {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
};
const compose = parse(readFileSync(`${root}/docker-compose.yml`, "utf8"), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;

/** Compose interpolation: `${X:?msg}` must come from the operator (a valid stand-in here), `${X:-d}` defaults. */
function interpolate(env: Record<string, string>): Record<string, string> {
  const operator: Record<string, string> = { JWT_SECRET: "x".repeat(48), DATA_KEY_SECRET: "d".repeat(48), ADMIN_PASSWORD: "change-me-1" };
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      String(v).replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_m, name: string, kind?: string, rest?: string) => {
        if (kind === "?") {
          expect(operator[name], `${name} is required from the operator`).toBeDefined();
          return operator[name]!;
        }
        return kind === "-" ? (rest ?? "") : "";
      }),
    ]),
  );
}

const processes: Record<string, { schema: Parameters<typeof parseConfig>[0]; file: string }> = {
  relay: { schema: relayConfig, file: "relay" },
  projector: { schema: projectorConfig, file: "projector" },
  refunds: { schema: refundsConfig, file: "refunds" },
  mail: { schema: mailConfig, file: "mail" },
  "api-1": { schema: apiConfig, file: "api" },
  "api-2": { schema: apiConfig, file: "api" },
};

describe("docker-compose.yml", () => {
  it("runs each process with every variable its configuration requires, valid", () => {
    for (const [name, { schema, file }] of Object.entries(processes)) {
      const service = services[name]!;
      expect(service.command, name).toEqual(["node", "--import", "tsx", `api/src/processes/${file}.ts`]);
      const parsed = parseConfig(schema, interpolate(service.environment ?? {}));
      expect(parsed.ok ? "valid" : `${parsed.error.variable} ${parsed.error.problem}`, name).toBe("valid");
    }
  });

  it("points every process at the services by their names and ports", () => {
    const pg = services.postgres!.environment!;
    for (const name of Object.keys(processes)) {
      const env = interpolate(services[name]!.environment!);
      const db = new URL(env.DATABASE_URL!);
      expect([db.hostname, db.port, db.username, db.password, db.pathname.slice(1)]).toEqual([
        "postgres",
        "5432",
        pg.POSTGRES_USER,
        pg.POSTGRES_PASSWORD,
        pg.POSTGRES_DB,
      ]);
      expect(new URL(env.ESDB_URL!).host).toBe(`eventstoredb:${services.eventstoredb!.environment!.EVENTSTORE_HTTP_PORT}`);
      expect(`PLAINTEXT://${env.KAFKA_BROKERS}`).toBe(services.kafka!.environment!.KAFKA_ADVERTISED_LISTENERS);
    }
  });

  it("sends every process's traces to Jaeger's OTLP receiver, whose UI is published (issue 35.3)", () => {
    for (const name of Object.keys(processes)) {
      const endpoint = new URL(interpolate(services[name]!.environment!).OTEL_EXPORTER_OTLP_ENDPOINT!);
      expect([endpoint.hostname, endpoint.port], name).toEqual(["jaeger", "4318"]);
    }
    expect(services.jaeger!.image).toMatch(/^jaegertracing\/jaeger:2\./);
    expect(services.jaeger!.command!.join(" ")).toContain("receivers.otlp.protocols.http.endpoint=0.0.0.0:4318");
    expect(services.jaeger!.ports).toEqual(["16686:16686"]);
  });

  it("starts services only after what they depend on is healthy, with no cycle", () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(services[dependency], `${name} depends on an unknown ${dependency}`).toBeDefined();
        if (condition === "service_healthy") expect(services[dependency]!.healthcheck, `${dependency} has no health check`).toBeDefined();
      }
    }
    for (const name of ["relay", "projector", "api-1", "api-2"]) {
      for (const backing of ["postgres", "eventstoredb", "kafka"])
        expect(services[name]!.depends_on![backing]!.condition, `${name} -> ${backing}`).toBe("service_healthy");
    }
    expect(services.proxy!.depends_on).toEqual({ "api-1": { condition: "service_healthy" }, "api-2": { condition: "service_healthy" } });
    // A start order exists (topological sort): no cycles.
    const order: string[] = [];
    const visiting = new Set<string>();
    const visit = (n: string) => {
      if (order.includes(n)) return;
      expect(visiting.has(n), `dependency cycle through ${n}`).toBe(false);
      visiting.add(n);
      for (const d of Object.keys(services[n]!.depends_on ?? {})) visit(d);
      visiting.delete(n);
      order.push(n);
    };
    Object.keys(services).forEach(visit);
    expect(order.indexOf("kafka")).toBeLessThan(order.indexOf("relay"));
    expect(order.indexOf("projector")).toBeLessThan(order.indexOf("api-1"));
    expect(order.at(-1)).toBe("proxy");
  });

  it("keeps ports and health checks consistent with the proxy", () => {
    const nginx = readFileSync(`${root}/deploy/nginx.conf`, "utf8");
    for (const name of ["api-1", "api-2"]) {
      const port = services[name]!.environment!.PORT;
      expect(nginx).toContain(`server ${name}:${port};`);
      expect(services[name]!.healthcheck!.test.join(" ")).toContain(`127.0.0.1:${port}/api/v1/readyz`);
    }
    const listen = /listen (\d+);/.exec(nginx)![1];
    expect(services.proxy!.ports).toEqual([`${listen}:${listen}`]);
    expect(services.proxy!.volumes).toContain("./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro");
  });

  it("keeps data in named volumes, and runs EventStoreDB in insecure development mode and Kafka in KRaft mode", () => {
    const named = new Set(Object.keys(compose.volumes));
    for (const service of Object.values(services)) {
      for (const v of service.volumes ?? []) if (!v.startsWith("./")) expect(named.has(v.split(":")[0]!), v).toBe(true);
    }
    expect(services.eventstoredb!.environment!.EVENTSTORE_INSECURE).toBe("true");
    expect(services.kafka!.image).toMatch(/^apache\/kafka:3\.9/);
    expect(services.kafka!.environment!.KAFKA_PROCESS_ROLES).toBe("broker,controller");
  });

  it("builds the image in stages and runs it as a non-root user", () => {
    const dockerfile = readFileSync(`${root}/Dockerfile`, "utf8");
    const stages = dockerfile.split("\n").filter((l) => l.startsWith("FROM "));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("FROM "));
    expect(runtime).toMatch(/\nUSER node\n/);
    expect(runtime).not.toMatch(/npm ci/);
  });

  it("copies every workspace's package.json before `npm ci`, so the image installs what the lockfile names", () => {
    const dockerfile = readFileSync(`${root}/Dockerfile`, "utf8");
    const beforeInstall = dockerfile.slice(0, dockerfile.indexOf("RUN npm ci"));
    const { workspaces } = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as { workspaces: string[] };
    for (const workspace of workspaces) expect(beforeInstall, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/\n`);
  });
});
