import { describe, expect, it } from "vitest";
import type { PayoutEvent } from "@booking/contracts";
import { payoutBalances, reversalsDue, transfersDue } from "../../src/payouts/balance.ts";
import { evolvePayouts, initialPayoutState } from "../../src/payouts/payouts.ts";
import {
  adjusted,
  connected,
  enabled,
  failed,
  paid,
  payoutRequested,
  readyToPay,
  released,
  returned,
  reversed,
  sent,
  transferred,
} from "./payouts-fixtures.ts";

const stateOf = (events: PayoutEvent[]) => evolvePayouts(initialPayoutState(), events);
const balances = (events: PayoutEvent[]) => payoutBalances(stateOf(events));
const usd = (o: Partial<ReturnType<typeof payoutBalances>[number]> = {}) => ({
  currency: "USD",
  owedCents: 0,
  transferredCents: 0,
  inTransitCents: 0,
  paidOutCents: 0,
  availableCents: 0,
  payableCents: 0,
  transferableCents: 0,
  ...o,
});

describe("payout balances", () => {
  it("nothing released: no balance", () => {
    expect(balances([connected, enabled])).toEqual([]);
  });
  it("released, not transferred: owed and available, not yet payable, still to transfer", () => {
    expect(balances([released()])).toEqual([usd({ owedCents: 12_750, availableCents: 12_750, transferableCents: 12_750 })]);
  });
  it("transferred: payable", () => {
    expect(balances(readyToPay)).toEqual([
      usd({ owedCents: 12_750, transferredCents: 12_750, availableCents: 12_750, payableCents: 12_750 }),
    ]);
  });
  it("a refund after the release: owed less the share given back; a reversal is due until recorded, and not payable meanwhile", () => {
    expect(balances([...readyToPay, adjusted])).toEqual([
      usd({ owedCents: 8500, transferredCents: 12_750, availableCents: 8500, payableCents: 8500, transferableCents: -4250 }),
    ]);
    expect(balances([...readyToPay, adjusted, reversed()])).toEqual([
      usd({ owedCents: 8500, transferredCents: 8500, availableCents: 8500, payableCents: 8500 }),
    ]);
  });
  it("a payout asked or sent is in transit; paid, paid out; failed, available again", () => {
    const inTransit = usd({ owedCents: 12_750, transferredCents: 12_750, inTransitCents: 5000, availableCents: 7750, payableCents: 7750 });
    expect(balances([...readyToPay, payoutRequested(5000)])).toEqual([inTransit]);
    expect(balances([...readyToPay, payoutRequested(5000), sent()])).toEqual([inTransit]);
    expect(balances([...readyToPay, payoutRequested(5000), sent(), paid()])).toEqual([
      usd({ owedCents: 12_750, transferredCents: 12_750, paidOutCents: 5000, availableCents: 7750, payableCents: 7750 }),
    ]);
    expect(balances([...readyToPay, payoutRequested(5000), failed()])).toEqual(balances(readyToPay));
    expect(balances([...readyToPay, payoutRequested(5000), sent(), paid(), returned()])).toEqual(balances(readyToPay));
  });
  it("one balance per currency, never added together", () => {
    expect(balances([...readyToPay, released("b2", "EUR")])).toEqual([
      usd({ owedCents: 12_750, transferredCents: 12_750, availableCents: 12_750, payableCents: 12_750 }),
      { ...usd({ owedCents: 12_750, availableCents: 12_750, transferableCents: 12_750 }), currency: "EUR" },
    ]);
  });
  it("evolving never changes the state it is given", () => {
    const before = stateOf([released()]);
    evolvePayouts(before, [transferred(), payoutRequested()]);
    expect(payoutBalances(before)).toEqual(balances([released()]));
  });
});

describe("transfers and reversals due", () => {
  it("a released share not yet transferred is due once, under its booking's key", () => {
    expect(transfersDue(stateOf([released()]))).toEqual([
      { bookingId: "b1", transferKey: "transfer-b1", amountCents: 12_750, currency: "USD" },
    ]);
    expect(transfersDue(stateOf(readyToPay))).toEqual([]);
  });
  it("a booking whose share was all refunded before its transfer needs none", () => {
    const all = { ...adjusted, data: { ...adjusted.data, refundedCents: 15_000, feeCents: 2250, shareCents: 12_750 } } as PayoutEvent;
    expect(transfersDue(stateOf([released(), all]))).toEqual([]);
  });
  it("a share that shrank after its transfer is reversed by the difference, keyed by the refunded total", () => {
    expect(reversalsDue(stateOf([...readyToPay, adjusted]))).toEqual([
      { bookingId: "b1", reversalKey: "reversal-b1-5000", amountCents: 4250, currency: "USD" },
    ]);
    expect(reversalsDue(stateOf([...readyToPay, adjusted, reversed()]))).toEqual([]);
    expect(reversalsDue(stateOf([released(), adjusted]))).toEqual([]);
  });
});
