// A load generator of the product's own traffic: creators book, pay (the test provider's card),
// and the booking is confirmed by its expert, cancelled by its creator, or both; meanwhile
// visitors list the experts. Every request is timed and its status kept per route, so a test can
// ask for zero failures and a bench for percentiles. The transport is the caller's (inject, HTTP).

import { CONSISTENCY_POSITION_HEADER, ClientPositions } from "@booking/contracts";

/** `position`: sent as Consistency-Position (issue 34.1); the reply's own, if it named one, comes back. */
export type LoadCall = (
  method: "GET" | "POST" | "PATCH",
  path: string,
  options?: { token?: string; body?: unknown; position?: string | null },
) => Promise<{ status: number; body: string; position?: string | null }>;

export type BookableExpert = { expertId: string; sessionId: string; token: string };
export type LoadCreator = { token: string };

export type RouteLoad = { requests: number; failed: number; latenciesMs: number[]; firstFailure: string | null };
export type LoadReport = { routes: Record<string, RouteLoad>; bookings: number; seconds: number };

const ROUTES = [
  "POST /bookings",
  "POST /stripe/test-intent",
  "POST /payments/test/confirm",
  "PATCH /bookings/{id}/status",
  "GET /experts",
] as const;

/**
 * Start `bookers` creators' loops and `listers` listing loops; `slots` gives the k-th booking its
 * expert and start (each pair used once, so no booking competes for a time) and `creatorOf` its
 * creator. Runs until `stop`, which waits for the flows in flight and returns the report.
 */
export function startBookingLoad(
  call: LoadCall,
  options: {
    bookers: number;
    listers: number;
    slots: (k: number) => { expert: BookableExpert; scheduledTime: string } | null;
    creatorOf: (k: number) => LoadCreator;
  },
): { stop: () => Promise<LoadReport>; report: () => LoadReport } {
  const routes = Object.fromEntries(ROUTES.map((r) => [r, { requests: 0, failed: 0, latenciesMs: [], firstFailure: null }])) as Record<
    string,
    RouteLoad
  >;
  let stopped = false;
  let next = 0;
  let bookings = 0;
  const started = performance.now();

  const timed = async (
    route: (typeof ROUTES)[number],
    method: "GET" | "POST" | "PATCH",
    path: string,
    o: { token?: string; body?: unknown; flow?: ClientPositions } = {},
  ) => {
    const t0 = performance.now();
    const r = await call(method, path, { ...o, position: o.flow?.headers()[CONSISTENCY_POSITION_HEADER] ?? null }).catch((e: unknown) => ({
      status: 0,
      body: e instanceof Error ? e.message : String(e),
      position: null,
    }));
    o.flow?.heard(r.position);
    const load = routes[route]!;
    load.requests++;
    load.latenciesMs.push(performance.now() - t0);
    if (r.status < 200 || r.status >= 300) {
      load.failed++;
      load.firstFailure ??= `${method} ${path}: ${r.status} ${r.body.slice(0, 300)}`;
      return null;
    }
    return r.body ? (JSON.parse(r.body) as unknown) : null;
  };

  /** One booking's life: requested, paid, then confirmed, cancelled, or confirmed and cancelled. */
  const life = async (k: number): Promise<void> => {
    const slot = options.slots(k);
    if (!slot) {
      stopped = true;
      return;
    }
    const creator = options.creatorOf(k);
    // Each step shows the ones before it, as the web app's calls do: the newest position a reply named goes with the next.
    const flow = new ClientPositions();
    const booked = (await timed("POST /bookings", "POST", "/api/v1/bookings", {
      flow,
      token: creator.token,
      body: { session_id: slot.expert.sessionId, scheduled_time: slot.scheduledTime },
    })) as { booking: { id: string } } | null;
    if (!booked) return;
    const id = booked.booking.id;
    const intent = (await timed("POST /stripe/test-intent", "POST", "/api/v1/stripe/test-intent", {
      flow,
      token: creator.token,
      body: { bookingId: id },
    })) as { clientSecret: string } | null;
    if (!intent) return;
    if (
      !(await timed("POST /payments/test/confirm", "POST", "/api/v1/payments/test/confirm", {
        flow,
        token: creator.token,
        body: { client_secret: intent.clientSecret, card_number: "4242 4242 4242 4242" },
      }))
    )
      return;
    const status = (token: string, body: unknown) =>
      timed("PATCH /bookings/{id}/status", "PATCH", `/api/v1/bookings/${id}/status`, { flow, token, body });
    if (k % 3 !== 1 && !(await status(slot.expert.token, { status: "confirmed" }))) return;
    if (k % 3 !== 0) await status(creator.token, { status: "cancelled", reason: "Load test" });
    bookings++;
  };

  const loops = [
    ...Array.from({ length: options.bookers }, async () => {
      while (!stopped) await life(next++);
    }),
    ...Array.from({ length: options.listers }, async () => {
      while (!stopped) await timed("GET /experts", "GET", "/api/v1/experts");
    }),
  ];
  // A copy: a report taken mid-run stays as it was while the load goes on (see `since`).
  const report = (): LoadReport => ({
    routes: Object.fromEntries(Object.entries(routes).map(([route, r]) => [route, { ...r, latenciesMs: [...r.latenciesMs] }])),
    bookings,
    seconds: (performance.now() - started) / 1000,
  });
  return {
    report,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return report();
    },
  };
}

/** The requests made since `before` (a report taken earlier), per route. */
export function since(now: LoadReport, before: LoadReport): Record<string, { requests: number; failed: number; latenciesMs: number[] }> {
  return Object.fromEntries(
    Object.entries(now.routes).map(([route, r]) => {
      const b = before.routes[route]!;
      return [
        route,
        { requests: r.requests - b.requests, failed: r.failed - b.failed, latenciesMs: r.latenciesMs.slice(b.latenciesMs.length) },
      ];
    }),
  );
}

/** The n-th whole hour from `from` (rounded up) at which a 60-minute session fits a 00:00-23:30 UTC day: every hour but 23:00. */
export function bookableHour(from: number, n: number): string {
  for (let hour = Math.ceil(from / 3_600_000), left = n; ; hour++) {
    if (hour % 24 === 23) continue;
    if (left-- === 0) return new Date(hour * 3_600_000).toISOString();
  }
}
