import type pg from "pg";
import { Gauge, Registry } from "prom-client";
import { formatPosition, parsePosition, type LogPosition } from "@booking/contracts";
import { PostgresEventStore, storedLogOf, type EventStore } from "@booking/event-store";
import { holdExpiredSql, readCheckpoints } from "@booking/projections";

// What the tables say, read when Prometheus scrapes (one cheap statement per gauge, most on a
// partial index), so every process that can reach the database reports the same figures without
// being told of each change. A statement that fails (a table this database does not have, the
// database down) leaves its gauge empty for that scrape: the rest of the scrape still answers.

/** Events counted behind a checkpoint on a store that cannot count them in SQL: beyond this, it reads "at least". */
const LAG_COUNT_LIMIT = 10_000;

export type TableGaugeSources = {
  db: pg.Pool;
  /** The event log the checkpoints are positions in (absent: lag is not reported). */
  log?: EventStore | null;
};

type Lag = { events: number; seconds: number };

/** How far behind `position` is: events after it, and how long ago the first of them was recorded. */
async function lagBehind(log: EventStore, position: LogPosition | null): Promise<Lag> {
  const [next] = await log.readAll(position, 1);
  if (!next) return { events: 0, seconds: 0 };
  const seconds = Math.max(0, (Date.now() - Date.parse(next.recordedAt)) / 1000);
  const stored = storedLogOf(log);
  if (stored instanceof PostgresEventStore) {
    const { rows } = await stored.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM events WHERE (transaction_id, global_position) > ($1::text::xid8, $2::bigint)",
      [String(position?.commit ?? 0n), String(position?.prepare ?? 0n)],
    );
    return { events: Number(rows[0]!.n), seconds };
  }
  return { events: (await log.readAll(position, LAG_COUNT_LIMIT)).length, seconds };
}

/** Lag per distinct position: read models usually share one, and each is counted once per scrape. */
function lagCounter(log: EventStore): (position: LogPosition | null) => Promise<Lag> {
  const seen = new Map<string, Promise<Lag>>();
  return (position) => {
    const key = position ? formatPosition(position) : "";
    if (!seen.has(key)) seen.set(key, lagBehind(log, position));
    return seen.get(key)!;
  };
}

type Collect<L extends string> = (gauge: Gauge<L>) => Promise<void>;

/** A gauge set afresh at every scrape; one whose statement fails is left without samples. */
function scraped<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: readonly L[],
  collect: Collect<L>,
): Gauge<L> {
  const gauge: Gauge<L> = new Gauge<L>({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      gauge.reset();
      await collect(gauge).catch(() => gauge.reset());
    },
  });
  return gauge;
}

type Counts = { state: string; n: string };

export function tableGauges({ db, log }: TableGaugeSources): Registry {
  const registry = new Registry();

  scraped(
    registry,
    "booking_mail_outbox",
    "Mail not delivered: due now, scheduled for later (reminders), or failed for good",
    ["state"],
    async (g) => {
      const { rows } = await db.query<Counts>(
        `SELECT CASE WHEN status = 'failed' THEN 'failed' WHEN send_after <= now() THEN 'due' ELSE 'scheduled' END AS state, count(*) AS n
         FROM mail_outbox WHERE status IN ('pending', 'failed') GROUP BY 1`,
      );
      for (const state of ["due", "scheduled", "failed"]) g.set({ state }, Number(rows.find((r) => r.state === state)?.n ?? 0));
    },
  );
  scraped(
    registry,
    "booking_mail_outbox_oldest_due_seconds",
    "How long the oldest mail due and not yet delivered has been due (0: none)",
    [],
    async (g) => {
      const { rows } = await db.query<{ age: number | null }>(
        "SELECT extract(epoch FROM now() - min(send_after))::float8 AS age FROM mail_outbox WHERE status = 'pending' AND send_after <= now()",
      );
      g.set(Math.max(0, rows[0]?.age ?? 0));
    },
  );
  scraped(
    registry,
    "booking_refunds",
    "Refunds owed and not yet issued: pending (first try or retrying) or failed (last try failed)",
    ["state"],
    async (g) => {
      const { rows } = await db.query<Counts>("SELECT status AS state, count(*) AS n FROM refunds WHERE status <> 'issued' GROUP BY 1");
      for (const state of ["pending", "failed"]) g.set({ state }, Number(rows.find((r) => r.state === state)?.n ?? 0));
    },
  );
  scraped(
    registry,
    "booking_payouts",
    "Money to experts not yet through: transfers of released shares, reversals of them, and payouts; pending or failed",
    ["kind", "state"],
    async (g) => {
      const { rows } = await db.query<Counts & { kind: string }>(
        `SELECT 'transfer' AS kind, transfer_status AS state, count(*) AS n FROM payout_bookings WHERE transfer_status IN ('pending', 'failed') GROUP BY 2
         UNION ALL SELECT 'reversal', status, count(*) FROM payout_reversals WHERE status IN ('pending', 'failed') GROUP BY 2
         UNION ALL SELECT 'payout', CASE WHEN status = 'failed' THEN 'failed' ELSE 'pending' END, count(*)
           FROM payout_payouts WHERE status IN ('requested', 'in_transit', 'failed') GROUP BY 2`,
      );
      for (const kind of ["transfer", "reversal", "payout"])
        for (const state of ["pending", "failed"])
          g.set(
            { kind, state },
            rows.filter((r) => r.kind === kind && r.state === state).reduce((n, r) => n + Number(r.n), 0),
          );
    },
  );
  scraped(
    registry,
    "booking_holds",
    "Unpaid holds on a time: active, or expired and not yet swept (the bookings read model)",
    ["state"],
    async (g) => {
      const { rows } = await db.query<{ active: string; expired: string }>(
        `SELECT count(*) FILTER (WHERE NOT ${holdExpiredSql("now()")}) AS active, count(*) FILTER (WHERE ${holdExpiredSql("now()")}) AS expired
         FROM bookings b WHERE b.status = 'pending' AND b.paid_cents < b.price_cents`,
      );
      g.set({ state: "active" }, Number(rows[0]?.active ?? 0));
      g.set({ state: "expired" }, Number(rows[0]?.expired ?? 0));
    },
  );

  if (log) {
    // Progress is one checkpoint per read model until per-partition progress lands (issue 35.1): partition "all" stands for it.
    const projectorLag = (field: keyof Lag) => async (g: Gauge<"read_model" | "partition">) => {
      const lagOf = lagCounter(log);
      const checkpoints = (await readCheckpoints(db)).filter((c) => c.status === "live");
      for (const c of checkpoints) g.set({ read_model: c.name, partition: "all" }, (await lagOf(c.position))[field]);
    };
    const relayLag = (field: keyof Lag) => async (g: Gauge<"relay">) => {
      const lagOf = lagCounter(log);
      const { rows } = await db.query<{ name: string; position: string }>("SELECT name, position FROM relay_checkpoints");
      for (const r of rows) g.set({ relay: r.name }, (await lagOf(parsePosition(r.position)))[field]);
    };
    scraped(
      registry,
      "booking_projector_lag_events",
      "Events in the log a read model has yet to apply",
      ["read_model", "partition"],
      projectorLag("events"),
    );
    scraped(
      registry,
      "booking_projector_lag_seconds",
      "How long ago the oldest event a read model has yet to apply was recorded (0: caught up)",
      ["read_model", "partition"],
      projectorLag("seconds"),
    );
    scraped(
      registry,
      "booking_relay_lag_events",
      "Events in the log the relay has yet to publish to the bus",
      ["relay"],
      relayLag("events"),
    );
    scraped(
      registry,
      "booking_relay_lag_seconds",
      "How long ago the oldest event the relay has yet to publish was recorded (0: caught up)",
      ["relay"],
      relayLag("seconds"),
    );
  }
  return registry;
}
