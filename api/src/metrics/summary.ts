import { z } from "zod";
import { Registry, type MetricObjectWithValues, type MetricValue } from "prom-client";

// The console's dashboard card: a few figures out of the same registries /metrics serves, so the
// card and Prometheus never disagree and no statement is written twice. Counters are this
// process's totals since it started; the card turns two polls into a rate.

const Count = z.number().nullable();

export const MetricsSummaryReply = z.strictObject({
  at: z.string(),
  /** Requests this process answered since it started, and those of them answered 5xx. */
  requests: z.number(),
  server_errors: z.number(),
  commands: z.strictObject({ accepted: z.number(), refused: z.number(), conflict: z.number(), conflicts_retried: z.number() }),
  /** The slowest read model's lag (null: not measured here). */
  projector_lag_events: Count,
  projector_lag_seconds: Count,
  relay_lag_seconds: Count,
  outbox_due: Count,
  outbox_oldest_due_seconds: Count,
  holds_active: Count,
  holds_expired: Count,
  refunds_pending: Count,
  refunds_failed: Count,
  payouts_pending: Count,
  payouts_failed: Count,
});
export type MetricsSummaryReply = z.infer<typeof MetricsSummaryReply>;

type Metrics = Map<string, MetricValue<string>[]>;
type Labels = Record<string, string | number | undefined>;

const matching = (metrics: Metrics, name: string, labels: Labels) =>
  (metrics.get(name) ?? []).filter((v) => Object.entries(labels).every(([k, want]) => v.labels[k] === want));

/** The sum of a metric's samples with these labels; null when it has none (its statement failed, or it is not kept here). */
function total(metrics: Metrics, name: string, labels: Labels = {}): number | null {
  const values = matching(metrics, name, labels);
  return values.length ? values.reduce((n, v) => n + v.value, 0) : null;
}

function largest(metrics: Metrics, name: string): number | null {
  const values = metrics.get(name) ?? [];
  return values.length ? Math.max(...values.map((v) => v.value)) : null;
}

export async function metricsSummary(registries: readonly Registry[], now = new Date()): Promise<MetricsSummaryReply> {
  const json = (await Registry.merge([...registries]).getMetricsAsJSON()) as MetricObjectWithValues<MetricValue<string>>[];
  const metrics: Metrics = new Map(json.map((m) => [m.name, m.values]));
  const requests = matching(metrics, "booking_http_requests_total", {});
  const commands = (outcome: string) => total(metrics, "booking_commands_total", { outcome }) ?? 0;
  return {
    at: now.toISOString(),
    requests: requests.reduce((n, v) => n + v.value, 0),
    server_errors: requests.filter((v) => String(v.labels.status).startsWith("5")).reduce((n, v) => n + v.value, 0),
    commands: {
      accepted: commands("accepted"),
      refused: commands("refused"),
      conflict: commands("conflict"),
      conflicts_retried: total(metrics, "booking_command_conflicts_retried_total") ?? 0,
    },
    projector_lag_events: largest(metrics, "booking_projector_lag_events"),
    projector_lag_seconds: largest(metrics, "booking_projector_lag_seconds"),
    relay_lag_seconds: largest(metrics, "booking_relay_lag_seconds"),
    outbox_due: total(metrics, "booking_mail_outbox", { state: "due" }),
    outbox_oldest_due_seconds: total(metrics, "booking_mail_outbox_oldest_due_seconds"),
    holds_active: total(metrics, "booking_holds", { state: "active" }),
    holds_expired: total(metrics, "booking_holds", { state: "expired" }),
    refunds_pending: total(metrics, "booking_refunds", { state: "pending" }),
    refunds_failed: total(metrics, "booking_refunds", { state: "failed" }),
    payouts_pending: total(metrics, "booking_payouts", { state: "pending" }),
    payouts_failed: total(metrics, "booking_payouts", { state: "failed" }),
  };
}
