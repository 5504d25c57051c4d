import { readFileSync } from "node:fs";
import http from "node:http";
import { freePort } from "@booking/testkit";
import { startProcess, waitFor, type Running } from "../../api/test/processes.ts";

// The production topology on one machine, without Docker: the relay, several projector processes
// in one Kafka consumer group, several API processes on their own ports and a round-robin proxy
// in front of them that sends requests only to the APIs whose readiness probe answers 200.
// `npm run topology`, the topology reliability test and `bench --only scale` all start it here.

export type TopologyOptions = {
  databaseUrl: string;
  brokers: string[];
  topic: string;
  group: string;
  jwtSecret: string;
  mediaDir: string;
  apis: number;
  projectors: number;
  /** Start the relay (the scale bench measures projectors alone on a topic already filled). */
  relay?: boolean;
  /** The mail and refunds processes as well (the API leaves both to them when Kafka is in use). */
  reactors?: boolean;
  proxyPort?: number;
  /** Extra environment for every process (e.g. ADMIN_EMAIL, ADMIN_PASSWORD). */
  env?: Record<string, string>;
  /** Each line a process prints, for a terminal (the processes' output is kept either way). */
  echo?: (process: string, line: string) => void;
};

/** One OS process of the topology, restartable with the same name, port and environment. */
export class Member {
  running: Running;
  constructor(
    readonly name: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly echo: TopologyOptions["echo"],
    readonly port: number | null = null,
  ) {
    this.running = this.spawn();
  }

  private spawn(): Running {
    const running = startProcess(this.entry, this.env);
    if (this.echo) {
      const echo = this.echo;
      const lines = (d: Buffer) =>
        d
          .toString()
          .split("\n")
          .filter(Boolean)
          .forEach((l) => echo(this.name, l));
      running.child.stdout!.on("data", lines);
      running.child.stderr!.on("data", lines);
    }
    return running;
  }

  get pid(): number {
    return this.running.child.pid!;
  }

  get alive(): boolean {
    return this.running.child.exitCode === null && this.running.child.signalCode === null;
  }

  /** SIGKILL: no handler runs, nothing is flushed, a Kafka member does not leave its group. */
  async kill(): Promise<void> {
    this.running.child.kill("SIGKILL");
    await this.running.exited;
  }

  /** SIGTERM (the graceful stop of lifecycle.ts); its exit code, null when it had to be killed. */
  async stop(timeoutMs = 30_000): Promise<number | null> {
    if (!this.alive) return this.running.child.exitCode;
    this.running.child.kill("SIGTERM");
    const timer = setTimeout(() => this.running.child.kill("SIGKILL"), timeoutMs);
    const code = await this.running.exited;
    clearTimeout(timer);
    return code;
  }

  restart(): void {
    if (this.alive) throw new Error(`${this.name} is still running`);
    this.running = this.spawn();
  }

  /** CPU seconds (user + system) the process has used, from /proc; null once it has exited or off Linux. */
  cpuSeconds(): number | null {
    return processCpuSeconds(this.pid);
  }
}

const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture node runs on

/** utime + stime of a process, in seconds, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

type Backend = { api: Member; ready: boolean; lastProbe: number | null; answered: number; downAt: number };

/**
 * A round-robin reverse proxy over the API processes. A backend takes requests while its
 * GET /api/v1/readyz answers 200 (probed every `probeMs`); a request refused at connect (the
 * process is gone) is marked down and sent to the next one, since it never reached the API. A
 * request cut off after it was sent is answered 502: it may have been done, so it is not repeated.
 */
export class RoundRobinProxy {
  private next = 0;
  private readonly backends: Backend[];
  private readonly server: http.Server;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private probing: NodeJS.Timeout | null = null;
  /** Readiness changes as the proxy saw them: which API, ready or not, when (performance.now()). */
  readonly changes: { api: string; ready: boolean; at: number }[] = [];

  constructor(
    apis: Member[],
    private readonly probeMs = 200,
  ) {
    this.backends = apis.map((api) => ({ api, ready: false, lastProbe: null, answered: 0, downAt: 0 }));
    this.server = http.createServer((req, res) => void this.forward(req, res));
  }

  async listen(port: number): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(port, "127.0.0.1", resolve));
    this.probing = setInterval(() => void this.probeAll(), this.probeMs);
    await this.probeAll();
    const address = this.server.address();
    return typeof address === "object" && address ? address.port : port;
  }

  /** Each API's readiness as the proxy last saw it. */
  readiness(): Record<string, boolean> {
    return Object.fromEntries(this.backends.map((b) => [b.api.name, b.ready]));
  }

  /** How many requests each API has answered through the proxy. */
  answered(): Record<string, number> {
    return Object.fromEntries(this.backends.map((b) => [b.api.name, b.answered]));
  }

  private mark(b: Backend, ready: boolean) {
    if (b.ready !== ready) this.changes.push({ api: b.api.name, ready, at: performance.now() });
    if (!ready) b.downAt = performance.now();
    b.ready = ready;
  }

  private async probeAll(): Promise<void> {
    await Promise.all(
      this.backends.map(async (b) => {
        const sent = performance.now();
        const r = await fetch(`http://127.0.0.1:${b.api.port}/api/v1/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
        b.lastProbe = r?.status ?? 0;
        // A probe answered by a process that has since failed a request says nothing about now.
        if (r?.status === 200 && b.downAt > sent) return;
        this.mark(b, r?.status === 200);
      }),
    );
  }

  private pick(tried: Set<Backend>): Backend | null {
    for (let i = 0; i < this.backends.length; i++) {
      const b = this.backends[(this.next + i) % this.backends.length]!;
      if (b.ready && !tried.has(b)) {
        this.next = (this.next + i + 1) % this.backends.length;
        return b;
      }
    }
    return null;
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const tried = new Set<Backend>();
    for (let b = this.pick(tried); b; b = this.pick(tried)) {
      tried.add(b);
      const outcome = await this.send(b, req, body, res);
      // Either way the process is likely gone: no more requests to it until its probe answers 200.
      if (outcome !== "answered") this.mark(b, false);
      if (outcome === "refused") continue;
      return;
    }
    res
      .writeHead(503, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { code: "NO_API_READY", message: "no API process is ready" } }));
  }

  private send(b: Backend, req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): Promise<"answered" | "refused" | "cut"> {
    return new Promise((resolve) => {
      const upstream = http.request(
        {
          host: "127.0.0.1",
          port: b.api.port!,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, "content-length": String(body.length) },
          agent: this.agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on("end", () => {
            b.answered++;
            resolve("answered");
          });
          answer.on("error", () => {
            res.destroy();
            resolve("cut");
          });
        },
      );
      upstream.on("error", (e: NodeJS.ErrnoException) => {
        if (e.code === "ECONNREFUSED") return resolve("refused");
        if (!res.headersSent)
          res
            .writeHead(502, { "content-type": "application/json" })
            .end(JSON.stringify({ error: { code: "API_LOST", message: `the API process went away: ${e.message}` } }));
        resolve("cut");
      });
      upstream.end(body);
    });
  }

  async close(): Promise<void> {
    if (this.probing) clearInterval(this.probing);
    this.agent.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export type Topology = {
  /** The proxy's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  proxy: RoundRobinProxy;
  apis: Member[];
  projectors: Member[];
  relay: Member | null;
  reactors: Member[];
  all: () => Member[];
  /** Every process stopped with SIGTERM (APIs first, so nothing new is written), with its exit code. */
  stop: () => Promise<Record<string, number | null>>;
};

const READY_LINE: Record<string, string> = {
  projector: "projector: running",
  relay: "relay: publishing",
  mail: "mail: running",
  refunds: "refunds: running",
};

/** Wait until a process says it is working (its signal handlers are then in place). */
export async function ready(member: Member, timeoutMs = 120_000): Promise<void> {
  const kind = member.name.replace(/-\d+$/, "");
  const check =
    kind === "api"
      ? async () => (await fetch(`http://127.0.0.1:${member.port}/api/v1/healthz`).catch(() => null))?.status === 200
      : async () => member.running.output().includes(READY_LINE[kind]!);
  const said = () => member.running.output().trim().split("\n").slice(-20).join("\n");
  await waitFor(
    `${member.name} to start`,
    async () => {
      if (!member.alive) throw new Error(`${member.name} exited ${member.running.child.exitCode}:\n${said()}`);
      return check();
    },
    timeoutMs,
  ).catch((e: unknown) => {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; it said:\n${said()}`);
  });
}

export async function startTopology(o: TopologyOptions): Promise<Topology> {
  // The APIs log at warn (a line per request otherwise); the others' "running" line is at info.
  const common = { DATABASE_URL: o.databaseUrl, KAFKA_BROKERS: o.brokers.join(","), KAFKA_TOPIC: o.topic, ...o.env };
  const members: Member[] = [];
  let proxy: RoundRobinProxy | null = null;
  try {
    // One at a time: each migrates the same database on start (under an advisory lock, but
    // starting them together only makes the first start slower on two cores).
    const relay = o.relay === false ? null : new Member("relay", "relay", common, o.echo);
    if (relay) {
      members.push(relay);
      await ready(relay);
    }
    const projectors: Member[] = [];
    for (let i = 1; i <= o.projectors; i++) {
      const p = new Member(`projector-${i}`, "projector", { ...common, PROJECTOR_GROUP: o.group }, o.echo);
      members.push(p);
      projectors.push(p);
      await ready(p);
    }
    const apis: Member[] = [];
    for (let i = 1; i <= o.apis; i++) {
      const port = await freePort();
      const api = new Member(
        `api-${i}`,
        "api",
        { LOG_LEVEL: "warn", ...common, JWT_SECRET: o.jwtSecret, MEDIA_DIR: o.mediaDir, PORT: String(port), HOST: "127.0.0.1" },
        o.echo,
        port,
      );
      members.push(api);
      apis.push(api);
      await ready(api);
    }
    const reactors: Member[] = [];
    for (const name of o.reactors ? ["mail", "refunds"] : []) {
      const r = new Member(name, name, { ...common, JWT_SECRET: o.jwtSecret }, o.echo);
      members.push(r);
      reactors.push(r);
      await ready(r);
    }
    proxy = new RoundRobinProxy(apis);
    const port = await proxy.listen(o.proxyPort ?? 0);
    const p = proxy;
    return {
      url: `http://127.0.0.1:${port}`,
      proxy,
      apis,
      projectors,
      relay,
      reactors,
      all: () => [...members],
      stop: async () => {
        await p.close();
        const codes: Record<string, number | null> = {};
        // Writers first (APIs, reactors), then the relay publishes what they wrote, then projectors.
        for (const group of [apis, reactors, relay ? [relay] : [], projectors]) {
          const exits = await Promise.all(group.map((m) => m.stop()));
          group.forEach((m, i) => (codes[m.name] = exits[i]!));
        }
        return codes;
      },
    };
  } catch (e) {
    await proxy?.close();
    await Promise.all(members.map((m) => m.kill()));
    throw e;
  }
}
