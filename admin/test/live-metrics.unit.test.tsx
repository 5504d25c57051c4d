import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "@testing-library/react";
import { LiveMetrics, age } from "../src/dashboard/live-metrics.tsx";
import { perMinute, type MetricsSummary } from "../src/dashboard/metrics-summary.ts";

// The dashboard's live card (issue 35.4): the API's metrics summary, with request rates made from two polls.

afterEach(cleanup);

const first: MetricsSummary = {
  at: "2030-01-01T10:00:00.000Z",
  requests: 100,
  server_errors: 1,
  commands: { accepted: 40, refused: 3, conflict: 0, conflicts_retried: 2 },
  projector_lag_events: 0,
  projector_lag_seconds: 0,
  relay_lag_seconds: null,
  outbox_due: 2,
  outbox_oldest_due_seconds: 45,
  holds_active: 4,
  holds_expired: 1,
  refunds_pending: 1,
  refunds_failed: 1,
  payouts_pending: 0,
  payouts_failed: 0,
};
// Two minutes later: 120 more requests, 4 more server errors.
const second: MetricsSummary = { ...first, at: "2030-01-01T10:02:00.000Z", requests: 220, server_errors: 5, relay_lag_seconds: 300 };

const figure = (name: string) => screen.getByTestId(`metric-${name}`);

describe("live metrics card", () => {
  it("shows the summary's figures, and rates once two polls are in", async () => {
    const replies = [first, second];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <LiveMetrics load={async () => replies.shift() ?? second} />
      </QueryClientProvider>,
    );
    await screen.findByTestId("metric-requests");
    expect(within(figure("requests")).getByText("n/a")).toBeTruthy();
    expect(within(figure("commands")).getByText("40 / 3 / 0")).toBeTruthy();
    expect(within(figure("outbox")).getByText("2 · oldest 45 s")).toBeTruthy();
    expect(within(figure("holds")).getByText("4 active · 1 expired")).toBeTruthy();
    expect(within(figure("refunds")).getByText("1 pending · 1 failed")).toBeTruthy();
    // No relay in this topology: no figure for it.
    expect(screen.queryByTestId("metric-relay-lag")).toBeNull();

    await act(() => client.refetchQueries({ queryKey: ["dashboard", "metrics-summary"] }));
    await waitFor(() => expect(within(figure("requests")).getByText("60")).toBeTruthy());
    expect(within(figure("errors")).getByText("2")).toBeTruthy();
    expect(within(figure("relay-lag")).getByText("5 min")).toBeTruthy();
  });

  it("makes no rate across a restart (the counters fell) or from one poll", () => {
    expect(perMinute(second, first, (s) => s.requests)).toBe(60);
    expect(perMinute(first, second, (s) => s.requests)).toBeNull();
    expect(perMinute(first, null, (s) => s.requests)).toBeNull();
    expect([age(12), age(600), age(7200), age(null)]).toEqual(["12 s", "10 min", "2 h", "n/a"]);
  });
});
