import { z } from "zod";
import { Currency } from "./money.ts";

// Replies about money that the web app and the console read (issue 29.6, 29.7): a creator's
// receipts for a booking, and the console's reconciliation of the ledger with the provider.

/** A receipt of a booking's payment or refund (GET /bookings/{id}/receipts); its PDF at `url`. */
export const ReceiptReply = z.strictObject({
  kind: z.enum(["payment", "refund"]),
  /** The id of the event the receipt is of: stable, and the PDF's name. */
  key: z.string(),
  amount_cents: z.number().int(),
  currency: Currency,
  at: z.string(),
  url: z.string(),
});
export type ReceiptReply = z.infer<typeof ReceiptReply>;
export const ReceiptsReply = z.strictObject({ receipts: z.array(ReceiptReply) });
export type ReceiptsReply = z.infer<typeof ReceiptsReply>;

/** missing: the provider has it, the ledger does not; extra: the ledger has it, the provider does not; amount: both, different amounts. */
export const ReconciliationDifferenceKind = z.enum(["missing", "extra", "amount"]);
export type ReconciliationDifferenceKind = z.infer<typeof ReconciliationDifferenceKind>;
export const ReconciledMovement = z.enum(["payment", "refund", "transfer", "reversal", "payout"]);
export type ReconciledMovement = z.infer<typeof ReconciledMovement>;

/** GET /admin/reconciliation: one difference of the latest run (id = `{run_id}/{n}`). */
export const ReconciliationDifferenceReply = z.strictObject({
  /** `{run_id}/{n}` */
  id: z.string(),
  run_id: z.string(),
  run_at: z.string(),
  n: z.number().int(),
  kind: ReconciliationDifferenceKind,
  movement: ReconciledMovement,
  /** The booking (payments, refunds, transfers, reversals) or the expert (payouts). */
  ref: z.string(),
  currency: z.string().nullable(),
  ledger_cents: z.number().int().nullable(),
  provider_cents: z.number().int().nullable(),
  what: z.string(),
});
export type ReconciliationDifferenceReply = z.infer<typeof ReconciliationDifferenceReply>;

/** POST /admin/reconciliation/run: the run and its differences. */
export const ReconciliationRunReply = z.strictObject({
  run_id: z.string(),
  at: z.string(),
  provider: z.string(),
  by: z.enum(["schedule", "admin"]),
  complete: z.boolean(),
  note: z.string().nullable(),
  ledger_count: z.number().int(),
  provider_count: z.number().int(),
  difference_count: z.number().int(),
  differences: z.array(ReconciliationDifferenceReply),
});
export type ReconciliationRunReply = z.infer<typeof ReconciliationRunReply>;

/** GET /experts/me/statements: the months the expert has a statement for (`YYYY-MM`), newest first. */
export const StatementMonthsReply = z.strictObject({ months: z.array(z.string().regex(/^\d{4}-\d{2}$/)) });
export type StatementMonthsReply = z.infer<typeof StatementMonthsReply>;
