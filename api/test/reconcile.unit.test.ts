import { describe, expect, it } from "vitest";
import { expertConnected, expertPayable, type LedgerEntryRecord } from "@booking/contracts";
import { ledgerMovementsOf } from "../src/reconciliation/movements.ts";
import { reconcile, type Movement } from "../src/reconciliation/reconcile.ts";

// The pure part of reconciliation (issue 29.6): the ledger's provider-facing movements, and the
// comparison by key and amount.

const X = "expert-x";
const entry = (event_type: string, account: string, debit: number, credit: number): LedgerEntryRecord => ({
  event_id: `${event_type}-${account}`,
  position: "0/1",
  at: "2030-03-20T12:00:00.000Z",
  event_type,
  booking_id: null,
  expert_id: X,
  account,
  currency: "USD",
  debit_cents: debit,
  credit_cents: credit,
});
const payout = (amountCents: number): Movement => ({ kind: "payout", ref: X, currency: "USD", amountCents });

describe("the ledger's payouts", () => {
  it("a payout paid is a movement of its amount; returned by the bank after it, the two add up to nothing", () => {
    const paid = [entry("PayoutPaid", expertPayable(X), 8_500, 0), entry("PayoutPaid", expertConnected(X), 0, 8_500)];
    const returned = [entry("PayoutFailed", expertConnected(X), 8_500, 0), entry("PayoutFailed", expertPayable(X), 0, 8_500)];
    expect(ledgerMovementsOf(paid)).toEqual([payout(8_500)]);
    expect(ledgerMovementsOf([...paid, ...returned])).toEqual([payout(8_500), payout(-8_500)]);
  });
});

describe("reconcile", () => {
  it("a key whose movements add up to nothing is no difference, on either side", () => {
    expect(reconcile([payout(8_500), payout(-8_500)], [])).toEqual([]);
    expect(reconcile([], [payout(100), payout(-100)])).toEqual([]);
  });
  it("a payout the ledger has and the provider does not is extra; one only the provider has is missing", () => {
    expect(reconcile([payout(8_500)], []).map((d) => [d.kind, d.ledgerCents, d.providerCents])).toEqual([["extra", 8_500, null]]);
    expect(reconcile([], [payout(8_500)]).map((d) => [d.kind, d.ledgerCents, d.providerCents])).toEqual([["missing", null, 8_500]]);
  });
});
