// What other areas use of reactors/: they import it from here, never from its files (eslint.config.js).
// Written by issue 28's layout script from the imports of the day; add an export when another area needs one.

export { reactToNextBatch } from "./checkpoints.ts";
export type { Queryable } from "./checkpoints.ts";
export { FIRST_RETRY_MS, MAX_RETRY_MS, retryDelayMs } from "./retry-back-off.ts";
export { LeasedReactor, type LeasedReactorOptions, type ReactorRun } from "./leased-reactor.ts";
