import { readFile } from "node:fs/promises";

// Summarise a V8 .cpuprofile (node --cpu-prof): self time per function and per area (our
// packages, zod, luxon, pg, node internals, GC, idle), so a profile can be quoted as evidence.

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

export type ProfileSummary = {
  totalMs: number;
  byArea: { area: string; ms: number; pct: number }[];
  topFunctions: { fn: string; ms: number; pct: number }[];
};

function areaOf(url: string, name: string): string {
  if (name === "(idle)") return "idle (waiting on I/O: Postgres, Kafka, timers)";
  if (name === "(garbage collector)") return "GC";
  if (name === "(program)") return "program (native, not attributed)";
  const m =
    /\/work\/[^/]+\/(contracts|engine|projections|api|bench|testkit)\//.exec(url) ??
    /\/(contracts|engine|projections|api|bench|testkit)\/src\//.exec(url);
  if (m && !url.includes("node_modules/")) return `ours: ${m[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `dep: ${pkg[1]}`;
  if (url.startsWith("node:") || url === "") return "node internals";
  return "other";
}

export async function summariseProfile(file: string, top = 25): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + us);
    const short = url.replace(/^.*\/(node_modules\/)/, "$1").replace(/^file:\/\/\/work\/[^/]+\//, "");
    const key = `${functionName || "(anonymous)"} ${short}:${lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const pct = (us: number) => Math.round((us / total) * 1000) / 10;
  return {
    totalMs: Math.round(total / 1000),
    byArea: [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([area, us]) => ({ area, ms: Math.round(us / 1000), pct: pct(us) })),
    topFunctions: [...fns.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, us]) => ({ fn, ms: Math.round(us / 1000), pct: pct(us) })),
  };
}

/**
 * Profile `work` with the inspector's sampling profiler when BENCH_PROFILE_DIR is set (the file
 * is `<dir>/<label>.cpuprofile`); otherwise just run it. Only this process is profiled.
 */
export async function profiled<T>(label: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return work();
  const { Session } = await import("node:inspector/promises");
  const { mkdir, writeFile } = await import("node:fs/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  try {
    return await work();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    await mkdir(dir, { recursive: true });
    await writeFile(`${dir}/${label}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
}
