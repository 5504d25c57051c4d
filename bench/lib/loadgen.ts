import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

// The HTTP load generator. It runs as its own process (loadgen-process.ts, through
// `loadFromChild`) so that it never shares an event loop with the server it measures.
// Closed loop like autocannon: a fixed number of keep-alive connections, each sending its next
// request as soon as the previous answer has been read in full. Latency is from the request's
// start to the answer's last byte. Phases (routes) run in interleaved slices, round after round,
// so that a change in machine load shifts every phase alike.

export type LoadRequest = { method: string; path: string; headers?: Record<string, string>; body?: string };

export type LoadPhase = {
  name: string;
  port: number;
  /** Sent in order; when `cycle` is false a phase stops once every request has been sent. */
  requests: LoadRequest[];
  cycle: boolean;
};

export type LoadSpec = {
  host: string;
  connections: number;
  warmupSeconds: number;
  sliceSeconds: number;
  rounds: number;
  phases: LoadPhase[];
};

export type LoadResult = {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
  errors: number;
  firstError: string | null;
  bytesPerResponse: number;
  ranOut: boolean;
};

function send(agent: http.Agent, host: string, port: number, r: LoadRequest): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    const req = http.request(
      {
        host,
        port,
        method: r.method,
        path: r.path,
        agent,
        headers: { ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}), ...r.headers },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (d: Buffer) => (bytes += d.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

type Acc = {
  samples: number[];
  statuses: Record<string, number>;
  errors: number;
  firstError: string | null;
  bytes: number;
  ms: number;
  next: number;
  ranOut: boolean;
};

async function slice(agent: http.Agent, spec: LoadSpec, phase: LoadPhase, acc: Acc, seconds: number, record: boolean): Promise<void> {
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let last = t0;
  await Promise.all(
    Array.from({ length: spec.connections }, async () => {
      for (;;) {
        const s = performance.now();
        if (s >= end) return;
        if (acc.next >= phase.requests.length) {
          if (!phase.cycle) {
            acc.ranOut = true;
            return;
          }
          acc.next = 0;
        }
        const r = phase.requests[acc.next++]!;
        try {
          const res = await send(agent, spec.host, phase.port, r);
          const t = performance.now();
          last = Math.max(last, t);
          if (!record) continue;
          acc.samples.push(t - s);
          acc.statuses[res.status] = (acc.statuses[res.status] ?? 0) + 1;
          acc.bytes += res.bytes;
        } catch (e) {
          if (!record) continue;
          acc.errors++;
          acc.firstError ??= (e as Error).message;
        }
      }
    }),
  );
  if (record) acc.ms += (acc.ranOut ? last : Math.max(last, end)) - t0;
}

export async function runLoad(spec: LoadSpec): Promise<Record<string, LoadResult>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections, maxFreeSockets: spec.connections });
  const accs = new Map<string, Acc>(
    spec.phases.map((p) => [p.name, { samples: [], statuses: {}, errors: 0, firstError: null, bytes: 0, ms: 0, next: 0, ranOut: false }]),
  );
  for (const phase of spec.phases) await slice(agent, spec, phase, accs.get(phase.name)!, spec.warmupSeconds, false);
  for (let r = 0; r < spec.rounds; r++)
    for (const phase of spec.phases) await slice(agent, spec, phase, accs.get(phase.name)!, spec.sliceSeconds, true);
  agent.destroy();
  const out: Record<string, LoadResult> = {};
  const r2 = (n: number) => Math.round(n * 100) / 100;
  for (const [name, a] of accs) {
    const samples = a.samples.sort((x, y) => x - y);
    const pct = (p: number) =>
      samples.length ? samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)]! : Number.NaN;
    const seconds = a.ms / 1000;
    out[name] = {
      requests: samples.length,
      seconds: r2(seconds),
      requestsPerSecond: Math.round(samples.length / Math.max(seconds, 1e-9)),
      p50Ms: r2(pct(50)),
      p90Ms: r2(pct(90)),
      p99Ms: r2(pct(99)),
      maxMs: r2(samples[samples.length - 1] ?? Number.NaN),
      statuses: a.statuses,
      errors: a.errors,
      firstError: a.firstError,
      bytesPerResponse: samples.length ? Math.round(a.bytes / samples.length) : 0,
      ranOut: a.ranOut,
    };
  }
  return out;
}

/** Run a load from a separate node process (so client and server do not share a thread). */
export async function loadFromChild(spec: LoadSpec): Promise<Record<string, LoadResult>> {
  const dir = await mkdtemp(join(tmpdir(), "bench-load-"));
  const file = join(dir, "spec.json");
  await writeFile(file, JSON.stringify(spec));
  const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
  try {
    return await new Promise<Record<string, LoadResult>>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./loadgen-process.ts", import.meta.url)), file], {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.on("error", reject);
      child.on("exit", (code) => {
        if (code !== 0) return reject(new Error(`load generator exited ${code}: ${err.slice(0, 2000)}`));
        try {
          resolve(JSON.parse(out.trim().split("\n").pop()!) as Record<string, LoadResult>);
        } catch (e) {
          reject(new Error(`load generator printed no result (${(e as Error).message}): ${out.slice(0, 500)} ${err.slice(0, 500)}`));
        }
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
