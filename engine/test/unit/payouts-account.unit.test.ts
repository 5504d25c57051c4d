import { describe, it } from "vitest";
import type { PayoutEvent } from "@booking/contracts";
import {
  accountStatus,
  ADMIN,
  connect,
  connected,
  CREATOR,
  enabled,
  EXPERT,
  held,
  hold,
  OTHER_EXPERT,
  resume,
  resumed,
  spec,
  SYSTEM,
} from "./payouts-fixtures.ts";

describe("payouts decider: the payout account", () => {
  describe("connecting", () => {
    it("the expert connects their own account; it starts incomplete", () => {
      spec([]).when(connect()).then([connected]);
    });
    it("an admin may connect it for them", () => {
      spec([])
        .when(connect({ actor: ADMIN }))
        .then([connected]);
    });
    it("another expert, a creator or the system may not", () => {
      spec([])
        .when(connect({ actor: OTHER_EXPERT }))
        .thenRefused("forbidden");
      spec([])
        .when(connect({ actor: CREATOR }))
        .thenRefused("forbidden");
      spec([])
        .when(connect({ actor: SYSTEM }))
        .thenRefused("forbidden");
    });
    it("connecting the same incomplete account again records nothing (the onboarding link is asked again)", () => {
      spec([connected]).when(connect()).then([]);
    });
    it("an incomplete account may be replaced by another one", () => {
      spec([connected])
        .when(connect({ accountId: "acct_2" }))
        .then([{ type: "PayoutAccountConnected", data: { expertId: "ux1", accountId: "acct_2", provider: "test" } }]);
    });
    it("an enabled account is not replaced, not even by itself", () => {
      spec([connected, enabled])
        .when(connect({ accountId: "acct_2" }))
        .thenRefused("payout_account_exists");
      spec([connected, enabled]).when(connect()).thenRefused("payout_account_exists");
    });
  });

  describe("the provider's news about the account", () => {
    it("recorded when something changed", () => {
      spec([connected]).when(accountStatus()).then([enabled]);
      spec([connected, enabled])
        .when(accountStatus({ payoutsEnabled: false }))
        .then([
          { type: "PayoutAccountUpdated", data: { expertId: "ux1", accountId: "acct_1", payoutsEnabled: false, detailsSubmitted: true } },
        ]);
    });
    it("the same news again records nothing", () => {
      spec([connected, enabled]).when(accountStatus()).then([]);
      spec([connected])
        .when(accountStatus({ payoutsEnabled: false, detailsSubmitted: false }))
        .then([]);
    });
    it("news about an account that is not the expert's (or before any) records nothing", () => {
      spec([connected])
        .when(accountStatus({ accountId: "acct_old" }))
        .then([]);
      spec([]).when(accountStatus()).then([]);
    });
    it("reports arrive out of order: one older than the last recorded changes nothing", () => {
      const at = (reportedAt: string, payoutsEnabled: boolean): PayoutEvent => ({
        type: "PayoutAccountUpdated",
        data: { expertId: "ux1", accountId: "acct_1", payoutsEnabled, detailsSubmitted: true, reportedAt },
      });
      const T1 = "2030-03-01T10:00:00.000Z";
      const T2 = "2030-03-01T10:00:05.000Z";
      const T3 = "2030-03-01T10:00:09.000Z";
      spec([connected])
        .when(accountStatus({ reportedAt: T2 }))
        .then([at(T2, true)]);
      spec([connected, at(T2, true)])
        .when(accountStatus({ payoutsEnabled: false, reportedAt: T1 }))
        .then([]);
      // A newer report saying the same is recorded, so that one between the two cannot undo it.
      spec([connected, at(T1, true)])
        .when(accountStatus({ reportedAt: T3 }))
        .then([at(T3, true)]);
      spec([connected, at(T1, true), at(T3, true)])
        .when(accountStatus({ payoutsEnabled: false, reportedAt: T2 }))
        .then([]);
      spec([connected, at(T2, true)])
        .when(accountStatus({ payoutsEnabled: false, reportedAt: T3 }))
        .then([at(T3, false)]);
    });
    it("only the system (webhooks, test onboarding) or an admin records it", () => {
      spec([connected])
        .when(accountStatus({ actor: ADMIN }))
        .then([enabled]);
      spec([connected])
        .when(accountStatus({ actor: EXPERT }))
        .thenRefused("forbidden");
    });
  });

  describe("holding payouts", () => {
    it("an admin holds them with a reason, trimmed", () => {
      spec([]).when(hold("  Disputed sessions ")).then([held]);
    });
    it("a reason is required", () => {
      spec([]).when(hold("   ")).thenRefused("payouts_hold_reason_required");
    });
    it("holding again records nothing", () => {
      spec([held]).when(hold("Another reason")).then([]);
    });
    it("only an admin holds or resumes", () => {
      spec([]).when(hold("x", EXPERT)).thenRefused("forbidden");
      spec([]).when(hold("x", SYSTEM)).thenRefused("forbidden");
      spec([held]).when(resume(EXPERT)).thenRefused("forbidden");
    });
    it("an admin resumes held payouts; resuming payouts that are not held records nothing", () => {
      spec([held]).when(resume()).then([resumed]);
      spec([held, resumed]).when(resume()).then([]);
      spec([]).when(resume()).then([]);
    });
    it("held again after a resume", () => {
      spec([held, resumed]).when(hold()).then([held]);
    });
  });
});
