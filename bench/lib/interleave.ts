import { closedLoop, now, round, summarise, type LatencySummary } from "./stats.ts";

// Figures that are compared are measured in interleaved slices (A, B, C, A, B, C, ...), so that
// a machine whose load changes during the run (CI, shared hosts) shifts all of them alike.

export type Contender = {
  name: string;
  /** One operation; resolves true when it did what was asked (false: refused, counted apart). */
  op: (client: number) => Promise<boolean>;
  /** Around each of its slices (e.g. a process-wide patch that only this contender wants). */
  enter?: () => void;
  leave?: () => void;
};

export type ContenderResult = { perSecond: number; ok: number; refused: number; seconds: number; latency: LatencySummary };

export async function interleave(
  contenders: readonly Contender[],
  options: { clients: number; rounds: number; sliceSeconds: number; warmupSeconds: number },
): Promise<Record<string, ContenderResult>> {
  const acc = new Map(contenders.map((c) => [c.name, { ok: 0, refused: 0, ms: 0, samples: [] as number[] }]));
  const slice = async (c: Contender, seconds: number, record: boolean) => {
    c.enter?.();
    try {
      const a = acc.get(c.name)!;
      const t0 = now();
      const stopAt = t0 + seconds * 1000;
      await closedLoop(
        options.clients,
        () => now() < stopAt,
        async (client) => {
          const s = now();
          const ok = await c.op(client);
          if (!record) return;
          a.samples.push(now() - s);
          if (ok) a.ok++;
          else a.refused++;
        },
      );
      if (record) a.ms += now() - t0;
    } finally {
      c.leave?.();
    }
  };
  for (const c of contenders) await slice(c, options.warmupSeconds, false);
  for (let r = 0; r < options.rounds; r++) for (const c of contenders) await slice(c, options.sliceSeconds, true);
  const out: Record<string, ContenderResult> = {};
  for (const [name, a] of acc) {
    const seconds = a.ms / 1000;
    out[name] = { perSecond: round(a.ok / seconds), ok: a.ok, refused: a.refused, seconds: round(seconds), latency: summarise(a.samples) };
  }
  return out;
}
