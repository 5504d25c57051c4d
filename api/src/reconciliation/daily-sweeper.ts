import { runReconciliation, type ReconciliationDeps } from "./run.ts";

// The daily reconciliation: a run once a day (and the first soon after the process starts), so
// the console always shows a recent comparison of the ledger with the provider.

export const RECONCILIATION_INTERVAL_MS = 24 * 60 * 60 * 1000;
const FIRST_RUN_AFTER_MS = 60_000;

export type ReconciliationSweeper = { stop: () => void };

export function startReconciliationSweeper(
  deps: ReconciliationDeps,
  options: { intervalMs?: number; firstAfterMs?: number; warn?: (message: string) => void } = {},
): ReconciliationSweeper {
  const warn = options.warn ?? ((message: string) => console.warn(message));
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      const run = await runReconciliation(deps, "schedule");
      if (run.differences.length) warn(`reconciliation: ${run.differences.length} differences (run ${run.runId})`);
    } catch (e) {
      warn(`reconciliation failed: ${(e as Error).message}`);
    }
    if (!stopped) timer = setTimeout(() => void tick(), options.intervalMs ?? RECONCILIATION_INTERVAL_MS);
  };
  timer = setTimeout(() => void tick(), options.firstAfterMs ?? FIRST_RUN_AFTER_MS);
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
