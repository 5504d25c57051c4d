import { describe, expect, it } from "vitest";
import {
  ADMIN,
  adjust,
  adjusted,
  connected,
  COMPLETED_AT,
  EXPERT,
  recordReversal,
  recordReversalFailure,
  recordTransfer,
  recordTransferFailure,
  release,
  released,
  reversed,
  spec,
  transferred,
} from "./payouts-fixtures.ts";

/** 7 days after COMPLETED_AT, to the millisecond. */
const CLEARED = "2030-03-17T12:00:00.000Z";
const STILL_CLEARING = "2030-03-17T11:59:59.999Z";

describe("payouts decider: earnings", () => {
  describe("release after the clearing period", () => {
    it("a completed booking's share is released once its 7 days are over, with the fee at the rate it was paid under", () => {
      spec([]).when(release(), CLEARED).then([released()]);
    });
    it("not a millisecond before", () => {
      spec([]).when(release(), STILL_CLEARING).thenRefused("earning_clearing");
      spec([]).when(release(), COMPLETED_AT).thenRefused("earning_clearing");
    });
    it("released once per booking: asking again records nothing", () => {
      spec([released()]).when(release()).then([]);
      spec([released()])
        .when(release({ refundedCents: 5000 }))
        .then([]);
    });
    it("another booking is released on its own", () => {
      spec([released("b1")])
        .when(release({ bookingId: "b2" }))
        .then([released("b2")]);
    });
    it("what was refunded before the release is not the expert's: split of what was kept", () => {
      spec([])
        .when(release({ refundedCents: 5000 }))
        .then([
          {
            type: "EarningReleased",
            data: {
              expertId: "ux1",
              bookingId: "b1",
              currency: "USD",
              paidCents: 15_000,
              refundedCents: 5000,
              keptCents: 10_000,
              feeBasisPoints: 1500,
              feeCents: 1500,
              shareCents: 8500,
            },
          },
        ]);
    });
    it("a booking paid before fees were recorded (rate 0) gives the expert all of it", () => {
      const r = spec([]).when(release({ feeBasisPoints: 0 })).result;
      expect(r.ok && r.value[0]?.type === "EarningReleased" && r.value[0].data).toMatchObject({ feeCents: 0, shareCents: 15_000 });
    });
    it("a booking with nothing kept (fully refunded) releases nothing", () => {
      spec([])
        .when(release({ refundedCents: 15_000 }))
        .then([]);
    });
    it("only the system or an admin releases", () => {
      spec([]).when(release({}, ADMIN)).then([released()]);
      spec([]).when(release({}, EXPERT)).thenRefused("forbidden");
    });
  });

  describe("a refund after the release", () => {
    it("gives back the fee and the share on the refunded part", () => {
      spec([released()]).when(adjust(5000)).then([adjusted]);
    });
    it("a full refund gives back all of both", () => {
      spec([released()])
        .when(adjust(15_000))
        .then([
          {
            type: "EarningAdjusted",
            data: { expertId: "ux1", bookingId: "b1", currency: "USD", refundedCents: 15_000, feeCents: 2250, shareCents: 12_750 },
          },
        ]);
    });
    it("counts from the last adjustment: a second refund gives back only its own part", () => {
      spec([released(), adjusted])
        .when(adjust(15_000))
        .then([
          {
            type: "EarningAdjusted",
            data: { expertId: "ux1", bookingId: "b1", currency: "USD", refundedCents: 15_000, feeCents: 1500, shareCents: 8500 },
          },
        ]);
    });
    it("the same total again (or a smaller one) records nothing", () => {
      spec([released(), adjusted]).when(adjust(5000)).then([]);
      spec([released(), adjusted]).when(adjust(4000)).then([]);
      spec([released()]).when(adjust(0)).then([]);
    });
    it("never below zero: refunds beyond the payment give back nothing more", () => {
      const fully = adjust(15_000);
      const after = spec([released()]).when(fully).result;
      const events = after.ok ? after.value : [];
      spec([released(), ...events])
        .when(adjust(20_000))
        .then([]);
    });
    it("before the release records nothing: the release counts the refund", () => {
      spec([]).when(adjust(5000)).then([]);
    });
    it("only the system or an admin adjusts", () => {
      spec([released()])
        .when(adjust(5000, "b1", EXPERT))
        .thenRefused("forbidden");
    });
  });

  describe("transfers and their reversals", () => {
    it("a transfer of a released booking's share is recorded", () => {
      spec([released()]).when(recordTransfer()).then([transferred()]);
    });
    it("once per transfer key: recording it again records nothing", () => {
      spec([released(), transferred()]).when(recordTransfer()).then([]);
    });
    it("in the booking's currency only", () => {
      spec([released()])
        .when(recordTransfer({ currency: "EUR" }))
        .thenRefused("currency_mismatch");
      spec([released(), transferred()])
        .when(recordReversal({ currency: "GBP" }))
        .thenRefused("currency_mismatch");
    });
    it("not for a booking that was not released", () => {
      spec([connected]).when(recordTransfer()).thenRefused("earning_not_completed");
      spec([connected]).when(recordReversal()).thenRefused("earning_not_completed");
    });
    it("a failed transfer is recorded each time it fails (attempts), but not after it went through", () => {
      const failedOnce = {
        type: "TransferFailed" as const,
        data: { expertId: "ux1", transferKey: "transfer-b1", bookingId: "b1", reason: "insufficient_funds" },
      };
      spec([released()]).when(recordTransferFailure()).then([failedOnce]);
      spec([released(), failedOnce]).when(recordTransferFailure()).then([failedOnce]);
      spec([released(), transferred()]).when(recordTransferFailure()).then([]);
    });
    it("a reversal is recorded once per reversal key", () => {
      spec([released(), transferred(), adjusted]).when(recordReversal()).then([reversed()]);
      spec([released(), transferred(), adjusted, reversed()]).when(recordReversal()).then([]);
    });
    it("a failed reversal is recorded each time it fails, but not once the reversal went through", () => {
      const failedOnce = {
        type: "TransferReversalFailed" as const,
        data: { expertId: "ux1", reversalKey: "reversal-b1-5000", bookingId: "b1", reason: "balance_insufficient" },
      };
      const owed = [released(), transferred(), adjusted];
      spec(owed).when(recordReversalFailure()).then([failedOnce]);
      spec([...owed, failedOnce])
        .when(recordReversalFailure())
        .then([failedOnce]);
      spec([...owed, reversed()])
        .when(recordReversalFailure())
        .then([]);
      spec(owed)
        .when(recordReversalFailure({ actor: EXPERT }))
        .thenRefused("forbidden");
    });
    it("only the system or an admin records transfers and reversals", () => {
      spec([released()])
        .when(recordTransfer({ actor: EXPERT }))
        .thenRefused("forbidden");
      spec([released()])
        .when(recordTransferFailure({ actor: EXPERT }))
        .thenRefused("forbidden");
      spec([released(), transferred()])
        .when(recordReversal({ actor: EXPERT }))
        .thenRefused("forbidden");
    });
  });
});
