// The retry back-off every reactor uses after a failed attempt (refunds, mail): doubling from the first wait, capped.

/** The first retry waits this long; each later one twice as long as the one before, up to the cap. */
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_MS = 60 * 60_000;

/** How long to wait after the `attempts`-th failed attempt (1 for the first), capped. */
export function retryDelayMs(attempts: number, firstMs = FIRST_RETRY_MS, maxMs = MAX_RETRY_MS): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}
