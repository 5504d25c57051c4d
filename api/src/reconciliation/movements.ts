import type pg from "pg";
import { expertConnected, PLATFORM_CASH, type LedgerEntryRecord } from "@booking/contracts";
import { ledgerEntries } from "@booking/projections";
import type { Movement, MovementKind } from "./reconcile.ts";

// The two sides reconciliation compares, read as movements. The ledger's: the entries the ledger
// read model (its books, ledger_books) posted to platform_cash for payments, refunds, transfers and
// reversals, and to expert_connected:{expert} for payouts paid (less those returned after). The
// provider's, for the test provider: its own tables (Stripe's: ./stripe-report.ts).

export type Queryable = Pick<pg.Pool | pg.ClientBase, "query">;
type Row = { kind: MovementKind; ref: string; currency: string | null; amount_cents: string };

const toMovements = (rows: Row[]): Movement[] =>
  rows.map((r) => ({ kind: r.kind, ref: r.ref, currency: r.currency, amountCents: Number(r.amount_cents) }));

/** Whether a table exists (the payouts area's test tables come with it; a database without them has nothing there). */
export async function tableExists(db: Queryable, table: string): Promise<boolean> {
  return (await db.query<{ found: string | null }>("SELECT to_regclass($1)::text AS found", [table])).rows[0]!.found !== null;
}

const CASH_MOVEMENTS: Record<string, MovementKind> = {
  PaymentSucceeded: "payment",
  RefundIssued: "refund",
  TransferSent: "transfer",
  TransferReversed: "reversal",
};

/** The ledger's provider-facing movements (pure): its platform_cash entries of payments, refunds, transfers and reversals; its payouts paid, less returned. */
export function ledgerMovementsOf(entries: readonly LedgerEntryRecord[]): Movement[] {
  const movements: Movement[] = [];
  for (const e of entries) {
    const cash = CASH_MOVEMENTS[e.event_type];
    if (cash && e.account === PLATFORM_CASH && e.booking_id !== null)
      movements.push({ kind: cash, ref: e.booking_id, currency: e.currency, amountCents: e.debit_cents + e.credit_cents });
    else if ((e.event_type === "PayoutPaid" || e.event_type === "PayoutFailed") && e.account === expertConnected(e.expert_id))
      movements.push({ kind: "payout", ref: e.expert_id, currency: e.currency, amountCents: e.credit_cents - e.debit_cents });
  }
  return movements;
}

/** The ledger's provider-facing movements, from the ledger read model. */
export async function ledgerMovements(db: Queryable): Promise<Movement[]> {
  return ledgerMovementsOf(await ledgerEntries(db));
}

/** What the test provider reports: succeeded payments, refunds, transfers, their reversals, payouts paid. */
export async function testProviderMovements(db: Queryable): Promise<Movement[]> {
  const { rows } = await db.query<Row>(
    `SELECT 'payment' AS kind, booking_id AS ref, NULL AS currency, amount_cents FROM payments WHERE provider = 'test' AND status = 'succeeded'
     UNION ALL
     SELECT 'refund', booking_id, NULL, amount_cents FROM test_refunds`,
  );
  const movements = toMovements(rows);
  if (await tableExists(db, "test_transfers")) {
    const payouts = await db.query<Row>(
      `SELECT 'transfer' AS kind, booking_id AS ref, currency, amount_cents FROM test_transfers
       UNION ALL
       SELECT 'reversal', t.booking_id, r.currency, r.amount_cents FROM test_transfer_reversals r JOIN test_transfers t ON t.transfer_id = r.transfer_id
       UNION ALL
       SELECT 'payout', expert_id, currency, amount_cents FROM test_payouts WHERE status = 'paid'`,
    );
    movements.push(...toMovements(payouts.rows));
  }
  return movements;
}
