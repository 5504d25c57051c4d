// GET /admin/reconciliation (issue 29.6): the latest reconciliation run's differences between the
// ledger and what the payment provider reports, one record each (id = `{run_id}/{n}`).
// The API declares this reply in api/src/reconciliation/routes.ts (ReconciliationDifferenceReply).

export type DifferenceKind = "missing" | "extra" | "amount";
export type Movement = "payment" | "refund" | "transfer" | "reversal" | "payout";

export type Difference = {
  id: string;
  run_id: string;
  run_at: string;
  n: number;
  kind: DifferenceKind;
  movement: Movement;
  /** The booking (payments, refunds, transfers, reversals) or the expert (payouts). */
  ref: string;
  currency: string | null;
  ledger_cents: number | null;
  provider_cents: number | null;
  what: string;
};

/** POST /admin/reconciliation/run's answer: the run and its differences. */
export type ReconciliationRun = {
  run_id: string;
  at: string;
  provider: string;
  by: "schedule" | "admin";
  complete: boolean;
  note: string | null;
  ledger_count: number;
  provider_count: number;
  difference_count: number;
  differences: Difference[];
};

/** missing: the provider has it, the ledger does not; extra: the ledger has it, the provider does not; amount: both, different amounts. */
export const differenceKindLabels: Record<DifferenceKind, string> = {
  missing: "Missing from the ledger",
  extra: "Not at the provider",
  amount: "Amounts differ",
};

export const differenceKindChoices = Object.entries(differenceKindLabels).map(([id, name]) => ({ id, name }));

export const movementLabels: Record<Movement, string> = {
  payment: "Payment",
  refund: "Refund",
  transfer: "Transfer",
  reversal: "Transfer reversal",
  payout: "Payout",
};

export const movementChoices = Object.entries(movementLabels).map(([id, name]) => ({ id, name }));
