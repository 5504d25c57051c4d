import { describe, it } from "vitest";
import {
  ADMIN,
  adjusted,
  connected,
  CREATOR,
  enabled,
  EXPERT,
  failed,
  held,
  OTHER_EXPERT,
  paid,
  payoutFailure,
  payoutPaid,
  payoutRequested,
  payoutSent,
  readyToPay,
  released,
  requestPayout,
  resumed,
  returned,
  reversed,
  sent,
  spec,
  SYSTEM,
  transferred,
} from "./payouts-fixtures.ts";

describe("payouts decider: payouts", () => {
  describe("asking for a payout", () => {
    it("without an amount: everything on the expert's account in that currency", () => {
      spec(readyToPay).when(requestPayout()).then([payoutRequested()]);
    });
    it("with an amount: that much", () => {
      spec(readyToPay)
        .when(requestPayout({ amountCents: 5000 }))
        .then([payoutRequested(5000)]);
    });
    it("the same payout key again records nothing", () => {
      spec([...readyToPay, payoutRequested()])
        .when(requestPayout())
        .then([]);
    });
    it("what is paid out, in transit or asked for is not available again; a failed payout's money is", () => {
      spec([...readyToPay, payoutRequested(5000)])
        .when(requestPayout({ payoutKey: "payout-2" }))
        .then([payoutRequested(7750, "payout-2")]);
      spec([...readyToPay, payoutRequested(), sent(), paid()])
        .when(requestPayout({ payoutKey: "payout-2" }))
        .thenRefused("payout_nothing_available");
      spec([...readyToPay, payoutRequested(), failed()])
        .when(requestPayout({ payoutKey: "payout-2" }))
        .then([payoutRequested(12_750, "payout-2")]);
    });
    it("only money transferred to the account is paid out: released but not transferred is not available", () => {
      spec([connected, enabled, released()]).when(requestPayout()).thenRefused("payout_nothing_available");
    });
    it("reversals take money back from what is available", () => {
      spec([...readyToPay, adjusted, reversed()])
        .when(requestPayout())
        .then([payoutRequested(8500)]);
    });
    it("never across currencies: euros are not available for a payout in dollars", () => {
      const euros = [connected, enabled, released("b2", "EUR"), transferred("b2", "EUR")];
      spec(euros).when(requestPayout()).thenRefused("payout_nothing_available");
      spec(euros)
        .when(requestPayout({ currency: "EUR" }))
        .then([
          { type: "PayoutRequested", data: { expertId: "ux1", payoutKey: "payout-1", amountCents: 12_750, currency: "EUR", by: "expert" } },
        ]);
    });
  });

  describe("refusals, in order", () => {
    it("no account: connect one first", () => {
      spec([released(), transferred(), held]).when(requestPayout()).thenRefused("payout_account_required");
    });
    it("an account not yet enabled", () => {
      spec([connected, released(), transferred(), held]).when(requestPayout()).thenRefused("payout_account_incomplete");
    });
    it("payouts on hold (until resumed)", () => {
      spec([...readyToPay, held])
        .when(requestPayout())
        .thenRefused("payouts_held");
      spec([...readyToPay, held, resumed])
        .when(requestPayout())
        .then([payoutRequested()]);
    });
    it("nothing available", () => {
      spec([connected, enabled])
        .when(requestPayout({ amountCents: 100_000 }))
        .thenRefused("payout_nothing_available");
    });
    it("an expert asks for at least the minimum ($20), and the message says how much", () => {
      spec(readyToPay)
        .when(requestPayout({ amountCents: 1999 }))
        .thenRefused("payout_below_minimum", "A payout must be at least 20.00 USD.");
      spec(readyToPay)
        .when(requestPayout({ amountCents: 2000 }))
        .then([payoutRequested(2000)]);
    });
    it("everything available, when below the minimum, is refused to the expert", () => {
      const small = [connected, enabled, released(), transferred("b1", "USD", 1500)];
      spec(small).when(requestPayout()).thenRefused("payout_below_minimum");
    });
    it("the weekly schedule and an admin pay any amount", () => {
      const small = [connected, enabled, released(), transferred("b1", "USD", 1500)];
      spec(small)
        .when(requestPayout({ actor: SYSTEM, by: "schedule" }))
        .then([payoutRequested(1500, "payout-1", "schedule")]);
      spec(small)
        .when(requestPayout({ actor: ADMIN, by: "admin", amountCents: 100 }))
        .then([payoutRequested(100, "payout-1", "admin")]);
    });
    it("more than available", () => {
      spec(readyToPay)
        .when(requestPayout({ amountCents: 12_751 }))
        .thenRefused("payout_exceeds_available");
    });
    it("only the expert themself (as expert), the schedule or an admin asks", () => {
      spec(readyToPay)
        .when(requestPayout({ actor: OTHER_EXPERT }))
        .thenRefused("forbidden");
      spec(readyToPay)
        .when(requestPayout({ actor: CREATOR }))
        .thenRefused("forbidden");
      spec(readyToPay)
        .when(requestPayout({ by: "schedule" }))
        .thenRefused("forbidden");
    });
  });

  describe("what the provider says about a payout", () => {
    const asked = [...readyToPay, payoutRequested()];
    it("sent, then paid", () => {
      spec(asked).when(payoutSent()).then([sent()]);
      spec([...asked, sent()])
        .when(payoutPaid())
        .then([paid()]);
    });
    it("paid without a sent before it", () => {
      spec(asked).when(payoutPaid()).then([paid()]);
    });
    it("failed: the money is available again", () => {
      spec([...asked, sent()])
        .when(payoutFailure())
        .then([failed()]);
    });
    it("each once: the same news again records nothing, and a settled payout stays settled", () => {
      spec([...asked, sent()])
        .when(payoutSent())
        .then([]);
      spec([...asked, paid()])
        .when(payoutPaid())
        .then([]);
      spec([...asked, paid()])
        .when(payoutSent())
        .then([]);
      spec([...asked, paid(), returned()])
        .when(payoutFailure())
        .then([]);
      spec([...asked, paid(), returned()])
        .when(payoutPaid())
        .then([]);
      spec([...asked, failed()])
        .when(payoutFailure())
        .then([]);
      spec([...asked, failed()])
        .when(payoutPaid())
        .then([]);
    });
    it("a paid payout can still fail (the bank returned it, Stripe's payout.failed after payout.paid): its money is payable again", () => {
      spec([...asked, paid()])
        .when(payoutFailure())
        .then([returned()]);
      spec([...asked, sent(), paid(), returned()])
        .when(requestPayout({ payoutKey: "payout-2" }))
        .then([payoutRequested(12_750, "payout-2")]);
    });
    it("a refund's share not yet reversed is not payable: a payout takes only the shrunk share", () => {
      spec([...readyToPay, adjusted])
        .when(requestPayout())
        .then([payoutRequested(8500)]);
      spec([...readyToPay, adjusted])
        .when(requestPayout({ amountCents: 8501 }))
        .thenRefused("payout_exceeds_available");
    });
    it("an unknown payout key is not found", () => {
      spec(readyToPay).when(payoutSent()).thenRefused("payout_not_found");
      spec(readyToPay).when(payoutPaid()).thenRefused("payout_not_found");
      spec(readyToPay).when(payoutFailure()).thenRefused("payout_not_found");
    });
    it("only the system or an admin records it", () => {
      spec(asked).when(payoutSent("payout-1", EXPERT)).thenRefused("forbidden");
      spec(asked).when(payoutPaid("payout-1", EXPERT)).thenRefused("forbidden");
      spec(asked).when(payoutFailure("payout-1", EXPERT)).thenRefused("forbidden");
      spec(asked).when(payoutPaid("payout-1", ADMIN)).then([paid()]);
    });
  });
});
