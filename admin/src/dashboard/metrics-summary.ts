import { fetchUtils } from "react-admin";
import { ADMIN_API, withAccessToken } from "../data-provider.ts";

// GET /admin/metrics-summary (api/src/metrics/summary.ts): the figures Prometheus scrapes, for the
// dashboard's live card. Counters are the answering API process's totals since it started.

export type MetricsSummary = {
  at: string;
  requests: number;
  server_errors: number;
  commands: { accepted: number; refused: number; conflict: number; conflicts_retried: number };
  projector_lag_events: number | null;
  projector_lag_seconds: number | null;
  relay_lag_seconds: number | null;
  outbox_due: number | null;
  outbox_oldest_due_seconds: number | null;
  holds_active: number | null;
  holds_expired: number | null;
  refunds_pending: number | null;
  refunds_failed: number | null;
  payouts_pending: number | null;
  payouts_failed: number | null;
};

/** The summary, with the admin's token; a 401 gets one refresh and one retry, as every console call does. */
export async function fetchMetricsSummary(): Promise<MetricsSummary> {
  return withAccessToken(async (token) => {
    const headers = new Headers({ Accept: "application/json" });
    if (token) headers.set("Authorization", `Bearer ${token}`);
    return (await fetchUtils.fetchJson(`${ADMIN_API}/metrics-summary`, { headers })).json as MetricsSummary;
  });
}

/** Per minute between two summaries of the same process; null until there are two, or after a restart (the counter fell). */
export function perMinute(now: MetricsSummary, before: MetricsSummary | null, count: (s: MetricsSummary) => number): number | null {
  if (!before) return null;
  const minutes = (Date.parse(now.at) - Date.parse(before.at)) / 60_000;
  const moved = count(now) - count(before);
  if (minutes <= 0 || moved < 0) return null;
  return moved / minutes;
}
