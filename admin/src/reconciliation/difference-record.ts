import type {
  ReconciledMovement,
  ReconciliationDifferenceKind,
  ReconciliationDifferenceReply,
  ReconciliationRunReply,
} from "@booking/contracts";

// GET /admin/reconciliation (issue 29.6): the latest reconciliation run's differences between the
// ledger and what the payment provider reports, one record each (id = `{run_id}/{n}`).
// The replies are contracts' (ReconciliationDifferenceReply, ReconciliationRunReply).

export type DifferenceKind = ReconciliationDifferenceKind;
export type Movement = ReconciledMovement;
export type Difference = ReconciliationDifferenceReply;
/** POST /admin/reconciliation/run's answer: the run and its differences. */
export type ReconciliationRun = ReconciliationRunReply;

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
