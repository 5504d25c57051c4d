// Latency samples and the figures the bench prints. Samples are kept whole and sorted once
// (a few hundred thousand numbers at most), so percentiles are exact, nearest-rank.

export type LatencySummary = { count: number; p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number; meanMs: number };

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarise(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    count: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p90Ms: round(percentile(sorted, 90)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1] ?? Number.NaN),
    meanMs: round(sorted.length ? sum / sorted.length : Number.NaN),
  };
}

/** Two decimals for milliseconds, whole numbers for rates above 100. */
export function round(n: number): number {
  if (!Number.isFinite(n)) return n;
  if (Math.abs(n) >= 100) return Math.round(n);
  return Math.round(n * 100) / 100;
}

export function ratio(value: number, baseline: number): number {
  return baseline > 0 ? Math.round((value / baseline) * 1000) / 1000 : Number.NaN;
}

export const now = () => performance.now();
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Run `work` from `clients` concurrent loops until `until` returns false; each loop awaits its previous call. */
export async function closedLoop(clients: number, until: () => boolean, work: (client: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (until()) await work(client);
    }),
  );
}

/** Log a line to stderr (stdout carries only the JSON document). */
export const say = (line: string) => process.stderr.write(`${line}\n`);
