import { useRef } from "react";
import { Alert, Box, Stack, Typography, type Theme } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { DashboardCard } from "./dashboard-card.tsx";
import { fetchMetricsSummary, perMinute, type MetricsSummary } from "./metrics-summary.ts";

const POLL_MS = 5_000;

type Tone = "ok" | "warning" | "error";

// MUI's warning orange on white is below the 4.5:1 contrast text needs: a darker one in the light theme.
const toneColor: Record<Tone, (theme: Theme) => string> = {
  ok: (theme) => theme.palette.text.primary,
  warning: (theme) => (theme.palette.mode === "dark" ? theme.palette.warning.light : "#8a4600"),
  error: (theme) => (theme.palette.mode === "dark" ? theme.palette.error.light : theme.palette.error.dark),
};

function Figure({ label, value, tone = "ok", hint, testId }: { label: string; value: string; tone?: Tone; hint: string; testId: string }) {
  return (
    // A plain title, not a MUI Tooltip: its aria-label on a div is an ARIA attribute a generic element may not carry.
    <Box sx={{ minWidth: 120 }} data-testid={`metric-${testId}`} title={hint}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="h6" component="div" sx={{ color: toneColor[tone] }}>
        {value}
      </Typography>
    </Box>
  );
}

const shown = (n: number | null, unit = "") => (n === null ? "n/a" : `${Math.round(n * 10) / 10}${unit}`);

/** Seconds as the card says them: 42 s, 3 min, 2 h. */
export function age(seconds: number | null): string {
  if (seconds === null) return "n/a";
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

const over = (n: number | null, warning: number, error: number): Tone =>
  n === null || n <= warning ? "ok" : n <= error ? "warning" : "error";

/** A queue of money not yet through (refunds, payouts): what waits, and what failed, red from the first failure (a person must act). */
const pendingAndFailed = (pending: number | null, failed: number | null) => ({
  value: `${shown(pending)} pending · ${shown(failed)} failed`,
  tone: over(failed, 0, 0),
});

/** The operator's key figures, live: what /metrics exports, polled every 5 seconds. */
export function LiveMetrics({ load = fetchMetricsSummary }: { load?: () => Promise<MetricsSummary> }) {
  const previous = useRef<MetricsSummary | null>(null);
  const rates = useRef<{ requests: number | null; errors: number | null }>({ requests: null, errors: null });
  const { data, error, isPending } = useQuery({
    queryKey: ["dashboard", "metrics-summary"],
    refetchInterval: POLL_MS,
    queryFn: async () => {
      const now = await load();
      rates.current = {
        requests: perMinute(now, previous.current, (s) => s.requests),
        errors: perMinute(now, previous.current, (s) => s.server_errors),
      };
      previous.current = now;
      return now;
    },
  });
  return (
    <DashboardCard
      title="Live metrics"
      subheader={isPending ? "Loading…" : data ? `As of ${new Date(data.at).toLocaleTimeString()}, from one API process` : undefined}
      testId="live-metrics"
    >
      {error ? <Alert severity="error">{error.message}</Alert> : null}
      {data ? (
        <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: "wrap" }}>
          <Figure
            label="Requests / min"
            value={shown(rates.current.requests)}
            hint="Requests this process answered per minute"
            testId="requests"
          />
          <Figure
            label="5xx / min"
            value={shown(rates.current.errors)}
            tone={over(rates.current.errors, 0, 5)}
            hint="Replies with a server error per minute"
            testId="errors"
          />
          <Figure
            label="Commands"
            value={`${data.commands.accepted} / ${data.commands.refused} / ${data.commands.conflict}`}
            tone={data.commands.conflict > 0 ? "warning" : "ok"}
            hint={`Accepted / refused by a rule / given up on conflicts, since this process started (${data.commands.conflicts_retried} conflicts retried)`}
            testId="commands"
          />
          <Figure
            label="Projector lag"
            value={`${shown(data.projector_lag_events)} ev · ${age(data.projector_lag_seconds)}`}
            tone={over(data.projector_lag_events, 100, 1000)}
            hint="The slowest read model: events behind the log, and how old the oldest of them is"
            testId="projector-lag"
          />
          {data.relay_lag_seconds !== null ? (
            <Figure
              label="Relay lag"
              value={age(data.relay_lag_seconds)}
              tone={over(data.relay_lag_seconds, 5, 60)}
              hint="How old the oldest event not yet published to Kafka is"
              testId="relay-lag"
            />
          ) : null}
          <Figure
            label="Mail due"
            value={`${shown(data.outbox_due)} · oldest ${age(data.outbox_oldest_due_seconds)}`}
            tone={over(data.outbox_oldest_due_seconds, 60, 900)}
            hint="Mail due and not yet delivered, and how long the oldest has waited"
            testId="outbox"
          />
          <Figure
            label="Holds"
            value={`${shown(data.holds_active)} active · ${shown(data.holds_expired)} expired`}
            hint="Unpaid holds on a time; expired ones wait for the sweeper"
            testId="holds"
          />
          <Figure
            label="Refunds"
            {...pendingAndFailed(data.refunds_pending, data.refunds_failed)}
            hint="Refunds owed and not yet issued"
            testId="refunds"
          />
          <Figure
            label="Payouts"
            {...pendingAndFailed(data.payouts_pending, data.payouts_failed)}
            hint="Transfers, reversals and payouts to experts not yet through"
            testId="payouts"
          />
        </Stack>
      ) : null}
    </DashboardCard>
  );
}
