import { createHash, timingSafeEqual } from "node:crypto";
import type { MetricsSettings } from "./settings.ts";

export type MetricsAccess = "allowed" | "unauthorized" | "hidden";

const digest = (s: string) => createHash("sha256").update(s).digest();

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Whether a scrape is answered: with a token, only a caller who sends it (401 otherwise); without
 * one, the metrics port answers anyone who reaches it, and the public port answers loopback
 * callers outside production and nobody in it (404, as if there were nothing there).
 */
export function metricsAccess(
  settings: MetricsSettings,
  request: { authorization: string | undefined; remoteAddress: string | undefined; onMetricsPort: boolean },
): MetricsAccess {
  if (settings.token) {
    const given = /^Bearer (.+)$/i.exec(request.authorization ?? "")?.[1] ?? "";
    // Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first differing character.
    return timingSafeEqual(digest(given), digest(settings.token)) ? "allowed" : "unauthorized";
  }
  if (request.onMetricsPort) return "allowed";
  if (settings.production) return "hidden";
  return LOOPBACK.test(request.remoteAddress ?? "") ? "allowed" : "hidden";
}
